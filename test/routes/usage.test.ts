// GET /v1/usage reads the store at most once a second per key (issue 24, item 4): a key polling it in
// a loop sends no store query per call. The process's own counted requests show at once; usage is
// never counted. The store is the real one (SQLite); its getMonthly is wrapped only to count calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

test('/v1/usage in a loop reads the store once, stays exact for this process\'s own traffic, and is never counted', async () => {
  const t = await buildTestApp();
  try {
    const k = await t.createKey('pro');
    const store = t.ctx.store;
    const original = store.getMonthly.bind(store);
    let reads = 0;
    store.getMonthly = async (keyId: string, period: string) => {
      reads++;
      return original(keyId, period);
    };
    const usage = async () => {
      const r = await t.app.inject({ url: '/v1/usage', headers: k.auth });
      assert.equal(r.statusCode, 200);
      return r.json().usage.used as number;
    };
    const first = await usage();
    for (let i = 0; i < 30; i++) assert.equal(await usage(), first);
    assert.equal(reads, 1, '31 calls within a second: one store read');
    // a request this process counts shows at the next call (the kept count is forgotten)
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth })).statusCode, 200);
    assert.equal(await usage(), first + 1);
    assert.equal(reads, 2);
    // usage never counts itself
    assert.equal(await usage(), first + 1);
    assert.equal(await store.getMonthly(k.id, new Date().toISOString().slice(0, 7)), first + 1);
  } finally {
    await t.close();
  }
});
