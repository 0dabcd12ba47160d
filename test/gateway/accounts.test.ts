// The account cache (src/gateway/accounts.ts) on a real SQLite store: concurrent misses of one key
// share one store query; a busy key is refreshed in the background past 3/4 of its lifetime, so a
// steady stream of look-ups never meets a miss; a change still shows once the cache lifetime has
// passed. Look-up times are given to peekKey / peekPlan, never measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountCache } from '../../src/gateway/accounts.ts';
import type { AccountStore } from '../../src/store/ports.ts';
import { hashKey } from '../../src/gateway/keys.ts';
import { buildTestApp, sleep } from '../helper.ts';
import { until } from '../services.ts';

/** The real store, with its key and plan look-ups counted. */
function counted(inner: AccountStore) {
  const calls = { keys: 0, plans: 0 };
  const store = new Proxy(inner, {
    get(target, p, receiver) {
      if (p === 'findKeyByHash') return (h: string) => (calls.keys++, target.findKeyByHash(h));
      if (p === 'getPlan') return (n: string) => (calls.plans++, target.getPlan(n));
      const v = Reflect.get(target, p, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store, calls };
}

test('concurrent misses of one key or plan share one store query', async () => {
  const t = await buildTestApp();
  try {
    const { key } = await t.createKey('pro');
    const { store, calls } = counted(t.ctx.store);
    const cache = new AccountCache(store, 1000);
    const hash = hashKey(key);
    const recs = await Promise.all(Array.from({ length: 20 }, () => cache.keyByHash(hash)));
    assert.equal(calls.keys, 1);
    assert.ok(recs.every((r) => r !== null && r.id === recs[0]!.id));
    const plans = await Promise.all(Array.from({ length: 20 }, () => cache.plan('pro')));
    assert.equal(calls.plans, 1);
    assert.ok(plans.every((p) => p?.name === 'pro'));
    // a failure is shared too, and not cached: the next look-up asks again (a store closed for real)
    const t2 = await buildTestApp();
    const down = counted(t2.ctx.store);
    await t2.ctx.store.close();
    const failing = new AccountCache(down.store, 1000);
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => failing.keyByHash(hash)));
    assert.ok(outcomes.every((o) => o.status === 'rejected'), JSON.stringify(outcomes.map((o) => o.status)));
    assert.equal(down.calls.keys, 1);
    await failing.keyByHash(hash).catch(() => undefined);
    assert.equal(down.calls.keys, 2);
    await t2.close().catch(() => undefined);
  } finally {
    await t.close();
  }
});

// No elapsed-time assertion (issue 24, 7.6): look-ups are given their time through peekKey's `now`,
// set relative to when the entries were asked for (bracketed by Date.now() before and after).
test('a busy key is refreshed in the background past 3/4 of its lifetime and never misses; a quiet key expires; a revocation shows once the lifetime has passed', async () => {
  const t = await buildTestApp();
  try {
    const { id, key } = await t.createKey('pro');
    const { store, calls } = counted(t.ctx.store);
    const ttl = 60_000; // long enough that the real time the test takes never ages an entry
    const cache = new AccountCache(store, ttl);
    const hash = hashKey(key);
    const t0 = Date.now();
    await cache.keyByHash(hash);
    await cache.plan('pro');
    const t1 = Date.now(); // both entries were asked for at some time in [t0, t1]
    assert.deepEqual(calls, { keys: 1, plans: 1 });
    // younger than 3/4 of the lifetime: answered from the entry, nothing asked
    for (const now of [t1, t0 + ttl / 2]) {
      assert.equal(cache.peekKey(hash, now)?.id, id);
      assert.equal(cache.peekPlan('pro', now)?.name, 'pro');
    }
    assert.deepEqual(calls, { keys: 1, plans: 1 });
    // past 3/4 of it (and before its end): still answered, refreshed once in the background however
    // many look-ups; the refreshed entry is asked for after t1
    while (Date.now() <= t1) await sleep(1);
    const late = t1 + Math.ceil((ttl * 3) / 4);
    for (let i = 0; i < 20; i++) {
      assert.equal(cache.peekKey(hash, late)?.id, id, 'a busy key answers past 3/4 of its lifetime');
      assert.equal(cache.peekPlan('pro', late)?.name, 'pro');
    }
    assert.deepEqual(calls, { keys: 2, plans: 2 }, 'one background refresh each');
    // at the first entry's end of life the look-up is answered: by the refreshed entry (no miss)
    await until('the refreshed entries in place', 10_000, () => cache.peekKey(hash, t1 + ttl) !== undefined && cache.peekPlan('pro', t1 + ttl) !== undefined);
    assert.equal(cache.peekKey(hash, t1 + ttl)?.id, id);
    await until('no refresh in flight', 10_000, async () => {
      const before = { ...calls };
      await sleep(20);
      return calls.keys === before.keys && calls.plans === before.plans;
    });
    // a quiet key still expires: past the lifetime of every entry asked for by now, no answer and no query
    const quiet = { ...calls };
    const end = Date.now() + ttl;
    assert.equal(cache.peekKey(hash, end), undefined);
    assert.equal(cache.peekPlan('pro', end), undefined);
    assert.deepEqual(calls, quiet);

    // a revocation: a cache with a short lifetime holds the active record; once the lifetime has
    // passed since the revocation, no look-up answers from before it (README: within the cache
    // lifetime plus one request)
    const shortTtl = 200;
    const short = new AccountCache(store, shortTtl);
    assert.equal((await short.keyByHash(hash))?.status, 'active');
    await t.ctx.store.setKeyStatus(id, 'revoked');
    const revokedAt = Date.now();
    assert.equal(short.peekKey(hash, revokedAt + shortTtl), undefined, 'the entry from before the revocation is never used past its lifetime');
    while (Date.now() < revokedAt + shortTtl) await sleep(revokedAt + shortTtl - Date.now());
    const rec = short.peekKey(hash, Date.now()) ?? (await short.keyByHash(hash));
    assert.equal(rec?.status, 'revoked');
  } finally {
    await t.close();
  }
});
