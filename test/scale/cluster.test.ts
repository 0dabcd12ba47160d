// `npm run start:cluster` (src/cluster.ts): refuses to start without REDIS_URL; with REDIS_URL and
// PostgreSQL, N workers share one port and one exact meter, a dead worker is replaced, SIGTERM stops
// everything. Every spawned process is killed in `after`, and every wait is bounded.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { tempDir } from '../helper.ts';
import { createDatabase, dbUrl, dropDatabase, flushRedis, freePort, parseJsonLines, redisUrl, spawnTsx, stopChildren, tempDatabaseName, until, within } from '../services.ts';

const REDIS_URL = redisUrl(13); // this file's own Redis database index

// cluster workers are the primary's children, not ours: killed by pid
const workerPids = new Set<number>();
function killWorkers() {
  for (const pid of workerPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
process.once('exit', killWorkers);

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

describe('cluster mode (npm run start:cluster)', { timeout: 180_000 }, () => {
  const DB = tempDatabaseName();
  const EMPTY_DB = tempDatabaseName();
  let dir: string;

  before(async () => {
    dir = tempDir('dis-cluster-');
    await createDatabase(DB);
    await createDatabase(EMPTY_DB);
    await flushRedis(REDIS_URL);
  });

  after(async () => {
    killWorkers();
    await stopChildren();
    await dropDatabase(DB).catch(() => undefined);
    await dropDatabase(EMPTY_DB).catch(() => undefined);
    await flushRedis(REDIS_URL).catch(() => undefined);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('refuses to start without REDIS_URL, says to set it, exit code 1, nothing listens', async () => {
    const port = await freePort();
    const r = spawnTsx(['src/cluster.ts'], { PORT: String(port), DATABASE_URL: `sqlite:${path.join(dir, 'c.db')}`, CLUSTER_WORKERS: '2' });
    assert.equal(await within(r.exited, 20_000, 'cluster without REDIS_URL'), 1);
    assert.match(r.stderr(), /Set REDIS_URL/);
    assert.match(r.stderr(), /in-memory limiter/);
    assert.equal(fs.existsSync(path.join(dir, 'c.db')), false, 'no worker was started');
    assert.equal(await get(port, '/health').then(() => true, () => false), false);
  });

  test('refuses an unmigrated database once, with the migrate message, instead of restarting workers forever', async () => {
    const port = await freePort();
    const r = spawnTsx(['src/cluster.ts'], { PORT: String(port), DATABASE_URL: dbUrl(EMPTY_DB), REDIS_URL, CLUSTER_WORKERS: '2' });
    assert.equal(await within(r.exited, 30_000, 'cluster on an unmigrated database'), 1);
    assert.match(r.stderr(), /npm run --silent admin -- db migrate/);
    assert.doesNotMatch(r.stderr(), /duplicate key/, 'concurrent start-up checks do not race');
  });

  test('with REDIS_URL and SQLite (one-machine trial): the monthly allowance stays exact across 2 workers', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'cluster.db')}` };
    const admin = async (...args: string[]) => {
      const r = spawnTsx(['src/cli/admin.ts', ...args], env);
      assert.equal(await within(r.exited, 30_000, `admin ${args.join(' ')}`), 0, r.stderr());
      return r.stdout();
    };
    await admin('plans', 'set', 'c15', '--monthly', '15', '--per-minute', '1000');
    const key = JSON.parse(await admin('keys', 'create', '--client', 'cluster sqlite', '--plan', 'c15', '--json')) as { key: string };
    const port = await freePort();
    const c = spawnTsx(['src/cluster.ts'], { ...env, PORT: String(port), REDIS_URL, CLUSTER_WORKERS: '2', LOG_LEVEL: 'info' });
    try {
      await until('2 workers listening', 40_000, () => {
        if (c.proc.exitCode !== null) throw new Error(`cluster exited ${c.proc.exitCode}: ${c.stderr()}`);
        return parseJsonLines(c.stdout()).filter((l) => l.msg === 'cluster worker listening').length >= 2;
      });
      for (const l of parseJsonLines(c.stdout())) if (l.worker_pid) workerPids.add(l.worker_pid);
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
      const r = spawnTsx(['src/cli/admin.ts', ...args], env);
      assert.equal(await within(r.exited, 30_000, `admin ${args.join(' ')}`), 0, r.stderr());
      return r.stdout();
    };
    await admin('db', 'migrate');
    await admin('plans', 'set', 'c20', '--monthly', '20', '--per-minute', '1000');
    const key = JSON.parse(await admin('keys', 'create', '--client', 'cluster', '--plan', 'c20', '--json')) as { id: string; key: string };

    const port = await freePort();
    const c = spawnTsx(['src/cluster.ts'], { ...env, PORT: String(port), REDIS_URL, CLUSTER_WORKERS: '2', LOG_LEVEL: 'info' });
    const listening = () => parseJsonLines(c.stdout()).filter((l) => l.msg === 'cluster worker listening').map((l) => l.worker_pid as number);
    await until('2 workers listening', 40_000, () => {
      if (c.proc.exitCode !== null) throw new Error(`cluster exited ${c.proc.exitCode}: ${c.stderr()}`);
      return listening().length >= 2;
    });
    const pids = listening();
    for (const p of pids) workerPids.add(p);
    assert.equal(new Set(pids).size, 2);
    assert.ok(parseJsonLines(c.stdout()).some((l) => /cluster ready: 2 workers/.test(l.msg)));

    // fresh connections: round robin spreads them; the workers' own request logs say who answered
    const ids = Array.from({ length: 10 }, (_, i) => `cluster-health-${i}-${crypto.randomBytes(3).toString('hex')}`);
    for (const id of ids) {
      const h = await get(port, '/health', { 'x-request-id': id });
      assert.equal(h.status, 200);
      assert.equal(h.body.store.database.kind, 'postgres');
      assert.equal(h.body.store.limiter.kind, 'redis');
    }
    const answeredBy = await until('request logs', 5000, () => {
      const byId = new Map(parseJsonLines(c.stdout()).filter((l) => l.msg === 'request completed' && ids.includes(l.reqId)).map((l) => [l.reqId, l.pid as number]));
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
    await until('the primary notices the dead worker', 10_000, () => parseJsonLines(c.stderr()).some((l) => l.msg === 'cluster worker died; starting a new one'));
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
