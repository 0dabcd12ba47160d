// `npm run bench:soak`: a long run of mixed traffic against (1) the embedded default (SQLite, one
// process) and (2) PostgreSQL + Redis (one process), with wrk. Not a test: it reports, it never
// fails a build. Traffic, four wrk processes at once, each on its own connections:
//   keyed      a key with a large plan, resolve-entity over a set of queries that resolve (200)
//   over-limit a key with a per-minute limit of 300 and a monthly allowance of 1,500: 200s, then 429
//              RATE_LIMITED every minute, then 429 QUOTA_EXCEEDED
//   demo       /v1/demo/resolve-entity from a random IPv4 client per request (TRUST_PROXY=true,
//              X-Forwarded-For): 200s and the demo's per-address and per-network 429s
//   unknown    well-formed keys that do not exist, random client addresses: 401 (and 429 when
//              failed authentication is limited per address)
//   unique-urls a valid key, every request line made unique and about 8 KB long by an ignored
//              parameter (issue 25): resident memory must stay flat (the fast path remembers only
//              short request lines, within a byte budget)
// Every minute: resident memory and event-loop delay p99 of the server (sampled inside it every
// 10 s by bench/lib/process-probe.mjs, preloaded with --import), requests and 5xx per class. At the
// end: usage counted by the server (GET /v1/usage) against the 200s wrk received for each key.
// The demo daily cap is raised (DEMO_DAILY_CAP) so that its 503 after the cap does not pass for a
// fault; no fault is injected, so every 5xx is a finding.
// SOAK_MINUTES (default 10) per configuration; SOAK_ONLY=embedded|pg to run one. For bisecting a
// memory trend: SOAK_CLASSES=keyed,demo (a comma list of the classes above; default all five),
// SOAK_NODE_ARGS="--trace-gc …" (extra node flags for the server) and SOAK_PROBE_OUT=<dir> (keep the
// server's probe lines: rss, heapUsed, heapTotal, external, arrayBuffers every 10 s).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, execSync, spawn, type ChildProcess } from 'node:child_process';
import { ensureWrk, freePort, startNode, waitFor } from './lib/load.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const segmentSeconds = Number(process.env.SOAK_SEGMENT_SECONDS ?? 60);
const only = process.env.SOAK_ONLY;
const onlyClasses = process.env.SOAK_CLASSES ? new Set(process.env.SOAK_CLASSES.split(',').map((s) => s.trim())) : null;
const nodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`;
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/6';
const QUERIES = ['cabernet sauvignon', 'merlot', 'rioja', 'champagne', 'islay', 'chablis', 'pinot noir', 'riesling', 'barolo', 'sancerre', 'syrah', 'malbec'];

ensureWrk();
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-soak-'));

const lua = (s: string) => JSON.stringify(s); // a JSON string is a valid Lua string literal here (ASCII)

/** A wrk script: rotates through `paths`, sets the headers, counts statuses per thread, prints them. */
function script(name: string, paths: string[], opts: { auth?: string; randomKey?: boolean; randomClient?: boolean; uniqueLong?: boolean }): string {
  const file = path.join(dir, `${name}.lua`);
  fs.writeFileSync(
    file,
    `
