// Minute-window tokens reserved ahead on Redis (src/store/limiter.ts, issue 14): two limiter
// instances on their own connections stand for two processes. The bound under test: Redis' count
// is always the hits admitted plus the tokens held unused, so the window never admits over its
// limit; a process refused at the limit is short by exactly the tokens the others hold, and those
// go back to Redis when a holder goes idle.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { redisLimiter, DEFAULT_WINDOW_LEASE, type WindowLeaseOptions } from '../../src/store/limiter.ts';
import type { WindowLimiter } from '../../src/store/ports.ts';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
import { flushRedis, redisUrl } from '../services.ts';

const URL = redisUrl(8); // this file's own Redis database index (flushed before and after)
const LEASE: WindowLeaseOptions = { ...DEFAULT_WINDOW_LEASE, minRate: 50, maxChunk: 20, horizonMs: 200, idleMs: 300 };

type Held = WindowLimiter & { heldTokens(): number };

describe('minute-window tokens reserved ahead (Redis)', { timeout: 60_000 }, () => {
  const clients: Redis[] = [];
  const limiters: WindowLimiter[] = [];
  const open = async (lease: WindowLeaseOptions | null = LEASE) => {
    const r = new Redis(URL, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    clients.push(r);
    await r.ping();
    const l = redisLimiter(r, lease);
    limiters.push(l);
    return l as Held;
  };
  const raw = () => clients[0]!;

  before(async () => {
    await flushRedis(URL);
    await open(null);
  });
  after(async () => {
    for (const l of limiters) await l.close().catch(() => undefined);
    await flushRedis(URL).catch(() => undefined);
  });

  /** `perTick` concurrent hits every 5 ms on `lim` until stop(). */
  function drive(lim: WindowLimiter, key: string, limit: number, perTick = 4) {
    let running = true;
    let allowed = 0;
    let refused = 0;
    const done = (async () => {
      while (running) {
        const rs = await Promise.all(Array.from({ length: perTick }, () => lim.hit(key, limit, 60_000)));
        for (const r of rs) r.allowed ? allowed++ : refused++;
        await sleep(5);
      }
    })();
    return {
      get allowed() {
        return allowed;
      },
      get refused() {
        return refused;
      },
      stop: async () => {
        running = false;
        await done;
      },
    };
  }

  const count = async (key: string, limit: number) => Number((await raw().get(`dis:rl:${limit}:60000:${key}`)) ?? 0);

  test('two processes at a high rate: never over the limit; admitted + tokens held = the count; idle tokens go back', async () => {
    const limit = 1500;
    const key = 'key:lease-two';
    const A = await open();
    const B = await open();
    const a = drive(A, key, limit);
    const b = drive(B, key, limit);
    let maxHeld = 0;
    for (const deadline = Date.now() + 30_000; a.refused + b.refused < 20 && Date.now() < deadline; await sleep(10)) {
      maxHeld = Math.max(maxHeld, A.heldTokens(), B.heldTokens());
    }
    await a.stop();
    await b.stop();
    assert.ok(maxHeld > 0, 'tokens were reserved ahead');
    assert.ok(maxHeld <= LEASE.maxChunk, `held ${maxHeld}`);
    const held = A.heldTokens() + B.heldTokens();
    assert.equal(await count(key, limit), a.allowed + b.allowed + held, 'the count is admitted + held');
    assert.ok(a.allowed + b.allowed <= limit, 'never over the limit');
    assert.ok(a.allowed + b.allowed >= limit - 2 * LEASE.maxChunk, `short by at most the chunks held: ${a.allowed + b.allowed}`);
    await sleep(LEASE.idleMs * 2 + 100);
    assert.equal(A.heldTokens() + B.heldTokens(), 0, 'idle tokens given back');
    assert.equal(await count(key, limit), a.allowed + b.allowed);
  });

  test('below minRate each hit is counted as it comes (exact, nothing held)', async () => {
    const key = 'key:lease-slow';
    const A = await open();
    const B = await open();
    const rs = await Promise.all(Array.from({ length: 90 }, (_, i) => (i % 2 ? A : B).hit(key, 30, 60_000)));
    assert.equal(rs.filter((r) => r.allowed).length, 30);
    assert.equal(A.heldTokens() + B.heldTokens(), 0);
    assert.equal(await count(key, 30), 30, 'refused hits are not counted');
  });

  test('a refund goes back into the held tokens; close gives them back', async () => {
    const key = 'key:lease-refund';
    const A = await open();
    const a = drive(A, key, 100_000);
    for (const deadline = Date.now() + 20_000; A.heldTokens() === 0 && Date.now() < deadline; ) await sleep(5);
    await a.stop();
    const held = A.heldTokens();
    assert.ok(held > 0, 'tokens held');
    const r = A.hitNow!(key, 100_000, 60_000)!;
    assert.equal(r.allowed, true);
    assert.equal(A.heldTokens(), held - 1);
    await A.refund(key, 100_000, 60_000, r);
    assert.equal(A.heldTokens(), held);
    assert.equal(await count(key, 100_000), a.allowed + held, 'a refund into the tokens needs no Redis call');
    await A.close();
    assert.equal(await count(key, 100_000), a.allowed);
  });
});
