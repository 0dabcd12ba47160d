// Minute windows on Redis under real faults (issue 31): a window key deleted while a process holds
// its tokens (an eviction, FLUSHDB or restart), a give-back held by a paused TCP relay until its
// window has ended, and Redis going silent while requests queue. Before issue 31 a late give-back
// went through rate-limiter-flexible's increment, which re-created a missing key at −N with a fresh
// TTL (the next window then admitted limit + N), and a request that arrived during a reservation
// waited for it and then for its own (4–6 s).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { redisLimiter, DEFAULT_WINDOW_LEASE, LimiterUnavailableError, type WindowLeaseOptions } from '../../src/store/limiter.ts';
import { connectRedis } from '../../src/store/redis.ts';
import type { LimitResult, WindowLimiter } from '../../src/store/ports.ts';
import { flushRedis, redisUrl, Relay, viaRelay } from '../services.ts';
import { sleep } from '../helper.ts';

const REDIS_URL = redisUrl(3); // this file's own Redis database index (flushed before and after)
const LEASE: WindowLeaseOptions = { ...DEFAULT_WINDOW_LEASE, minRate: 50, maxChunk: 20, horizonMs: 200, idleMs: 300 };

type Held = WindowLimiter & { heldTokens(): number; lostWindows: number; waiting: number };

