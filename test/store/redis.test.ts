// Redis limiter and cache against the real Redis (its own database index, flushed before and after),
// and the documented Redis-down policy: limiter calls fail fast with LimiterUnavailableError; keyed and
// demo endpoints answer 503 STORE_UNAVAILABLE (fail closed), /health 503; never a 500, never a hang;
// and everything recovers by itself when Redis returns.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { connectRedis } from '../../src/store/redis.ts';
import { LimiterUnavailableError } from '../../src/store/limiter.ts';
import { buildTestApp, sleep } from '../helper.ts';
import { freePort, redisUrl, within } from '../services.ts';

const REDIS_URL = redisUrl(11); // this file's own database index
const PERIOD = () => new Date().toISOString().slice(0, 7);

type Conn = Awaited<ReturnType<typeof connectRedis>>;

/**
 * The outcome of `fn()` if it settles within `turns` turns of the event loop (setImmediate), i.e.
 * "at once": without waiting on a timer (a command timeout, a reconnect) or the network; otherwise
 * `{ pending: true }`. Counted in turns, not milliseconds, so a slow machine does not change it.
 */
async function inTurns<T>(fn: () => Promise<T>, turns = 20): Promise<{ pending?: true; value?: T; error?: unknown }> {
  let out: { value?: T; error?: unknown } | undefined;
  fn().then(
    (value) => (out = { value }),
    (error) => (out = { error }),
  );
  for (let i = 0; i < turns && !out; i++) await new Promise((r) => setImmediate(r));
  return out ?? { pending: true };
}

const uid = () => crypto.randomBytes(4).toString('hex');

describe('Redis limiter and cache (real Redis)', () => {
  let a: Conn;
  let b: Conn; // a second connection stands for a second gateway process

  before(async () => {
    a = await connectRedis(REDIS_URL);
    b = await connectRedis(REDIS_URL);
    assert.equal(a.redis.status, 'ready', `Redis must be running at ${REDIS_URL}`);
    await a.redis.flushdb();
  });
  after(async () => {
    await a?.redis.flushdb().catch(() => undefined);
    await a?.limiter.close();
    await b?.limiter.close();
  });

  test('hit: allowed up to the limit, then refused with remaining 0 and a reset within the window', async () => {
    const key = `t:${uid()}`;
    const t0 = Date.now();
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await a.limiter.hit(key, 3, 60_000));
    assert.deepEqual(got.map((r) => [r.allowed, r.remaining, r.limit]), [[true, 2, 3], [true, 1, 3], [true, 0, 3], [false, 0, 3], [false, 0, 3]]);
    for (const r of got) assert.ok(r.resetAt > t0 && r.resetAt <= Date.now() + 60_000, `resetAt ${r.resetAt}`);
    // the window lives in Redis with a server-side TTL, not in this process
    const ttl = await a.redis.pttl(`dis:rl:3:60000:${key}`);
    assert.ok(ttl > 0 && ttl <= 60_000, `pttl ${ttl}`);
    assert.equal(kind(a), 'redis');
  });

  test('hit is exact across two connections under 60 concurrent calls', async () => {
    const key = `t:${uid()}`;
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).limiter.hit(key, 7, 60_000)));
    assert.equal(results.filter((r) => r.allowed).length, 7);
    assert.equal((await b.limiter.peek(key, 7, 60_000)).remaining, 0);
  });

  test('a window ends by Redis TTL and admits again', async () => {
    const key = `t:${uid()}`;
    assert.equal((await a.limiter.hit(key, 1, 1000)).allowed, true);
    assert.equal((await b.limiter.hit(key, 1, 1000)).allowed, false);
    await sleep(1100);
    assert.equal((await b.limiter.hit(key, 1, 1000)).allowed, true);
  });

  test('peek does not count, and shows what hits counted', async () => {
    const key = `t:${uid()}`;
    for (let i = 0; i < 3; i++) assert.deepEqual(pick(await a.limiter.peek(key, 5, 60_000)), { allowed: true, remaining: 5, limit: 5 });
    await b.limiter.hit(key, 5, 60_000);
    await b.limiter.hit(key, 5, 60_000);
    assert.deepEqual(pick(await a.limiter.peek(key, 5, 60_000)), { allowed: true, remaining: 3, limit: 5 });
    for (let i = 0; i < 3; i++) await a.limiter.hit(key, 5, 60_000);
    assert.deepEqual(pick(await a.limiter.peek(key, 5, 60_000)), { allowed: false, remaining: 0, limit: 5 });
  });

  test('hitAll: a request refused by one window uses up none of the others', async () => {
    const minute = `m:${uid()}`;
    const hour = `h:${uid()}`;
    const checks = [
      { key: minute, limit: 2, windowMs: 60_000 },
      { key: hour, limit: 5, windowMs: 3_600_000 },
    ];
    const r = [];
    for (let i = 0; i < 4; i++) r.push(await a.limiter.hitAll(checks));
    assert.deepEqual(r.map((x) => x.every((y) => y.allowed)), [true, true, false, false]);
    assert.equal(r[2]!.length, 1, 'the refusing window stops the checks');
    assert.equal((await a.limiter.peek(hour, 5, 3_600_000)).remaining, 3, 'refused requests did not count in the hour window');

    // refused by the second window: the first is given back
    const first = `f:${uid()}`;
    const second = `s:${uid()}`;
    const c2 = [
      { key: first, limit: 10, windowMs: 60_000 },
      { key: second, limit: 1, windowMs: 60_000 },
    ];
    assert.ok((await a.limiter.hitAll(c2)).every((x) => x.allowed));
    for (let i = 0; i < 3; i++) {
      const res = await b.limiter.hitAll(c2);
      assert.deepEqual(res.map((x) => x.allowed), [true, false]);
    }
    assert.equal((await a.limiter.peek(first, 10, 60_000)).remaining, 9, 'only the admitted request counts in the first window');
  });

  test('hitAll is exact across two connections under 30 concurrent calls', async () => {
    const ip = uid();
    const checks = [
      { key: `demo:minute:${ip}`, limit: 8, windowMs: 60_000 },
      { key: `demo:hour:${ip}`, limit: 20, windowMs: 3_600_000 },
    ];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).limiter.hitAll(checks)));
    assert.equal(results.filter((r) => r.every((x) => x.allowed)).length, 8);
    assert.equal((await a.limiter.peek(`demo:hour:${ip}`, 20, 3_600_000)).remaining, 12);
  });

  test('cache: shared get/set, expiry by TTL, ttl 0 stores nothing', async () => {
    const k = `c:${uid()}`;
    assert.equal(await a.cache.get(k), null);
    await a.cache.set(k, '{"x":1}', 1);
    assert.equal(await b.cache.get(k), '{"x":1}', 'another process sees it');
    const ttl = await a.redis.pttl(`dis:cache:${k}`);
    assert.ok(ttl > 0 && ttl <= 1000, `pttl ${ttl}`);
    await a.cache.set(`${k}:0`, 'v', 0);
    assert.equal(await a.cache.get(`${k}:0`), null);
    await sleep(1150);
    assert.equal(await b.cache.get(k), null, 'expired');
    await a.cache.set(k, 'long', 300);
    assert.equal(await a.cache.get(k), 'long');
    const ttl2 = await a.redis.ttl(`dis:cache:${k}`);
    assert.ok(ttl2 > 1 && ttl2 <= 300, `ttl ${ttl2}: the new 300 s lifetime, not the 1 s one`);
  });
});

