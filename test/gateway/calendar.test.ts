// Calendar boundaries (issue 24, item 7.9), driven through the `now` hook of buildContext: a clock the
// test sets. README "Metering": the monthly allowance is a calendar month (UTC) and QUOTA_EXCEEDED
// renews "at 00:00 UTC on the 1st"; the quota headers give the renewal as UTC epoch seconds
// (X-RateLimit-Reset, OpenAPI: "00:00 UTC on the 1st"), RateLimit-Policy the seconds of the current
// month and RateLimit the seconds to renewal. The demo's daily cap and each network's daily share
// renew at 00:00 UTC (README "Demo twins"), with Retry-After running to midnight.
// The store and the limiter are the real ones (SQLite in a temp dir, in-memory windows); only the
// gateway's clock is moved. The per-minute windows keep the real clock, so only the monthly parts of
// the headers are compared.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

const epoch = (iso: string) => Date.parse(iso) / 1000;
const DAY = 86_400;

/** The "monthly" item of a RateLimit or RateLimit-Policy header, as {name: value}. */
function monthlyItem(header: unknown): Record<string, number> {
  assert.equal(typeof header, 'string', 'header present');
  const item = (header as string).split(', ').find((s) => s.startsWith('"monthly";'));
  assert.ok(item, `a "monthly" item in ${String(header)}`);
  return Object.fromEntries(item!.split(';').slice(1).map((kv) => kv.split('=')).map(([k, v]) => [k!, Number(v)]));
}

