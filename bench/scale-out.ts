// `npm run bench:scale-out` (issue 14): CPU microseconds per request of the gateway process(es),
// user + system time from /proc over a fixed wrk run, for keyed /v1/resolve-entity on
//   - the embedded default (SQLite, in-memory limiter), one process;
//   - PostgreSQL + Redis, one process, usage leases off (USAGE_LEASE_MAX_BLOCK=0: one counting
//     transaction and one Redis call per group of requests, as before leases);
//   - PostgreSQL + Redis, one process, usage leases on (the default);
//   - PostgreSQL + Redis, 2 cluster workers, leases on (CPU of the primary and both workers);
// against a bare node:http handler answering the very same bytes per query (bench/bare-http.mjs).
// wrk rotates 8 queries. Figure of merit: bare node:http CPU ÷ gateway CPU per request, median of
// BENCH_ROUNDS (3) alternated rounds; req/s and p99 printed too; PostgreSQL backends of the
// benchmark's database and a private redis-server reported apart, per request. Never pass/fail.
// wrk (1 thread) shares the machine's 2 cores with the servers: the 2-worker case competes with its
// own load generator, so read its CPU per request, not its req/s.
// BENCH_PROFILE=1 adds a run of the PostgreSQL + Redis gateway (leases on) under the V8 CPU profiler
// (bench/lib/cpu-profile-probe.mjs, started after warm-up) and prints its top frames by self time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, execSync, type ChildProcess } from 'node:child_process';
import { cpuUs, cpuUsOf, ensureWrk, freePort, startNode, startPrivateRedis, alternatedRounds, benchKey, KEYED_BENCH_PATHS, wrk, type WrkResult, median, rotateScript } from './lib/load.ts';
import { profileUnderLoad } from './lib/profile.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const paths = KEYED_BENCH_PATHS;
ensureWrk();
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });

