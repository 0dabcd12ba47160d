// The speed half of `npm run bench:parse`, run as an esbuild bundle by bench/parse.ts (see there).
// CPU time per call and wall-clock p99 for lines of 50–70 characters, beside the resolver's own p99
// over the labelled queries, in the same run (a shared machine's load moves both alike).
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, loadLabelledQueries, ROOT, table } from './lib/evaluate.ts';

const engine = loadEngine();
const set = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'resolve', 'parse-lines.json'), 'utf8')) as { lines: { line: string }[] };
const lines = set.lines.map((l) => l.line).filter((t) => t.length >= 50 && t.length <= 70);
const queries = loadLabelledQueries().map((q) => q.q);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
// Warm-up: a service answers at steady state, after its functions are compiled by the optimising
// tier. 5 rounds (210 parses) leave TurboFan compiling on other threads during the timed rounds
// (CPU per call then exceeds wall time); 100 rounds (4,200 parses, under a second) do not.
const WARMUP = Number(process.env.WARMUP ?? 100);
function timed(f: (s: string) => unknown, inputs: string[]) {
  for (let r = 0; r < WARMUP; r++) for (const s of inputs) f(s);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of inputs) {
      const t = performance.now();
      f(s);
      times.push((performance.now() - t) * 1000);
    }
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { calls: times.length, p50: q(0.5), p99: q(0.99), cpuPerCall: (cpu.user + cpu.system) / times.length };
}
const parseT = timed((s) => engine.parser.parse(s), lines);
const resolveT = timed((s) => engine.resolver.resolve(s, 10), queries);
console.log(`\nspeed, as shipped (esbuild bundle; ${ROUNDS} rounds after ${WARMUP} warm-up): ${lines.length} lines of 50–70 characters; ${queries.length} labelled queries`);
console.log(table(['', 'calls', 'p50 µs', 'p99 µs', 'CPU µs/call'], [
  ['parse', parseT.calls, parseT.p50.toFixed(1), parseT.p99.toFixed(1), parseT.cpuPerCall.toFixed(1)],
  ['resolve', resolveT.calls, resolveT.p50.toFixed(1), resolveT.p99.toFixed(1), resolveT.cpuPerCall.toFixed(1)],
]));
console.log(`parse p99 / resolve p99 = ${(parseT.p99 / resolveT.p99).toFixed(2)}; targets: parse p99 <= 200 µs ${parseT.p99 <= 200 ? 'met' : 'MISSED'}, resolve p99 <= 50 µs ${resolveT.p99 <= 50 ? 'met' : 'MISSED'} (wall clock on a shared machine: read beside the CPU figures)`);

// Warm time per line (as bench:resolve reports it): each line parsed 5 times in a row, the fastest kept,
// over 20 rounds the 25th percentile; p99 over the lines. The tail above without collector pauses.
function warm(f: (s: string) => unknown, inputs: string[]) {
  const per = inputs.map((s) => {
    const rounds: number[] = [];
    for (let r = 0; r < 20; r++) {
      let best = Infinity;
      for (let k = 0; k < 5; k++) {
        const t = performance.now();
        f(s);
        best = Math.min(best, (performance.now() - t) * 1000);
      }
      rounds.push(best);
    }
    rounds.sort((a, b) => a - b);
    return rounds[Math.floor(rounds.length / 4)]!;
  }).sort((a, b) => a - b);
  return { p50: per[Math.floor(per.length / 2)]!, p99: per[Math.min(per.length - 1, Math.floor(per.length * 0.99))]!, max: per[per.length - 1]! };
}
const wp = warm((s) => engine.parser.parse(s), lines);
const wr = warm((s) => engine.resolver.resolve(s, 10), queries);
console.log(`warm per input (5 calls in a row, 25th percentile of 20): parse p50 ${wp.p50.toFixed(1)} µs, p99 ${wp.p99.toFixed(1)} µs, max ${wp.max.toFixed(1)} µs; resolve p50 ${wr.p50.toFixed(1)} µs, p99 ${wr.p99.toFixed(1)} µs`);