local paths = {${paths.map(lua).join(', ')}}
local auth = ${opts.auth ? lua(`Bearer ${opts.auth}`) : 'nil'}
local randomKey = ${opts.randomKey ? 'true' : 'false'}
local randomClient = ${opts.randomClient ? 'true' : 'false'}
local uniqueLong = ${opts.uniqueLong ? 'true' : 'false'}
local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
local threads = {}
local i = 0
counts = {}
codes5 = {}
sent = 0
function setup(thread) table.insert(threads, thread) end
function init(args) math.randomseed(os.time() + math.random(1, 1000000)) end
request = function()
  i = i + 1
  sent = sent + 1
  local h = {}
  if auth then h["Authorization"] = auth end
  if randomKey then
    local t = {}
    for j = 1, 32 do local n = math.random(1, 64); t[j] = alphabet:sub(n, n) end
    h["Authorization"] = "Bearer dis_live_" .. table.concat(t)
  end
  if randomClient then
    h["X-Forwarded-For"] = string.format("%d.%d.%d.%d", math.random(11, 200), math.random(0, 255), math.random(0, 255), math.random(1, 254))
  end
  local p = paths[(i % #paths) + 1]
  if uniqueLong then
    -- an unknown parameter (ignored) makes every request line unique and about 8 KB long
    local t = {}
    for j = 1, 8000 do local n = math.random(1, 62); t[j] = alphabet:sub(n, n) end
    p = p .. "&pad=" .. i .. table.concat(t)
  end
  return wrk.format("GET", p, h)
end
response = function(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if status >= 500 then
    -- the code and the start of the message (which store: "The key and usage store", "The rate-limit store")
    local code = (body:match('"code":"([A-Z_]+)"') or "unknown") .. ": " .. ((body:match('"message":"([^"]*)"') or ""):sub(1, 28):gsub('[^%w %-]', ''))
    codes5[code] = (codes5[code] or 0) + 1
  end
end
done = function(summary, latency, requests)
  local agg = {}
  local s = 0
  local c5 = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("codes5")) do c5[k] = (c5[k] or 0) + v end
    for k, v in pairs(t:get("counts")) do agg[k] = (agg[k] or 0) + v end
    s = s + t:get("sent")
  end
  agg["sent"] = s
  local parts = {}
  for k, v in pairs(agg) do table.insert(parts, '"' .. k .. '":' .. v) end
  io.write("STATUS_JSON {" .. table.concat(parts, ",") .. "}\\n")
  local p5 = {}
  for k, v in pairs(c5) do table.insert(p5, '"' .. k .. '":' .. v) end
  io.write("FIVEXX_JSON {" .. table.concat(p5, ",") .. "}\\n")
  io.write(string.format("ERRORS_JSON {\\"connect\\":%d,\\"read\\":%d,\\"write\\":%d,\\"timeout\\":%d,\\"status\\":%d}\\n", summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
end
`,
  );
  return file;
}

interface ClassRun {
  /** answers by status, and "sent": requests written (those beyond the answers were cut off by the end of the run) */
  statuses: Record<string, number>;
  errors: Record<string, number>;
  /** 5xx answers by error code */
  codes5xx: Record<string, number>;
}

function runWrk(url: string, scriptFile: string, connections: number, seconds: number): Promise<ClassRun> {
  return new Promise((resolve, reject) => {
    const p = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', scriptFile, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => {
      const s = /STATUS_JSON (\{.*\})/.exec(out);
      const e = /ERRORS_JSON (\{.*\})/.exec(out);
      const f = /FIVEXX_JSON (\{.*\})/.exec(out);
      if (code !== 0 || !s || !e || !f) return reject(new Error(`wrk exited ${code}:\n${out}`));
      resolve({ statuses: JSON.parse(s[1]!), errors: JSON.parse(e[1]!), codes5xx: JSON.parse(f[1]!) });
    });
  });
}

function admin(env: Record<string, string>, ...a: string[]) {
  return execFileSync(process.execPath, [path.join(ROOT, 'dist/cli/admin.mjs'), ...a], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
}

const sum = (o: Record<string, number>, pred: (status: number) => boolean) => Object.entries(o).reduce((n, [k, v]) => n + (k !== 'sent' && pred(Number(k)) ? v : 0), 0);
/** requests wrk sent but whose answer it did not wait for when the segment ended */
const cutOff = (o: Record<string, number>) => (o.sent ?? 0) - sum(o, () => true);
const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

interface Probe {
  t: number;
  rss_mb: number;
  heap_mb: number;
  heap_total_mb?: number;
  external_mb?: number;
  array_buffers_mb?: number;
  heap_after_major_gc_mb?: number | null;
  major_gcs?: number;
  gc_ms?: number;
  loop_p99_ms: number;
  loop_max_ms: number;
}

const procs: ChildProcess[] = [];

async function soak(name: string, env: Record<string, string>) {
  admin(env, 'db', 'migrate');
  admin(env, 'plans', 'set', 'soak', '--monthly', '1000000000', '--per-minute', '1000000000');
  admin(env, 'plans', 'set', 'soak-tight', '--monthly', '1500', '--per-minute', '300');
  const keyedRec = JSON.parse(admin(env, 'keys', 'create', '--client', 'soak keyed', '--plan', 'soak', '--json')) as { id: string; key: string };
  const tightRec = JSON.parse(admin(env, 'keys', 'create', '--client', 'soak over-limit', '--plan', 'soak-tight', '--json')) as { id: string; key: string };
  const uniqueRec = JSON.parse(admin(env, 'keys', 'create', '--client', 'soak unique urls', '--plan', 'soak', '--json')) as { id: string; key: string };
  const keyed = keyedRec.key;
  const tight = tightRec.key;

  const port = await freePort();
  const probeFile = path.join(dir, `probe-${name.replace(/\W+/g, '-')}.jsonl`);
  const server = startNode([...nodeArgs, '--import', path.join(ROOT, 'bench/lib/process-probe.mjs'), path.join(ROOT, 'dist/server.mjs')], {
    ...env,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    DEMO_DAILY_CAP: '1000000000',
    PROCESS_PROBE_FILE: probeFile,
    PROCESS_PROBE_MS: '10000',
  });
  procs.push(server);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health`);

  const q = QUERIES.map((x) => `/v1/resolve-entity?q=${encodeURIComponent(x)}`);
  const dq = QUERIES.map((x) => `/v1/demo/resolve-entity?q=${encodeURIComponent(x)}`);
  const classes = [
    { name: 'keyed', script: script(`${name}-keyed`, q, { auth: keyed }), connections: 16 },
    { name: 'over-limit', script: script(`${name}-tight`, q, { auth: tight }), connections: 4 },
    { name: 'demo', script: script(`${name}-demo`, dq, { randomClient: true }), connections: 4 },
    { name: 'unknown', script: script(`${name}-unknown`, q, { randomKey: true, randomClient: true }), connections: 4 },
    // issue 25: a key holder making every request line unique and long must not grow the fast path's
    // memo of request lines (only short lines are remembered, within a byte budget)
    { name: 'unique-urls', script: script(`${name}-unique`, q, { auth: uniqueRec.key, uniqueLong: true }), connections: 2 },
  ].filter((c) => !onlyClasses || onlyClasses.has(c.name));
  const totals: Record<string, ClassRun> = Object.fromEntries(classes.map((c) => [c.name, { statuses: {}, errors: {}, codes5xx: {} }]));

  console.log(`\n== ${name}: ${minutes} × ${segmentSeconds} s`);
  console.log(`classes: ${classes.map((c) => c.name).join(', ')}`);
  console.log('minute  rss MB  heap MB  heap total  external  arrayBuf  live MB  full GCs  GC ms  loop p99 ms  loop max ms   req/s  keyed 200  over-limit 200/429  demo 200/429  unknown 401/429   5xx  socket errors');
  let probesSeen = 0;
  const rows: { rss: number; p99: number; live: number }[] = [];
  for (let m = 1; m <= minutes; m++) {
    const runs = await Promise.all(classes.map((c) => runWrk(base, c.script, c.connections, segmentSeconds)));
    const probes = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Probe) : [];
    const fresh = probes.slice(probesSeen);
    probesSeen = probes.length;
    const rss = fresh.at(-1)?.rss_mb ?? NaN; // minute 1 includes start-up (knowledge-base load)
    const heap = fresh.at(-1)?.heap_mb ?? NaN;
    const mem = (k: 'heap_total_mb' | 'external_mb' | 'array_buffers_mb') => (fresh.at(-1)?.[k] ?? NaN).toFixed(1);
    // the V8 heap just after this minute's full GCs (the live set, garbage excluded), and their number
    const lows = fresh.map((p) => p.heap_after_major_gc_mb).filter((v): v is number => typeof v === 'number');
    const live = lows.length ? Math.min(...lows) : NaN;
    const majors = fresh.reduce((n, p) => n + (p.major_gcs ?? 0), 0);
    const gcMs = fresh.reduce((n, p) => n + (p.gc_ms ?? 0), 0);
    const p99 = Math.max(...fresh.map((p) => p.loop_p99_ms));
    const max = Math.max(...fresh.map((p) => p.loop_max_ms));
    rows.push({ rss, p99, live });
    const by = Object.fromEntries(classes.map((c, i) => [c.name, runs[i]!]));
    classes.forEach((c, i) => {
      add(totals[c.name]!.statuses, runs[i]!.statuses);
      add(totals[c.name]!.errors, runs[i]!.errors);
      add(totals[c.name]!.codes5xx, runs[i]!.codes5xx);
    });
    const all = runs.reduce((n, r) => n + sum(r.statuses, () => true), 0);
    const fivexx = runs.reduce((n, r) => n + sum(r.statuses, (s) => s >= 500), 0);
    const sockErr = runs.reduce((n, r) => n + (r.errors.connect ?? 0) + (r.errors.read ?? 0) + (r.errors.write ?? 0) + (r.errors.timeout ?? 0), 0);
    const st = (c: string, s: number) => by[c]?.statuses[String(s)] ?? 0;
    console.log(
      `${String(m).padStart(6)} ${rss.toFixed(1).padStart(7)} ${heap.toFixed(1).padStart(8)} ${mem('heap_total_mb').padStart(10)} ${mem('external_mb').padStart(9)} ${mem('array_buffers_mb').padStart(9)} ${live.toFixed(1).padStart(8)} ${String(majors).padStart(9)} ${String(gcMs).padStart(6)} ${p99.toFixed(2).padStart(12)} ${max.toFixed(2).padStart(12)} ${(all / segmentSeconds).toFixed(0).padStart(7)} ${String(st('keyed', 200)).padStart(10)} ${`${st('over-limit', 200)}/${st('over-limit', 429)}`.padStart(19)} ${`${st('demo', 200)}/${st('demo', 429)}`.padStart(13)} ${`${st('unknown', 401)}/${st('unknown', 429)}`.padStart(16)} ${String(fivexx).padStart(5)} ${String(sockErr).padStart(14)}`,
    );
  }

  server.kill('SIGTERM'); // graceful: answers in flight are counted before it exits
  await new Promise((r) => server.once('exit', r));
  // read from the store with the admin CLI (/v1/usage is under the per-minute limit)
  if (process.env.SOAK_PROBE_OUT) {
    fs.mkdirSync(process.env.SOAK_PROBE_OUT, { recursive: true });
    fs.copyFileSync(probeFile, path.join(process.env.SOAK_PROBE_OUT, path.basename(probeFile)));
  }
  const usage = (id: string) => (JSON.parse(admin(env, 'usage', id, '--json')) as { usage: { used: number } }).usage.used;
  const counted = { keyed: usage(keyedRec.id), tight: usage(tightRec.id) };
  const ok = { keyed: totals.keyed?.statuses['200'] ?? 0, tight: totals['over-limit']?.statuses['200'] ?? 0 };
  const notFound = { keyed: totals.keyed?.statuses['404'] ?? 0, tight: totals['over-limit']?.statuses['404'] ?? 0 };

  console.log(`totals per class: ${classes.map((c) => `${c.name} ${JSON.stringify(totals[c.name]!.statuses)}`).join('; ')}`);
  const first = rows[0]!;
  const last = rows.at(-1)!;
  const growth = rows.length > 1 ? last.rss - Math.min(...rows.slice(1).map((r) => r.rss)) : 0;
  console.log(`resident memory: ${first.rss.toFixed(1)} MB after minute 1, ${last.rss.toFixed(1)} MB at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB over the lowest reading after minute 1)`);
  const lives = rows.slice(1).map((r) => r.live).filter((v) => Number.isFinite(v));
  if (lives.length) console.log(`V8 heap after full GC (live set), minutes 2-${rows.length}: ${Math.min(...lives).toFixed(1)}-${Math.max(...lives).toFixed(1)} MB; first half max ${Math.max(...lives.slice(0, Math.ceil(lives.length / 2))).toFixed(1)}, second half max ${Math.max(...lives.slice(Math.ceil(lives.length / 2))).toFixed(1)}`);
  console.log(`event-loop delay p99: minute 1 ${first.p99.toFixed(2)} ms, worst later minute ${Math.max(...rows.slice(1).map((r) => r.p99), 0).toFixed(2)} ms`);
  // wrk stops each segment with requests in flight: the server counts and answers them, wrk has
  // closed the connection. Those answers were never received, so usage may exceed the 200s by at
  // most that many (at-least-once), and must never fall below them.
  const cut = { keyed: cutOff(totals.keyed?.statuses ?? {}), tight: cutOff(totals['over-limit']?.statuses ?? {}) };
  for (const k of ['keyed', 'tight'] as const) {
    const answered = ok[k] + notFound[k];
    const extra = counted[k] - answered;
    const verdict = extra === 0 ? 'equal' : extra > 0 && extra <= cut[k] ? `equal but for ${extra} of the ${cut[k]} requests cut off in flight by wrk at segment ends` : `MISMATCH by ${extra} (cut off in flight: ${cut[k]})`;
    console.log(`usage ${k === 'keyed' ? 'keyed     ' : 'over-limit'}: counted ${counted[k]}, answered 200 ${ok[k]} (+ 404 ${notFound[k]}): ${verdict}`);
  }
  const fivexx = Object.values(totals).reduce((n, r) => n + sum(r.statuses, (s) => s >= 500), 0);
  const codes: Record<string, number> = {};
  for (const r of Object.values(totals)) add(codes, r.codes5xx);
  console.log(`5xx: ${fivexx} (no faults injected)${fivexx ? ` by code: ${JSON.stringify(codes)}` : ''}`);
}

const dbName = `dis_soak_${crypto.randomBytes(4).toString('hex')}`;
const pgUrl = PG_ADMIN.replace(/\/[^/]*$/, `/${dbName}`);
try {
  console.log(`soak: ${minutes} min per configuration; wrk (4 processes, 1 thread each) shares ${os.cpus().length} cores with the server`);
  if (only !== 'pg') await soak('embedded (SQLite, 1 process)', { DATABASE_URL: `sqlite:${path.join(dir, 'soak.db')}` });
  if (only !== 'embedded') {
    execSync(`psql '${PG_ADMIN}' -qc 'CREATE DATABASE ${dbName}'`);
    execSync(`redis-cli -u '${REDIS}' flushdb >/dev/null`);
    await soak('PostgreSQL + Redis, 1 process', { DATABASE_URL: pgUrl, REDIS_URL: REDIS });
  }
} finally {
  for (const p of procs) if (p.exitCode === null) p.kill();
  if (only !== 'embedded') {
    execSync(`psql '${PG_ADMIN}' -qc 'DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)'`);
    execSync(`redis-cli -u '${REDIS}' flushdb >/dev/null`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