const dbName = `dis_bench_${crypto.randomBytes(4).toString('hex')}`;
const pgUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${dbName}`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-bench-'));
const procs: ChildProcess[] = [];
let pgCreated = false;

const keyFor = (env: Record<string, string>) => benchKey(ROOT, env);

async function start(args: string[], env: Record<string, string>, ready: string, headers: Record<string, string> = {}) {
  const port = await freePort();
  const p = startNode(args, { ...env, PORT: String(port), LOG_LEVEL: 'warn' });
  procs.push(p);
  const url = `http://127.0.0.1:${port}${ready}`;
  for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const ok = await fetch(url, { headers }).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within 30 s`);
  }
  return { p, port };
}

/** The process and its children (cluster workers), from /proc. */
function tree(pid: number): number[] {
  const out = [pid];
  try {
    for (const c of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) out.push(...tree(Number(c)));
  } catch {}
  return out;
}

interface Config {
  name: string;
  port: number;
  pid: number;
  header?: string;
  pg?: boolean;
}
interface Run extends WrkResult {
  cpu: number;
  pg: number;
  redis: number;
}

try {
  const sqliteEnv = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}` };
  const sqliteKey = keyFor(sqliteEnv);
  execSync(`psql '${PG_ADMIN}' -qc 'CREATE DATABASE ${dbName}'`);
  pgCreated = true;
  const { proc: redis, url: redisUrl } = await startPrivateRedis();
  procs.push(redis);
  const pgEnv = { DATABASE_URL: pgUrl, REDIS_URL: redisUrl };
  const pgKey = keyFor(pgEnv);
  const script = path.join(dir, 'rotate.lua');
  fs.writeFileSync(script, rotateScript(paths));

  const embedded = await start([path.join(ROOT, 'dist/server.mjs')], sqliteEnv, '/health');
  const bodies: Record<string, string> = {};
  for (const p of paths) {
    const r = await fetch(`http://127.0.0.1:${embedded.port}${p}`, { headers: { authorization: `Bearer ${sqliteKey}` } });
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}`);
    bodies[p] = await r.text();
  }
  const bodiesFile = path.join(dir, 'bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const bare = await start([path.join(ROOT, 'bench/bare-http.mjs')], { BARE_BODIES: bodiesFile }, paths[0]!);
  const pgAuth = { authorization: `Bearer ${pgKey}` };
  const off = await start([path.join(ROOT, 'dist/server.mjs')], { ...pgEnv, USAGE_LEASE_MAX_BLOCK: '0' }, paths[0]!, pgAuth);
  const on = await start([path.join(ROOT, 'dist/server.mjs')], pgEnv, paths[0]!, pgAuth);
  const cl = fs.existsSync(path.join(ROOT, 'dist/cluster.mjs')) ? await start([path.join(ROOT, 'dist/cluster.mjs')], { ...pgEnv, CLUSTER_WORKERS: '2' }, paths[0]!, pgAuth) : null;

  const configs: Config[] = [
    { name: 'bare node:http (same bytes)', port: bare.port, pid: bare.p.pid! },
    { name: 'embedded (SQLite), 1 process', port: embedded.port, pid: embedded.p.pid!, header: `Authorization: Bearer ${sqliteKey}` },
    { name: 'PostgreSQL+Redis, 1 process, leases off', port: off.port, pid: off.p.pid!, header: `Authorization: Bearer ${pgKey}`, pg: true },
    { name: 'PostgreSQL+Redis, 1 process, leases on', port: on.port, pid: on.p.pid!, header: `Authorization: Bearer ${pgKey}`, pg: true },
  ];
  if (cl) configs.push({ name: 'PostgreSQL+Redis, 2 workers, leases on', port: cl.port, pid: cl.p.pid!, header: `Authorization: Bearer ${pgKey}`, pg: true });

  const backends = () =>
    execSync(`psql '${PG_ADMIN}' -Atc "SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}'"`, { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  const measure = (c: Config, secs: number): Run => {
    const pids = tree(c.pid);
    const pg0 = c.pg ? backends() : [];
    const p0 = c.pg ? cpuUsOf(pg0) : 0;
    const r0 = c.pg ? cpuUs(redis.pid!) : 0;
    const t0 = cpuUsOf(pids);
    const r = wrk(`http://127.0.0.1:${c.port}/`, { seconds: secs, header: c.header, script });
    const used = cpuUsOf(pids) - t0;
    if (r.non2xx) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers`);
    const run: Run = { ...r, cpu: used / r.requests, pg: 0, redis: 0 };
    if (c.pg) {
      run.pg = (cpuUsOf([...new Set([...pg0, ...backends()])]) - p0) / r.requests;
      run.redis = (cpuUs(redis.pid!) - r0) / r.requests;
    }
    return run;
  };

  for (const c of configs) measure(c, 2); // warm-up: JIT, pools, and the lease rate estimate
  const { runs, ratios } = alternatedRounds(configs, rounds, (c) => measure(c, seconds), (r) => r.cpu);

  const med = (name: string, f: (r: Run) => number) => median(runs.get(name)!.map(f));
  console.log(`\n${paths.length} rotating queries; wrk -t1 -c32, ${seconds} s per run, ${rounds} alternated rounds; medians (ratio range per round in brackets).`);
  console.log('configuration                              gateway CPU µs/req   ratio (node:http ÷ this)   req/s    p99 ms   PostgreSQL µs/req   Redis µs/req');
  for (const c of configs) {
    const rs = ratios.get(c.name)!;
    console.log(
      `${c.name.padEnd(42)} ${med(c.name, (r) => r.cpu).toFixed(1).padStart(10)}          ${median(rs).toFixed(2).padStart(5)} (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`.padEnd(92) +
        `${med(c.name, (r) => r.rps).toFixed(0).padStart(7)} ${med(c.name, (r) => r.p99ms).toFixed(2).padStart(8)} ${c.pg ? med(c.name, (r) => r.pg).toFixed(1).padStart(19) : ''.padStart(19)} ${c.pg ? med(c.name, (r) => r.redis).toFixed(1).padStart(14) : ''}`,
    );
  }
  const p99 = (n: string) => med(n, (r) => r.p99ms);
  console.log(`p99 ÷ p99 of bare node:http: ${configs.slice(1).map((c) => `${c.name} ${(p99(c.name) / p99(configs[0]!.name)).toFixed(2)}`).join('; ')} (target <= 2)`);
  console.log('target (issue 14): PostgreSQL+Redis, one process, gateway CPU ratio >= 0.5.');
  console.log(`note: wrk (1 thread) shares the machine's ${os.cpus().length} cores with the servers; req/s and p99 move with the machine's load, CPU per request far less.`);

  if (process.env.BENCH_PROFILE === '1') {
    // the PostgreSQL + Redis gateway with leases (the default), profiled after warm-up
    const file = path.join(dir, 'pg-leases.cpuprofile');
    const probe = path.join(ROOT, 'bench/lib/cpu-profile-probe.mjs');
    const s = await start(['--import', probe, path.join(ROOT, 'dist/server.mjs')], { ...pgEnv, CPU_PROFILE_FILE: file }, paths[0]!, pgAuth);
    const summary = await profileUnderLoad(s, file, seconds, { header: `Authorization: Bearer ${pgKey}`, script }, Number(process.env.BENCH_PROFILE_TOP ?? 25));
    s.p.kill();
    if (!summary) console.log('profile: none written');
    else console.log(`\nprofile of the PostgreSQL + Redis gateway (leases on) over one ${seconds} s run (self time, top frames):\n${summary}`);
  }
} finally {
  for (const p of procs) p.kill();
  await new Promise((r) => setTimeout(r, 300));
  if (pgCreated) execSync(`psql '${PG_ADMIN}' -qc 'DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)'`);
  fs.rmSync(dir, { recursive: true, force: true });
}