const pick = (r: { allowed: boolean; remaining: number; limit: number }) => ({ allowed: r.allowed, remaining: r.remaining, limit: r.limit });
const kind = (c: Conn) => c.limiter.kind;

describe('Redis down (nothing listening on the port)', () => {
  let dead: Conn;
  let deadUrl: string;

  before(async () => {
    deadUrl = `redis://127.0.0.1:${await freePort()}`;
    // README: a gateway whose Redis is unreachable starts anyway after waiting 2 s (bound: 2 × 2 s)
    dead = await within(connectRedis(deadUrl), 4000, 'connectRedis');
  });
  after(async () => {
    await dead?.limiter.close();
  });

  test('hit, hitAll and peek reject at once with LimiterUnavailableError, never hang', async () => {
    const calls: (() => Promise<unknown>)[] = [
      () => dead.limiter.hit('k', 5, 60_000),
      () => dead.limiter.hitAll([{ key: 'k', limit: 5, windowMs: 60_000 }, { key: 'h', limit: 5, windowMs: 3_600_000 }]),
      () => dead.limiter.peek('k', 5, 60_000),
    ];
    for (const call of calls) {
      const r = await inTurns(call);
      assert.ok(!r.pending, 'settled at once (no timer, no network wait)');
      assert.ok(r.error instanceof LimiterUnavailableError, `got ${String(r.error ?? r.value)}`);
    }
    const ping = await inTurns(() => dead.limiter.ping());
    assert.ok(!ping.pending && ping.error, 'ping fails at once');
    const get = await inTurns(() => dead.cache.get('x'));
    assert.ok(!get.pending && get.error, 'cache get fails at once (the demo treats it as a miss)');
  });

  test('through the app: keyed 503 STORE_UNAVAILABLE (nothing counted), demo 503, /usage 200, /health 503', async () => {
    const t = await buildTestApp({ env: { REDIS_URL: deadUrl } });
    try {
      const k = await t.createKey('starter');
      for (const url of ['/v1/resolve-entity?q=syrah', '/v1/explain?q=merlot', '/v1/pair?q=lamb', '/v1/compare?left=merlot&right=syrah']) {
        // never a hang: the limiter fails at once (shown above), so the bound is only a guard
        const res = await within(t.app.inject({ url, headers: k.auth }), 10_000, url);
        assert.equal(res.statusCode, 503, url);
        assert.equal(res.json().error.code, 'STORE_UNAVAILABLE');
        assert.equal(res.headers['retry-after'], '5');
      }
      assert.equal(await t.ctx.store.getMonthly(k.id, PERIOD()), 0, 'fail closed: nothing was counted');

      const usage = await t.app.inject({ url: '/v1/usage', headers: k.auth });
      assert.equal(usage.statusCode, 200, 'the usage report does not need the limiter');
      assert.equal(usage.json().usage.used, 0);

      for (const url of ['/v1/demo/resolve-entity?q=syrah', '/v1/demo/explain?q=merlot']) {
        const res = await t.app.inject({ url, remoteAddress: '203.0.113.9' });
        assert.equal(res.statusCode, 503, url);
        assert.equal(res.json().error.code, 'STORE_UNAVAILABLE');
        assert.equal(res.headers['access-control-allow-origin'], '*');
      }

      const health = await t.app.inject({ url: '/health' });
      assert.equal(health.statusCode, 503);
      const h = health.json();
      assert.equal(h.status, 'unavailable');
      assert.equal(h.store.database.status, 'ok');
      assert.equal(h.store.limiter.status, 'unavailable');
      assert.equal(h.store.limiter.kind, 'redis');
      assert.equal(health.headers['retry-after'], '5');
    } finally {
      await t.close();
    }
  });
});

