// Prefetch (issue 14): a usage lease's next block, and the Redis limiter's next minute tokens, are
// reserved in the background when what is held falls to a low-water mark, so a steady stream of
// requests above minRate keeps being answered without a promise across block boundaries. Real
// stores: SQLite (temp file), PostgreSQL (temp database), Redis (keys of this run, deleted after).
// The invariants shown: the stored count is always served + held (exact totals across two holders),
// hand-back returns the remainder and the prefetched grant (close, idle, close with a prefetch in
// flight), a failed prefetch fails no request, and the reported used / remaining stay consecutive.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { LeasedAccountStore, DEFAULT_LEASE_OPTIONS, type LeaseOptions } from '../../src/store/lease.ts';
import { redisLimiter, DEFAULT_WINDOW_LEASE, type WindowLeaseOptions } from '../../src/store/limiter.ts';
import type { ConsumeResult, LimitResult, WindowLimiter } from '../../src/store/ports.ts';
import { redisUrl } from '../services.ts';
import { leaseHarness, sleep, steady } from './lease-harness.ts';

/** Headroom forced (minRate 1, short rate windows); blocks kept unless a test says otherwise. */
const OPTS: LeaseOptions = { ...DEFAULT_LEASE_OPTIONS, minRate: 1, rateWindowMs: 50, horizonMs: 1000, maxBlock: 100, idleMs: 60_000, maxAgeMs: 60_000, retryMs: 400 };
const PERIOD = new Date().toISOString().slice(0, 7);
const TODAY = new Date().toISOString().slice(0, 10);

type LeaseState = { free: number; prefetching: boolean; busy: boolean; lowWater: number; dayEnd: number };
const leaseOf = (L: LeasedAccountStore, keyId: string) => (L as unknown as { leases: Map<string, LeaseState> }).leases.get(`${keyId}\u0000${PERIOD}`);
const heldFree = (L: LeasedAccountStore) => L.held().reduce((n, h) => n + h.free, 0);
/** Nothing in flight on the key (no reservation, no prefetch). */
async function settled(L: LeasedAccountStore, keyId: string) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(5)) {
    const l = leaseOf(L, keyId);
    if (!l || (!l.busy && !l.prefetching)) return;
  }
  assert.fail('still in flight');
}

/**
 * `perTick` concurrent requests every `everyMs` on `L`, the way the fast path makes them (the
 * answer at hand, else the store's), until stop(). `waited`: requests that had to wait, after the
 * first `warmup` ms. Every admitted answer's `used` is kept.
 */
function drive(L: LeasedAccountStore, keyId: string, limit: number, perTick = 4, everyMs = 2, warmupMs = 300) {
  const start = Date.now();
  const n = { admitted: 0, refused: 0, errors: 0, answeredNow: 0, waited: 0, warmAnswered: 0, used: [] as number[] };
  const stop = steady(async () => {
    const warm = Date.now() - start >= warmupMs;
    const calls: Promise<ConsumeResult>[] = [];
    for (let i = 0; i < perTick; i++) {
      const now = L.consumeMonthlyNow(keyId, PERIOD, limit);
      if (now) n.answeredNow++;
      else if (warm) n.waited++;
      if (warm) n.warmAnswered++;
      calls.push(now ? Promise.resolve(now) : L.consumeMonthly(keyId, PERIOD, limit));
    }
    for (const r of await Promise.allSettled(calls)) {
      if (r.status === 'rejected') n.errors++;
      else if (r.value.admitted) {
        n.admitted++;
        n.used.push(r.value.used);
      } else n.refused++;
    }
  }, everyMs);
  return Object.assign(n, { stop });
}

