// Prefetch (issue 14): a usage lease's next block, and the Redis limiter's next minute tokens, are
// reserved in the background when what is held falls to a low-water mark, so a steady stream of
// requests above minRate keeps being answered without a promise across block boundaries. Real
// stores: SQLite (temp file), PostgreSQL (temp database), Redis (keys of this run, deleted after).
// The invariants shown: the stored count is always served + held (exact totals across two holders),
// hand-back returns the remainder and the prefetched grant (close, idle, close with a prefetch in
// flight), a failed prefetch fails no request, no prefetch near the end of the UTC day (the lease
// clock option), and the reported used / remaining stay consecutive. No figure of time or of waits
// is asserted here: how many requests wait with and without prefetch is `npm run bench:prefetch`.
// What the tests watch is public: the stores' answers and stats, held(), heldTokens(), and the
// adapter's (or Redis client's) reservation calls, wrapped on the instance.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { LeasedAccountStore, DEFAULT_LEASE_OPTIONS, type LeaseOptions } from '../../src/store/lease.ts';
import { redisLimiter, DEFAULT_WINDOW_LEASE, type WindowLeaseOptions } from '../../src/store/limiter.ts';
import type { ConsumeResult, LimitResult, WindowLimiter } from '../../src/store/ports.ts';
import { redisUrl, until } from '../services.ts';
import { leaseHarness, noneInFlight, sleep, steady, watchReservations } from './lease-harness.ts';

/** Headroom forced (minRate 1, short rate windows); blocks kept unless a test says otherwise. */
const OPTS: LeaseOptions = { ...DEFAULT_LEASE_OPTIONS, minRate: 1, rateWindowMs: 50, horizonMs: 1000, maxBlock: 100, idleMs: 60_000, maxAgeMs: 60_000, retryMs: 400 };
const PERIOD = new Date().toISOString().slice(0, 7);
const TODAY = new Date().toISOString().slice(0, 10);

const heldFree = (L: LeasedAccountStore) => L.held().reduce((n, h) => n + h.free, 0);
const nextUtcMidnight = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

/**
 * `perTick` concurrent requests every `everyMs` on `L`, the way the fast path makes them (the
 * answer at hand, else the store's), until stop(). `waited`: requests the block could not answer
 * at once. Every admitted answer's `used` is kept.
 */
