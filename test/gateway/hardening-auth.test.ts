// Issue 11, item 9 (keyed side): failed authentications are limited per client address before any
// store look-up; /v1/usage is refused while the key's per-minute window is used up, and never
// counted; the key cache is an LRU that keeps hot keys through a flood of distinct ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountCache, KEY_CACHE_MAX_ENTRIES } from '../../src/gateway/accounts.ts';
import { generateKey, hashKey } from '../../src/gateway/keys.ts';
import type { AccountStore } from '../../src/store/ports.ts';
import { buildTestApp } from '../helper.ts';

/** The real store, with its key look-ups counted. */
function counted(store: AccountStore) {
  const lookups: string[] = [];
  const proxy = new Proxy(store, {
    get(target, p) {
      if (p === 'findKeyByHash') return (h: string) => (lookups.push(h), target.findKeyByHash(h));
      const v = (target as unknown as Record<string | symbol, unknown>)[p];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: proxy, lookups };
}

test('failed authentications past the per-address limit get 429 RATE_LIMITED with Retry-After, and cost no store look-up', async () => {
  const t = await buildTestApp({ env: { AUTH_FAILURES_PER_IP_PER_MINUTE: '5' } });
  try {
    const good = await t.createKey('pro');
    const { store, lookups } = counted(t.ctx.store);
    t.ctx.accounts = new AccountCache(store, t.config.cacheTtlMs);
    const attacker = '203.0.113.66';
    const guess = () => ({ authorization: `Bearer ${generateKey().key}` });
    const codes = [];
    for (let i = 0; i < 8; i++) codes.push((await t.app.inject({ url: '/v1/explain?q=syrah', headers: guess(), remoteAddress: attacker })).statusCode);
    assert.deepEqual(codes, [401, 401, 401, 401, 401, 429, 429, 429]);
    assert.equal(lookups.length, 5, 'the refused guesses were not looked up');
    const r = await t.app.inject({ url: '/v1/usage', headers: guess(), remoteAddress: attacker });
    assert.equal(r.statusCode, 429);
    assert.equal(r.json().error.code, 'RATE_LIMITED');
    assert.match(r.json().error.message, /failed authentications/);
    const retry = Number(r.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    // malformed and revoked keys count too; another address is unaffected
    const other = '2001:db8:4::1';
    for (const h of ['Basic abc', 'Bearer nope', 'Bearer dis_live_short']) {
      assert.equal((await t.app.inject({ url: '/v1/explain?q=syrah', headers: { authorization: h }, remoteAddress: other })).statusCode, 401, h);
    }
    assert.equal((await t.app.inject({ url: '/v1/explain?q=syrah', headers: good.auth, remoteAddress: '2001:db8:4::2' })).statusCode, 200, 'a valid key, same /64');
    assert.equal((await t.app.inject({ url: '/v1/explain?q=syrah', headers: good.auth, remoteAddress: attacker })).statusCode, 429, 'the address is refused whatever the key');
    // a missing header costs nothing and is not counted
    for (let i = 0; i < 10; i++) assert.equal((await t.app.inject({ url: '/v1/explain?q=syrah', remoteAddress: '198.51.100.9' })).statusCode, 401);
    assert.equal((await t.app.inject({ url: '/v1/explain?q=syrah', headers: good.auth, remoteAddress: '198.51.100.9' })).statusCode, 200);
  } finally {
    await t.close();
  }
});

test('/v1/usage is refused with 429 while the per-minute window is used up, and never uses a slot of it', async () => {
  const t = await buildTestApp();
  try {
    await t.ctx.store.upsertPlan({ name: 'three', monthly_limit: 100, per_minute_limit: 3 });
    const k = await t.createKey('three');
    for (let i = 0; i < 10; i++) {
      const u = await t.app.inject({ url: '/v1/usage', headers: k.auth });
      assert.equal(u.statusCode, 200);
      assert.equal(u.headers['x-ratelimit-minute-remaining'], '3');
    }
    const calls = [];
    for (let i = 0; i < 3; i++) calls.push((await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth })).statusCode);
    assert.deepEqual(calls, [200, 200, 200], 'the usage reports took no slot');
    const refused = await t.app.inject({ url: '/v1/usage', headers: k.auth });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error.code, 'RATE_LIMITED');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal(refused.headers['x-ratelimit-minute-remaining'], '0');
    assert.equal(await t.ctx.store.getMonthly(k.id, new Date().toISOString().slice(0, 7)), 3, 'usage calls are never counted');
  } finally {
    await t.close();
  }
});

test('the key cache is an LRU: a flood of distinct keys never evicts a key in use', async () => {
  const t = await buildTestApp();
  try {
    const hot = await t.createKey('free');
    const { store, lookups } = counted(t.ctx.store);
    const cache = new AccountCache(store, 3_600_000);
    const hotHash = hashKey(hot.key);
    assert.equal((await cache.keyByHash(hotHash))?.id, hot.id);
    for (let i = 0; i < KEY_CACHE_MAX_ENTRIES + 10_000; i++) {
      await cache.keyByHash(hashKey(`dis_live_${String(i).padStart(32, 'x')}`));
      if (i % 1000 === 0) assert.equal((await cache.keyByHash(hotHash))?.id, hot.id);
    }
    assert.equal(cache.size, KEY_CACHE_MAX_ENTRIES);
    assert.equal(lookups.filter((h) => h === hotHash).length, 1, 'the hot key was looked up once');
  } finally {
    await t.close();
  }
});
