// `npm run bench` (issue 14): CPU microseconds per request of the server process, user + system
// time from /proc/<pid>/stat over a fixed wrk run, for
//   - keyed /v1/resolve-entity on the embedded default (SQLite, in-memory limiter), `npm start`'s
//     bundle dist/server.mjs;
//   - a bare node:http handler answering the very same body bytes per query (bench/bare-http.mjs);
//   - a bare Fastify handler with the same bytes (bench/bare-fastify.mjs);
//   - a bare Fastify handler with the same body and every header of the keyed answer
//     (bench/bare-fastify-headers.mjs): the same bytes on the wire as keyed, none of our work;
//   - a bare node:http handler with the same body and every header of the keyed answer
//     (bench/bare-http-headers.mjs): the same bytes again, without a framework;
//   - keyed on the embedded default with the keyed fast path off (KEYED_FAST_PATH=false: every
//     request through Fastify), to show what the fast path (src/gateway/fast-keyed.ts) saves;
//   - keyed on PostgreSQL + Redis, one process (gateway CPU; the CPU of our database's PostgreSQL
//     backends and of a private redis-server is reported separately);
//   - keyed on the embedded default at LOG_LEVEL=info, the default of `npm start` (issue 25): one
//     access line per request (stdout to /dev/null); every other keyed server runs at warn.
// For the default configuration, warn and PostgreSQL + Redis it prints two ratios against bare
// node:http (issue 25): CPU per request (the figure of merit) and wrk throughput, each the median
// of the alternated rounds' ratios, and user-space instructions per request (perf stat -e
// instructions:u on the server process) where the machine has hardware counters, else user-space
// CPU time per request in their place, saying so.
// wrk rotates 8 queries (a Lua script) and sends the same Authorization header to every server.
// Figure of merit: bare node:http CPU ÷ keyed CPU per request, median of BENCH_ROUNDS (5) rounds,
// run in alternated order. Throughput and p99 are printed too, but on this shared 2-core machine
// they move far more than CPU per request does. Prints figures, never pass/fail.
// BENCH_SECONDS (default 5) per run; BENCH_SKIP_PG=1 skips the PostgreSQL + Redis case;
// BENCH_PROFILE=1 adds profiled runs of the embedded keyed server, with the keyed fast path on and
// off (V8 CPU profiler started after warm-up, bench/lib/cpu-profile-probe.mjs), and prints their top
// frames by self time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, execSync, type ChildProcess } from 'node:child_process';
import { cpuUs, cpuUsOf, userUs, instructionsDuring, ensureWrk, freePort, rssMb, startNode, startPrivateRedis, alternatedRounds, benchKey, KEYED_BENCH_PATHS, waitFor, wrk, type WrkResult, median, rotateScript } from './lib/load.ts';
import { profileUnderLoad } from './lib/profile.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const withPg = process.env.BENCH_SKIP_PG !== '1';
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const paths = KEYED_BENCH_PATHS;

ensureWrk();
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-bench-'));
const procs: ChildProcess[] = [];
const dbName = `dis_bench_${crypto.randomBytes(4).toString('hex')}`;
const pgUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${dbName}`);
let pgCreated = false;

const keyFor = (env: Record<string, string>) => benchKey(ROOT, env);
/** /metrics of the keyed servers: how many answers their fast path gave */
const METRICS_TOKEN = crypto.randomBytes(16).toString('hex');
async function fastShare(port: number): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const num = (re: RegExp) => text.split('\n').filter((l) => re.test(l)).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  const fast = num(/^dis_fast_path_answers_total /);
  const all = num(/^dis_http_requests_total\{route="\/v1\/resolve-entity",method="GET",status="(200|304)"\}/);
  const waits = num(/^dis_fast_path_waits_total /);
  return `${all ? ((100 * fast) / all).toFixed(1) : '0'}% of ${all} keyed answers${waits ? ` (${waits} waited there for Redis minute tokens)` : ''}`;
}

async function start(args: string[], env: Record<string, string>, ready: string, logLevel = 'warn'): Promise<{ p: ChildProcess; port: number; startupMs: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const p = startNode(args, { ...env, PORT: String(port), LOG_LEVEL: logLevel, METRICS_TOKEN });
  procs.push(p);
  await waitFor(`http://127.0.0.1:${port}${ready}`);
  return { p, port, startupMs: performance.now() - t0 };
}

interface Run extends WrkResult {
  cpuUsPerReq: number;
  userUsPerReq: number;
  pgUsPerReq?: number;
  redisUsPerReq?: number;
}

