// npm run bench:fast-path-memory — resident memory of the gateway under two loads of issue 31. Not a
// test: it reports. Each load runs against the built server (dist/server.mjs) on a fresh SQLite file,
// with the same load in the same run as its baseline:
//   1. memo: 10,000 distinct /v1/pair-food request lines (large answers), each sent twice with a key,
//      with the keyed fast path on, against the same with KEYED_FAST_PATH=off. Before issue 31 the
//      fast path's memo kept every remembered line's last answer body (RSS +336 MB against +8 MB off).
//      Target: RSS after the load within 50 MB of the fast path off.
//   2. Redis silent: a private redis-server stopped with SIGSTOP, then 20,000 keyed GETs pipelined on
//      one connection; RSS growth (peak while they are answered) against the same burst with Redis
//      running. Before issue 31 every request waited (no bound): +190 MB. Target: under 100 MB.
// BENCH_LINES (default 10,000) and BENCH_PIPELINED (default 20,000) scale the loads down for a try.
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import http from 'node:http';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { benchKey, freePort, rssMb, startNode, startPrivateRedis, waitFor } from './lib/load.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 20_000);
const FOODS = ['salmon', 'oysters', 'goat cheese', 'roast chicken', 'lamb', 'pizza', 'sushi', 'chocolate', 'duck', 'mushrooms'];

execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-fastmem-'));
let serial = 0;

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; port: number; key: string }> {
  const port = await freePort();
  const all = { DATABASE_URL: `sqlite:${path.join(dir, `db-${++serial}.db`)}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', USAGE_LEASE_MIN_RATE: '1', ...env };
  const key = benchKey(ROOT, all);
  const proc = startNode([path.join(ROOT, 'dist/server.mjs')], all);
  await waitFor(`http://127.0.0.1:${port}/health`, 30_000);
  return { proc, port, key };
}

async function stop(proc: ChildProcess) {
  proc.kill('SIGTERM');
  await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once('exit', r)));
}

/** Sends every path (with the key) over `connections` kept-alive connections; returns the 200s. */
async function sendAll(port: number, key: string, paths: string[], connections = 16): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  let ok = 0;
  const worker = async () => {
    while (next < paths.length) {
      const p = paths[next++]!;
      const got = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: p, agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode === 200 ? 1 : 0));
          })
          .on('error', reject);
      });
      ok += got;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return ok;
}

async function memoLoad(fastPath: 'on' | 'off') {
  const { proc, port, key } = await startServer({ KEYED_FAST_PATH: fastPath });
  const lines = Array.from({ length: LINES }, (_, i) => `/v1/pair-food?q=${encodeURIComponent(`${FOODS[i % FOODS.length]} ${i}`)}`);
  await sendAll(port, key, lines.slice(0, 50)); // warm-up
  const before = rssMb(proc.pid!);
  const ok = (await sendAll(port, key, lines)) + (await sendAll(port, key, lines));
  await new Promise((r) => setTimeout(r, 1000));
  const after = rssMb(proc.pid!);
  await stop(proc);
  return { before, after, ok };
}

/** Writes `n` keyed GETs pipelined on one connection; resolves when `n` answers came (status counts), sampling RSS meanwhile. */
async function pipelined(port: number, key: string, pid: number, n: number) {
  const sock = net.connect(port, '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  const req = `GET /v1/resolve-entity?q=merlot HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`;
  const statuses = new Map<string, number>();
  let seen = 0;
  let tail = '';
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const t0 = Date.now();
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${seen} of ${n} answers in 180 s`)), 180_000);
    sock.on('data', (d: Buffer) => {
      const text = tail + d.toString('latin1');
      for (const m of text.matchAll(/HTTP\/1\.1 (\d{3}) /g)) {
        seen++;
        statuses.set(m[1]!, (statuses.get(m[1]!) ?? 0) + 1);
      }
      const last = text.lastIndexOf('HTTP/1.1 ');
      tail = text.slice(Math.max(last + 13, text.length - 12));
      if (seen >= n) {
        clearTimeout(timer);
        resolve();
      }
    });
    sock.on('error', reject);
  });
  // written in blocks, as a client's kernel would take them
  const block = req.repeat(500);
  for (let i = 0; i < n; i += 500) if (!sock.write(i + 500 <= n ? block : req.repeat(n - i))) await new Promise((r) => sock.once('drain', r));
  await done;
  clearInterval(sampler);
  sock.destroy();
  return { peak, statuses: Object.fromEntries(statuses), seconds: (Date.now() - t0) / 1000 };
}

async function redisLoad(silent: boolean) {
  const redis = await startPrivateRedis();
  try {
    const { proc, port, key } = await startServer({ REDIS_URL: redis.url, ...(process.env.LIMITER_MAX_WAITERS ? { LIMITER_MAX_WAITERS: process.env.LIMITER_MAX_WAITERS } : {}) });
    await sendAll(port, key, Array.from({ length: 200 }, () => '/v1/resolve-entity?q=merlot')); // warm-up
    const before = rssMb(proc.pid!);
    if (silent) redis.proc.kill('SIGSTOP');
    const r = await pipelined(port, key, proc.pid!, PIPELINED);
    if (silent) redis.proc.kill('SIGCONT');
    await stop(proc);
    return { before, ...r };
  } finally {
    redis.proc.kill('SIGCONT');
    redis.proc.kill('SIGKILL');
  }
}

const off = await memoLoad('off');
const on = await memoLoad('on');
console.log(`memo: ${LINES} distinct pair-food lines twice each; RSS after: fast path off ${off.after.toFixed(0)} MB (+${(off.after - off.before).toFixed(0)}), on ${on.after.toFixed(0)} MB (+${(on.after - on.before).toFixed(0)}); on − off ${(on.after - off.after).toFixed(0)} MB (target ≤ 50); 200s ${on.ok} / ${off.ok}`);

const healthy = await redisLoad(false);
const silent = await redisLoad(true);
console.log(`Redis running: ${PIPELINED} pipelined GETs, RSS peak +${(healthy.peak - healthy.before).toFixed(0)} MB in ${healthy.seconds.toFixed(1)} s ${JSON.stringify(healthy.statuses)}`);
console.log(`Redis stopped (SIGSTOP): RSS peak +${(silent.peak - silent.before).toFixed(0)} MB (target < 100) in ${silent.seconds.toFixed(1)} s ${JSON.stringify(silent.statuses)}; against running: ${(silent.peak - silent.before - (healthy.peak - healthy.before)).toFixed(0)} MB more`);
fs.rmSync(dir, { recursive: true, force: true });