describe('calendar boundaries through the gateway clock', () => {
  // [last instant checked in the old month, first instant of the new one, old period, new period, days in each]
  const boundaries: [string, string, string, string, number, number][] = [
    ['2027-01-31T23:59:58.000Z', '2027-02-01T00:00:00.000Z', '2027-01', '2027-02', 31, 28],
    ['2027-12-31T23:59:58.000Z', '2028-01-01T00:00:00.000Z', '2027-12', '2028-01', 31, 31],
    ['2028-02-29T23:59:58.000Z', '2028-03-01T00:00:00.000Z', '2028-02', '2028-03', 29, 31],
  ];

  for (const [last, first, oldPeriod, newPeriod, oldDays, newDays] of boundaries) {
    test(`monthly allowance: used up on ${last.slice(0, 10)}, renewed at ${first}, headers move to the next month`, async () => {
      let clock = new Date(last);
      const t = await buildTestApp({ now: () => clock });
      try {
        await t.ctx.store.upsertPlan({ name: 'two', monthly_limit: 2, per_minute_limit: 1000 });
        const k = await t.createKey('two');
        const call = () => t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
        const oldReset = epoch(first);
        const newReset = epoch(new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth() + 2, 1)).toISOString());

        // the last seconds of the old month: the allowance is counted and used up
        const a = await call();
        const b = await call();
        assert.deepEqual([a.statusCode, b.statusCode], [200, 200]);
        assert.deepEqual([a.headers['x-ratelimit-remaining'], b.headers['x-ratelimit-remaining']], ['1', '0']);
        for (const r of [a, b]) {
          assert.equal(Number(r.headers['x-ratelimit-reset']), oldReset, 'X-RateLimit-Reset is 00:00 UTC on the next 1st');
          assert.equal(monthlyItem(r.headers['ratelimit-policy']).w, oldDays * DAY, 'the policy window is this month in seconds');
        }
        assert.equal(monthlyItem(b.headers['ratelimit']).t, 2, 'RateLimit t: 2 s to renewal at 23:59:58');
        assert.equal(monthlyItem(b.headers['ratelimit']).r, 0);
        const refused = await call();
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.json().error.code, 'QUOTA_EXCEEDED');
        assert.equal(refused.headers['retry-after'], '2', 'Retry-After runs to 00:00 UTC on the 1st');
        assert.equal(Number(refused.headers['x-ratelimit-reset']), oldReset);
        assert.equal(refused.headers['x-ratelimit-remaining'], '0');
        assert.match(refused.json().error.message, /renews at 00:00 UTC on the 1st/);
        assert.match(refused.json().error.message, /00:00:00 UTC/, 'the wait is given as the time of renewal');
        const u1 = (await t.app.inject({ url: '/v1/usage', headers: k.auth })).json();
        assert.equal(u1.usage.used, 2);
        assert.equal(u1.usage.period_start, `${oldPeriod}-01T00:00:00.000Z`);
        assert.equal(u1.usage.period_end, first);

        // one millisecond before midnight: still the old month
        clock = new Date(Date.parse(first) - 1);
        const lastMs = await call();
        assert.equal(lastMs.statusCode, 429);
        assert.equal(lastMs.headers['retry-after'], '1');
        assert.equal(Number(lastMs.headers['x-ratelimit-reset']), oldReset);

        // 00:00:00.000 UTC on the 1st: the count starts again, the headers name the next renewal
        clock = new Date(first);
        const renewed = await call();
        assert.equal(renewed.statusCode, 200, renewed.body);
        assert.equal(renewed.headers['x-ratelimit-remaining'], '1');
        assert.equal(renewed.headers['x-ratelimit-limit'], '2');
        assert.equal(Number(renewed.headers['x-ratelimit-reset']), newReset);
        assert.equal(monthlyItem(renewed.headers['ratelimit-policy']).w, newDays * DAY);
        assert.equal(monthlyItem(renewed.headers['ratelimit']).t, newDays * DAY, 'RateLimit t: the whole new month to renewal');
        assert.equal(monthlyItem(renewed.headers['ratelimit']).r, 1);
        const u2 = (await t.app.inject({ url: '/v1/usage', headers: k.auth })).json();
        assert.equal(u2.usage.used, 1);
        assert.equal(u2.remaining, 1);
        assert.equal(u2.usage.period_start, first);
        assert.equal((await call()).statusCode, 200);
        const over = await call();
        assert.equal(over.statusCode, 429, 'the new month has the same allowance, no more');
        assert.equal(Number(over.headers['retry-after']), newDays * DAY);

        // the store holds one count per calendar month
        assert.equal(await t.ctx.store.getMonthly(k.id, oldPeriod), 2);
        assert.equal(await t.ctx.store.getMonthly(k.id, newPeriod), 2);
      } finally {
        await t.close();
      }
    });
  }

  test('the demo daily cap is reached at 23:59:58 UTC, refuses with Retry-After to midnight, and renews at 00:00 UTC', async () => {
    let clock = new Date('2027-03-14T23:59:58.000Z');
    const t = await buildTestApp({ now: () => clock, env: { DEMO_DAILY_CAP: '3', DEMO_CACHE_TTL_SECONDS: '0' } });
    try {
      // one caller per IPv4 /24, so no network's share of the cap (1 of 3 here) is what refuses
      const demo = (net: number) => t.app.inject({ url: '/v1/demo/resolve-entity?q=syrah', remoteAddress: `192.0.${net}.1` });
      const day1 = [];
      for (let net = 1; net <= 4; net++) day1.push(await demo(net));
      assert.deepEqual(day1.map((r) => r.statusCode), [200, 200, 200, 503]);
      const capped = day1[3]!;
      assert.equal(capped.json().error.code, 'DEMO_DAILY_CAP_REACHED');
      assert.equal(capped.headers['retry-after'], '2', 'Retry-After runs to 00:00 UTC');
      assert.match(capped.json().error.message, /renews at 00:00 UTC: retry after 00:00:00 UTC, in 2 s/);

      clock = new Date('2027-03-14T23:59:59.999Z');
      const stillCapped = await demo(5);
      assert.equal(stillCapped.statusCode, 503);
      assert.equal(stillCapped.headers['retry-after'], '1');

      // midnight UTC: a new day, a new cap; yesterday's networks are welcome again
      clock = new Date('2027-03-15T00:00:00.000Z');
      const day2 = [];
      for (const net of [6, 1, 2, 7]) day2.push(await demo(net));
      assert.deepEqual(day2.map((r) => r.statusCode), [200, 200, 200, 503], 'the cap is 3 again on the new day');
      assert.equal(Number(day2[3]!.headers['retry-after']), DAY, 'the new day\'s cap renews at the next midnight');
    } finally {
      await t.close();
    }
  });

  test('a network\'s daily share of the demo cap renews at 00:00 UTC', async () => {
    let clock = new Date('2027-06-30T23:59:50.000Z');
    // a cap of 100: one /24 may take 10 a day (DEMO_NETWORK_DAILY_SHARE_PERCENT 10)
    const t = await buildTestApp({ now: () => clock, env: { DEMO_DAILY_CAP: '100', DEMO_CACHE_TTL_SECONDS: '0' } });
    try {
      const demo = (host: number) => t.app.inject({ url: '/v1/demo/resolve-entity?q=merlot', remoteAddress: `198.51.100.${host}` });
      const codes = [];
      for (let host = 1; host <= 11; host++) codes.push(await demo(host));
      assert.deepEqual(codes.map((r) => r.statusCode), [...Array(10).fill(200), 429]);
      const refused = codes[10]!;
      assert.equal(refused.json().error.code, 'DEMO_RATE_LIMITED');
      assert.match(refused.json().error.message, /198\.51\.100\.0\/24/);
      assert.equal(refused.headers['retry-after'], '10', 'the daily share\'s Retry-After runs to 00:00 UTC');
      clock = new Date('2027-07-01T00:00:00.000Z');
      const next = await demo(12);
      assert.equal(next.statusCode, 200, 'the same network on the new UTC day');
      // other networks were never held back by it
      assert.equal((await t.app.inject({ url: '/v1/demo/resolve-entity?q=merlot', remoteAddress: '203.0.113.5' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
