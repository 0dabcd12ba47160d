// `npm run bench:pretenuring` (issue 25): why the gateway turns V8's allocation-site pretenuring off
// (src/steady-allocation.ts, called by src/server.ts). Fresh processes of the embedded keyed server (`npm start`'s
// bundle, LOG_LEVEL=warn), BENCH_PROCESSES (default 4) of each kind, started alternately: as shipped
// (pretenuring off) and with `--allocation-site-pretenuring` (V8's default, which the server then
// leaves on). Each gets the same warm-up as `npm run bench` (2 s of wrk), then one measured wrk run
// (BENCH_SECONDS, default 4; -t1 -c32, the 8 rotating keyed queries); for each process it prints CPU
// µs per request (/proc, user + system) and the mean scavenge pause over the measured run (from
// --trace-gc), then per kind the median and the spread, and the ratio of the medians. With
// pretenuring on, some processes (which ones depends on the warm-up) allocate per-request objects
// in the old generation for their whole life; with it off none does. Prints figures, never
// pass/fail; a process that is slow in both kinds points at the machine, not at V8.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { cpuUs, ensureWrk, freePort, benchKey, KEYED_BENCH_PATHS, waitFor, wrk, median, rotateScript } from './lib/load.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const count = Number(process.env.BENCH_PROCESSES ?? 4);

ensureWrk();
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-bench-pretenuring-'));
const env = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}` };
const key = benchKey(ROOT, env);
const header = `Authorization: Bearer ${key}`;
const script = path.join(dir, 'rotate.lua');
fs.writeFileSync(
  script,
  rotateScript(KEYED_BENCH_PATHS),
);

/** The scavenge pauses --trace-gc printed in `text` (ms each). */
const scavenges = (text: string) => [...text.matchAll(/Scavenge [^,]*, ([0-9.]+) \//g)].map((m) => Number(m[1]));

async function one(pretenuring: boolean) {
  const port = await freePort();
  const log = path.join(dir, `gc-${port}.log`);
  const out = fs.openSync(log, 'w');
  const args = ['--trace-gc', ...(pretenuring ? ['--allocation-site-pretenuring'] : []), path.join(ROOT, 'dist/server.mjs')];
  const p = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' }, stdio: ['ignore', out, 'inherit'] });
  try {
    await waitFor(`http://127.0.0.1:${port}/health`);
    const url = `http://127.0.0.1:${port}/`;
    wrk(url, { seconds: 2, header, script });
    const before = scavenges(fs.readFileSync(log, 'utf8')).length;
    const t0 = cpuUs(p.pid!);
    const r = wrk(url, { seconds, header, script });
    const cpu = (cpuUs(p.pid!) - t0) / r.requests;
    const pauses = scavenges(fs.readFileSync(log, 'utf8')).slice(before);
    return { cpu, scavengeMs: pauses.length ? pauses.reduce((a, b) => a + b, 0) / pauses.length : 0, rps: r.rps };
  } finally {
    p.kill();
    fs.closeSync(out);
  }
}

try {
  const results = { off: [] as Awaited<ReturnType<typeof one>>[], on: [] as Awaited<ReturnType<typeof one>>[] };
  for (let i = 0; i < count; i++) {
    for (const kind of i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const r = await one(kind === 'on');
      results[kind].push(r);
      console.log(`process ${i + 1}, pretenuring ${kind.padEnd(3)}: ${r.cpu.toFixed(1).padStart(5)} µs/req, mean scavenge ${r.scavengeMs.toFixed(2)} ms, ${r.rps.toFixed(0)} req/s`);
    }
  }
  const off = results.off.map((r) => r.cpu);
  const on = results.on.map((r) => r.cpu);
  console.log(`\npretenuring off (as shipped): median ${median(off).toFixed(1)} µs/req (${Math.min(...off).toFixed(1)}–${Math.max(...off).toFixed(1)})`);
  console.log(`pretenuring on (V8's default): median ${median(on).toFixed(1)} µs/req (${Math.min(...on).toFixed(1)}–${Math.max(...on).toFixed(1)})`);
  console.log(`CPU per request, on ÷ off: ${(median(on) / median(off)).toFixed(2)} (medians); worst process ${(Math.max(...on) / Math.max(...off)).toFixed(2)}`);
  const slow = (rs: { scavengeMs: number }[]) => rs.filter((r) => r.scavengeMs >= 3).length;
  console.log(`processes scavenging for 3 ms or more on average: pretenuring on ${slow(results.on)} of ${count}, off ${slow(results.off)} of ${count}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
