// Answers without a promise (issue 14): LeasedAccountStore.consumeMonthlyNow and the Redis limiter's
// hitNow answer exactly when consumeMonthly / hit would answer at once from what this process holds
// (a usage lease's block, minute-window tokens), and otherwise return undefined having counted and
// changed nothing. Real stores: SQLite (temp file), PostgreSQL (temp database), Redis (own keys).
// Also: refunds right after such an answer give the unit back synchronously, and the lease wrapper
// (no Proxy) still exposes what callers use.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { types } from 'node:util';
import { Redis } from 'ioredis';
import { PostgresAccountStore } from '../../src/store/postgres.ts';
import { LeasedAccountStore, DEFAULT_LEASE_OPTIONS, withLeases, type LeaseOptions } from '../../src/store/lease.ts';
import { MemoryWindowLimiter, redisLimiter, DEFAULT_WINDOW_LEASE, type WindowLeaseOptions } from '../../src/store/limiter.ts';
import { hasLeaseReservations, type ConsumeResult, type LimitResult, type WindowLimiter } from '../../src/store/ports.ts';
import { createDatabase, dbUrl, dropDatabase, redisUrl, Relay, tempDatabaseName, until, viaRelay, within } from '../services.ts';
import { leaseHarness, sleep, steady } from './lease-harness.ts';

/** Headroom forced (minRate 1, short rate windows); blocks kept (no idle or age hand-back) unless a test says otherwise. */
const OPTS: LeaseOptions = { ...DEFAULT_LEASE_OPTIONS, minRate: 1, rateWindowMs: 50, horizonMs: 1000, maxBlock: 40, idleMs: 60_000, maxAgeMs: 60_000, retryMs: 400 };
const PERIOD = new Date().toISOString().slice(0, 7);
const TODAY = new Date().toISOString().slice(0, 10);

/** The lease bookkeeping of one key (its diagnostics), to show that an unanswered call changed none of it. */
const leaseState = (L: LeasedAccountStore, keyId: string) => L.leaseOf(keyId, PERIOD);
const heldFree = (L: LeasedAccountStore) => L.held().reduce((n, h) => n + h.free, 0);

/** One request the way the fast path makes it: the answer at hand, else the store's. */
function consume(L: LeasedAccountStore, keyId: string, limit: number): { now: boolean; r: Promise<ConsumeResult> } {
  const now = L.consumeMonthlyNow(keyId, PERIOD, limit);
  return now ? { now: true, r: Promise.resolve(now) } : { now: false, r: L.consumeMonthly(keyId, PERIOD, limit) };
}

/** `perTick` concurrent requests every 5 ms on `L` until stop(), through consume(). */
function drive(L: LeasedAccountStore, keyId: string, limit: number, perTick = 4) {
  const n = { admitted: 0, refused: 0, answeredNow: 0 };
  const stop = steady(async () => {
    const calls = Array.from({ length: perTick }, () => consume(L, keyId, limit));
    n.answeredNow += calls.filter((c) => c.now).length;
    for (const r of await Promise.all(calls.map((c) => c.r))) r.admitted ? n.admitted++ : n.refused++;
  }, 5);
  return Object.assign(n, { stop });
}

