// `npm run bench`: keyed /v1/resolve-entity (embedded SQLite, one process) against a bare Fastify
// handler, measured in the same run with wrk; plus start-up time and resident memory after start.
// Prints ratios, never pass/fail. wrk shares the 2 cores with the server, so absolute numbers are
// low and noisy; the ratio is what to read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ensureWrk, freePort, rssMb, startNode, waitFor, wrk } from './lib/load.ts';
import { resolveBody } from './lib/body.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
ensureWrk();
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-bench-'));
const env = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`, LOG_LEVEL: 'warn' };
const admin = (...a: string[]) => execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), ...a], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
admin('plans', 'set', 'bench', '--monthly', '1000000000', '--per-minute', '1000000000');
const key = JSON.parse(admin('keys', 'create', '--client', 'bench', '--plan', 'bench', '--json')).key as string;

const barePort = await freePort();
const bare = startNode(['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts')], { PORT: String(barePort), BARE_BODY: resolveBody(ROOT, 'cabernet sauvignon') });
const ourPort = await freePort();
const t0 = performance.now();
const ours = startNode([path.join(ROOT, 'dist/server.mjs')], { ...env, PORT: String(ourPort) });
try {
  await waitFor(`http://127.0.0.1:${ourPort}/health`);
  const startupMs = performance.now() - t0;
  const rss = rssMb(ours.pid!);
  await waitFor(`http://127.0.0.1:${barePort}/v1/resolve-entity`);
  const q = 'q=cabernet%20sauvignon';
  // warm-up both
  wrk(`http://127.0.0.1:${barePort}/v1/resolve-entity?${q}`, { seconds: 2 });
  wrk(`http://127.0.0.1:${ourPort}/v1/resolve-entity?${q}`, { seconds: 2, header: `Authorization: Bearer ${key}` });
  const b = wrk(`http://127.0.0.1:${barePort}/v1/resolve-entity?${q}`, { seconds });
  const k = wrk(`http://127.0.0.1:${ourPort}/v1/resolve-entity?${q}`, { seconds, header: `Authorization: Bearer ${key}` });
  const row = (name: string, r: typeof b) => `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50ms.toFixed(2).padStart(6)} ms   p99 ${r.p99ms.toFixed(2).padStart(6)} ms   non-2xx ${r.non2xx}`;
  console.log(row('bare Fastify handler (same body)', b));
  console.log(row('keyed /v1/resolve-entity (SQLite)', k));
  console.log(`throughput ratio keyed/bare: ${(k.rps / b.rps).toFixed(2)}   (target >= 0.8)`);
  console.log(`p99 ratio keyed/bare:        ${(k.p99ms / b.p99ms).toFixed(2)}   (target <= 2)`);
  console.log(`start-up to first healthy answer: ${startupMs.toFixed(0)} ms (target <= 1500)   resident memory after start-up: ${rss.toFixed(0)} MB (target <= 150)`);
  console.log(`note: wrk (1 thread) and the server share ${os.cpus().length} cores; figures are from one noisy run.`);
} finally {
  bare.kill();
  ours.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