for (const name of ['sqlite', 'postgres'] as const) {
  describe(`lease prefetch (${name})`, { timeout: 120_000 }, () => {
    const { open, lease, admin, newKey } = leaseHarness(name, { dirPrefix: 'dis-prefetch-', file: 'prefetch.db', client: 'prefetch', opts: OPTS });

    const consecutive = (used: number[], from = 1) => {
      const sorted = [...used].sort((a, b) => a - b);
      return sorted.every((u, i) => u === from + i);
    };

    test('a steady stream above minRate: consumeMonthlyNow keeps answering across block boundaries (no waits after warm-up), used stays consecutive; without prefetch one wait per block', async (t) => {
      const limit = 10_000_000;
      const key = await newKey(limit);
      const L = lease();
      const d = drive(L, key, limit);
      await sleep(1500);
      await d.stop();
      await settled(L, key);
      assert.ok(L.stats.prefetches >= 5, `blocks prefetched: ${L.stats.prefetches}`);
      assert.ok(d.admitted > 5 * OPTS.maxBlock, `crossed several blocks: ${d.admitted}`);
      // ~0 after warm-up: allow a stray wait on a slow machine (a prefetch slower than a quarter block)
      assert.ok(d.waited <= Math.max(2, d.warmAnswered * 0.005), `waited ${d.waited} of ${d.warmAnswered} after warm-up`);
      assert.equal(d.errors + d.refused, 0);
      assert.ok(consecutive(d.used), 'one holder: used is 1..admitted, each once (overlapping grants never repeat or skip one)');
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted + heldFree(L), 'stored = served + held');
      await L.close();
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted);
      assert.deepEqual(await admin().dailyUsage(key, TODAY, TODAY), [{ day: TODAY, used: d.admitted }]);

      // the same stream without prefetch waits at (nearly) every block boundary
      const key2 = await newKey(limit);
      const P = lease({ prefetchAt: 0 });
      const e = drive(P, key2, limit);
      await sleep(1500);
      await e.stop();
      await settled(P, key2);
      assert.equal(P.stats.prefetches, 0);
      assert.ok(e.waited >= 5, `without prefetch: waited ${e.waited} of ${e.warmAnswered}`);
      t.diagnostic(`after warm-up, waited: ${d.waited} of ${d.warmAnswered} with prefetch (${L.stats.prefetches} prefetches), ${e.waited} of ${e.warmAnswered} without`);
      await P.close();
      assert.equal(await admin().getMonthly(key2, PERIOD), e.admitted);
    });

    test('two holders with prefetch against an allowance of 3000: exactly the allowance admitted; stored = admitted after close', async () => {
      const limit = 3000;
      const key = await newKey(limit);
      const A = lease({ holder: 'A', idleMs: 300, maxAgeMs: 5000 });
      const B = lease({ holder: 'B', idleMs: 300, maxAgeMs: 5000 });
      const a = drive(A, key, limit);
      const b = drive(B, key, limit);
      for (const deadline = Date.now() + 30_000; a.refused + b.refused < 40 && Date.now() < deadline; ) await sleep(20);
      await a.stop();
      await b.stop();
      // a refusal while the other holds a block is retried once after its idle hand-back: let both settle
      await sleep(OPTS.retryMs + 300 + 300);
      assert.ok(A.stats.prefetches + B.stats.prefetches > 0, 'blocks were prefetched');
      assert.equal(a.errors + b.errors, 0);
      assert.equal(a.admitted + b.admitted, limit, `admitted ${a.admitted} + ${b.admitted}`);
      await A.close();
      await B.close();
      assert.equal(await admin().getMonthly(key, PERIOD), limit);
      assert.deepEqual(await admin().dailyUsage(key, TODAY, TODAY), [{ day: TODAY, used: limit }]);
    });

    test('hand-back returns the remainder and the prefetched grant: on close, when idle, and on close with a prefetch in flight', async () => {
      // close right after a prefetch was added to the block
      const key = await newKey(10_000_000);
      const L = lease();
      const d = drive(L, key, 10_000_000);
      for (const deadline = Date.now() + 20_000; L.stats.prefetches === 0 && Date.now() < deadline; ) await sleep(1);
      await d.stop();
      await settled(L, key);
      assert.ok(L.stats.prefetches > 0);
      const held = heldFree(L);
      assert.ok(held > leaseOf(L, key)!.lowWater, `remainder + prefetched held: ${held}`);
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted + held);
      assert.equal(await L.getMonthly(key, PERIOD), d.admitted);
      await L.close();
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted);
      assert.deepEqual(await admin().dailyUsage(key, TODAY, TODAY), [{ day: TODAY, used: d.admitted }]);

      // idle: handed back by itself
      const key2 = await newKey(10_000_000);
      const I = lease({ idleMs: 200 });
      const e = drive(I, key2, 10_000_000);
      for (const deadline = Date.now() + 20_000; I.stats.prefetches === 0 && Date.now() < deadline; ) await sleep(1);
      await e.stop();
      await sleep(700);
      assert.deepEqual(I.held(), []);
      assert.equal(await admin().getMonthly(key2, PERIOD), e.admitted);

      // close while a prefetch is in flight: its grant is added, then handed back with the rest
      const key3 = await newKey(10_000_000);
      const C = lease();
      const f = drive(C, key3, 10_000_000);
      for (const deadline = Date.now() + 20_000; (leaseOf(C, key3)?.lowWater ?? 0) === 0 && Date.now() < deadline; ) await sleep(1);
      await f.stop();
      await settled(C, key3);
      // down to the low-water mark in one turn: the request that reaches it starts the prefetch
      const l = leaseOf(C, key3)!;
      let admitted = f.admitted;
      while (!l.prefetching && C.consumeMonthlyNow(key3, PERIOD, 10_000_000)) admitted++;
      assert.equal(l.prefetching, true, 'a prefetch in flight');
      await C.close();
      assert.equal(await admin().getMonthly(key3, PERIOD), admitted);
      assert.deepEqual(await admin().dailyUsage(key3, TODAY, TODAY), [{ day: TODAY, used: admitted }]);
    });

    test('a failed prefetch fails no request: served from what is left, then a normal reservation', async () => {
      const key = await newKey(10_000_000);
      const inner = open();
      const reserve = inner.reserveMonthly.bind(inner);
      let failed = 0;
      inner.reserveMonthly = async (r) => {
        if (r.need === 0) {
          failed++;
          throw new Error('prefetch refused by the test');
        }
        return reserve(r);
      };
      const L = lease({}, inner);
      const d = drive(L, key, 10_000_000);
      await sleep(800);
      await d.stop();
      await settled(L, key);
      assert.ok(failed > 0, 'prefetches were tried');
      assert.equal(L.stats.prefetches, 0);
      assert.equal(d.errors + d.refused, 0, 'no request failed');
      assert.ok(consecutive(d.used));
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted + heldFree(L));
      await L.close();
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted);
    });

    test('no prefetch near the end of the UTC day: the block is served to its end, then a normal reservation', async () => {
      const key = await newKey(10_000_000);
      const L = lease();
      // a held block, its day ending in 3 s (gateway clock): inside the prefetch margin
      assert.equal((await L.consumeMonthly(key, PERIOD, 10_000_000)).admitted, true);
      for (let i = 0; i < 20; i++) {
        const r = L.consumeMonthlyNow(key, PERIOD, 10_000_000) ?? (await L.consumeMonthly(key, PERIOD, 10_000_000));
        assert.equal(r.admitted, true);
        await sleep(3);
      }
      await settled(L, key);
      const l = leaseOf(L, key)! as LeaseState & { rate: number };
      assert.ok(l.free > l.lowWater && l.lowWater > 0, `block held: ${l.free}`);
      assert.ok(l.rate >= OPTS.minRate, 'the key qualifies by its rate');
      l.dayEnd = Date.now() + 3000;
      while (L.consumeMonthlyNow(key, PERIOD, 10_000_000)) assert.equal(l.prefetching, false);
      assert.equal(L.stats.prefetches, 0);
      assert.equal(l.free, 0);
      await L.close();
    });
  });
}