function drive(L: LeasedAccountStore, keyId: string, limit: number, perTick = 4, everyMs = 2) {
  const n = { admitted: 0, refused: 0, errors: 0, answeredNow: 0, waited: 0, used: [] as number[] };
  const stop = steady(async () => {
    const calls: Promise<ConsumeResult>[] = [];
    for (let i = 0; i < perTick; i++) {
      const now = L.consumeMonthlyNow(keyId, PERIOD, limit);
      if (now) n.answeredNow++;
      else n.waited++;
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
    /** A lease over a new adapter whose reservations are watched. */
    const watched = (opts: Partial<LeaseOptions> = {}) => {
      const inner = open();
      const w = watchReservations(inner);
      return { L: lease(opts, inner), w };
    };

    const consecutive = (used: number[], from = 1) => {
      const sorted = [...used].sort((a, b) => a - b);
      return sorted.every((u, i) => u === from + i);
    };

    test('a steady stream above minRate: blocks are prefetched in the background while consumeMonthlyNow keeps answering, used stays consecutive, stored = served + held; without prefetch a request waits at every block boundary', async (t) => {
      const limit = 10_000_000;
      const key = await newKey(limit);
      const { L, w } = watched();
      const d = drive(L, key, limit);
      await until('several blocks crossed, several prefetched', 60_000, () => L.stats.prefetches >= 5 && d.admitted > 6 * OPTS.maxBlock);
      await d.stop();
      await noneInFlight(w);
      assert.ok(d.answeredNow > 0, 'answered without a promise');
      assert.equal(d.errors + d.refused, 0);
      assert.ok(consecutive(d.used), 'one holder: used is 1..admitted, each once (overlapping grants never repeat or skip one)');
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted + heldFree(L), 'stored = served + held');
      await L.close();
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted);
      assert.deepEqual(await admin().dailyUsage(key, TODAY, TODAY), [{ day: TODAY, used: d.admitted }]);

      // the same stream without prefetch: every block is reserved by a request that waits for it,
      // and a reservation admits its waiting requests plus at most maxBlock, so
      // admitted <= waited × (maxBlock + 1) whatever the timing
      const key2 = await newKey(limit);
      const { L: P, w: pw } = watched({ prefetchAt: 0 });
      const e = drive(P, key2, limit);
      await until('several blocks crossed', 60_000, () => e.admitted > 6 * OPTS.maxBlock);
      await e.stop();
      await noneInFlight(pw);
      assert.equal(P.stats.prefetches, 0);
      assert.equal(pw.prefetchesStarted, 0);
      assert.ok(e.waited * (OPTS.maxBlock + 1) >= e.admitted, `without prefetch: waited ${e.waited} for ${e.admitted} admitted`);
      assert.equal(e.errors + e.refused, 0);
      assert.ok(consecutive(e.used));
      t.diagnostic(`waited: ${d.waited} of ${d.admitted} with prefetch (${L.stats.prefetches} prefetches), ${e.waited} of ${e.admitted} without (figures: npm run bench:prefetch)`);
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
      await until('both refused at the allowance', 60_000, () => a.refused + b.refused >= 40);
      await a.stop();
      await b.stop();
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
      const { L, w } = watched();
      const d = drive(L, key, 10_000_000);
      await until('a block prefetched', 30_000, () => L.stats.prefetches > 0);
      await d.stop();
      await noneInFlight(w);
      const held = heldFree(L);
      assert.ok(held > 0, `remainder + prefetched held: ${held}`);
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted + held);
      assert.equal(await L.getMonthly(key, PERIOD), d.admitted);
      await L.close();
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted);
      assert.deepEqual(await admin().dailyUsage(key, TODAY, TODAY), [{ day: TODAY, used: d.admitted }]);

      // idle: handed back by itself
      const key2 = await newKey(10_000_000);
      const { L: I, w: iw } = watched({ idleMs: 200 });
      const e = drive(I, key2, 10_000_000);
      await until('a block prefetched', 30_000, () => I.stats.prefetches > 0);
      await e.stop();
      await until('the idle block handed back', 30_000, () => I.held().length === 0 && iw.inFlight === 0);
      assert.equal(await admin().getMonthly(key2, PERIOD), e.admitted);

      // close while a prefetch is in flight (its grant counted in the store, not yet returned to the
      // lease): the grant is added, then handed back with the rest. The lease clock stops before the
      // stream does, so the key's measured rate is still the stream's when the block is drained.
      const key3 = await newKey(10_000_000);
      let frozen: number | undefined;
      const { L: C, w: cw } = watched({ now: () => frozen ?? Date.now() });
      const f = drive(C, key3, 10_000_000);
      await until('a block prefetched', 30_000, () => C.stats.prefetches > 0);
      frozen = Date.now();
      await f.stop();
      await noneInFlight(cw);
      let release!: () => void;
      cw.holdPrefetch = new Promise((r) => (release = r));
      // down to the low-water mark: the request that reaches it starts the prefetch
      const started = cw.prefetchesStarted;
      let admitted = f.admitted;
      for (let i = 0; i < 10 * OPTS.maxBlock && cw.prefetchesStarted === started; i++) {
        const r = C.consumeMonthlyNow(key3, PERIOD, 10_000_000) ?? (await C.consumeMonthly(key3, PERIOD, 10_000_000));
        assert.equal(r.admitted, true);
        admitted++;
      }
      assert.equal(cw.prefetchesStarted, started + 1, 'a prefetch in flight');
      await until('the prefetched grant counted in the store', 10_000, async () => (await admin().getMonthly(key3, PERIOD)) > admitted + heldFree(C));
      const closing = C.close();
      release();
      await closing;
      assert.equal(await admin().getMonthly(key3, PERIOD), admitted);
      assert.deepEqual(await admin().dailyUsage(key3, TODAY, TODAY), [{ day: TODAY, used: admitted }]);
    });

    test('a failed prefetch fails no request: served from what is left, then a normal reservation', async () => {
      const key = await newKey(10_000_000);
      const { L, w } = watched();
      w.failPrefetch = true;
      const d = drive(L, key, 10_000_000);
      await until('several prefetches tried and several blocks crossed', 60_000, () => w.prefetchesFailed >= 3 && d.admitted > 3 * OPTS.maxBlock);
      await d.stop();
      await noneInFlight(w);
      assert.equal(L.stats.prefetches, 0);
      assert.equal(d.errors + d.refused, 0, 'no request failed');
      assert.ok(consecutive(d.used));
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted + heldFree(L));
      await L.close();
      assert.equal(await admin().getMonthly(key, PERIOD), d.admitted);
    });

    test('no prefetch near the end of the UTC day (lease clock 3 s before midnight): the block is served to its end, then a normal reservation; the same requests earlier in the day prefetch', async () => {
      /**
       * The same requests on a lease whose clock (the `now` option) starts at `start` and moves 3 ms
       * per request: a block is reserved (the rate qualifies after one 50 ms window), then served to
       * its end in one turn. Returns the lease, its watch and the requests admitted.
       */
      async function blockThenDrain(start: number) {
        let clock = start;
        const { L, w } = watched({ now: () => clock });
        const key = await newKey(10_000_000);
        let admitted = 0;
        for (let i = 0; i < 30 && heldFree(L) === 0; i++) {
          clock += 3;
          const r = L.consumeMonthlyNow(key, PERIOD, 10_000_000) ?? (await L.consumeMonthly(key, PERIOD, 10_000_000));
          assert.equal(r.admitted, true);
          admitted++;
        }
        assert.ok(heldFree(L) > 1, `a block held: ${heldFree(L)}`);
        while (L.consumeMonthlyNow(key, PERIOD, 10_000_000)) admitted++;
        assert.deepEqual(L.held(), [], 'served to its end');
        await noneInFlight(w);
        // the next request: a normal reservation
        assert.deepEqual(await L.consumeMonthly(key, PERIOD, 10_000_000), { admitted: true, used: admitted + 1 });
        await noneInFlight(w);
        return { L, w, key, admitted: admitted + 1 };
      }
      // the store dates the rows by its own clock: stay on today's date, 3 s before its end
      const dayEnd = nextUtcMidnight(Date.now());
      const late = await blockThenDrain(dayEnd - 3000);
      assert.equal(late.w.prefetchesStarted, 0, 'no prefetch started in the day’s last 5 s');
      assert.equal(late.L.stats.prefetches, 0);
      await late.L.close();
      assert.equal(await admin().getMonthly(late.key, PERIOD), late.admitted);

      const early = await blockThenDrain(dayEnd - 3_600_000);
      assert.equal(early.w.prefetchesStarted, 1, 'an hour before midnight the same requests prefetch');
      await early.L.close();
      assert.equal(await admin().getMonthly(early.key, PERIOD), early.admitted);
    });
  });
}