try {
  const sqliteEnv = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}` };
  const sqliteKey = keyFor(sqliteEnv);
  const auth = `Authorization: Bearer ${sqliteKey}`;
  const script = path.join(dir, 'rotate.lua');
  fs.writeFileSync(
    script,
    rotateScript(paths),
  );

  const keyed = await start([path.join(ROOT, 'dist/server.mjs')], sqliteEnv, '/health');
  const rss = rssMb(keyed.p.pid!);
  // Each query's body, fetched once from the service itself.
  const bodies: Record<string, string> = {};
  const headers: Record<string, Record<string, string>> = {};
  let keyedHeaderBytes = 0;
  for (const p of paths) {
    const r = await fetch(`http://127.0.0.1:${keyed.port}${p}`, { headers: { authorization: `Bearer ${sqliteKey}` } });
    if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
    bodies[p] = await r.text();
    r.headers.forEach((v, k) => (keyedHeaderBytes += k.length + v.length + 4));
    // every header but those any Node server writes itself
    headers[p] = Object.fromEntries([...r.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k)));
  }
  const bodiesFile = path.join(dir, 'bodies.json');
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const headersFile = path.join(dir, 'headers.json');
  fs.writeFileSync(headersFile, JSON.stringify(headers));
  const meanBody = Object.values(bodies).reduce((n, b) => n + Buffer.byteLength(b), 0) / paths.length;

  const http = await start([path.join(ROOT, 'bench/bare-http.mjs')], { BARE_BODIES: bodiesFile }, paths[0]!);
  const fastify = await start([path.join(ROOT, 'bench/bare-fastify.mjs')], { BARE_BODIES: bodiesFile }, paths[0]!);
  const fastifyHeaders = await start([path.join(ROOT, 'bench/bare-fastify-headers.mjs')], { BARE_BODIES: bodiesFile, BARE_HEADERS: headersFile }, paths[0]!);
  const httpHeaders = await start([path.join(ROOT, 'bench/bare-http-headers.mjs')], { BARE_BODIES: bodiesFile, BARE_HEADERS: headersFile }, paths[0]!);
  const keyedSlow = await start([path.join(ROOT, 'dist/server.mjs')], { ...sqliteEnv, KEYED_FAST_PATH: 'false' }, '/health');
  const keyedInfo = await start([path.join(ROOT, 'dist/server.mjs')], sqliteEnv, '/health', 'info');
  for (const p of paths) {
    const slow = await fetch(`http://127.0.0.1:${keyedSlow.port}${p}`, { headers: { authorization: `Bearer ${sqliteKey}` } });
    if ((await slow.text()) !== bodies[p]) throw new Error(`keyed with the fast path off does not answer the same bytes for ${p}`);
    for (const s of [http, fastify, fastifyHeaders, httpHeaders]) {
      const got = await (await fetch(`http://127.0.0.1:${s.port}${p}`)).text();
      if (got !== bodies[p]) throw new Error(`bare server on ${s.port} does not answer the same bytes for ${p}`);
    }
  }

  const configs: { name: string; port: number; pid: number; aux?: () => { pg: number[]; redis: number } }[] = [
    { name: 'bare node:http (same bytes)', port: http.port, pid: http.p.pid! },
    { name: 'bare Fastify (same bytes)', port: fastify.port, pid: fastify.p.pid! },
    { name: 'bare Fastify + keyed headers', port: fastifyHeaders.port, pid: fastifyHeaders.p.pid! },
    { name: 'keyed, embedded (SQLite)', port: keyed.port, pid: keyed.p.pid! },
    { name: 'bare node:http + keyed headers', port: httpHeaders.port, pid: httpHeaders.p.pid! },
    { name: 'keyed, embedded, fast path off', port: keyedSlow.port, pid: keyedSlow.p.pid! },
    { name: 'keyed, embedded, LOG_LEVEL=info (default)', port: keyedInfo.port, pid: keyedInfo.p.pid! },
  ];

  let pgKeyed: { port: number; pid: number; redisPid: number } | null = null;
  if (withPg) {
    execSync(`psql '${PG_ADMIN}' -qc 'CREATE DATABASE ${dbName}'`);
    pgCreated = true;
    // A private redis-server, so its CPU is ours alone (the shared one on 6379 serves tests).
    const { proc: redis, url: redisUrl } = await startPrivateRedis();
    procs.push(redis);
    const pgEnv = { DATABASE_URL: pgUrl, REDIS_URL: redisUrl };
    const pgKey = keyFor(pgEnv);
    // Same key string on both stores is not possible (keys are random), so the PG case gets its own
    // Lua script carrying its own key.
    const s = await start([path.join(ROOT, 'dist/server.mjs')], pgEnv, '/health');
    pgKeyed = { port: s.port, pid: s.p.pid!, redisPid: redis.pid! };
    const r = await fetch(`http://127.0.0.1:${s.port}${paths[0]}`, { headers: { authorization: `Bearer ${pgKey}` } });
    if (r.status !== 200) throw new Error(`PostgreSQL+Redis keyed answered ${r.status}: ${await r.text()}`);
    if ((await r.text()) !== bodies[paths[0]!]) throw new Error('PostgreSQL+Redis keyed answers different bytes');
    const backends = () =>
      execSync(`psql '${PG_ADMIN}' -Atc "SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}'"`, { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    configs.push({ name: 'keyed, PostgreSQL+Redis (1 process)', port: s.port, pid: s.p.pid!, aux: () => ({ pg: backends(), redis: redis.pid! }) });
    (configs.at(-1) as { header?: string }).header = `Authorization: Bearer ${pgKey}`;
  }

  const measure = (c: (typeof configs)[number], secs: number): Run => {
    const header = (c as { header?: string }).header ?? auth;
    const aux = c.aux?.();
    const pg0 = aux ? cpuUsOf(aux.pg) : 0;
    const rd0 = aux ? cpuUs(aux.redis) : 0;
    const t0 = cpuUs(c.pid);
    const u0 = userUs(c.pid);
    const r = wrk(`http://127.0.0.1:${c.port}/`, { seconds: secs, header, script });
    const used = cpuUs(c.pid) - t0;
    const run: Run = { ...r, cpuUsPerReq: used / r.requests, userUsPerReq: (userUs(c.pid) - u0) / r.requests };
    if (aux) {
      const pgPids = [...new Set([...aux.pg, ...c.aux!().pg])];
      run.pgUsPerReq = (cpuUsOf(pgPids) - pg0) / r.requests;
      run.redisUsPerReq = (cpuUs(aux.redis) - rd0) / r.requests;
    }
    if (r.non2xx) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers`);
    return run;
  };

  // Warm-up (JIT, memoised results, pool connections).
  for (const c of configs) measure(c, 2);
  const { runs, ratios } = alternatedRounds(configs, rounds, (c) => measure(c, seconds), (r) => r.cpuUsPerReq, (c) => c.name.split(' (')[0]!);

  console.log(`\n${paths.length} rotating queries, mean body ${meanBody.toFixed(0)} B (keyed answers carry about ${(keyedHeaderBytes / paths.length).toFixed(0)} B of headers, the bare ones about 130 B); wrk -t1 -c32, ${seconds} s per run, ${rounds} alternated rounds; medians.`);
  console.log('configuration                         CPU µs/req   ratio (node:http ÷ this)   req/s    p99 ms   PostgreSQL µs/req   Redis µs/req');
  const med = (name: string, f: (r: Run) => number | undefined) => median(runs.get(name)!.map((r) => f(r) ?? 0));
  for (const c of configs) {
    const rs = ratios.get(c.name)!;
    const pg = c.aux ? med(c.name, (r) => r.pgUsPerReq).toFixed(1).padStart(19) : ''.padStart(19);
    const rd = c.aux ? med(c.name, (r) => r.redisUsPerReq).toFixed(1).padStart(14) : '';
    console.log(
      `${c.name.padEnd(37)} ${med(c.name, (r) => r.cpuUsPerReq).toFixed(1).padStart(10)}   ${median(rs).toFixed(2).padStart(5)} (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})`.padEnd(76) +
        `${med(c.name, (r) => r.rps).toFixed(0).padStart(7)} ${med(c.name, (r) => r.p99ms).toFixed(2).padStart(8)} ${pg} ${rd}`,
    );
  }
  const h = med(configs[0]!.name, (r) => r.cpuUsPerReq);
  const f = med(configs[1]!.name, (r) => r.cpuUsPerReq);
  const fh = med(configs[2]!.name, (r) => r.cpuUsPerReq);
  const k = med(configs[3]!.name, (r) => r.cpuUsPerReq);
  const hh = med(configs[4]!.name, (r) => r.cpuUsPerReq);
  const slowK = med(configs[5]!.name, (r) => r.cpuUsPerReq);
  console.log(
    `\nthe keyed answer's headers on bare node:http: ${(hh - h).toFixed(1)} µs/req (ratio ${(h / hh).toFixed(2)}: the ceiling of any node:http server writing these bytes); ` +
      `embedded keyed ${k.toFixed(1)} µs against ${slowK.toFixed(1)} µs with the fast path off (${(k / slowK).toFixed(2)}×); ours beyond bare node:http with the same headers: ${(k - hh).toFixed(1)} µs.`,
  );
  console.log(
    `\nembedded keyed: ${(k - h).toFixed(1)} µs/req above bare node:http, of which bare Fastify accounts for ${(f - h).toFixed(1)} µs (${((100 * (f - h)) / (k - h)).toFixed(0)}%), ` +
      `the keyed answer's headers on bare Fastify for ${(fh - f).toFixed(1)} µs (${((100 * (fh - f)) / (k - h)).toFixed(0)}%); ours beyond Fastify with the same bytes: ${(k - fh).toFixed(1)} µs.`,
  );
  const p99 = (n: string) => med(n, (r) => r.p99ms);
  const pgName = 'keyed, PostgreSQL+Redis (1 process)';
  console.log(`p99 keyed ÷ p99 bare node:http, each flat out (closed loop; see the same-load p99 below): embedded ${(p99(configs[3]!.name) / p99(configs[0]!.name)).toFixed(2)}${withPg ? `, PostgreSQL+Redis ${(p99(pgName) / p99(configs[0]!.name)).toFixed(2)}` : ''} (target <= 2)`);
  // issue 25: both ratios for the default configuration, warn, and PostgreSQL + Redis
  const bareName = configs[0]!.name;
  const targets: [string, string, number][] = [
    ['default configuration (LOG_LEVEL=info, embedded SQLite)', 'keyed, embedded, LOG_LEVEL=info (default)', 0.6],
    ['LOG_LEVEL=warn, embedded SQLite', configs[3]!.name, 0.75],
    ...(withPg ? [['PostgreSQL + Redis, 1 process, gateway CPU', pgName, 0.5] as [string, string, number]] : []),
  ];
  const roundRatio = (name: string, f: (r: Run) => number, inverse: boolean) =>
    median(runs.get(name)!.map((r, i) => (inverse ? f(runs.get(bareName)![i]!) / f(r) : f(r) / f(runs.get(bareName)![i]!))));
  // instructions per request: one more run of each at the end, with perf attached
  const perRequest = new Map<string, { value: number; unit: string; why?: string }>();
  for (const name of [bareName, ...targets.map((t) => t[1])]) {
    const c = configs.find((x) => x.name === name)!;
    const header = (c as { header?: string }).header ?? auth;
    const u0 = userUs(c.pid);
    const got = await instructionsDuring(c.pid, () => wrk(`http://127.0.0.1:${c.port}/`, { seconds, header, script }));
    const userPerReq = (userUs(c.pid) - u0) / got.result.requests;
    perRequest.set(name, got.instructions !== null ? { value: got.instructions / got.result.requests, unit: 'instructions:u' } : { value: userPerReq, unit: 'user CPU µs', why: got.why });
  }
  const why = [...perRequest.values()].find((v) => v.why)?.why;
  for (const c of configs.filter((x) => x.name.startsWith('keyed'))) console.log(`fast path answered, ${c.name}: ${await fastShare(c.port)}`);
  console.log(`\nratios against bare node:http (median of ${rounds} alternated rounds; per-request figure from one more run with perf attached${why ? `: ${why}, so user-space CPU µs per request stands in` : ''}):`);
  console.log('configuration                                               CPU/req ratio   throughput ratio   per-request ratio (' + (why ? 'user CPU µs' : 'instructions:u') + ')   target (CPU/req)');
  for (const [label, name, target] of targets) {
    const cpu = roundRatio(name, (r) => r.cpuUsPerReq, true);
    const thr = roundRatio(name, (r) => r.rps, false);
    const pr = perRequest.get(bareName)!.value / perRequest.get(name)!.value;
    console.log(`${label.padEnd(60)} ${cpu.toFixed(2).padStart(13)}   ${thr.toFixed(2).padStart(16)}   ${pr.toFixed(2).padStart(10)} (${perRequest.get(name)!.value.toFixed(1)} vs ${perRequest.get(bareName)!.value.toFixed(1)})   >= ${target} ${cpu >= target ? 'met' : 'not met'}`);
  }
  console.log(`start-up to first healthy answer (embedded): ${keyed.startupMs.toFixed(0)} ms; resident memory after start-up: ${rss.toFixed(0)} MB.`);
  console.log(`note: wrk (1 thread) shares the machine's ${os.cpus().length} cores with the servers; req/s and p99 move with the machine's load, CPU per request far less.`);

  // p99 at the same load (issue 14's latency target). Under wrk's closed loop above, each server
  // runs flat out, so a server with more CPU per request also queues longer: that is throughput, not
  // tail latency. Here every server is offered the same rate, below what the keyed configurations
  // sustained: each of wrk's 32 connections waits delay() ms after each answer (wrk's Lua hook), so
  // the rate is about 32 ÷ (delay + latency). BENCH_P99_RATE sets the rate (requests per second).
  // Each measured run follows 1 s at the same rate (steady state).
  const keyedNames = configs.filter((c) => c.name.startsWith('keyed') && !c.name.includes('fast path off')).map((c) => c.name);
  const sustained = Math.min(...keyedNames.map((n) => med(n, (r) => r.rps)));
  const rate = Number(process.env.BENCH_P99_RATE ?? Math.max(500, Math.round((sustained * 0.5) / 500) * 500));
  const delayMs = Math.max(1, Math.round((32 * 1000) / rate));
  const paced = path.join(dir, 'paced.lua');
  fs.writeFileSync(paced, `${fs.readFileSync(script, 'utf8')}delay = function()\n  return ${delayMs}\nend\n`);
  const p99Configs = configs.filter((c) => c.name === configs[0]!.name || c.name === configs[4]!.name || keyedNames.includes(c.name));
  const paced99 = new Map<string, { p99: number[]; rps: number[] }>(p99Configs.map((c) => [c.name, { p99: [], rps: [] }]));
  for (let round = 0; round < 3; round++) {
    for (const c of round % 2 ? [...p99Configs].reverse() : p99Configs) {
      const header = (c as { header?: string }).header ?? auth;
      // 1 s at that rate first, not measured: steady state, as the issue's "at the same load" asks
      // (a key idle while the other servers ran starts on the Fastify path until its rate is
      // measured, 250 ms, and its first lease block and minute tokens are reserved)
      wrk(`http://127.0.0.1:${c.port}/`, { seconds: 1, header, script: paced });
      const r = wrk(`http://127.0.0.1:${c.port}/`, { seconds, header, script: paced });
      if (r.non2xx) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers at the paced load`);
      paced99.get(c.name)!.p99.push(r.p99ms);
      paced99.get(c.name)!.rps.push(r.rps);
    }
  }
  const bareP99 = median(paced99.get(configs[0]!.name)!.p99);
  console.log(`\np99 at the same offered load (about ${rate} req/s: each of 32 connections waits ${delayMs} ms after each answer; 3 alternated runs, medians):`);
  for (const c of p99Configs) {
    const v = paced99.get(c.name)!;
    console.log(`  ${c.name.padEnd(37)} p99 ${median(v.p99).toFixed(2).padStart(6)} ms   ${(median(v.p99) / bareP99).toFixed(2)} × bare node:http   (${median(v.rps).toFixed(0)} req/s)`);
  }

  if (process.env.BENCH_PROFILE === '1') {
    const file = path.join(dir, 'keyed.cpuprofile');
    const probe = path.join(ROOT, 'bench/lib/cpu-profile-probe.mjs');
    // the keyed fast path on (the default), then off (every request through Fastify): before/after
    for (const [label, env] of [['fast path on', {}], ['fast path off (KEYED_FAST_PATH=false)', { KEYED_FAST_PATH: 'false' }]] as const) {
      fs.rmSync(file, { force: true });
      const s = await start(['--import', probe, path.join(ROOT, 'dist/server.mjs')], { ...sqliteEnv, ...env, CPU_PROFILE_FILE: file }, '/health');
      const summary = await profileUnderLoad(s, file, seconds, { header: auth, script }, Number(process.env.BENCH_PROFILE_TOP ?? 25));
      if (!summary) console.log('profile: none written');
      else console.log(`\nprofile of the embedded keyed server, ${label}, over one ${seconds} s run (self time, top frames):\n${summary}`);
      s.p.kill();
    }
  }
} finally {
  for (const p of procs) p.kill();
  await new Promise((r) => setTimeout(r, 200));
  if (pgCreated) execSync(`psql '${PG_ADMIN}' -qc 'DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)'`);
  fs.rmSync(dir, { recursive: true, force: true });
}