for (const name of ['sqlite', 'postgres'] as const) {
  describe(`consumeMonthlyNow (${name})`, { timeout: 120_000 }, () => {
    const { open, lease, keep, admin, newKey } = leaseHarness(name, { dirPrefix: 'dis-sync-', file: 'sync.db', client: 'sync', opts: OPTS });

    /** Drives `L` until it holds a block; returns the requests admitted so far (all from this one holder). */
    async function holdBlock(L: LeasedAccountStore, keyId: string, limit: number) {
      const d = drive(L, keyId, limit);
      for (const deadline = Date.now() + 20_000; L.held().length === 0 && Date.now() < deadline; ) await sleep(5);
      await d.stop();
      assert.ok(heldFree(L) > 0, 'a block is held');
      return d.admitted;
    }

    test('no block held: consumeMonthlyNow is undefined and changes nothing; consumeMonthly then answers as on a fresh store', async () => {
      const key = await newKey(100);
      const control = await newKey(100);
      const L = lease();
      const stats = { ...L.stats };
      for (let i = 0; i < 50; i++) assert.equal(L.consumeMonthlyNow(key, PERIOD, 100), undefined);
      assert.equal(L.leaseCount, 0, 'no lease created');
      assert.deepEqual(L.held(), []);
      assert.deepEqual(L.stats, stats);
      assert.equal(await admin().getMonthly(key, PERIOD), 0, 'nothing counted in the store');
      // the same first answer as a store that never saw the calls, with the same bookkeeping
      const fresh = lease();
      const [a, b] = [await L.consumeMonthly(key, PERIOD, 100), await fresh.consumeMonthly(control, PERIOD, 100)];
      assert.deepEqual(a, { admitted: true, used: 1 });
      assert.deepEqual(a, b);
      assert.equal(leaseState(L, key)!.windowCount, 1, 'the rate window counted the one consumeMonthly only');
      assert.equal(leaseState(L, key)!.windowCount, leaseState(fresh, control)!.windowCount);
      assert.deepEqual(L.stats, fresh.stats);
      assert.equal(await admin().getMonthly(key, PERIOD), 1);
    });

    test('a block held: consumeMonthlyNow answers admitted, used counting up exactly as consumeMonthly; undefined (nothing changed) once the block is used up or the limit differs', async () => {
      const limit = 100_000;
      const key = await newKey(limit);
      const L = lease({ prefetchAt: 0 }); // one block used up (no prefetch: test/store/prefetch.test.ts)
      const admitted = await holdBlock(L, key, limit);
      const stored = await admin().getMonthly(key, PERIOD);
      let free = heldFree(L);
      assert.equal(stored, admitted + free, 'stored: served plus the held block');
      // alternate the two: one sequence of used, one request each, no store write while the block lasts
      let used = admitted;
      for (let i = 0; free > 0; i++, free--) {
        const before = leaseState(L, key)!.windowCount;
        const r = i % 2 ? await L.consumeMonthly(key, PERIOD, limit) : L.consumeMonthlyNow(key, PERIOD, limit);
        assert.deepEqual(r, { admitted: true, used: ++used }, `request ${i} (${i % 2 ? 'consumeMonthly' : 'consumeMonthlyNow'})`);
        assert.equal(heldFree(L), free - 1);
        const after = leaseState(L, key)!;
        assert.ok(after.windowCount === before + 1 || after.windowCount === 1, 'counted in the rate window');
      }
      assert.equal(await admin().getMonthly(key, PERIOD), stored, 'no store write for answers from the block');
      assert.equal(await L.getMonthly(key, PERIOD), used);
      // used up: undefined, and nothing changed (not even the rate window or the idle clock)
      const snapshot = leaseState(L, key);
      const stats = { ...L.stats };
      await sleep(5);
      assert.equal(L.consumeMonthlyNow(key, PERIOD, limit), undefined);
      assert.deepEqual(leaseState(L, key), snapshot);
      assert.deepEqual(L.stats, stats);
      // the store answers the next one (a new reservation), then the block answers again
      assert.deepEqual(await L.consumeMonthly(key, PERIOD, limit), { admitted: true, used: ++used });
      await holdBlock(L, key, limit);
      // another limit (a plan change): undefined, the block neither served nor retired
      const heldBefore = L.held();
      const state = leaseState(L, key);
      assert.equal(L.consumeMonthlyNow(key, PERIOD, limit + 1), undefined);
      assert.deepEqual(L.held(), heldBefore);
      assert.deepEqual(leaseState(L, key), state);
    });

    test('while a reservation is in flight consumeMonthlyNow is undefined and changes nothing', async () => {
      const limit = 100_000;
      const key = await newKey(limit);
      const L = lease({ minRate: 1_000_000 }); // exact: one reservation per request
      const pending = L.consumeMonthly(key, PERIOD, limit); // busy from here until its reservation returns
      const state = leaseState(L, key);
      assert.equal(state!.busy, true);
      assert.equal(L.consumeMonthlyNow(key, PERIOD, limit), undefined);
      assert.deepEqual(leaseState(L, key), state);
      assert.deepEqual(await pending, { admitted: true, used: 1 });
      assert.equal(await admin().getMonthly(key, PERIOD), 1);
    });

    test('a refund right after consumeMonthlyNow is back in the block at once (before its promise settles)', async () => {
      const limit = 100_000;
      const key = await newKey(limit);
      const L = lease({ prefetchAt: 0 }); // no background reservation may write meanwhile
      await holdBlock(L, key, limit);
      const stored = await admin().getMonthly(key, PERIOD);
      const r = L.consumeMonthlyNow(key, PERIOD, limit)!;
      assert.equal(r.admitted, true);
      const free = heldFree(L);
      let settled = false;
      const p = L.refundMonthly(key, PERIOD).then(() => (settled = true));
      assert.equal(settled, false);
      assert.equal(heldFree(L), free + 1, 'the request is back in the block synchronously');
      assert.deepEqual(L.consumeMonthlyNow(key, PERIOD, limit), r, 'the next request gets the refunded one’s place');
      await p;
      assert.equal(await admin().getMonthly(key, PERIOD), stored, 'no store write');
    });

    test('exactness: two holders on one database, consumeMonthlyNow falling back to consumeMonthly, admit exactly the allowance of 100', async () => {
      const limit = 100;
      const key = await newKey(limit);
      const A = lease({ holder: 'A', idleMs: 300, maxAgeMs: 5000 });
      const B = lease({ holder: 'B', idleMs: 300, maxAgeMs: 5000 });
      const a = drive(A, key, limit);
      const b = drive(B, key, limit);
      for (const deadline = Date.now() + 30_000; a.refused + b.refused < 40 && Date.now() < deadline; ) await sleep(20);
      await a.stop();
      await b.stop();
      // a refusal while the other holds a block is retried once after its idle hand-back: let both settle
      await sleep(OPTS.retryMs + 300 + 200);
      assert.ok(a.answeredNow + b.answeredNow > 0, `some answered without a promise (A ${a.answeredNow}, B ${b.answeredNow})`);
      assert.equal(a.admitted + b.admitted, limit, `admitted ${a.admitted} + ${b.admitted}`);
      await A.close();
      await B.close();
      assert.equal(await admin().getMonthly(key, PERIOD), limit);
      assert.deepEqual(await admin().dailyUsage(key, TODAY, TODAY), [{ day: TODAY, used: limit }]);
      // closed: nothing held, so nothing answered without the store
      assert.equal(A.consumeMonthlyNow(key, PERIOD, limit), undefined);
    });

    test('the wrapper (no Proxy) exposes what callers use: kind, migrations, ping, keys, plans, usage, unsettledGroups', async () => {
      const inner = open();
      const W = withLeases(inner, OPTS);
      assert.ok(W instanceof LeasedAccountStore);
      keep(W);
      assert.equal(types.isProxy(W), false);
      assert.equal(W.kind, name);
      assert.deepEqual(await W.pendingMigrations(), []);
      assert.deepEqual(await W.migrate(), []);
      await W.ping();
      assert.equal(typeof W.consumeMonthlyNow, 'function');
      assert.equal((W as unknown as { unsettledGroups: number }).unsettledGroups, 0);
      // every AccountStore method is the wrapper's own (on its prototype), none reached through a trap
      const methods = ['migrate', 'pendingMigrations', 'ping', 'close', 'findKeyByHash', 'getKey', 'insertKey', 'listKeys', 'setKeyStatus', 'touchKey', 'setKeyPlan', 'rollKey', 'getPlan', 'listPlans', 'upsertPlan', 'deletePlan', 'consumeMonthly', 'consumeMonthlyNow', 'refundMonthly', 'getMonthly', 'dailyUsage'];
      for (const m of methods) assert.equal(typeof Object.getPrototypeOf(W)[m], 'function', m);
      // not a lease-capable adapter itself: wrapping it again gives it back as is
      assert.equal(hasLeaseReservations(W), false);
      assert.equal(withLeases(W, OPTS), W);
      // plans and keys go to the adapter
      const plan = { name: `w${crypto.randomBytes(3).toString('hex')}`, monthly_limit: 10, per_minute_limit: 5 };
      await W.upsertPlan(plan);
      assert.deepEqual({ ...(await W.getPlan(plan.name)), private: undefined }, { ...plan, private: undefined });
      assert.ok((await W.listPlans()).some((p) => p.name === plan.name));
      const k = { id: `key_${crypto.randomBytes(8).toString('hex')}`, key_hash: crypto.randomBytes(32).toString('hex'), display_prefix: 'dis_live_w', client: 'w', plan: plan.name, status: 'active' as const, created_at: new Date().toISOString(), last_used_at: null };
      await W.insertKey(k);
      assert.equal((await W.findKeyByHash(k.key_hash))?.id, k.id);
      assert.equal((await W.getKey(k.id))?.client, 'w');
      assert.ok((await W.listKeys()).some((x) => x.id === k.id));
      const at = new Date().toISOString();
      await W.touchKey(k.id, at);
      await W.setKeyStatus(k.id, 'inactive');
      assert.equal((await admin().getKey(k.id))?.status, 'inactive');
      await W.setKeyStatus(k.id, 'active');
      const next = { ...k, id: `key_${crypto.randomBytes(8).toString('hex')}`, key_hash: crypto.randomBytes(32).toString('hex') };
      await W.rollKey(k.id, next, new Date(Date.now() + 60_000).toISOString());
      assert.equal((await admin().getKey(next.id))?.usage_key_id, k.id);
      const other = { ...plan, name: `${plan.name}x` };
      await W.upsertPlan(other);
      await W.setKeyPlan(k.id, other.name);
      assert.equal((await admin().getKey(next.id))?.plan, other.name, 'the rolled pair moved together');
      assert.deepEqual(await W.deletePlan(plan.name), { deleted: true });
      assert.deepEqual(await W.consumeMonthly(k.id, PERIOD, 10), { admitted: true, used: 1 });
      assert.equal(await W.getMonthly(next.id, PERIOD), 1, 'counted toward the usage owner');
      assert.deepEqual(await W.dailyUsage(k.id, TODAY, TODAY), [{ day: TODAY, used: 1 }]);
      await W.refundMonthly(k.id, PERIOD);
      assert.equal(await W.getMonthly(k.id, PERIOD), 0, 'refunded (into the local block, handed back with it)');
      // a test may replace a method on the instance (hardening-server's ping counter)
      let pings = 0;
      const realPing = W.ping.bind(W);
      W.ping = () => (pings++, realPing());
      await W.ping();
      assert.equal(pings, 1);
    });
  });
}

