// `npm run bench:scale-out`: keyed /v1/resolve-entity throughput and p99 for (1) embedded SQLite,
// one process; (2) PostgreSQL + Redis, one process; (3) PostgreSQL + Redis, 2 cluster workers —
// each against a bare Fastify handler measured in the same run. Ratios only; never pass/fail.
// wrk (1 thread) shares the machine's 2 cores with the servers, so the 2-worker case competes with
// its own load generator: expect it to gain little or even lose on this machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, execSync, type ChildProcess } from 'node:child_process';
import { ensureWrk, freePort, startNode, waitFor, wrk, type WrkResult } from './lib/load.ts';
import { resolveBody } from './lib/body.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
ensureWrk();
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });

const dbName = `dis_bench_${crypto.randomBytes(4).toString('hex')}`;
const pgUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${dbName}`);
execSync(`psql '${PG_ADMIN}' -qc 'CREATE DATABASE ${dbName}'`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-bench-'));
const sqliteUrl = `sqlite:${path.join(dir, 'bench.db')}`;
const bareBody = resolveBody(ROOT, 'cabernet sauvignon');

function keyFor(env: Record<string, string>): string {
  const admin = (...a: string[]) => execFileSync(process.execPath, [path.join(ROOT, 'dist/cli/admin.mjs'), ...a], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  admin('db', 'migrate');
  admin('plans', 'set', 'bench', '--monthly', '1000000000', '--per-minute', '1000000000');
  return JSON.parse(admin('keys', 'create', '--client', 'bench', '--plan', 'bench', '--json')).key;
}

const procs: ChildProcess[] = [];
/** Starts `node <args>` on a free port, warms it up, measures it with wrk, stops it. */
async function measure(args: string[], env: Record<string, string>, key: string | null): Promise<WrkResult> {
  const port = await freePort();
  const p = startNode(args, { ...env, PORT: String(port), LOG_LEVEL: 'warn' });
  procs.push(p);
  const url = `http://127.0.0.1:${port}/v1/resolve-entity?q=cabernet%20sauvignon`;
  await waitFor(key ? `http://127.0.0.1:${port}/health` : url);
  const header = key ? `Authorization: Bearer ${key}` : undefined;
  wrk(url, { seconds: 2, header });
  const r = wrk(url, { seconds, header });
  p.kill();
  await new Promise((res) => p.once('exit', res));
  return r;
}

try {
  const sqliteEnv = { DATABASE_URL: sqliteUrl };
  const pgEnv = { DATABASE_URL: pgUrl, REDIS_URL: REDIS };
  const sqliteKey = keyFor(sqliteEnv);
  const pgKey = keyFor(pgEnv);
  const rows: [string, WrkResult, WrkResult][] = [];
  for (const [name, entry, env, key] of [
    ['embedded (SQLite, 1 process)', 'dist/server.mjs', sqliteEnv, sqliteKey],
    ['PostgreSQL+Redis, 1 process', 'dist/server.mjs', pgEnv, pgKey],
    ['PostgreSQL+Redis, 2 workers', 'dist/cluster.mjs', { ...pgEnv, CLUSTER_WORKERS: '2' }, pgKey],
  ] as const) {
    if (!fs.existsSync(path.join(ROOT, entry))) {
      console.log(`${name}: ${entry} not built, skipped`);
      continue;
    }
    const bare = await measure(['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts')], { BARE_BODY: bareBody }, null);
    const ours = await measure([path.join(ROOT, entry)], env, key);
    rows.push([name, ours, bare]);
  }
  console.log('configuration                      keyed req/s  keyed p99   bare req/s  bare p99   ratio  p99 ratio  non-2xx');
  for (const [name, o, b] of rows) {
    console.log(`${name.padEnd(34)} ${o.rps.toFixed(0).padStart(10)} ${o.p99ms.toFixed(2).padStart(8)}ms ${b.rps.toFixed(0).padStart(11)} ${b.p99ms.toFixed(2).padStart(7)}ms ${(o.rps / b.rps).toFixed(2).padStart(6)} ${(o.p99ms / b.p99ms).toFixed(2).padStart(9)} ${String(o.non2xx).padStart(8)}`);
  }
  console.log('targets: embedded >= 0.8 of bare; PostgreSQL+Redis (1 process) >= 0.6; p99 <= 2x bare.');
  console.log(`note: wrk (1 thread) and the server(s) share ${os.cpus().length} cores.`);
} finally {
  for (const p of procs) p.kill();
  execSync(`psql '${PG_ADMIN}' -qc 'DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)'`);
  execSync(`redis-cli -u '${REDIS}' flushdb >/dev/null`);
  fs.rmSync(dir, { recursive: true, force: true });
}
