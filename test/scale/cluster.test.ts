// `npm run start:cluster` (src/cluster.ts): refuses to start without REDIS_URL; with REDIS_URL and
// PostgreSQL, N workers share one port and one exact meter, a dead worker is replaced, SIGTERM stops
// everything. Every spawned process is killed in `after`, and every wait is bounded.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { ROOT, sleep, tempDir } from '../helper.ts';

const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? `postgres://${process.env.PGUSER ?? os.userInfo().username}@127.0.0.1:5432/test`;
const REDIS_BASE = (process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
const REDIS_URL = `${REDIS_BASE}/13`; // this file's own Redis database index

const children = new Set<ChildProcess>();
const workerPids = new Set<number>();
function killAll() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of workerPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
process.once('exit', killAll);

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_URL|PORT|HOST|ENGINE_URL|CLUSTER_WORKERS|TRUST_PROXY|DEMO_.*|KEY_CACHE_TTL_MS|PUBLIC_BASE_URL|NODE_TEST_CONTEXT)$/.test(k)) delete env[k];
  }
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

function run(args: string[], env: Record<string, string>) {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`${what}: not done in ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

async function until<T>(what: string, ms: number, fn: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection (no keep-alive), so the cluster's round robin picks a worker each time. */
function get(port: number, p: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return within(
    new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: p, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode!, body });
        });
      });
      req.on('error', reject);
    }),
    10_000,
    `GET ${p}`,
  );
}

async function pgAdmin(sql: string) {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

async function flushRedis() {
  const { Redis } = await import('ioredis');
  const r = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    await r.flushdb();
  } finally {
    r.disconnect();
  }
}

function dbUrl(name: string) {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

const jsonLines = (text: string) =>
  text.split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, any>];
    } catch {
      return [];
    }
  });

describe('cluster mode (npm run start:cluster)', { timeout: 180_000 }, () => {
  const DB = `dis_test_${crypto.randomBytes(6).toString('hex')}`;
  const EMPTY_DB = `dis_test_${crypto.randomBytes(6).toString('hex')}`;
  let dir: string;

  before(async () => {
    dir = tempDir('dis-cluster-');
    await pgAdmin(`CREATE DATABASE ${DB}`);
    await pgAdmin(`CREATE DATABASE ${EMPTY_DB}`);
    await flushRedis();
  });

  after(async () => {
    killAll();
    await Promise.all([...children].map((c) => within(new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))), 5000, 'exit').catch(() => undefined)));
    await pgAdmin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch(() => undefined);
    await pgAdmin(`DROP DATABASE IF EXISTS ${EMPTY_DB} WITH (FORCE)`).catch(() => undefined);
    await flushRedis().catch(() => undefined);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('refuses to start without REDIS_URL, says to set it, exit code 1, nothing listens', async () => {
    const port = await freePort();
    const r = run(['src/cluster.ts'], { PORT: String(port), DATABASE_URL: `sqlite:${path.join(dir, 'c.db')}`, CLUSTER_WORKERS: '2' });
    assert.equal(await within(r.exited, 20_000, 'cluster without REDIS_URL'), 1);
    assert.match(r.stderr(), /Set REDIS_URL/);
    assert.match(r.stderr(), /in-memory limiter/);
    assert.equal(fs.existsSync(path.join(dir, 'c.db')), false, 'no worker was started');
    assert.equal(await get(port, '/health').then(() => true, () => false), false);
  });

  test('refuses an unmigrated database once, with the migrate message, instead of restarting workers forever', async () => {
    const port = await freePort();
    const r = run(['src/cluster.ts'], { PORT: String(port), DATABASE_URL: dbUrl(EMPTY_DB), REDIS_URL, CLUSTER_WORKERS: '2' });
    assert.equal(await within(r.exited, 30_000, 'cluster on an unmigrated database'), 1);
    assert.match(r.stderr(), /npm run --silent admin -- db migrate/);
    assert.doesNotMatch(r.stderr(), /duplicate key/, 'concurrent start-up checks do not race');
  });

  test('with REDIS_URL and SQLite (one-machine trial): the monthly allowance stays exact across 2 workers', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'cluster.db')}` };
    const admin = async (...args: string[]) => {
      const r = run(['src/cli/admin.ts', ...args], env);
      assert.equal(await within(r.exited, 30_000, `admin ${args.join(' ')}`), 0, r.stderr());
      return r.stdout();
    };
    await admin('plans', 'set', 'c15', '--monthly', '15', '--per-minute', '1000');
    const key = JSON.parse(await admin('keys', 'create', '--client', 'cluster sqlite', '--plan', 'c15', '--json')) as { key: string };
    const port = await freePort();
    const c = run(['src/cluster.ts'], { ...env, PORT: String(port), REDIS_URL, CLUSTER_WORKERS: '2', LOG_LEVEL: 'info' });
    try {
      await until('2 workers listening', 40_000, () => {
        if (c.proc.exitCode !== null) throw new Error(`cluster exited ${c.proc.exitCode}: ${c.stderr()}`);
        return jsonLines(c.stdout()).filter((l) => l.msg === 'cluster worker listening').length >= 2;
      });
      for (const l of jsonLines(c.stdout())) if (l.worker_pid) workerPids.add(l.worker_pid);
      const rs = await Promise.all(Array.from({ length: 50 }, () => get(port, '/v1/resolve-entity?q=merlot', { authorization: `Bearer ${key.key}` })));
      const ok = rs.filter((r) => r.status === 200).length;
      const over = rs.filter((r) => r.status === 429 && r.body.error.code === 'QUOTA_EXCEEDED').length;
      assert.deepEqual([ok, over], [15, 35]);
    } finally {
      c.proc.kill('SIGTERM');
      await within(c.exited, 20_000, 'cluster shutdown');
    }
  });

  test('with REDIS_URL and PostgreSQL: 2 workers answer /health, share one exact meter, a dead worker is replaced, SIGTERM stops all', async (t) => {
    const env = { DATABASE_URL: dbUrl(DB) };
    const admin = async (...args: string[]) => {
      const r = run(['src/cli/admin.ts', ...args], env);
      assert.equal(await within(r.exited, 30_000, `admin ${args.join(' ')}`), 0, r.stderr());
      return r.stdout();
    };
    await admin('db', 'migrate');
    await admin('plans', 'set', 'c20', '--monthly', '20', '--per-minute', '1000');
    const key = JSON.parse(await admin('keys', 'create', '--client', 'cluster', '--plan', 'c20', '--json')) as { id: string; key: string };

    const port = await freePort();
    const c = run(['src/cluster.ts'], { ...env, PORT: String(port), REDIS_URL, CLUSTER_WORKERS: '2', LOG_LEVEL: 'info' });
    const listening = () => jsonLines(c.stdout()).filter((l) => l.msg === 'cluster worker listening').map((l) => l.worker_pid as number);
    await until('2 workers listening', 40_000, () => {
      if (c.proc.exitCode !== null) throw new Error(`cluster exited ${c.proc.exitCode}: ${c.stderr()}`);
      return listening().length >= 2;
    });
    const pids = listening();
    for (const p of pids) workerPids.add(p);
    assert.equal(new Set(pids).size, 2);
    assert.ok(jsonLines(c.stdout()).some((l) => /cluster ready: 2 workers/.test(l.msg)));

    // fresh connections: round robin spreads them; the workers' own request logs say who answered
    const ids = Array.from({ length: 10 }, (_, i) => `cluster-health-${i}-${crypto.randomBytes(3).toString('hex')}`);
    for (const id of ids) {
      const h = await get(port, '/health', { 'x-request-id': id });
      assert.equal(h.status, 200);
      assert.equal(h.body.store.database.kind, 'postgres');
      assert.equal(h.body.store.limiter.kind, 'redis');
    }
    const answeredBy = await until('request logs', 5000, () => {
      const byId = new Map(jsonLines(c.stdout()).filter((l) => l.msg === 'request completed' && ids.includes(l.reqId)).map((l) => [l.reqId, l.pid as number]));
      return byId.size === ids.length && new Set(byId.values());
    });
    assert.deepEqual([...answeredBy].sort(), [...pids].sort(), 'both workers answered /health');

    // one meter for all workers
    const rs = await Promise.all(Array.from({ length: 60 }, () => get(port, '/v1/resolve-entity?q=merlot', { authorization: `Bearer ${key.key}` })));
    const ok = rs.filter((r) => r.status === 200).length;
    const over = rs.filter((r) => r.status === 429 && r.body.error.code === 'QUOTA_EXCEEDED').length;
    assert.deepEqual([ok, over], [20, 40]);

    // a worker that dies after serving is replaced; the other keeps serving meanwhile
    const victim = pids[0]!;
    process.kill(victim, 'SIGKILL');
    // until the primary has seen the death, it may still hand a new connection to the dead worker
    await until('the primary notices the dead worker', 10_000, () => jsonLines(c.stderr()).some((l) => l.msg === 'cluster worker died; starting a new one'));
    assert.equal((await get(port, '/health')).status, 200);
    const replacement = await until('a replacement worker', 30_000, () => listening().find((p) => !pids.includes(p)));
    workerPids.add(replacement);
    t.diagnostic(`worker ${victim} replaced by ${replacement}`);
    for (let i = 0; i < 4; i++) assert.equal((await get(port, '/health')).status, 200);

    // SIGTERM: workers close, then the primary exits 0
    c.proc.kill('SIGTERM');
    assert.equal(await within(c.exited, 20_000, 'cluster shutdown'), 0, c.stderr());
    for (const p of [pids[1]!, replacement]) {
      await until(`worker ${p} gone`, 5000, () => {
        try {
          process.kill(p, 0);
          return false;
        } catch {
          return true;
        }
      });
    }
    assert.equal(await get(port, '/health').then(() => true, () => false), false, 'nothing listens');
  });
});
