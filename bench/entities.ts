// `npm run bench:entities` (issue 10): on the embedded default (`npm start`'s bundle, SQLite, engine
// in-process), 1. the wall time of a full cursor walk over every served entity through the keyed
// GET /v1/entities at limit=100 (target <= 2 s), and 2. the server's CPU time per request of
// GET /v1/entities/{id} against GET /v1/explain for the same entities (explain by canonical name),
// from /proc/<pid>/stat, as a ratio in the same run (target: entity by id costs no more than
// explain, ratio <= 1.0). Each entity is asked once per round, so both sides do the work of a first
// answer (never a memoised one); rounds alternate which side goes first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Agent, request } from 'undici';
import { freePort, startNode, waitFor } from './lib/load.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? 300);
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-entities-'));
const env = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`, LOG_LEVEL: 'warn' };
const admin = (...a: string[]) => execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), ...a], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
admin('db', 'migrate');
admin('plans', 'set', 'bench', '--monthly', '1000000000', '--per-minute', '1000000000');
const key = JSON.parse(admin('keys', 'create', '--client', 'bench', '--plan', 'bench', '--json')).key as string;
const headers = { authorization: `Bearer ${key}` };
const agent = new Agent({ connections: 4 });

/** user + system CPU time of a process, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) * 10;
}

async function get(base: string, p: string) {
  const r = await request(`${base}${p}`, { dispatcher: agent, headers });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`${p}: ${r.statusCode} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

const port = await freePort();
const server = startNode([path.join(ROOT, 'dist/server.mjs')], { ...env, PORT: String(port) });
const base = `http://127.0.0.1:${port}`;
try {
  await waitFor(`${base}/health`, 30_000);
  // 1. full cursor walk
  const walks: number[] = [];
  let all: { entity_id: string; entity_key: string; canonical_name: string }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    const seen: { entity_id: string; entity_key: string; canonical_name: string }[] = [];
    let cursor: string | null = null;
    do {
      const b = await get(base, `/v1/entities?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...b.entities);
      cursor = b.next_cursor;
    } while (cursor);
    walks.push(performance.now() - t0);
    all = seen;
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`full cursor walk: ${all.length} entities in ${Math.ceil(all.length / 100)} pages; median ${med(walks).toFixed(0)} ms over ${ROUNDS} walks (first walk ${walks[0]!.toFixed(0)} ms); target <= 2000 ms: ${med(walks) <= 2000 ? 'met' : 'MISSED'}`);

  // 2. CPU per request: entity by id vs explain by name, same entities
  const step = Math.max(1, Math.floor(all.length / SAMPLE));
  const sample = all.filter((_, i) => i % step === 0).slice(0, SAMPLE);
  const ratios: number[] = [];
  // every round asks new requests of both sides (the engine memoises answers): by id in the three
  // forms the API accepts (entity_id, the same in upper case, the permanent key), explain with a
  // trailing space more each round (ignored by the resolver, so the same answer is computed afresh)
  const idForms = [(e: (typeof all)[0]) => e.entity_id, (e: (typeof all)[0]) => e.entity_id.toUpperCase(), (e: (typeof all)[0]) => encodeURIComponent(e.entity_key)];
  for (let r = 0; r < idForms.length; r++) {
    const sides = r % 2 === 0 ? ['id', 'explain'] : ['explain', 'id'];
    const cpu: Record<string, number> = {};
    for (const side of sides) {
      const c0 = cpuMs(server.pid!);
      for (const e of sample) {
        if (side === 'id') await get(base, `/v1/entities/${idForms[r]!(e)}`);
        else await get(base, `/v1/explain?q=${encodeURIComponent(e.canonical_name + ' '.repeat(r))}`);
      }
      cpu[side] = (cpuMs(server.pid!) - c0) / sample.length;
    }
    ratios.push(cpu.id! / cpu.explain!);
    console.log(`round ${r + 1}: CPU per request: entity by id ${(cpu.id! * 1000).toFixed(0)} µs, explain ${(cpu.explain! * 1000).toFixed(0)} µs, ratio ${(cpu.id! / cpu.explain!).toFixed(2)}`);
  }
  console.log(`median ratio entity-by-id CPU / explain CPU: ${med(ratios).toFixed(2)} over ${idForms.length} rounds of ${sample.length} entities; target <= 1.0: ${med(ratios) <= 1.0 ? 'met' : 'MISSED'}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
  await agent.close();
}