// ---- Redis minute tokens ----------------------------------------------------------------------

const REDIS_URL = redisUrl(10); // this file's own database index (keys of this run, deleted after)
const LEASE: WindowLeaseOptions = { ...DEFAULT_WINDOW_LEASE, minRate: 50, maxChunk: 40, horizonMs: 200, idleMs: 60_000 };
type Held = WindowLimiter & { heldTokens(): number };

/**
 * Watches the token reservations a limiter sends on its Redis client `r` (the reserve script, by
 * EVALSHA or EVAL: key, limit, need, extra, share, seconds), wrapped on this client instance: in
 * flight, prefetches started (need 0), and `failPrefetch` to make those fail before reaching Redis.
 */
function watchScripts(r: Redis) {
  const w = { inFlight: 0, prefetchesStarted: 0, prefetchesFailed: 0, failPrefetch: false };
  for (const m of ['evalsha', 'eval'] as const) {
    const real = (r[m] as (...a: unknown[]) => Promise<unknown>).bind(r);
    (r as unknown as Record<string, unknown>)[m] = async (...a: unknown[]) => {
      const prefetch = Number(a[4]) === 0;
      w.inFlight++;
      try {
        if (prefetch && m === 'evalsha') {
          w.prefetchesStarted++;
          if (w.failPrefetch) {
            w.prefetchesFailed++;
            throw new Error('prefetch refused by the test');
          }
        }
        return await real(...a);
      } finally {
        w.inFlight--;
      }
    };
  }
  return w;
}

