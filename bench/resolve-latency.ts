// npm run bench:resolve — in-process resolve latency over the whole labelled query set, repeated,
// next to a MiniSearch index over the same names. Prints a table; timing is reported, never gated.
//
// Ours: engine.resolver.resolve(q, 10) per query, timed one call at a time with performance.now();
//   WARMUP (5) rounds first (not recorded), then ROUNDS (env ROUNDS, default 50) rounds over every
//   labelled query. MiniSearch: 1 warm-up round, then MS_ROUNDS (env, default 20) rounds.
//   Index build = engine.buildMs (the resolver build inside the Engine constructor, wall clock); the
//   CPU time of that constructor (process.cpuUsage, all threads) is printed beside it.
// MiniSearch 7 (devDependency): one document per name (each canonical name and each alias is its
//   own document; field `name`; storeFields `key` = entity key), default tokenizer, terms lowercased
//   and accent-folded with the same fold() the resolver uses so both sides see the same letters;
//   search options { fuzzy: 0.2, prefix: true }. Its top result is its first hit.
// Steadier measures, printed below the table (wall-clock p99 on a shared machine mostly measures
// the other processes):
//   CPU µs/query: process.cpuUsage() (user + system, all threads) over the timed rounds ÷ calls,
//     for ours and MiniSearch alike (the timer calls are included on both sides);
//   per-call CPU p50/p99 (ours): process.cpuUsage() around each call in CPU_ROUNDS (env, default 20)
//     further rounds; 1 µs resolution; time spent descheduled is not counted;
//   bytes allocated per query: V8 used-heap growth over one round, median of ALLOC_ROUNDS (20)
//     rounds (a round that a collection interrupts shows a drop and is left out);
//   GC during our timed rounds: count and total pause of the collections seen by a
//     PerformanceObserver (so the tail can be told apart from GC);
//   per-query warm time: each query timed as 5 calls in a row, the 25th percentile of
//     WARM_ROUNDS (20) such timings; p50/p99/max over the queries (the tail without cold caches or
//     preemption).
// Precision@1:
//   ours: bench/lib/evaluate.ts rules (state-aware: an "ambiguous" query needs state ambiguous,
//     a must-stay-unresolved query needs state unresolved);
//   MiniSearch has no state: a query is correct when the first hit's key is the expected key (for
//     kind "ambiguous": any key in expect_any); a must-stay-unresolved query is correct only when
//     MiniSearch returns no hit at all.
import v8 from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import { evaluateEngine, loadLabelledQueries, acceptableKeys, table, ROOT } from './lib/evaluate.ts';
import { Engine } from '../src/engine/engine.ts';
import { loadKnowledgeBaseOrThrow } from '../src/engine/kb/load.ts';
import path from 'node:path';
import { fold, exactForm } from '../src/engine/normalize.ts';

const WARMUP = 5;
const ROUNDS = Number(process.env.ROUNDS ?? 50);
const MS_ROUNDS = Number(process.env.MS_ROUNDS ?? 20);
const CPU_ROUNDS = Number(process.env.CPU_ROUNDS ?? 20);
const ALLOC_ROUNDS = Number(process.env.ALLOC_ROUNDS ?? 20);
const WARM_ROUNDS = Number(process.env.WARM_ROUNDS ?? 20);

const tLoad = performance.now();
const kb = loadKnowledgeBaseOrThrow(process.env.KB_DATA_DIR ?? path.join(ROOT, 'data'));
const loadMs = performance.now() - tLoad;
const buildCpu0 = process.cpuUsage();
const engine = new Engine(kb);
const buildCpu = process.cpuUsage(buildCpu0);
const buildCpuMs = (buildCpu.user + buildCpu.system) / 1000;
const queries = loadLabelledQueries();
const qs = queries.map((q) => q.q);

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const cpuNow = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
let gcCount = 0;
let gcMs = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcCount++;
    gcMs += e.duration;
  }
});
const tick = () => new Promise((r) => setImmediate(r));

/** Wall time of each call (sorted), and the CPU µs per call over the timed rounds. */
function timeAll(fn: (q: string) => unknown, warmup: number, rounds: number): { times: Float64Array; cpuPerCall: number } {
  for (let r = 0; r < warmup; r++) for (const q of qs) fn(q);
  const out = new Float64Array(rounds * qs.length);
  let n = 0;
  const c0 = cpuNow();
  for (let r = 0; r < rounds; r++) {
    for (const q of qs) {
      const t0 = performance.now();
      fn(q);
      out[n++] = performance.now() - t0;
    }
  }
  const cpuPerCall = (cpuNow() - c0) / n;
  return { times: out.sort(), cpuPerCall };
}