describe('minute windows on Redis under real faults', { timeout: 90_000 }, () => {
  const clients: Redis[] = [];
  const limiters: WindowLimiter[] = [];
  const relays: Relay[] = [];
  const connect = async (url = REDIS_URL) => {
    const r = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, commandTimeout: 2000 });
    clients.push(r);
    await r.ping();
    return r;
  };
  const open = async (lease: WindowLeaseOptions | null = LEASE, url = REDIS_URL) => {
    const l = redisLimiter(await connect(url), lease);
    limiters.push(l);
    return l as Held;
  };
  let raw: Redis;
  const fullKey = (key: string, limit: number, windowMs = 60_000) => `dis:rl:${limit}:${windowMs}:${key}`;

  before(async () => {
    await flushRedis(REDIS_URL);
    raw = await connect();
  });
  after(async () => {
    for (const r of relays) {
      r.resume();
      await r.close().catch(() => undefined);
    }
    for (const l of limiters) await l.close().catch(() => undefined);
    for (const c of clients) c.disconnect();
    await flushRedis(REDIS_URL).catch(() => undefined);
  });

  /** Hits `lim` (a few at a time, every 5 ms) until it holds tokens reserved ahead; returns the admitted hits. */
  async function untilHeld(lim: Held, key: string, limit: number, windowMs = 60_000): Promise<number> {
    let allowed = 0;
    for (const end = Date.now() + 20_000; lim.heldTokens() === 0; await sleep(5)) {
      assert.ok(Date.now() < end, 'tokens were reserved ahead');
      const rs = await Promise.all(Array.from({ length: 4 }, () => lim.hit(key, limit, windowMs)));
      allowed += rs.filter((r) => r.allowed).length;
    }
    return allowed;
  }

  /** Hits `n` times one at a time on a limiter without tokens (every hit counted in Redis as it comes). */
  async function admittedOf(lim: WindowLimiter, key: string, limit: number, n: number, windowMs = 60_000) {
    let allowed = 0;
    for (let i = 0; i < n; i++) if ((await lim.hit(key, limit, windowMs)).allowed) allowed++;
    return allowed;
  }

  test('tokens given back after their window key was deleted do not re-create it below zero: the next window admits exactly its limit', async () => {
    const key = 'key:deleted-then-given-back';
    const limit = 500;
    const A = await open();
    await untilHeld(A, key, limit);
    const held = A.heldTokens();
    assert.ok(held > 0);
    // the window is lost (eviction, FLUSHDB, a Redis restart) while A holds tokens counted in it
    assert.equal(await raw.del(fullKey(key, limit)), 1);
    // close() gives A's unused tokens back
    await A.close();
    assert.equal(await raw.exists(fullKey(key, limit)), 0, 'the give-back made no window');
    const B = await open(null);
    assert.equal(await admittedOf(B, key, limit, limit + 30), limit, 'the next window admits exactly its limit');
  });

  test('a give-back held by a paused relay until its window ended never reaches the next window', async () => {
    const key = 'key:late-give-back';
    const limit = 100_000;
    const windowMs = 2000; // a two-second window, so that it ends while the relay holds the give-back
    const relay = new Relay();
    relays.push(relay);
    await relay.start(Number(new URL(REDIS_URL).port || 6379));
    const A = await open(LEASE, viaRelay(REDIS_URL, relay));
    await untilHeld(A, key, limit, windowMs);
    assert.ok(A.heldTokens() > 0);
    // Redis stops hearing from A: its idle give-back (after idleMs) is sent and held by the relay
    relay.holdAll();
    for (const end = Date.now() + 5000; A.heldTokens() > 0 && Date.now() < end; ) await sleep(20);
    assert.equal(A.heldTokens(), 0, 'A gave its tokens back (held by the relay)');
    // the window ends in Redis meanwhile
    for (const end = Date.now() + 5000; (await raw.exists(fullKey(key, limit, windowMs))) === 1 && Date.now() < end; ) await sleep(50);
    assert.equal(await raw.exists(fullKey(key, limit, windowMs)), 0, 'the window ended');
    relay.resume();
    await sleep(300);
    assert.equal(await raw.exists(fullKey(key, limit, windowMs)), 0, 'the late give-back made no window below zero');
  });

  test('hits served from the tokens of a window lost early are counted in the window that replaced it', async () => {
    const key = 'key:lost-early';
    const limit = 400;
    const A = await open({ ...LEASE, prefetchAt: 0 });
    await untilHeld(A, key, limit);
    const held = A.heldTokens();
    assert.ok(held > 0);
    assert.equal(await raw.del(fullKey(key, limit)), 1);
    // A serves its tokens (counted in the lost window, unknown to the new one), then must ask Redis
    const served: LimitResult[] = [];
    for (let r = A.hitNow!(key, limit, 60_000); r !== undefined; r = A.hitNow!(key, limit, 60_000)) served.push(r);
    assert.equal(served.length, held);
    const next = await A.hit(key, limit, 60_000);
    assert.equal(next.allowed, true);
    assert.equal(A.lostWindows, 1, 'the lost window was noticed');
    // another process then takes what the new window has left
    const B = await open(null);
    const b = await admittedOf(B, key, limit, limit + 30);
    const admittedSinceLoss = served.length + 1 + b;
    assert.equal(admittedSinceLoss + A.heldTokens(), limit, `never over the limit: ${admittedSinceLoss} admitted, ${A.heldTokens()} held`);
  });

  test('with Redis silent, every waiting request fails within 3 s of its own arrival, also one that queued behind a reservation', async () => {
    const key = 'key:silent';
    const limit = 100_000;
    const relay = new Relay();
    relays.push(relay);
    await relay.start(Number(new URL(REDIS_URL).port || 6379));
    // the gateway's own client: a 2 s command timeout, no offline queue
    const conn = await connectRedis(viaRelay(REDIS_URL, relay));
    limiters.push(conn.limiter);
    relay.holdAll();
    const outcomes: Promise<{ after: number; error: unknown }>[] = [];
    const arrive = () => {
      const at = Date.now();
      outcomes.push(
        conn.limiter.hit(key, limit, 60_000).then(
          () => ({ after: Date.now() - at, error: undefined }),
          (e: unknown) => ({ after: Date.now() - at, error: e }),
        ),
      );
    };
    arrive(); // starts a reservation that Redis never answers
    await sleep(600);
    arrive(); // queues behind it
    await sleep(900);
    arrive(); // queues behind it, close to its command timeout
    const got = await Promise.all(outcomes);
    relay.resume();
    for (const g of got) {
      assert.ok(g.error instanceof LimiterUnavailableError, `503 material: ${String(g.error)}`);
      assert.ok(g.after < 3000, `failed ${g.after} ms after its arrival`);
    }
    assert.equal((conn.limiter as Held).waiting, 0);
  });

  test('past LIMITER_MAX_WAITERS a request fails at once, while the others still wait', async () => {
    const key = 'key:bounded';
    const relay = new Relay();
    relays.push(relay);
    await relay.start(Number(new URL(REDIS_URL).port || 6379));
    const r = new Redis(viaRelay(REDIS_URL, relay), { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2000 });
    clients.push(r);
    await new Promise((ready) => r.once('ready', ready));
    const lim = redisLimiter(r, LEASE, { maxWaiters: 50 }) as Held;
    limiters.push(lim);
    relay.holdAll();
    const settled: (string | undefined)[] = Array(60).fill(undefined);
    const all = Array.from({ length: 60 }, (_, i) =>
      lim.hit(`${key}:${i % 3}`, 1000, 60_000).then(
        () => (settled[i] = 'admitted'),
        (e: unknown) => (settled[i] = e instanceof LimiterUnavailableError ? 'unavailable' : String(e)),
      ),
    );
    await sleep(100);
    assert.equal(lim.waiting, 50, 'fifty wait');
    assert.deepEqual(settled.slice(50), Array(10).fill('unavailable'), 'the ten past the bound failed at once');
    assert.ok(settled.slice(0, 50).every((s) => s === undefined), 'the fifty still wait');
    await Promise.all(all);
    assert.ok(settled.every((s) => s === 'unavailable'));
    assert.equal(lim.waiting, 0);
    relay.resume();
  });
});
