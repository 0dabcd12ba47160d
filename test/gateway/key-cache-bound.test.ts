// The key cache's bound as the README states it (issue 24, item 7.9): KEY_CACHE_TTL_MS "the cache
// holds at most 50,000 keys, least recently used dropped first". Asserted by behaviour on the
// exported AccountCache over the real SQLite store: 50,000 distinct keys are all held, the 50,001st
// drops exactly the least recently used one, and the size never passes 50,000. The last-use records
// (AccountCache.touch, one store write per key per minute) share the bound. The number is written
// out here on purpose: a change of the constant must change this test and the README together.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { AccountCache, KEY_CACHE_MAX_ENTRIES } from '../../src/gateway/accounts.ts';
import { hashKey } from '../../src/gateway/keys.ts';
import type { AccountStore } from '../../src/store/ports.ts';
import { buildTestApp } from '../helper.ts';

const BOUND = 50_000;

/** The real store, with its key look-ups and last-use writes counted (each still goes to SQLite). */
function counted(store: AccountStore) {
  const calls = { lookups: 0, touches: new Map<string, number>() };
  const proxy = new Proxy(store, {
    get(target, p) {
      if (p === 'findKeyByHash') return (h: string) => (calls.lookups++, target.findKeyByHash(h));
      if (p === 'touchKey') return (id: string, at: string) => (calls.touches.set(id, (calls.touches.get(id) ?? 0) + 1), target.touchKey(id, at));
      const v = (target as unknown as Record<string | symbol, unknown>)[p];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: proxy, calls };
}

const hashOf = (i: number) => hashKey(`dis_live_${String(i).padStart(32, 'b')}`);

test('the key cache holds exactly 50,000 keys and drops the least recently used first', { timeout: 120_000 }, async () => {
  assert.equal(KEY_CACHE_MAX_ENTRIES, BOUND, 'the exported bound is the documented 50,000');
  const t = await buildTestApp();
  try {
    const { store, calls } = counted(t.ctx.store);
    // entries live an hour here: nothing expires during the test, so only the bound removes entries
    const cache = new AccountCache(store, 3_600_000);
    const now = () => Date.now();
    for (let i = 0; i < BOUND; i++) {
      await cache.keyByHash(hashOf(i));
      if (i % 10_000 === 0) assert.ok(cache.size <= BOUND);
    }
    assert.equal(calls.lookups, BOUND);
    assert.equal(cache.size, BOUND, '50,000 distinct keys are all held');
    // every one of them answers from the cache (null: known to match no key), the oldest too
    assert.equal(cache.peekKey(hashOf(0), now()), null, 'key 0 is still held at 50,000');
    // (that look-up made key 0 the most recently used; key 1 is now the least recently used)

    await cache.keyByHash(hashOf(BOUND));
    assert.equal(cache.size, BOUND, 'the 50,001st key does not grow the cache');
    assert.equal(cache.peekKey(hashOf(1), now()), undefined, 'the least recently used key was dropped');
    for (const i of [0, 2, 3, BOUND - 1, BOUND]) assert.equal(cache.peekKey(hashOf(i), now()), null, `key ${i} is still held`);
    // a dropped key is looked up in the store again; a held one is not
    const before = calls.lookups;
    await cache.keyByHash(hashOf(2));
    assert.equal(calls.lookups, before, 'a held key costs no store look-up');
    await cache.keyByHash(hashOf(1));
    assert.equal(calls.lookups, before + 1, 'the dropped key is looked up again');
    assert.equal(cache.size, BOUND);

    // 10,000 more: the size stays at the bound
    for (let i = BOUND + 1; i <= BOUND + 10_000; i++) await cache.keyByHash(hashOf(i));
    assert.equal(cache.size, BOUND);
  } finally {
    await t.close();
  }
});

test('the last-use records share the 50,000 bound: the least recently touched key is forgotten first', { timeout: 120_000 }, async () => {
  const t = await buildTestApp();
  // the clock stands still (Date only), so "within the minute" holds however long the loop takes
  mock.timers.enable({ apis: ['Date'], now: Date.now() });
  try {
    const { store, calls } = counted(t.ctx.store);
    const cache = new AccountCache(store, 3_600_000);
    const id = (i: number) => `key_bound_${i}`;
    // one write per key and minute: 50,000 keys touched, each written once
    for (let i = 0; i < BOUND; i++) cache.touch(id(i));
    assert.equal(calls.touches.size, BOUND);
    // touched again within the minute: remembered, no second write (key 0 becomes the most recent)
    cache.touch(id(0));
    assert.equal(calls.touches.get(id(0)), 1, 'key 0 is remembered at 50,000');
    // the 50,001st key pushes out the least recently touched one (key 1)
    cache.touch(id(BOUND));
    cache.touch(id(2));
    assert.equal(calls.touches.get(id(2)), 1, 'key 2 is still remembered');
    cache.touch(id(1));
    assert.equal(calls.touches.get(id(1)), 2, 'key 1 was forgotten: written again');
    cache.touch(id(0));
    assert.equal(calls.touches.get(id(0)), 1);
    // let the writes (fire-and-forget) reach SQLite before the store closes
    await t.ctx.store.ping();
    await new Promise((r) => setImmediate(r));
  } finally {
    mock.timers.reset();
    await t.close();
  }
});
