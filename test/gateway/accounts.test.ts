// The account cache (src/gateway/accounts.ts) on a real SQLite store: concurrent misses of one key
// share one store query; a busy key is refreshed in the background past 3/4 of its lifetime, so a
// steady stream of look-ups never meets a miss; a change still shows within the cache lifetime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountCache } from '../../src/gateway/accounts.ts';
import type { AccountStore } from '../../src/store/ports.ts';
import { hashKey } from '../../src/gateway/keys.ts';
import { buildTestApp, sleep } from '../helper.ts';

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

test('a busy key is refreshed in the background and never misses; a revocation still shows within the lifetime', async () => {
  const t = await buildTestApp();
  try {
    const { id, key } = await t.createKey('pro');
    const { store, calls } = counted(t.ctx.store);
    const ttl = 400;
    const cache = new AccountCache(store, ttl);
    const hash = hashKey(key);
    await cache.keyByHash(hash);
    await cache.plan('pro');
    // a look-up every 10 ms for 3 lifetimes: peekKey (the request path) answers every time
    let misses = 0;
    const end = Date.now() + 3 * ttl;
    while (Date.now() < end) {
      const now = Date.now();
      if (cache.peekKey(hash, now) === undefined || cache.peekPlan('pro', now) === undefined) misses++;
      await sleep(10);
    }
    assert.equal(misses, 0, 'no miss under steady look-ups');
    assert.ok(calls.keys >= 3 && calls.keys <= 8, `refreshed about once per 3/4 lifetime: ${calls.keys} key queries`);
    // revoked in the store: seen as revoked within the lifetime (plus one look-up's time)
    await t.ctx.store.setKeyStatus(id, 'revoked');
    const t0 = Date.now();
    let seenAt = -1;
    while (Date.now() - t0 < 3 * ttl) {
      const rec = cache.peekKey(hash, Date.now()) ?? (await cache.keyByHash(hash));
      if (rec?.status === 'revoked') {
        seenAt = Date.now() - t0;
        break;
      }
      await sleep(5);
    }
    assert.ok(seenAt >= 0 && seenAt <= ttl + 50, `revocation seen after ${seenAt} ms (lifetime ${ttl} ms)`);
    // a quiet key still expires: no look-up, no refresh
    const quiet = calls.keys;
    await sleep(ttl + 50);
    assert.equal(cache.peekKey(hash, Date.now()), undefined);
    assert.equal(calls.keys, quiet);
  } finally {
    await t.close();
  }
});