// --- ours
const resolveOurs = (q: string) => engine.resolver.resolve(q, 10);
await tick();
gcObserver.observe({ entryTypes: ['gc'] });
const oursRun = timeAll(resolveOurs, WARMUP, ROUNDS);
await new Promise((r) => setTimeout(r, 100)); // GC entries are delivered asynchronously
gcObserver.disconnect();
const ours = oursRun.times;
// per-call CPU time
const cpuCalls = new Float64Array(CPU_ROUNDS * qs.length);
{
  let n = 0;
  for (let r = 0; r < CPU_ROUNDS; r++) {
    for (const q of qs) {
      const c0 = process.cpuUsage();
      resolveOurs(q);
      const c = process.cpuUsage(c0);
      cpuCalls[n++] = c.user + c.system;
    }
  }
  cpuCalls.sort();
}
// bytes allocated per query
const allocs: number[] = [];
for (let r = 0; r < ALLOC_ROUNDS; r++) {
  await tick();
  const h0 = v8.getHeapStatistics().used_heap_size;
  for (const q of qs) resolveOurs(q);
  const h1 = v8.getHeapStatistics().used_heap_size;
  if (h1 > h0) allocs.push((h1 - h0) / qs.length);
}
allocs.sort((a, b) => a - b);
// per-query warm time
const warm = new Float64Array(qs.length);
{
  const per = qs.map(() => new Float64Array(WARM_ROUNDS));
  for (let r = 0; r < WARM_ROUNDS; r++) {
    qs.forEach((q, i) => {
      const t0 = performance.now();
      for (let k = 0; k < 5; k++) resolveOurs(q);
      per[i]![r] = (performance.now() - t0) / 5;
    });
  }
  per.forEach((a, i) => (warm[i] = a.sort()[Math.floor(WARM_ROUNDS / 4)]!));
}
const warmOrder = qs.map((_, i) => i).sort((a, b) => warm[b]! - warm[a]!);
warm.sort();
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
const msRun = timeAll(msSearch, 1, MS_ROUNDS);
const msTimes = msRun.times;
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
      ['ours', us(percentile(ours, 50)), us(oursP99), us(ours[ours.length - 1]!), `${engine.buildMs.toFixed(1)} ms (CPU ${buildCpuMs.toFixed(0)} ms)`, oursP1.toFixed(3)],
      ['MiniSearch', us(percentile(msTimes, 50)), us(msP99), us(msTimes[msTimes.length - 1]!), `${msBuildMs.toFixed(1)} ms`, msP1.toFixed(3)],
    ],
  ),
);
console.log(`\nours p99 / MiniSearch p99 = ${(oursP99 / msP99).toFixed(4)} (MiniSearch p99 is ${(msP99 / oursP99).toFixed(1)}× ours)`);
console.log(`precision@1: ours ${oursP1.toFixed(3)} vs MiniSearch ${msP1.toFixed(3)}`);
console.log('(MiniSearch scored by its first hit; must-stay-unresolved counts only when it returns nothing; see header)');
console.log(
  `\nCPU per query (same rounds as the table): ours ${oursRun.cpuPerCall.toFixed(1)} µs, MiniSearch ${msRun.cpuPerCall.toFixed(1)} µs ` +
    `(ours ÷ MiniSearch ${(oursRun.cpuPerCall / msRun.cpuPerCall).toFixed(4)})`,
);
console.log(
  `ours, per-call CPU over ${CPU_ROUNDS} more rounds: p50 ${percentile(cpuCalls, 50).toFixed(0)} µs, p99 ${percentile(cpuCalls, 99).toFixed(0)} µs, ` +
    `p99.9 ${percentile(cpuCalls, 99.9).toFixed(0)} µs`,
);
console.log(
  `ours, bytes allocated per query: ${allocs.length ? allocs[allocs.length >> 1]!.toFixed(0) : 'n/a'} (median of ${allocs.length}/${ALLOC_ROUNDS} rounds without a collection); ` +
    `GC during the ${ROUNDS} timed rounds: ${gcCount} collections, ${gcMs.toFixed(1)} ms in all`,
);
console.log(
  `ours, per-query warm time (5 calls in a row, 25th percentile of ${WARM_ROUNDS}): p50 ${us(percentile(warm, 50))}, ` +
    `p99 ${us(percentile(warm, 99))}, max ${us(warm[warm.length - 1]!)}; slowest: ` +
    warmOrder.slice(0, 3).map((i) => JSON.stringify(qs[i])).join(', '),
);