describe('Redis goes away and comes back (a private redis-server)', { skip: spawnSync('redis-server', ['--version']).status !== 0 && 'redis-server not installed' }, () => {
  let port: number;
  let server: ChildProcess | undefined;

  async function startRedis() {
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    server = p;
    let out = '';
    await within(
      new Promise<void>((resolve, reject) => {
        p.stdout!.on('data', (d) => {
          out += d;
          if (/Ready to accept connections/.test(out)) resolve();
        });
        p.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
      }),
      5000,
      'redis-server start',
    );
  }

  async function stopRedis() {
    const p = server;
    server = undefined;
    if (!p || p.exitCode !== null) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await within(gone, 5000, 'redis-server stop');
  }

  before(async () => {
    port = await freePort();
    await startRedis();
  });
  after(async () => {
    await stopRedis();
  });

  test('503 STORE_UNAVAILABLE while Redis is down, 200 again by itself when it returns; never a 500', async () => {
    const t = await buildTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    const statuses: number[] = [];
    const call = async (url: string, headers: Record<string, string> = {}) => {
      // a guard against a hang: a command in flight when Redis dies ends by its 2 s timeout
      const res = await within(t.app.inject({ url, headers, remoteAddress: '198.51.100.77' }), 5000, url);
      statuses.push(res.statusCode);
      return res;
    };
    try {
      const k = await t.createKey('starter');
      assert.equal((await call('/v1/resolve-entity?q=syrah', k.auth)).statusCode, 200);
      assert.equal((await call('/v1/demo/explain?q=merlot')).statusCode, 200);
      assert.equal((await call('/health')).statusCode, 200);

      await stopRedis();
      // ioredis sees the closed socket at once; allow a moment for the event
      let down;
      for (const deadline = Date.now() + 3000; Date.now() < deadline; await sleep(50)) {
        down = await call('/v1/resolve-entity?q=syrah', k.auth);
        if (down.statusCode === 503) break;
      }
      assert.equal(down!.statusCode, 503);
      assert.equal(down!.json().error.code, 'STORE_UNAVAILABLE');
      const demoDown = await call('/v1/demo/explain?q=merlot');
      assert.equal(demoDown.statusCode, 503);
      assert.equal(demoDown.json().error.code, 'STORE_UNAVAILABLE');
      assert.equal((await call('/health')).json().store.limiter.status, 'unavailable');
      const usedWhileDown = await t.ctx.store.getMonthly(k.id, PERIOD());
      for (let i = 0; i < 5; i++) assert.equal((await call('/v1/resolve-entity?q=syrah', k.auth)).statusCode, 503);
      assert.equal(await t.ctx.store.getMonthly(k.id, PERIOD()), usedWhileDown, 'nothing counted while Redis is down');

      await startRedis();
      // README: the client reconnects within about a second of Redis returning (ioredis retries at
      // most every second); looked for over 5 s, well over 2 × that
      let back;
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(100)) {
        back = await call('/v1/resolve-entity?q=syrah', k.auth);
        if (back.statusCode === 200) break;
      }
      assert.equal(back!.statusCode, 200, 'recovered without a restart');
      assert.equal((await call('/v1/demo/explain?q=merlot')).statusCode, 200);
      assert.equal((await call('/health')).statusCode, 200);
      assert.ok(!statuses.includes(500), `statuses seen: ${[...new Set(statuses)].join(', ')}`);
    } finally {
      await t.close();
    }
  });
});
