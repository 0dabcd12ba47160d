import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, sleep } from '../helper.ts';

describe('keyed endpoints: authentication, metering, headers', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => t.close());

  test('a missing key gets 401 UNAUTHORIZED with a request id', async () => {
    const res = await t.app.inject({ url: '/v1/resolve-entity?q=syrah' });
    assert.equal(res.statusCode, 401);
    const body = res.json();
    assert.equal(body.ok, false);
    assert.equal(body.error.code, 'UNAUTHORIZED');
    assert.equal(body.error.request_id, res.headers['x-request-id']);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  test('an unknown or malformed key gets 401 UNAUTHORIZED', async () => {
    for (const h of ['Bearer dis_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Bearer nope', 'Basic abc', 'Bearer']) {
      const res = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: { authorization: h } });
      assert.equal(res.statusCode, 401, h);
      assert.equal(res.json().error.code, 'UNAUTHORIZED');
    }
  });

  test('a valid key gets 200 with every quota header', async () => {
    const k = await t.createKey('starter');
    const before = Math.floor(Date.now() / 1000);
    const res = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
    assert.equal(res.statusCode, 200);
    const h = res.headers;
    assert.equal(h['x-ratelimit-plan'], 'starter');
    assert.equal(h['x-ratelimit-limit'], '50000');
    assert.equal(h['x-ratelimit-remaining'], '49999');
    const now = new Date();
    assert.equal(Number(h['x-ratelimit-reset']), Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000);
    assert.equal(h['x-ratelimit-minute-limit'], '60');
    assert.equal(h['x-ratelimit-minute-remaining'], '59');
    const minuteReset = Number(h['x-ratelimit-minute-reset']);
    assert.ok(minuteReset > before && minuteReset <= before + 61, `minute reset ${minuteReset}`);
    assert.equal(h['access-control-allow-origin'], undefined, 'keyed endpoints grant no CORS');
    const second = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
    assert.equal(second.headers['x-ratelimit-remaining'], '49998');
    assert.equal(second.headers['x-ratelimit-minute-remaining'], '58');
  });

  test('revoke, deactivate and activate take effect within 2 seconds', async () => {
    const k = await t.createKey('free');
    const call = () => t.app.inject({ url: '/v1/usage', headers: k.auth });
    assert.equal((await call()).statusCode, 200);
    await t.ctx.store.setKeyStatus(k.id, 'inactive');
    await sleep(t.config.cacheTtlMs + 50);
    const inactive = await call();
    assert.equal(inactive.statusCode, 401);
    assert.match(inactive.json().error.message, /inactive/);
    await t.ctx.store.setKeyStatus(k.id, 'active');
    await sleep(t.config.cacheTtlMs + 50);
    assert.equal((await call()).statusCode, 200);
    await t.ctx.store.setKeyStatus(k.id, 'revoked');
    await sleep(t.config.cacheTtlMs + 50);
    const revoked = await call();
    assert.equal(revoked.statusCode, 401);
    assert.match(revoked.json().error.message, /revoked/);
  });

  test('exactly the monthly allowance is admitted under 50 concurrent requests', async () => {
    await t.ctx.store.upsertPlan({ name: 'tiny', monthly_limit: 20, per_minute_limit: 1000 });
    const k = await t.createKey('tiny');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.app.inject({ url: '/v1/resolve-entity?q=merlot', headers: k.auth })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    const over = results.filter((r) => r.statusCode === 429);
    assert.equal(ok.length, 20);
    assert.equal(over.length, 30);
    for (const r of over) {
      assert.equal(r.json().error.code, 'QUOTA_EXCEEDED');
      assert.ok(Number(r.headers['retry-after']) > 0);
    }
    assert.equal(await t.ctx.store.getMonthly(k.id, new Date().toISOString().slice(0, 7)), 20);
  });

  test('the per-minute limit gives 429 RATE_LIMITED with Retry-After and does not count monthly usage', async () => {
    await t.ctx.store.upsertPlan({ name: 'slow', monthly_limit: 1000, per_minute_limit: 3 });
    const k = await t.createKey('slow');
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push(await t.app.inject({ url: '/v1/resolve-entity?q=gamay', headers: k.auth }));
    assert.deepEqual(codes.map((r) => r.statusCode), [200, 200, 200, 429, 429]);
    const limited = codes[3]!;
    assert.equal(limited.json().error.code, 'RATE_LIMITED');
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60);
    assert.equal(limited.headers['x-ratelimit-minute-remaining'], '0');
    assert.equal(await t.ctx.store.getMonthly(k.id, new Date().toISOString().slice(0, 7)), 3);
  });

  test('refused for quota, a request does not use up the minute window: it keeps getting QUOTA_EXCEEDED', async () => {
    await t.ctx.store.upsertPlan({ name: 'month2', monthly_limit: 2, per_minute_limit: 3 });
    const k = await t.createKey('month2');
    const codes = [];
    for (let i = 0; i < 8; i++) {
      const r = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
      codes.push(r.statusCode === 429 ? r.json().error.code : r.statusCode);
    }
    assert.deepEqual(codes, [200, 200, ...Array(6).fill('QUOTA_EXCEEDED')]);
  });

  test('/v1/usage reports plan and usage and does not consume quota', async () => {
    const k = await t.createKey('free');
    await t.app.inject({ url: '/v1/resolve-entity?q=riesling', headers: k.auth });
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: '/v1/usage', headers: k.auth });
      assert.equal(res.statusCode, 200);
      const b = res.json();
      assert.deepEqual(b.plan, { name: 'free', monthly_limit: 1000, per_minute_limit: 10 });
      assert.equal(b.usage.used, 1);
      assert.equal(b.remaining, 999);
      assert.match(b.usage.period_start, /^\d{4}-\d{2}-01T00:00:00.000Z$/);
      assert.equal(res.headers['x-ratelimit-remaining'], '999');
    }
  });

  test('a 400, a 401 and a 404 ENTITY_NOT_RESOLVED are not counted', async () => {
    const k = await t.createKey('free');
    const period = new Date().toISOString().slice(0, 7);
    const bad = await t.app.inject({ url: '/v1/resolve-entity?q=', headers: k.auth });
    assert.equal(bad.statusCode, 400);
    assert.equal(await t.ctx.store.getMonthly(k.id, period), 0);
    const nf = await t.app.inject({ url: '/v1/explain?q=asdfghjkl', headers: k.auth });
    assert.equal(nf.statusCode, 404);
    assert.equal(nf.json().error.code, 'ENTITY_NOT_RESOLVED');
    assert.equal(nf.headers['x-ratelimit-remaining'], '1000');
    assert.equal(await t.ctx.store.getMonthly(k.id, period), 0);
    // the same key sent in a malformed header (not the Bearer scheme): 401, and the key counts nothing
    const unauth = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: { authorization: k.auth.authorization.replace(/^Bearer /, 'Basic ') } });
    assert.equal(unauth.statusCode, 401);
    assert.equal(await t.ctx.store.getMonthly(k.id, period), 0);
    // and a 200 is counted, so the zeros above were not for want of counting
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth })).statusCode, 200);
    assert.equal(await t.ctx.store.getMonthly(k.id, period), 1);
  });
});
