// `npm run bench:startup`: start-up time of `npm start`'s bundle (embedded SQLite, engine in-process)
// to its first healthy answer, and resident memory after start-up and after resolving every query of
// the demand set once through the demo-free keyed path's engine. The baseline is a bare node:http
// server started the same way in the same run, so the ratio shows what loading the knowledge base
// and building the index cost. Targets (issue 8): start-up <= 1.5 s, resident memory <= 200 MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { freePort, rssMb, startNode, waitFor } from './lib/load.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-startup-'));
const bareJs = path.join(dir, 'bare.mjs');
fs.writeFileSync(bareJs, "import http from 'node:http'; http.createServer((q, r) => r.end('{}')).listen(Number(process.env.PORT), '127.0.0.1');\n");
const queries: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/resolve/demand-queries.json'), 'utf8')).queries.map((q: { q: string }) => q.q);

async function once(args: string[], env: Record<string, string>, probe: string, load: boolean) {
  const port = await freePort();
  const t0 = performance.now();
  const p = startNode(args, { ...env, PORT: String(port) });
  try {
    await waitFor(`http://127.0.0.1:${port}${probe}`, 30_000);
    const ms = performance.now() - t0;
    const rss = rssMb(p.pid!);
    let rssAfter = rss;
    if (load) {
      for (const q of queries) await fetch(`http://127.0.0.1:${port}/v1/demo/resolve-entity?q=${encodeURIComponent(q.slice(0, 80))}`).then((r) => r.arrayBuffer());
      rssAfter = rssMb(p.pid!);
    }
    return { ms, rss, rssAfter };
  } finally {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
  }
}

const rows: { bare: number; ours: number; rss: number; rssAfter: number }[] = [];
for (let i = 0; i < rounds; i++) {
  const bare = await once([bareJs], {}, '/', false);
  const ours = await once([path.join(ROOT, 'dist/server.mjs')], {
    DATABASE_URL: `sqlite:${path.join(dir, `s${i}.db`)}`, LOG_LEVEL: 'warn', DEMO_PER_IP_PER_MINUTE: '100000', DEMO_PER_IP_PER_HOUR: '100000', DEMO_DAILY_CAP: '1000000',
  }, '/health', true);
  rows.push({ bare: bare.ms, ours: ours.ms, rss: ours.rss, rssAfter: ours.rssAfter });
  console.log(`round ${i + 1}: bare node:http ${bare.ms.toFixed(0)} ms; ours ${ours.ms.toFixed(0)} ms to healthy, ${ours.rss.toFixed(0)} MB after start, ${ours.rssAfter.toFixed(0)} MB after ${queries.length} demand queries`);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ours = med(rows.map((r) => r.ours));
const bare = med(rows.map((r) => r.bare));
const rss = Math.max(...rows.map((r) => r.rssAfter));
console.log(`\nmedian start-up ${ours.toFixed(0)} ms (bare node:http ${bare.toFixed(0)} ms; ratio ${(ours / bare).toFixed(1)}); target <= 1500 ms: ${ours <= 1500 ? 'met' : 'MISSED'}`);
console.log(`peak resident memory ${rss.toFixed(0)} MB; target <= 200 MB: ${rss <= 200 ? 'met' : 'MISSED'}`);
fs.rmSync(dir, { recursive: true, force: true });