// ---- Redis minute tokens ----------------------------------------------------------------------

const REDIS_URL = redisUrl(10);
const LEASE: WindowLeaseOptions = { ...DEFAULT_WINDOW_LEASE, minRate: 50, maxChunk: 40, horizonMs: 200, idleMs: 60_000 };
type Held = WindowLimiter & { heldTokens(): number };
type SlotState = { prefetching: boolean; busy: boolean };
const slotOf = (l: WindowLimiter, id: string) => (l as unknown as { slots: Map<string, SlotState> }).slots.get(id);

describe('minute tokens prefetch (Redis)', { timeout: 60_000 }, () => {
  const run = crypto.randomBytes(4).toString('hex');
  const clients: Redis[] = [];
  const limiters: WindowLimiter[] = [];
  const used = new Set<string>();
  let raw: Redis;
  const open = async (lease: WindowLeaseOptions = LEASE) => {
    const r = new Redis(REDIS_URL, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    clients.push(r);
    await r.ping();
    const l = redisLimiter(r, lease);
    limiters.push(l);
    return l as Held;
  };
  const keyOf = (name: string, limit: number) => {
    const key = `prefetch:${run}:${name}`;
    const full = `dis:rl:${limit}:60000:${key}`;
    used.add(full);
    return { key, full, id: `${limit}:60000:${key}` };
  };
  const count = async (full: string) => Number((await raw.get(full)) ?? 0);

  before(async () => {
    raw = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await raw.ping();
  });
  after(async () => {
    for (const l of limiters) await l.close().catch(() => undefined);
    if (used.size) await raw.del(...used).catch(() => undefined);
    raw.disconnect();
  });

  /** Like the lease drive: hitNow, else hit; waits counted after warm-up; every remaining kept. */
  function drive(lim: WindowLimiter, key: string, limit: number, perTick = 4, everyMs = 2, warmupMs = 300) {
    let running = true;
    const start = Date.now();
    const n = { allowed: 0, refused: 0, errors: 0, waited: 0, warmAnswered: 0, remaining: [] as number[] };
    const done = (async () => {
      while (running) {
        const warm = Date.now() - start >= warmupMs;
        const calls: Promise<LimitResult>[] = [];
        for (let i = 0; i < perTick; i++) {
          const now = lim.hitNow!(key, limit, 60_000);
          if (!now && warm) n.waited++;
          if (warm) n.warmAnswered++;
          calls.push(now ? Promise.resolve(now) : lim.hit(key, limit, 60_000));
        }
        for (const r of await Promise.allSettled(calls)) {
          if (r.status === 'rejected') n.errors++;
          else if (r.value.allowed) {
            n.allowed++;
            n.remaining.push(r.value.remaining);
          } else n.refused++;
        }
        await sleep(everyMs);
      }
    })();
    return Object.assign(n, {
      stop: async () => {
        running = false;
        await done;
      },
    });
  }
  async function settledSlot(lim: WindowLimiter, id: string) {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(5)) {
      const s = slotOf(lim, id);
      if (!s || (!s.busy && !s.prefetching)) return;
    }
    assert.fail('still in flight');
  }

  test('a steady stream above minRate: hitNow keeps answering across token grants (no waits after warm-up), remaining consecutive; close gives the rest back', async (t) => {
    const limit = 1_000_000;
    const { key, full, id } = keyOf('steady', limit);
    const A = await open();
    const d = drive(A, key, limit);
    await sleep(1500);
    await d.stop();
    await settledSlot(A, id);
    assert.ok(d.allowed > 5 * LEASE.maxChunk, `crossed several grants: ${d.allowed}`);
    assert.ok(d.waited <= Math.max(2, d.warmAnswered * 0.005), `waited ${d.waited} of ${d.warmAnswered} after warm-up`);
    assert.equal(d.errors + d.refused, 0);
    const sorted = [...d.remaining].sort((a, b) => b - a);
    assert.ok(sorted.every((r, i) => r === limit - 1 - i), 'one holder: remaining counts down by one per hit, never repeated');
    assert.ok(A.heldTokens() <= LEASE.maxChunk, `held ${A.heldTokens()}`);
    assert.equal(await count(full), d.allowed + A.heldTokens(), 'Redis = admitted + held');
    await A.close();
    assert.equal(await count(full), d.allowed, 'held tokens (remainder and prefetched) given back on close');

    // the same stream without prefetch waits at (nearly) every grant
    const p = keyOf('steady-off', limit);
    const B = await open({ ...LEASE, prefetchAt: 0 });
    const e = drive(B, p.key, limit);
    await sleep(1500);
    await e.stop();
    await settledSlot(B, p.id);
    assert.ok(e.waited >= 5, `without prefetch: waited ${e.waited} of ${e.warmAnswered}`);
    t.diagnostic(`after warm-up, waited: ${d.waited} of ${d.warmAnswered} with prefetch, ${e.waited} of ${e.warmAnswered} without`);
    await B.close();
    assert.equal(await count(p.full), e.allowed);
  });

  test('two limiter instances with prefetch: never over the limit; Redis = admitted + held; idle tokens go back', async () => {
    const limit = 3000;
    const { key, full } = keyOf('two', limit);
    const A = await open({ ...LEASE, idleMs: 300 });
    const B = await open({ ...LEASE, idleMs: 300 });
    const a = drive(A, key, limit);
    const b = drive(B, key, limit);
    let maxHeld = 0;
    for (const deadline = Date.now() + 30_000; a.refused + b.refused < 20 && Date.now() < deadline; await sleep(5)) maxHeld = Math.max(maxHeld, A.heldTokens(), B.heldTokens());
    await a.stop();
    await b.stop();
    await sleep(50);
    const admitted = a.allowed + b.allowed;
    assert.equal(a.errors + b.errors, 0);
    assert.ok(maxHeld <= LEASE.maxChunk, `held at most maxChunk: ${maxHeld}`);
    assert.ok(admitted <= limit, `never over the limit: ${admitted}`);
    assert.ok(admitted >= limit - 2 * LEASE.maxChunk, `short by at most the tokens held: ${admitted}`);
    assert.equal(await count(full), admitted + A.heldTokens() + B.heldTokens(), 'the count is admitted + held');
    await sleep(900);
    assert.equal(A.heldTokens() + B.heldTokens(), 0, 'idle tokens given back');
    assert.equal(await count(full), admitted);
  });

  test('a failed prefetch fails no hit: answered from the rest, then a normal reservation', async () => {
    const limit = 1_000_000;
    const { key, full, id } = keyOf('failing', limit);
    const A = await open();
    const inner = A as unknown as { reserve: (k: string, l: number, need: number, ...rest: number[]) => Promise<[number, number, number]> };
    const reserve = inner.reserve;
    let failed = 0;
    inner.reserve = async (k, l, need, ...rest) => {
      if (need === 0) {
        failed++;
        throw new Error('prefetch refused by the test');
      }
      return reserve(k, l, need, ...rest);
    };
    const d = drive(A, key, limit);
    await sleep(800);
    await d.stop();
    await settledSlot(A, id);
    assert.ok(failed > 0, 'prefetches were tried');
    assert.equal(d.errors + d.refused, 0, 'no hit failed');
    assert.equal(await count(full), d.allowed + A.heldTokens());
    await A.close();
    assert.equal(await count(full), d.allowed);
  });
});
