// Messages that say what to do next (issue 12 §3): unknown and revoked keys say how to get a key,
// QUOTA_EXCEEDED names the plans page and the next plan up, and waits are given as a time and a
// duration, not only seconds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';
import { retryPhrase } from '../../src/gateway/errors.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
before(async () => { t = await buildTestApp({ env: { PUBLIC_BASE_URL: 'https://api.example.test', DEMO_PER_IP_PER_MINUTE: '1' } }); });
after(async () => t.close());

test('retryPhrase: a time and a duration', () => {
  const now = new Date('2026-11-23T13:14:00Z');
  assert.equal(retryPhrase(now, 45), 'retry after 13:14:45 UTC, in 45 s');
  assert.equal(retryPhrase(now, 51 * 60), 'retry after 14:05 UTC, in 51 min');
  assert.equal(retryPhrase(now, 2 * 3600 + 300), 'retry after 15:19 UTC, in 2 h 5 min');
  assert.equal(retryPhrase(now, 7 * 86_400 + 10 * 3600), 'retry after 2026-11-30 23:14 UTC, in 7 d 10 h');
});

test('unknown and revoked keys say how to get a key', async () => {
  const unknown = await t.app.inject({ url: '/v1/explain?q=syrah', headers: { authorization: 'Bearer dis_live_notakeynotakeynotakeynotakey00' } });
  assert.equal(unknown.statusCode, 401);
  assert.match(unknown.json().error.message, /^Unknown API key\..*https:\/\/api\.example\.test\/plans.*admin keys create/);
  const k = await t.createKey('free');
  await t.ctx.store.setKeyStatus(k.id, 'revoked');
  t.ctx.accounts.invalidate();
  const revoked = await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth });
  assert.equal(revoked.statusCode, 401);
  assert.match(revoked.json().error.message, /revoked.*new key.*https:\/\/api\.example\.test\/plans/);
});

test('QUOTA_EXCEEDED names the plans page and the next plan up, with the wait as a date and a duration', async () => {
  await t.ctx.store.upsertPlan({ name: 'tiny', monthly_limit: 1, per_minute_limit: 100 });
  const k = await t.createKey('tiny');
  assert.equal((await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth })).statusCode, 200);
  const r = await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth });
  assert.equal(r.statusCode, 429);
  const e = r.json().error;
  assert.equal(e.code, 'QUOTA_EXCEEDED');
  assert.equal(e.plans, 'https://api.example.test/plans');
  assert.equal(e.next_plan, 'free');
  assert.match(e.message, /retry after \d{4}-\d{2}-01 00:00 UTC, in \d+ d/);
  assert.match(e.message, /move to plan "free" \(1,000 requests a month\): see https:\/\/api\.example\.test\/plans/);
});

test('per-minute and demo limits give the wait as a time and a duration', async () => {
  await t.app.inject({ url: '/v1/demo/explain?q=syrah' });
  const demo = await t.app.inject({ url: '/v1/demo/explain?q=syrah' });
  assert.equal(demo.statusCode, 429);
  assert.match(demo.json().error.message, /retry after \d{2}:\d{2}:\d{2} UTC, in \d+ s/);
  const k = await t.createKey('free');
  let last;
  for (let i = 0; i < 11; i++) last = await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth });
  assert.equal(last!.statusCode, 429);
  assert.match(last!.json().error.message, /retry after \d{2}:\d{2}:\d{2} UTC, in \d+ s/);
});
