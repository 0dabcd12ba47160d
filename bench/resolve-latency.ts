// npm run bench:resolve — in-process resolve latency over the whole labelled query set, repeated,
// next to a MiniSearch index over the same names. Prints a table; timing is reported, never gated.
//
// Ours: engine.resolver.resolve(q, 10) per query, timed one call at a time with performance.now();
//   WARMUP (5) rounds first (not recorded), then ROUNDS (env ROUNDS, default 50) rounds over every
//   labelled query. MiniSearch: 1 warm-up round, then MS_ROUNDS (env, default 20) rounds.
//   Index build = engine.buildMs (the resolver build inside the Engine constructor).
// MiniSearch 7 (devDependency): one document per name (each canonical name and each alias is its
//   own document; field `name`; storeFields `key` = entity key), default tokenizer, terms lowercased
//   and accent-folded with the same fold() the resolver uses so both sides see the same letters;
//   search options { fuzzy: 0.2, prefix: true }. Its top result is its first hit.
// Precision@1:
//   ours: bench/lib/evaluate.ts rules (state-aware: an "ambiguous" query needs state ambiguous,
//     a must-stay-unresolved query needs state unresolved);
//   MiniSearch has no state: a query is correct when the first hit's key is the expected key (for
//     kind "ambiguous": any key in expect_any); a must-stay-unresolved query is correct only when
//     MiniSearch returns no hit at all.
import MiniSearch from 'minisearch';
import { evaluateEngine, loadEngine, loadLabelledQueries, acceptableKeys, table } from './lib/evaluate.ts';
import { fold, exactForm } from '../src/engine/normalize.ts';

const WARMUP = 5;
const ROUNDS = Number(process.env.ROUNDS ?? 50);
const MS_ROUNDS = Number(process.env.MS_ROUNDS ?? 20);

const tLoad = performance.now();
const engine = loadEngine();
const loadMs = performance.now() - tLoad;
const queries = loadLabelledQueries();
const qs = queries.map((q) => q.q);

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function timeAll(fn: (q: string) => unknown, warmup: number, rounds: number): Float64Array {
  for (let r = 0; r < warmup; r++) for (const q of qs) fn(q);
  const out = new Float64Array(rounds * qs.length);
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    for (const q of qs) {
      const t0 = performance.now();
      fn(q);
      out[n++] = performance.now() - t0;
    }
  }
  return out.sort();
}

// --- ours
const ours = timeAll((q) => engine.resolver.resolve(q, 10), WARMUP, ROUNDS);
const oursP1 = evaluateEngine(engine, queries).overall.precisionAt1;

// --- MiniSearch over the same names
interface Doc { id: number; name: string; key: string }
const docs: Doc[] = [];
for (const e of engine.kb.entities) {
  docs.push({ id: docs.length, name: e.name, key: e.key });
  for (const a of e.aliases) docs.push({ id: docs.length, name: a.name, key: e.key });
}
const tMs = performance.now();
const ms = new MiniSearch<Doc>({
  fields: ['name'],
  storeFields: ['key'],
  processTerm: (term) => fold(exactForm(term)) || null,
  searchOptions: { fuzzy: 0.2, prefix: true },
});
ms.addAll(docs);
const msBuildMs = performance.now() - tMs;
const msSearch = (q: string) => ms.search(q, { fuzzy: 0.2, prefix: true });
const msTimes = timeAll(msSearch, 1, MS_ROUNDS);
let msCorrect = 0;
for (const lq of queries) {
  const hits = msSearch(lq.q);
  const ok = acceptableKeys(lq);
  if (ok.length === 0) msCorrect += hits.length === 0 ? 1 : 0;
  else msCorrect += hits.length > 0 && ok.includes(hits[0]!.key as string) ? 1 : 0;
}
const msP1 = msCorrect / queries.length;

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const oursP99 = percentile(ours, 99);
const msP99 = percentile(msTimes, 99);
console.log(
  `resolve latency: ${queries.length} labelled queries, ${engine.kb.entities.length} entities, ${docs.length} names; ` +
    `ours ${ROUNDS} rounds after ${WARMUP} warm-up (${ours.length} calls), MiniSearch ${MS_ROUNDS} rounds after 1 (${msTimes.length} calls); ` +
    `kb load ${loadMs.toFixed(0)} ms\n`,
);
console.log(
  table(
    ['', 'p50', 'p99', 'max', 'index build', 'precision@1'],
    [
      ['ours', us(percentile(ours, 50)), us(oursP99), us(ours[ours.length - 1]!), `${engine.buildMs.toFixed(1)} ms`, oursP1.toFixed(3)],
      ['MiniSearch', us(percentile(msTimes, 50)), us(msP99), us(msTimes[msTimes.length - 1]!), `${msBuildMs.toFixed(1)} ms`, msP1.toFixed(3)],
    ],
  ),
);
console.log(`\nours p99 / MiniSearch p99 = ${(oursP99 / msP99).toFixed(4)} (MiniSearch p99 is ${(msP99 / oursP99).toFixed(1)}× ours)`);
console.log(`precision@1: ours ${oursP1.toFixed(3)} vs MiniSearch ${msP1.toFixed(3)}`);
console.log('(MiniSearch scored by its first hit; must-stay-unresolved counts only when it returns nothing; see header)');
