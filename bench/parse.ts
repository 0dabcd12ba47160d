// npm run bench:parse — how well and how fast /v1/parse reads product lines (issue 22).
// Data and labels: test/resolve/parse-lines.json (sources and policy in test/resolve/PARSE.md): lines
// from public catalogues and a wine list, labelled by hand. Targets: primary right >= 0.90, confidently
// wrong <= 1%, vintage right >= 0.98, implied grapes never wrong; parse p99 <= 200 µs for a line of about
// 60 characters, the resolver's own p99 <= 50 µs (both measured here, in the same run).
//   right (kind entity):    the primary is one of `primary`, state resolved or ambiguous;
//   right (kind no_entity): the state is not resolved (a brand-only line has no confident answer);
//   confidently wrong:      resolved and not right;
//   implied wrong:          grapes implied for a line whose primary is not right, or a printed grape
//                           labelled as allowed (`grapes_implied_ok`) missing while others are implied.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, table } from './lib/evaluate.ts';
import { runShipped } from './lib/shipped.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
interface Line { line: string; source: string; split?: string; expect: { primary: string[] | null; vintage: number | null; kind: string }; grapes_implied_ok?: string[]; missing?: boolean }
const set = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'resolve', 'parse-lines.json'), 'utf8')) as { lines: Line[]; sources: { id: string }[] };
const engine = loadEngine();
const keyOf = (id: string) => engine.kb.byId.get(id)!.key;

interface Row { n: number; right: number; cw: number; vintage: number; impliedLines: number; impliedWrong: number }
const empty = (): Row => ({ n: 0, right: 0, cw: 0, vintage: 0, impliedLines: 0, impliedWrong: 0 });
const by = new Map<string, Row>();
const misses: string[] = [];
for (const l of set.lines) {
  const b = engine.parse({ text: l.line }).body as any;
  const top = b.primary ? keyOf(b.primary.entity_id) : null;
  const right = l.expect.kind === 'entity' ? b.state !== 'unresolved' && top !== null && (l.expect.primary ?? []).includes(top) : b.state !== 'resolved';
  const implied: string[] = b.implied.map((g: any) => keyOf(g.entity_id));
  const impliedWrong = implied.length > 0 && (!right || (l.grapes_implied_ok?.length ? !l.grapes_implied_ok.some((g) => implied.includes(g)) : false));
  for (const k of ['all', `split:${l.split ?? 'tune'}`, `source:${l.source}`]) {
    const r = by.get(k) ?? empty();
    r.n++;
    if (right) r.right++;
    if (b.state === 'resolved' && !right) r.cw++;
    if (b.vintage === l.expect.vintage) r.vintage++;
    if (implied.length) r.impliedLines++;
    if (impliedWrong) r.impliedWrong++;
    by.set(k, r);
  }
  if (!right) misses.push(`  ${b.state === 'resolved' ? '!' : ' '} "${l.line}" expect ${l.expect.kind === 'entity' ? (l.expect.primary ?? []).join('|') : 'no_entity'}${l.missing ? ' (missing)' : ''} → ${b.state} ${top ?? '-'}`);
}
console.log(`parse lines: ${set.lines.length} from ${set.sources.length} sources; ${engine.kb.entities.length} entities, kb ${engine.version}\n`);
const pct = (a: number, n: number) => (n ? (a / n).toFixed(3) : '-');
console.log(table(['', 'lines', 'primary right', 'confidently wrong', 'vintage right', 'lines with implied grapes', 'implied wrong'], [...by].sort(([a], [b]) => (a === 'all' ? -1 : b === 'all' ? 1 : a < b ? -1 : 1)).map(([k, r]) => [k, r.n, pct(r.right, r.n), `${pct(r.cw, r.n)} (${r.cw})`, pct(r.vintage, r.n), r.impliedLines, r.impliedWrong])));
const all = by.get('all')!;
console.log(`\ntargets: primary right >= 0.90 ${all.right / all.n >= 0.9 ? 'met' : 'MISSED'}; confidently wrong <= 1% ${all.cw / all.n <= 0.01 ? 'met' : 'MISSED'}; vintage right >= 0.98 ${all.vintage / all.n >= 0.98 ? 'met' : 'MISSED'}; implied never wrong ${all.impliedWrong === 0 ? 'met' : 'MISSED'}`);
const showArg = process.argv.indexOf('--misses');
const show = showArg > 0 ? Number(process.argv[showArg + 1]) : 30;
console.log(`\nmisses: ${misses.length} (! = confidently wrong)`);
for (const m of misses.slice(0, show)) console.log(m);

// Speed is measured on the code as shipped: `npm start` runs an esbuild bundle, not tsx, whose
// transform (keepNames wrappers and all) roughly doubles the cost of a parse. bench/parse-speed.ts is
// bundled with the options of scripts/build.mjs and run in a process of its own.
runShipped('bench/parse-speed.ts');