describe('PostgreSQL unsettledGroups through the lease wrapper', () => {
  test('reads the adapter’s live count (the fault tests read it through ctx.store): a reservation whose answer is lost and cannot be settled (paused relay) shows until it is settled', async () => {
    const db = tempDatabaseName();
    await createDatabase(db);
    const relay = new Relay();
    await relay.start(5432);
    const direct = new PostgresAccountStore(dbUrl(db));
    const inner = new PostgresAccountStore(viaRelay(dbUrl(db), relay), { statementTimeoutMs: 300, poolSize: 4 });
    const W = new LeasedAccountStore(inner, { ...OPTS, minRate: 1_000_000 }); // exact: one reservation per request
    try {
      await direct.migrate();
      const plan = `u${crypto.randomBytes(3).toString('hex')}`;
      await direct.upsertPlan({ name: plan, monthly_limit: 1000, per_minute_limit: 1000 });
      const key = `key_${crypto.randomBytes(8).toString('hex')}`;
      await direct.insertKey({ id: key, key_hash: crypto.randomBytes(32).toString('hex'), display_prefix: 'dis_live_u', client: 'sync', plan, status: 'active', created_at: new Date().toISOString(), last_used_at: null });
      assert.deepEqual(await W.consumeMonthly(key, PERIOD, 1000), { admitted: true, used: 1 });
      assert.equal(W.unsettledGroups, 0);
      relay.holdReplies(); // the reservation reaches the server and commits; its answer does not come back
      const pending = W.consumeMonthly(key, PERIOD, 1000).then(() => 'answered', () => 'failed');
      await until('the reservation committed on the server', 5000, async () => (await direct.getMonthly(key, PERIOD)) === 2);
      relay.holdAll(); // settling cannot reach the server either
      assert.equal(await within(pending, 15_000, 'reservation'), 'failed', 'unclear and unsettled: answered as failed');
      assert.ok(inner.unsettledGroups >= 1, 'the adapter keeps settling in the background');
      assert.equal(W.unsettledGroups, inner.unsettledGroups, 'the wrapper reads the adapter’s count');
      relay.resume();
      await until('settled and given back', 20_000, async () => inner.unsettledGroups === 0 && (await direct.getMonthly(key, PERIOD)) === 1);
      assert.equal(W.unsettledGroups, 0, 'the adapter’s live value, not a copy');
    } finally {
      relay.resume();
      await W.close();
      await direct.close();
      await relay.close();
      await dropDatabase(db);
    }
  });
});

