import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

const demo = (t: Awaited<ReturnType<typeof buildTestApp>>, url: string, ip = '203.0.113.7', headers: Record<string, string> = {}) =>
  t.app.inject({ url, remoteAddress: ip, headers });

describe('demo twins', () => {
  test('the same body as the keyed endpoint plus the demo object, CORS allowed, at most 5 matches', async () => {
    const t = await buildTestApp({ env: { PUBLIC_BASE_URL: 'https://api.example.test' } });
    try {
      const k = await t.createKey('pro');
      const keyed = (await t.app.inject({ url: '/v1/resolve-entity?q=valley&limit=10', headers: k.auth })).json();
      const res = await demo(t, '/v1/demo/resolve-entity?q=valley');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const b = res.json();
      assert.ok(keyed.matches.length > 5, 'the keyed call returns more than 5 here');
      assert.equal(b.matches.length, 5);
      assert.deepEqual(b.matches, keyed.matches.slice(0, 5));
      const { demo: d, ...rest } = b;
      const { matches: _m, ...keyedRest } = keyed;
      const { matches: _n, ...demoRest } = rest;
      assert.deepEqual(demoRest, keyedRest);
      assert.equal(d.demo, true);
      assert.equal(d.endpoint, '/v1/resolve-entity');
      assert.equal(d.authenticated_equivalent, 'curl -H "Authorization: Bearer $DRINKS_API_KEY" "https://api.example.test/v1/resolve-entity?q=valley"');
      assert.deepEqual(d.limits, { per_ip_per_minute: 8, per_ip_per_hour: 20, max_query_length: 80, resolve_result_limit: 5 });
      assert.equal(d.docs, 'https://api.example.test/docs');
      assert.equal(d.plans, 'https://api.example.test/plans');
      assert.equal(d.cached, false);
      assert.equal(d.remaining_this_hour, 19);
    } finally {
      await t.close();
    }
  });

  test('per-IP minute limit gives 429 DEMO_RATE_LIMITED with Retry-After and how to get a key; other IPs are separate', async () => {
    const t = await buildTestApp();
    try {
      const codes = [];
      for (let i = 0; i < 10; i++) codes.push((await demo(t, `/v1/demo/explain?q=merlot`, '198.51.100.1')).statusCode);
      assert.deepEqual(codes, [200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
      const limited = await demo(t, '/v1/demo/explain?q=merlot', '198.51.100.1');
      const b = limited.json();
      assert.equal(b.error.code, 'DEMO_RATE_LIMITED');
      assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
      assert.match(b.error.plans, /\/plans$/);
      assert.equal(b.error.keyed_endpoint, '/v1/explain');
      assert.match(b.error.message, /\/v1\/explain/);
      const other = await demo(t, '/v1/demo/explain?q=merlot', '198.51.100.2');
      assert.equal(other.statusCode, 200);
      assert.equal(other.json().demo.remaining_this_hour, 19);
    } finally {
      await t.close();
    }
  });

  test('per-IP hour limit counts across endpoints, and refused requests do not use it up', async () => {
    const t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '100', DEMO_PER_IP_PER_HOUR: '5' } });
    try {
      const paths = ['/v1/demo/resolve-entity?q=a1', '/v1/demo/pair?q=syrah', '/v1/demo/compare?left=syrah&right=merlot', '/v1/demo/explain?q=gamay', '/v1/demo/resolve-entity?q=cava'];
      const remaining = [];
      for (const p of paths) remaining.push((await demo(t, p)).json().demo.remaining_this_hour);
      assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
      const sixth = await demo(t, '/v1/demo/resolve-entity?q=rioja');
      assert.equal(sixth.statusCode, 429);
      assert.match(sixth.json().error.message, /per hour/);
    } finally {
      await t.close();
    }
  });

  test('X-Forwarded-For cannot bypass demo limits while TRUST_PROXY is off', async () => {
    const t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '2' } });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await demo(t, '/v1/demo/resolve-entity?q=syrah', '192.0.2.9', { 'x-forwarded-for': `10.0.0.${i}` })).statusCode);
      assert.deepEqual(codes, [200, 200, 429, 429]);
    } finally {
      await t.close();
    }
  });

  test('with TRUST_PROXY on, the last proxy hop decides the client IP', async () => {
    const t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1', TRUST_PROXY: 'true' } });
    try {
      const a = await demo(t, '/v1/demo/resolve-entity?q=syrah', '127.0.0.1', { 'x-forwarded-for': '198.51.100.50' });
      const b = await demo(t, '/v1/demo/resolve-entity?q=syrah', '127.0.0.1', { 'x-forwarded-for': '198.51.100.51' });
      const c = await demo(t, '/v1/demo/resolve-entity?q=syrah', '127.0.0.1', { 'x-forwarded-for': '1.2.3.4, 198.51.100.50' });
      assert.deepEqual([a.statusCode, b.statusCode, c.statusCode], [200, 200, 429]);
    } finally {
      await t.close();
    }
  });

  test('with TRUST_PROXY set to proxy addresses, only those proxies are believed', async () => {
    const t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1', TRUST_PROXY: '10.0.0.5, 192.168.0.0/16' } });
    try {
      const viaProxy = async (peer: string, xff: string) => (await demo(t, '/v1/demo/resolve-entity?q=syrah', peer, { 'x-forwarded-for': xff })).statusCode;
      assert.equal(await viaProxy('10.0.0.5', '198.51.100.60'), 200);
      assert.equal(await viaProxy('192.168.3.4', '198.51.100.61'), 200, 'a trusted proxy in the CIDR');
      assert.equal(await viaProxy('10.0.0.5', '198.51.100.60'), 429, 'same client behind the proxy');
      assert.equal(await viaProxy('203.0.113.99', '198.51.100.62'), 200);
      assert.equal(await viaProxy('203.0.113.99', '198.51.100.63'), 429, 'an untrusted peer cannot pick its address');
    } finally {
      await t.close();
    }
  });

  test('the daily cap across all callers gives 503 DEMO_DAILY_CAP_REACHED with Retry-After until midnight UTC', async () => {
    const t = await buildTestApp({ env: { DEMO_DAILY_CAP: '3' } });
    try {
      const codes = [];
      // callers on five networks, so no network's share of the cap is what refuses
      for (let i = 0; i < 5; i++) codes.push(await demo(t, '/v1/demo/resolve-entity?q=syrah', `192.0.${i + 1}.1`));
      assert.deepEqual(codes.map((r) => r.statusCode), [200, 200, 200, 503, 503]);
      const capped = codes[3]!;
      assert.equal(capped.json().error.code, 'DEMO_DAILY_CAP_REACHED');
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      const retry = Number(capped.headers['retry-after']);
      assert.ok(Math.abs(retry - (midnight - Date.now()) / 1000) < 5, `retry ${retry}`);
      assert.match(capped.json().error.plans, /\/plans$/);
    } finally {
      await t.close();
    }
  });

  test('a disabled demo gives 503 DEMO_DISABLED on every demo endpoint', async () => {
    const t = await buildTestApp({ env: { DEMO_ENABLED: 'false' } });
    try {
      for (const p of ['/v1/demo/resolve-entity?q=syrah', '/v1/demo/explain?q=syrah', '/v1/demo/pair?q=syrah', '/v1/demo/compare?left=a&right=b']) {
        const res = await demo(t, p);
        assert.equal(res.statusCode, 503, p);
        assert.equal(res.json().error.code, 'DEMO_DISABLED');
        assert.ok(res.headers['retry-after']);
        assert.equal(res.json().error.keyed_endpoint, p.split('?')[0]!.replace('/demo', ''));
      }
    } finally {
      await t.close();
    }
  });

  test('the demo cache serves a repeat within its lifetime and reports it', async () => {
    const t = await buildTestApp();
    try {
      const first = (await demo(t, '/v1/demo/pair?q=vinho%20verde')).json();
      const second = (await demo(t, '/v1/demo/pair?q=vinho%20verde', '192.0.2.77')).json();
      assert.equal(first.demo.cached, false);
      assert.equal(second.demo.cached, true);
      const { demo: _a, ...b1 } = first;
      const { demo: _b, ...b2 } = second;
      assert.deepEqual(b1, b2);
      const off = await buildTestApp({ env: { DEMO_CACHE_TTL_SECONDS: '0' } });
      try {
        await demo(off, '/v1/demo/pair?q=vinho%20verde');
        assert.equal((await demo(off, '/v1/demo/pair?q=vinho%20verde')).json().demo.cached, false);
      } finally {
        await off.close();
      }
    } finally {
      await t.close();
    }
  });

  test('demo q over 80 characters gets 400, a limit parameter is refused, and neither counts', async () => {
    const t = await buildTestApp();
    try {
      const long = await demo(t, `/v1/demo/resolve-entity?q=${'a'.repeat(81)}`);
      assert.equal(long.statusCode, 400);
      assert.equal(long.json().error.code, 'INVALID_REQUEST');
      assert.match(long.json().error.message, /"q".*80/);
      const lim = await demo(t, '/v1/demo/resolve-entity?q=syrah&limit=3');
      assert.equal(lim.statusCode, 400);
      assert.match(lim.json().error.message, /"limit"/);
      const ok = await demo(t, `/v1/demo/resolve-entity?q=${'a'.repeat(80)}`);
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().demo.remaining_this_hour, 19);
    } finally {
      await t.close();
    }
  });

  test('demo explain, pair and compare return 404 ENTITY_NOT_RESOLVED for unknown terms', async () => {
    const t = await buildTestApp();
    try {
      for (const p of ['/v1/demo/explain?q=toyota%20corolla', '/v1/demo/pair?q=asdfgh', '/v1/demo/compare?left=syrah&right=qwertyuiop']) {
        const res = await demo(t, p);
        assert.equal(res.statusCode, 404, p);
        assert.equal(res.json().error.code, 'ENTITY_NOT_RESOLVED');
        assert.equal(res.json().error.request_id, res.headers['x-request-id']);
      }
    } finally {
      await t.close();
    }
  });
});

describe('demo per-IP buckets', () => {
  test('IPv6 callers are limited per /64, IPv4-mapped addresses as IPv4', async () => {
    const { ipBucket } = await import('../../src/gateway/client-address.ts');
    assert.equal(ipBucket('2001:db8:abcd:12::1'), ipBucket('2001:db8:abcd:12:ffff:1:2:3'));
    assert.notEqual(ipBucket('2001:db8:abcd:12::1'), ipBucket('2001:db8:abcd:13::1'));
    assert.equal(ipBucket('::ffff:192.0.2.1'), '192.0.2.1');
    const t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '2' } });
    try {
      const codes = [];
      for (let i = 1; i <= 3; i++) codes.push((await demo(t, '/v1/demo/resolve-entity?q=syrah', `2001:db8:1:2::${i}`)).statusCode);
      assert.deepEqual(codes, [200, 200, 429]);
    } finally {
      await t.close();
    }
  });
});
