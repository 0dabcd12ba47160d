// The layout of src/ (STYLE.md): imports run downward, routes → gateway → store and engine, and the
// files within the gateway import in one direction (issue 24, item 6). Type-only imports count:
// they tie the files together as much as value imports do for a reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helper.ts';

const SRC = path.join(ROOT, 'src');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? tsFiles(p) : d.name.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports and re-exports of a file (static, dynamic and type-only), resolved to files. */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out = new Set<string>();
  const re = /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g;
  for (const m of text.matchAll(re)) out.add(path.resolve(path.dirname(file), (m[1] ?? m[2] ?? m[3])!));
  return [...out];
}

const rel = (f: string) => path.relative(SRC, f);
const graph = new Map(tsFiles(SRC).map((f) => [f, importsOf(f)]));

/** The cycles of the graph restricted to `files` (each as a list of files), by depth-first search. */
function cycles(files: Set<string>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (!files.has(g)) continue;
      if (state.get(g) === 'open') found.push([...stack.slice(stack.indexOf(g)), g]);
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

test('the import reader finds value, type-only and re-export imports (so the checks below can fail)', () => {
  const ctx = graph.get(path.join(SRC, 'gateway/context.ts'))!.map(rel);
  assert.ok(ctx.includes('gateway/accounts.ts'), 'a type-only import is read');
  const demo = graph.get(path.join(SRC, 'gateway/demo.ts'))!.map(rel);
  assert.ok(demo.includes('gateway/paths.ts'), 'a value import is read');
  const metrics = graph.get(path.join(SRC, 'gateway/metrics.ts'))!.map(rel);
  assert.ok(metrics.includes('gateway/metric-series.ts'));
  // and the cycle finder finds a cycle where there is one
  const a = path.join(SRC, 'gateway/demo.ts');
  const b = path.join(SRC, 'gateway/paths.ts');
  graph.set(b, [...graph.get(b)!, a]);
  try {
    assert.equal(cycles(new Set([a, b])).length, 1);
  } finally {
    graph.set(b, graph.get(b)!.filter((x) => x !== a));
  }
});

test('the files within src/gateway import in one direction (no import circle)', () => {
  const gateway = new Set([...graph.keys()].filter((f) => rel(f).startsWith('gateway/')));
  assert.ok(gateway.size >= 15);
  assert.deepEqual(cycles(gateway).map((c) => c.map(rel).join(' → ')), []);
});

test('src/ has no import circle at all', () => {
  assert.deepEqual(cycles(new Set(graph.keys())).map((c) => c.map(rel).join(' → ')), []);
});

test('imports run downward: routes → gateway → store and engine, never the reverse', () => {
  const layer = (f: string) => rel(f).split(path.sep)[0]!;
  const bad: string[] = [];
  for (const [f, deps] of graph) {
    for (const d of deps) {
      const [from, to] = [layer(f), layer(d)];
      if ((from === 'engine' || from === 'store') && (to === 'gateway' || to === 'routes')) bad.push(`${rel(f)} → ${rel(d)}`);
      if (from === 'gateway' && to === 'routes') bad.push(`${rel(f)} → ${rel(d)}`);
      if (from === 'engine' && to === 'store') bad.push(`${rel(f)} → ${rel(d)}`);
    }
  }
  assert.deepEqual(bad, []);
});