// ---- limiters ---------------------------------------------------------------------------------

const REDIS_URL = redisUrl(15); // this file's own database index (keys of this run, deleted after)
const LEASE: WindowLeaseOptions = { ...DEFAULT_WINDOW_LEASE, minRate: 50, maxChunk: 20, horizonMs: 200, idleMs: 60_000 };
type Held = WindowLimiter & { heldTokens(): number };
const slotCount = (l: WindowLimiter) => (l as unknown as { windowCount(): number }).windowCount();

describe('hitNow on the Redis limiter (tokens reserved ahead)', { timeout: 60_000 }, () => {
  const run = crypto.randomBytes(4).toString('hex');
  const clients: Redis[] = [];
  const limiters: WindowLimiter[] = [];
  const used = new Set<string>();
  const open = async (lease: WindowLeaseOptions | null = LEASE) => {
    const r = new Redis(REDIS_URL, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    clients.push(r);
    await r.ping();
    const l = redisLimiter(r, lease);
    limiters.push(l);
    return l as Held;
  };
  /** A key of this run, and its Redis key under `limit` (deleted after). */
  const keyOf = (name: string, limit: number) => {
    const key = `sync:${run}:${name}`;
    const full = `dis:rl:${limit}:60000:${key}`;
    used.add(full);
    return { key, full };
  };
  let raw: Redis;
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

  /** `perTick` concurrent hits every 5 ms, each hitNow falling back to hit, until stop(). */
  function drive(lim: WindowLimiter, key: string, limit: number, perTick = 4) {
    const n = { allowed: 0, refused: 0, answeredNow: 0 };
    const stop = steady(async () => {
      const rs = await Promise.all(
        Array.from({ length: perTick }, () => {
          const now = lim.hitNow!(key, limit, 60_000);
          if (now) n.answeredNow++;
          return now ?? lim.hit(key, limit, 60_000);
        }),
      );
      for (const r of rs) r.allowed ? n.allowed++ : n.refused++;
    }, 5);
    return Object.assign(n, { stop });
  }

  async function holdTokens(lim: Held, key: string, limit: number) {
    const d = drive(lim, key, limit);
    for (const deadline = Date.now() + 20_000; lim.heldTokens() === 0 && Date.now() < deadline; ) await sleep(5);
    await d.stop();
    assert.ok(lim.heldTokens() > 0, 'tokens held');
    return d.allowed;
  }

  test('no tokens: hitNow is undefined, counts nothing in Redis and creates no slot; limit 0 is refused at once; without the lease always undefined', async () => {
    const A = await open();
    const { key, full } = keyOf('none', 50);
    for (let i = 0; i < 20; i++) assert.equal(A.hitNow!(key, 50, 60_000), undefined);
    assert.equal(await raw.exists(full), 0, 'no Redis key');
    assert.equal(slotCount(A), 0, 'no slot');
    assert.equal(A.heldTokens(), 0);
    const zero = A.hitNow!(key, 0, 60_000);
    assert.equal(zero?.allowed, false);
    assert.equal(zero?.remaining, 0);
    assert.equal(zero?.limit, 0);
    // hit then answers as on a fresh window (below minRate: counted as it comes, nothing held)
    const r = await A.hit(key, 50, 60_000);
    assert.deepEqual([r.allowed, r.remaining], [true, 49]);
    assert.equal(await count(full), 1);
    assert.equal(A.hitNow!(key, 50, 60_000), undefined, 'no tokens held after an exact hit');
    assert.equal(await count(full), 1);

    const plain = await open(null);
    const p = keyOf('plain', 100_000);
    const d = drive(plain, p.key, 100_000);
    await sleep(200);
    await d.stop();
    assert.equal(d.answeredNow, 0, 'without the lease hitNow never answers');
    assert.equal(plain.hitNow!(p.key, 0, 60_000), undefined);
    assert.equal(await count(p.full), d.allowed);
  });

  test('tokens held: hitNow answers, remaining counting down exactly as hit; used up: undefined with nothing changed', async () => {
    const A = await open({ ...LEASE, prefetchAt: 0 }); // one grant used up (no prefetch: test/store/prefetch.test.ts)
    const limit = 100_000;
    const { key, full } = keyOf('held', limit);
    const allowed = await holdTokens(A, key, limit);
    const stored = await count(full);
    let held = A.heldTokens();
    assert.equal(stored, allowed + held, 'Redis: admitted plus held');
    let last: LimitResult | undefined;
    for (let i = 0; held > 0; i++, held--) {
      const r = i % 2 ? await A.hit(key, limit, 60_000) : A.hitNow!(key, limit, 60_000)!;
      assert.equal(r.allowed, true);
      if (last) {
        assert.equal(r.remaining, last.remaining - 1, `hit ${i}`);
        assert.equal(r.resetAt, last.resetAt);
      }
      last = r;
      assert.equal(A.heldTokens(), held - 1);
    }
    assert.equal(last!.remaining, limit - stored, 'the last token: remaining as Redis counts it');
    assert.equal(await count(full), stored, 'no Redis call for hits from the tokens');
    const slot = (A as unknown as { windowOf(l: number, w: number, k: string): object }).windowOf(limit, 60_000, key);
    await sleep(5);
    assert.equal(A.hitNow!(key, limit, 60_000), undefined);
    assert.deepEqual((A as unknown as { windowOf(l: number, w: number, k: string): object }).windowOf(limit, 60_000, key), slot, 'rate window and idle clock untouched');
    assert.equal(await count(full), stored);
    // another limit is another window: no tokens there
    assert.equal(A.hitNow!(key, limit - 1, 60_000), undefined);
  });

  test('a refund right after hitNow puts the token back at once (before its promise settles)', async () => {
    const A = await open({ ...LEASE, prefetchAt: 0 }); // no background reservation may count meanwhile
    const limit = 100_000;
    const { key, full } = keyOf('refund', limit);
    await holdTokens(A, key, limit);
    const stored = await count(full);
    const r = A.hitNow!(key, limit, 60_000)!;
    assert.equal(r.allowed, true);
    const held = A.heldTokens();
    let settled = false;
    const p = A.refund(key, limit, 60_000, r).then(() => (settled = true));
    assert.equal(settled, false);
    assert.equal(A.heldTokens(), held + 1, 'the token is back synchronously');
    assert.deepEqual(A.hitNow!(key, limit, 60_000), r, 'the next hit gets the refunded one’s place');
    await p;
    assert.equal(await count(full), stored, 'no Redis call');
  });

  test('two limiter instances, hitNow falling back to hit: never over the limit; Redis = admitted + held', async () => {
    const limit = 3000; // the rate is measured over whole seconds: enough hits for tokens to be reserved ahead
    const { key, full } = keyOf('two', limit);
    const A = await open();
    const B = await open();
    const a = drive(A, key, limit);
    const b = drive(B, key, limit);
    for (const deadline = Date.now() + 30_000; a.refused + b.refused < 20 && Date.now() < deadline; ) await sleep(10);
    await a.stop();
    await b.stop();
    assert.ok(a.answeredNow + b.answeredNow > 0, `some answered without a promise (A ${a.answeredNow}, B ${b.answeredNow})`);
    const admitted = a.allowed + b.allowed;
    assert.ok(admitted <= limit, `never over the limit: ${admitted}`);
    assert.ok(admitted >= limit - 2 * LEASE.maxChunk, `short by at most the chunks held: ${admitted}`);
    assert.equal(await count(full), admitted + A.heldTokens() + B.heldTokens(), 'the count is admitted + held');
    await A.close();
    await B.close();
    assert.equal(await count(full), admitted, 'held tokens given back on close');
  });
});

describe('hitNow on the in-memory limiter', () => {
  test('a refund right after hitNow gives the hit back at once (before its promise settles)', async () => {
    const m = new MemoryWindowLimiter();
    assert.equal(m.hitNow('k', 2, 60_000).allowed, true);
    const second = m.hitNow('k', 2, 60_000);
    assert.equal(second.remaining, 0);
    assert.equal(m.hitNow('k', 2, 60_000).allowed, false);
    let settled = false;
    const p = m.refund('k', 2, 60_000, second).then(() => (settled = true));
    assert.equal(settled, false);
    const again = m.hitNow('k', 2, 60_000);
    assert.deepEqual([again.allowed, again.remaining], [true, 0], 'the refunded hit is available synchronously');
    await p;
    await m.close();
  });
});