describe('minute tokens prefetch (Redis)', { timeout: 120_000 }, () => {
  const run = crypto.randomBytes(4).toString('hex');
  const clients: Redis[] = [];
  const limiters: WindowLimiter[] = [];
  const used = new Set<string>();
  let raw: Redis;
  const open = async (lease: WindowLeaseOptions = LEASE) => {
    const r = new Redis(REDIS_URL, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    clients.push(r);
    await r.ping();
    const w = watchScripts(r);
    const l = redisLimiter(r, lease);
    limiters.push(l);
    return Object.assign(l as Held, { watch: w });
  };
  const keyOf = (name: string, limit: number) => {
    const key = `prefetch:${run}:${name}`;
    const full = `dis:rl:${limit}:60000:${key}`;
    used.add(full);
    return { key, full };
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

  /** Like the lease drive: hitNow, else hit; `waited` counts the hits the tokens could not answer; every remaining kept. */
  function drive(lim: WindowLimiter, key: string, limit: number, perTick = 4, everyMs = 2) {
    const n = { allowed: 0, refused: 0, errors: 0, waited: 0, answeredNow: 0, remaining: [] as number[] };
    const stop = steady(async () => {
      const calls: Promise<LimitResult>[] = [];
      for (let i = 0; i < perTick; i++) {
        const now = lim.hitNow!(key, limit, 60_000);
        if (now) n.answeredNow++;
        else n.waited++;
        calls.push(now ? Promise.resolve(now) : lim.hit(key, limit, 60_000));
      }
      for (const r of await Promise.allSettled(calls)) {
        if (r.status === 'rejected') n.errors++;
        else if (r.value.allowed) {
          n.allowed++;
          n.remaining.push(r.value.remaining);
        } else n.refused++;
      }
    }, everyMs);
    return Object.assign(n, { stop });
  }

  test('a steady stream above minRate: tokens are prefetched while hitNow keeps answering, remaining consecutive, Redis = admitted + held; close gives the rest back; without prefetch a hit waits at every grant', async (t) => {
    const limit = 1_000_000;
    const { key, full } = keyOf('steady', limit);
    const A = await open();
    const d = drive(A, key, limit);
    await until('several grants crossed, several prefetched', 60_000, () => A.watch.prefetchesStarted >= 5 && d.allowed > 6 * LEASE.maxChunk);
    await d.stop();
    await noneInFlight(A.watch);
    assert.ok(d.answeredNow > 0, 'answered without a promise');
    assert.equal(d.errors + d.refused, 0);
    const sorted = [...d.remaining].sort((a, b) => b - a);
    assert.ok(sorted.every((r, i) => r === limit - 1 - i), 'one holder: remaining counts down by one per hit, never repeated');
    assert.ok(A.heldTokens() <= LEASE.maxChunk, `held ${A.heldTokens()}`);
    assert.equal(await count(full), d.allowed + A.heldTokens(), 'Redis = admitted + held');
    await A.close();
    assert.equal(await count(full), d.allowed, 'held tokens (remainder and prefetched) given back on close');

    // the same stream without prefetch: every grant is reserved by hits that wait for it, and a
    // reservation admits its waiting hits plus at most maxChunk, so allowed <= waited × (maxChunk + 1)
    const p = keyOf('steady-off', limit);
    const B = await open({ ...LEASE, prefetchAt: 0 });
    const e = drive(B, p.key, limit);
    await until('several grants crossed', 60_000, () => e.allowed > 6 * LEASE.maxChunk);
    await e.stop();
    await noneInFlight(B.watch);
    assert.equal(B.watch.prefetchesStarted, 0);
    assert.ok(e.waited * (LEASE.maxChunk + 1) >= e.allowed, `without prefetch: waited ${e.waited} for ${e.allowed} allowed`);
    assert.equal(e.errors + e.refused, 0);
    t.diagnostic(`waited: ${d.waited} of ${d.allowed} with prefetch, ${e.waited} of ${e.allowed} without (figures: npm run bench:prefetch)`);
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
    for (const deadline = Date.now() + 60_000; a.refused + b.refused < 20 && Date.now() < deadline; await sleep(5)) maxHeld = Math.max(maxHeld, A.heldTokens(), B.heldTokens());
    await a.stop();
    await b.stop();
    await noneInFlight(A.watch);
    await noneInFlight(B.watch);
    const admitted = a.allowed + b.allowed;
    assert.ok(a.refused + b.refused >= 20, 'refused at the limit');
    assert.ok(A.watch.prefetchesStarted + B.watch.prefetchesStarted > 0, 'tokens were prefetched');
    assert.equal(a.errors + b.errors, 0);
    assert.ok(maxHeld <= LEASE.maxChunk, `held at most maxChunk: ${maxHeld}`);
    assert.ok(admitted <= limit, `never over the limit: ${admitted}`);
    assert.ok(admitted >= limit - 2 * LEASE.maxChunk, `short by at most the tokens held: ${admitted}`);
    assert.equal(await count(full), admitted + A.heldTokens() + B.heldTokens(), 'the count is admitted + held');
    await until('idle tokens given back', 30_000, () => A.heldTokens() + B.heldTokens() === 0);
    await until('and counted back in Redis', 10_000, async () => (await count(full)) === admitted);
  });

  test('a failed prefetch fails no hit: answered from the rest, then a normal reservation', async () => {
    const limit = 1_000_000;
    const { key, full } = keyOf('failing', limit);
    const A = await open();
    A.watch.failPrefetch = true;
    const d = drive(A, key, limit);
    await until('prefetches tried and several grants crossed', 60_000, () => A.watch.prefetchesFailed >= 2 && d.allowed > 3 * LEASE.maxChunk);
    await d.stop();
    await noneInFlight(A.watch);
    assert.equal(d.errors + d.refused, 0, 'no hit failed');
    const sorted = [...d.remaining].sort((a, b) => b - a);
    assert.ok(sorted.every((r, i) => r === limit - 1 - i), 'remaining counts down by one per hit');
    assert.equal(await count(full), d.allowed + A.heldTokens());
    await A.close();
    assert.equal(await count(full), d.allowed);
  });
});
