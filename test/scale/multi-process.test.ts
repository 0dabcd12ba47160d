// Scale-out with real processes: two gateway processes (`node --import tsx src/server.ts`) on one
// PostgreSQL database (a temp database migrated with the admin CLI, dropped afterwards) and one Redis
// database index (flushed before and after). Every spawned process is killed in `after`, even on
// failure, and every wait is bounded.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pg from 'pg';
import { Agent, request } from 'undici';
import { sleep } from '../helper.ts';
import { createDatabase, dbUrl, dropDatabase, flushRedis, freePort, PG_ADMIN_URL, pgAdminQuery, redisUrl, spawnTsx, stopChildren, tempDatabaseName, within, type SpawnedChild } from '../services.ts';

const REDIS_URL = redisUrl(12); // this file's own Redis database index

const DB = tempDatabaseName();
const DATABASE_URL = dbUrl(DB);

// ---- processes ------------------------------------------------------------------------------

/** The admin CLI against the test database; resolves with its exit code and output. */
async function admin(...args: string[]) {
  const r = spawnTsx(['src/cli/admin.ts', ...args], { DATABASE_URL });
  const code = await within(r.exited, 30_000, `admin ${args.join(' ')}`).catch((e) => {
    r.proc.kill('SIGKILL');
    throw e;
  });
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

async function adminJson<T = any>(...args: string[]): Promise<T> {
  const r = await admin(...args, '--json');
  assert.equal(r.code, 0, `admin ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const agent = new Agent({ connections: 256, connectTimeout: 5000, headersTimeout: 10_000, bodyTimeout: 10_000 });

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Res> {
  const r = await request(`${base}${path}`, { dispatcher: agent, headers });
  const text = await r.body.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.statusCode, headers: r.headers, body };
}

class Gateway {
  run!: SpawnedChild;
  constructor(readonly name: string, readonly port: number, readonly env: Record<string, string> = {}) {}
  get base() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start() {
    this.run = spawnTsx(['src/server.ts'], { PORT: String(this.port), DATABASE_URL, REDIS_URL, ...this.env });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.run.proc.exitCode !== null) throw new Error(`gateway ${this.name} exited (${this.run.proc.exitCode}): ${this.run.stderr()}`);
      const ok = await get(this.base, '/health').then((r) => r.status === 200, () => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`gateway ${this.name} not healthy in 30 s: ${this.run.stderr()}`);
      await sleep(100);
    }
  }
  async kill(signal: NodeJS.Signals = 'SIGKILL') {
    if (this.run.proc.exitCode !== null || this.run.proc.signalCode !== null) return;
    this.run.proc.kill(signal);
    await within(this.run.exited, 10_000, `stop ${this.name}`);
  }
}

const count = (rs: Res[], status: number, code?: string) => rs.filter((r) => r.status === status && (!code || r.body?.error?.code === code)).length;
const statuses = (rs: Res[]) => [...new Set(rs.map((r) => r.status))].sort().join(',');
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

// ---- the suite ----------------------------------------------------------------------------------

describe('two gateway processes on PostgreSQL + Redis', { timeout: 240_000 }, () => {
  const A = new Gateway('A', 0);
  const B = new Gateway('B', 0);
  const keys: Record<string, { id: string; key: string }> = {};
  let gateways: Gateway[];

  before(async () => {
    await createDatabase(DB);
    await flushRedis(REDIS_URL);
    const migrate = await admin('db', 'migrate');
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.match(migrate.stdout, /Applied: 001_accounts/);
    // plans through the CLI, exactly as an operator would
    const plans = await Promise.all([
      admin('plans', 'set', 'q100', '--monthly', '100', '--per-minute', '1000'),
      admin('plans', 'set', 'pm30', '--monthly', '100000', '--per-minute', '30'),
      admin('plans', 'set', 'changing', '--monthly', '1000', '--per-minute', '1000'),
    ]);
    for (const p of plans) assert.equal(p.code, 0, p.stderr);
    const wanted: [string, string][] = [
      ['quota', 'q100'],
      ['minute', 'pm30'],
      ['revoke', 'starter'],
      ['plan', 'changing'],
      ['restart', 'pro'],
      ['outage', 'q100'],
      ['warm', 'pro'],
    ];
    await Promise.all(
      wanted.map(async ([name, plan]) => {
        const k = await adminJson<{ id: string; key: string }>('keys', 'create', '--client', `scale ${name}`, '--plan', plan);
        keys[name] = { id: k.id, key: k.key };
      }),
    );
    const [pa, pb] = [await freePort(), await freePort()];
    (A as { port: number }).port = pa;
    (B as { port: number }).port = pb;
    gateways = [A, B];
    await Promise.all(gateways.map((g) => g.start()));
    // warm both processes up (JIT, connection pools) so neither is much slower in the bursts
    for (let i = 0; i < 4; i++) {
      await Promise.all(gateways.flatMap((g) => Array.from({ length: 20 }, () => get(g.base, '/v1/resolve-entity?q=pinot', bearer(keys.warm!.key)))));
    }
  });

  after(async () => {
    await stopChildren();
    await agent.close().catch(() => undefined);
    await dropDatabase(DB).catch(() => undefined);
    await flushRedis(REDIS_URL).catch(() => undefined);
  });

  /** n concurrent requests, alternating between the two gateways */
  const burst = (n: number, path: string, headers: Record<string, string> = {}) =>
    within(Promise.all(Array.from({ length: n }, (_, i) => get(gateways[i % 2]!.base, path, headers))), 60_000, `burst of ${n}`);

  test('exact quota: 300 concurrent requests across both processes, allowance 100 → 100 × 200, 200 × 429', async (t) => {
    const k = keys.quota!;
    const rs = await burst(300, '/v1/resolve-entity?q=merlot', bearer(k.key));
    assert.equal(count(rs, 200), 100, `statuses: ${statuses(rs)}`);
    assert.equal(count(rs, 429, 'QUOTA_EXCEEDED'), 200);
    for (const r of rs.filter((x) => x.status === 429)) assert.equal(r.headers['x-ratelimit-remaining'], '0');
    // which process admitted how many depends on scheduling; only the total is the contract
    const admittedBy = [0, 1].map((g) => rs.filter((r, i) => i % 2 === g && r.status === 200).length);
    t.diagnostic(`admitted by A/B: ${admittedBy.join('/')}`);
    for (const g of gateways) {
      const u = await get(g.base, '/v1/usage', bearer(k.key));
      assert.equal(u.body.usage.used, 100, g.name);
      assert.equal(u.body.remaining, 0);
    }
    const cli = await adminJson('usage', k.id);
    assert.equal(cli.usage.used, 100);
  });

  test('ETag: the same strong tag from both processes; a 304 on one for the tag of the other, counted like a 200', async () => {
    const k = await adminJson<{ id: string; key: string }>('keys', 'create', '--client', 'scale etag', '--plan', 'pro');
    const path = '/v1/explain?q=barolo';
    const a = await get(A.base, path, bearer(k.key));
    const b = await get(B.base, path, bearer(k.key));
    assert.equal(a.status, 200);
    assert.match(String(a.headers.etag), /^"[A-Za-z0-9_-]+"$/);
    assert.equal(a.headers.etag, b.headers.etag);
    assert.equal(a.headers['cache-control'], 'private, max-age=3600');
    const nm = await get(B.base, path, { ...bearer(k.key), 'if-none-match': String(a.headers.etag) });
    assert.equal(nm.status, 304);
    assert.equal(nm.body, '');
    // three answers (two 200, one 304) → three counted
    const usage = (await get(A.base, '/v1/usage', bearer(k.key))).body;
    assert.equal(usage.usage.used, 3);
    // the list endpoint's cursor from one process pages on the other
    const p1 = (await get(A.base, '/v1/entities?type=beer_style&limit=10', bearer(k.key))).body;
    const p2 = await get(B.base, `/v1/entities?type=beer_style&limit=10&cursor=${encodeURIComponent(p1.next_cursor)}`, bearer(k.key));
    assert.equal(p2.status, 200);
    assert.ok(p2.body.entities[0].entity_key > p1.entities[9].entity_key);
  });

  test('per-minute limit exact across both processes: limit 30, 90 concurrent → 30 × 200, 60 × 429 RATE_LIMITED', async () => {
    const k = keys.minute!;
    const rs = await burst(90, '/v1/resolve-entity?q=syrah', bearer(k.key));
    assert.equal(count(rs, 200), 30, `statuses: ${statuses(rs)}`);
    assert.equal(count(rs, 429, 'RATE_LIMITED'), 60);
    for (const r of rs.filter((x) => x.status === 429)) {
      const retry = Number(r.headers['retry-after']);
      assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`);
    }
    // refused by the minute limit: not counted monthly (read through the CLI: /v1/usage itself is under
    // the per-minute limit, so it answers 429 while the window is used up)
    assert.equal((await adminJson<{ usage: { used: number } }>('usage', k.id)).usage.used, 30);
    assert.equal((await get(B.base, '/v1/usage', bearer(k.key))).status, 429);
  });

  test('demo per-IP limits and the demo cache are shared: 8 per minute in total across both processes', async () => {
    const q = `/v1/demo/explain?q=merlot`;
    const first = await get(A.base, q);
    assert.equal(first.status, 200);
    assert.equal(first.body.demo.remaining_this_hour, 19);
    const second = await get(B.base, q);
    assert.equal(second.status, 200);
    assert.equal(second.body.demo.cached, true, 'B answers from the cache A filled');
    assert.equal(second.body.demo.remaining_this_hour, 18, 'B sees the hour count A made');
    const rs = await burst(20, q);
    assert.equal(count(rs, 200), 6, `statuses: ${statuses(rs)}`);
    assert.equal(count(rs, 429, 'DEMO_RATE_LIMITED'), 14);
    const hours = rs.filter((r) => r.status === 200).map((r) => r.body.demo.remaining_this_hour).sort((x, y) => x - y);
    assert.deepEqual(hours, [12, 13, 14, 15, 16, 17], 'one shared hour window, refused requests not counted in it');
    for (const g of gateways) assert.equal((await get(g.base, q)).status, 429, `${g.name} still refuses`);
  });

  test('revocation through the CLI reaches both processes within 2 seconds', async (t) => {
    const k = keys.revoke!;
    for (const g of gateways) assert.equal((await get(g.base, '/v1/usage', bearer(k.key))).status, 200);
    // keep both caches warm while the CLI runs
    let stop = false;
    const warm = (async () => {
      while (!stop) {
        await Promise.all(gateways.map((g) => get(g.base, '/v1/usage', bearer(k.key)).catch(() => undefined)));
        await sleep(50);
      }
    })();
    let revokedAt = 0;
    const cli = spawnTsx(['src/cli/admin.ts', 'keys', 'revoke', k.id], { DATABASE_URL });
    cli.proc.stdout!.on('data', (d) => {
      // printed right after the UPDATE has committed
      if (!revokedAt && /now revoked/.test(String(d))) revokedAt = Date.now();
    });
    try {
      assert.equal(await within(cli.exited, 30_000, 'keys revoke'), 0, cli.stderr());
    } finally {
      stop = true;
      await warm;
    }
    assert.ok(revokedAt > 0, cli.stdout());
    const seen = await Promise.all(
      gateways.map(async (g) => {
        for (;;) {
          const r = await get(g.base, '/v1/usage', bearer(k.key));
          if (r.status === 401) {
            assert.match(r.body.error.message, /revoked/);
            return Date.now() - revokedAt;
          }
          assert.equal(r.status, 200);
          if (Date.now() - revokedAt > 3000) return Infinity;
          await sleep(25);
        }
      }),
    );
    t.diagnostic(`revocation seen after ${seen.join(' / ')} ms`);
    for (const [i, ms] of seen.entries()) assert.ok(ms <= 2000, `gateway ${gateways[i]!.name} saw the revocation after ${ms} ms`);
  });

  test('a plan change through the CLI reaches both processes within 2 seconds', async (t) => {
    const k = keys.plan!;
    for (let i = 0; i < 4; i++) assert.equal((await get(gateways[i % 2]!.base, '/v1/resolve-entity?q=gamay', bearer(k.key))).status, 200);
    let changedAt = 0;
    const cli = spawnTsx(['src/cli/admin.ts', 'plans', 'set', 'changing', '--monthly', '4', '--per-minute', '1000'], { DATABASE_URL });
    cli.proc.stdout!.on('data', (d) => {
      // printed right after the UPSERT has committed
      if (!changedAt && /Plan changing/.test(String(d))) changedAt = Date.now();
    });
    assert.equal(await within(cli.exited, 30_000, 'plans set'), 0, cli.stderr());
    assert.ok(changedAt > 0, cli.stdout());
    const seen = await Promise.all(
      gateways.map(async (g) => {
        while (Date.now() - changedAt <= 3000) {
          const u = await get(g.base, '/v1/usage', bearer(k.key));
          if (u.body.plan.monthly_limit === 4) return Date.now() - changedAt;
          await sleep(25);
        }
        return Infinity;
      }),
    );
    t.diagnostic(`plan change seen after ${seen.join(' / ')} ms`);
    for (const [i, ms] of seen.entries()) assert.ok(ms <= 2000, `gateway ${gateways[i]!.name} saw the plan change after ${ms} ms`);
    for (const g of gateways) {
      const over = await get(g.base, '/v1/resolve-entity?q=gamay', bearer(k.key));
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'QUOTA_EXCEEDED');
    }
  });

  test('a crash and restart of both processes loses no counted usage', async () => {
    const k = keys.restart!;
    const rs = await burst(25, '/v1/resolve-entity?q=riesling', bearer(k.key));
    assert.equal(count(rs, 200), 25, statuses(rs));
    // SIGKILL right after the last answer: no graceful shutdown, no chance to flush anything
    await Promise.all(gateways.map((g) => g.kill('SIGKILL')));
    await Promise.all(gateways.map((g) => g.start()));
    for (const g of gateways) {
      const u = await get(g.base, '/v1/usage', bearer(k.key));
      assert.equal(u.status, 200);
      assert.equal(u.body.usage.used, 25, `${g.name} after restart`);
    }
    // and the allowance used before the restart stays used
    const quota = await get(A.base, '/v1/resolve-entity?q=merlot', bearer(keys.quota!.key));
    assert.equal(quota.status, 429);
    assert.equal(quota.body.error.code, 'QUOTA_EXCEEDED');
  });

  test('PostgreSQL down: keyed endpoints 503 STORE_UNAVAILABLE, nothing counted, never a 500; exact again after recovery', async () => {
    const k = keys.outage!;
    const warmup = await burst(95, '/v1/resolve-entity?q=malbec', bearer(k.key));
    assert.equal(count(warmup, 200), 95, statuses(warmup));

    // take the database away from the running gateways: no new connections, existing ones killed
    await pgAdminQuery(`ALTER DATABASE ${DB} WITH ALLOW_CONNECTIONS false`);
    try {
      await pgAdminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${DB}' AND pid <> pg_backend_pid()`);
      const t0 = Date.now();
      const down = await burst(40, '/v1/resolve-entity?q=malbec', bearer(k.key));
      assert.equal(count(down, 503, 'STORE_UNAVAILABLE'), 40, `statuses: ${statuses(down)} ${JSON.stringify(down.find((r) => r.status !== 503)?.body)}`);
      assert.ok(Date.now() - t0 < 10_000, 'answered promptly');
      for (const r of down) assert.equal(r.headers['retry-after'], '5');
      for (const g of gateways) {
        const u = await get(g.base, '/v1/usage', bearer(k.key));
        assert.equal(u.status, 503, `${g.name} /v1/usage`);
        assert.equal(u.body.error.code, 'STORE_UNAVAILABLE');
        const h = await get(g.base, '/health');
        assert.equal(h.status, 503);
        assert.equal(h.body.store.database.status, 'unavailable');
        assert.equal(h.body.store.database.kind, 'postgres');
        assert.equal(h.body.store.limiter.status, 'ok');
      }
      // the demo twins do not use PostgreSQL (200, or 429 if test 3 used this minute's budget)
      const demo = await get(A.base, '/v1/demo/explain?q=merlot');
      assert.ok(demo.status === 200 || demo.body?.error?.code === 'DEMO_RATE_LIMITED', `demo during the outage: ${demo.status}`);
      // after the key cache has expired the key look-up itself fails: still 503, not 401 or 500
      await sleep(1100);
      const later = await burst(10, '/v1/resolve-entity?q=malbec', bearer(k.key));
      assert.equal(count(later, 503, 'STORE_UNAVAILABLE'), 10, statuses(later));
    } finally {
      await pgAdminQuery(`ALTER DATABASE ${DB} WITH ALLOW_CONNECTIONS true`);
    }

    // recovery by itself (the pool reconnects); polled on /v1/usage, which counts nothing
    for (const g of gateways) {
      let u: Res | undefined;
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
        u = await get(g.base, '/v1/usage', bearer(k.key));
        if (u.status === 200) break;
      }
      assert.equal(u?.status, 200, `${g.name} recovered`);
      assert.equal(u!.body.usage.used, 95, 'nothing was counted during the outage');
      assert.equal((await get(g.base, '/health')).status, 200);
    }
    const after = await burst(20, '/v1/resolve-entity?q=malbec', bearer(k.key));
    assert.equal(count(after, 200), 5, statuses(after));
    assert.equal(count(after, 429, 'QUOTA_EXCEEDED'), 15);
    assert.equal((await adminJson('usage', k.id)).usage.used, 100, 'never over-admitted');
  });

  test('start-up refuses an unmigrated PostgreSQL database and says to run admin -- db migrate', async () => {
    const empty = `dis_test_${crypto.randomBytes(6).toString('hex')}`;
    await pgAdminQuery(`CREATE DATABASE ${empty}`);
    try {
      const u = new URL(PG_ADMIN_URL);
      u.pathname = `/${empty}`;
      const port = await freePort();
      const r = spawnTsx(['src/server.ts'], { PORT: String(port), DATABASE_URL: u.toString(), REDIS_URL });
      const code = await within(r.exited, 30_000, 'unmigrated start-up');
      assert.equal(code, 1);
      assert.match(r.stderr(), /not migrated/);
      assert.match(r.stderr(), /npm run --silent admin -- db migrate/);
      const up = await get(`http://127.0.0.1:${port}`, '/health').then(() => true, () => false);
      assert.equal(up, false, 'nothing listens');
      // the refusal left the database untouched
      const c = new pg.Client({ connectionString: u.toString() });
      await c.connect();
      try {
        const t = await c.query("SELECT to_regclass('schema_migrations') AS t");
        assert.equal(t.rows[0].t, null);
      } finally {
        await c.end();
      }
    } finally {
      await pgAdminQuery(`DROP DATABASE IF EXISTS ${empty} WITH (FORCE)`);
    }
  });
});
