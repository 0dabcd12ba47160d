// src/steady-allocation.ts: the gateway process turns V8's allocation-site pretenuring off at start
// (issue 25; `npm run bench:pretenuring` measures why), unless started with
// --allocation-site-pretenuring. V8 reports its pretenuring decisions with
// --trace-pretenuring-statistics; with pretenuring off it makes none. The module is bundled on its
// own and loaded in a bare `node` (no TypeScript loader whose start-up would allocate first), which
// calls steadyAllocation() and then allocates objects that survive collections (the pattern that
// makes V8 weigh pretenuring).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { ROOT, tempDir } from './helper.ts';

const dir = tempDir('steady-allocation-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const bundle = path.join(dir, 'steady-allocation.mjs');
await build({ entryPoints: [path.join(ROOT, 'src/steady-allocation.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });

const CHURN = `
  const { steadyAllocation } = await import(${JSON.stringify(bundle)});
  steadyAllocation();
  let keep = [];
  const make = (i) => [i, i + 1, { a: i }];
  for (let r = 0; r < 60; r++) {
    for (let i = 0; i < 100000; i++) keep.push(make(i));
    if (keep.length > 600000) keep = keep.slice(300000);
  }
  console.log('kept', keep.length);
`;

function decisions(extra: string[]): number {
  const r = spawnSync(process.execPath, ['--trace-pretenuring-statistics', ...extra, '--input-type=module', '-e', CHURN], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /kept \d+/);
  return r.stdout.split('\n').filter((l) => l.includes('pretenuring:')).length;
}

test('steadyAllocation turns pretenuring off: V8 makes no pretenuring decision', () => {
  assert.equal(decisions([]), 0);
});

test('started with --allocation-site-pretenuring, the process keeps it: the same allocations make V8 decide', () => {
  assert.ok(decisions(['--allocation-site-pretenuring']) > 0);
});
