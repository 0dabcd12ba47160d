// Issue 11, demo abuse: per-network limits (IPv4 /24, IPv6 /56 and /48) and a network's share of
// the daily cap (item 4); refused requests create no limiter entries, in memory or in Redis, and
// the in-memory limiter is bounded (item 5); forwarded addresses are normalised (item 6); demo
// cache keys are hashes, so a key pasted into q never becomes part of a Redis key (item 12).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKey } from '../../src/gateway/keys.ts';
import { MemoryWindowLimiter, memoryLimiter } from '../../src/store/limiter.ts';
import { ipBucket, networkBuckets, normaliseAddress } from '../../src/gateway/client-address.ts';
import { buildTestApp } from '../helper.ts';
import { flushRedis, redisUrl } from '../services.ts';

type T = Awaited<ReturnType<typeof buildTestApp>>;
const demo = (t: T, ip: string, url = '/v1/demo/resolve-entity?q=syrah', headers: Record<string, string> = {}) =>
  t.app.inject({ url, remoteAddress: ip, headers });
const statuses = async (t: T, ips: string[], url?: string) => {
  const out = [];
  for (const ip of ips) out.push((await demo(t, ip, url)).statusCode);
  return out;
};

describe('demo limits per network', () => {
  test('with the default settings one IPv6 /56 (256 /64s) takes at most 200 answers an hour, and others are still served', async () => {
    const t = await buildTestApp();
    try {
      let ok = 0;
      let limited = 0;
      for (let sub = 0; sub < 256; sub++) {
        const ip = `2001:db8:77:${(0x4400 + sub).toString(16)}::1`;
        for (let i = 0; i < 20; i++) {
          const r = await demo(t, ip);
          if (r.statusCode === 200) ok++;
          else {
            assert.equal(r.json().error.code, 'DEMO_RATE_LIMITED', `${ip}: ${r.body}`);
            limited++;
          }
        }
      }
      assert.equal(ok, 200, 'DEMO_PER_SUBNET_PER_HOUR');
      assert.equal(limited, 256 * 20 - 200);
      assert.equal((await demo(t, '2001:db8:78::1')).statusCode, 200, 'another network');
      assert.equal((await demo(t, '203.0.113.5')).statusCode, 200, 'an IPv4 caller');
    } finally {
      await t.close();
    }
  });

  test('IPv6: the /56 and /48 hour limits apply across /64s, with a message naming the network', async () => {
    const t = await buildTestApp({ env: { DEMO_PER_SUBNET_PER_HOUR: '5', DEMO_PER_SITE_PER_HOUR: '7' } });
    try {
      const one56 = Array.from({ length: 7 }, (_, i) => `2001:db8:1:${(0x100 + i).toString(16)}::1`);
      assert.deepEqual(await statuses(t, one56), [200, 200, 200, 200, 200, 429, 429]);
      const r = await demo(t, '2001:db8:1:1ff::9');
      assert.equal(r.json().error.code, 'DEMO_RATE_LIMITED');
      assert.match(r.json().error.message, /5 requests per hour per network \(2001:db8:1:100::\/56\)/);
      const retry = Number(r.headers['retry-after']);
      assert.ok(retry > 3000 && retry <= 3600, `Retry-After ${retry}`);
      // another /56 of the same /48: 2 more fit in the /48's 7
      assert.deepEqual(await statuses(t, ['2001:db8:1:200::1', '2001:db8:1:201::1', '2001:db8:1:202::1']), [200, 200, 429]);
      assert.match((await demo(t, '2001:db8:1:300::1')).json().error.message, /7 requests per hour per network \(2001:db8:1::\/48\)/);
      assert.equal((await demo(t, '2001:db8:2::1')).statusCode, 200, 'another /48');
    } finally {
      await t.close();
    }
  });

  test('IPv4: one /24 is limited per hour as a whole', async () => {
    const t = await buildTestApp({ env: { DEMO_PER_SUBNET_PER_HOUR: '3' } });
    try {
      assert.deepEqual(await statuses(t, ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.200']), [200, 200, 200, 429, 429]);
      assert.equal((await demo(t, '198.51.101.1')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('no network takes more than its share of the daily cap; the refusal lasts until midnight UTC and leaves the cap to others', async () => {
    const t = await buildTestApp({ env: { DEMO_DAILY_CAP: '40', DEMO_NETWORK_DAILY_SHARE_PERCENT: '10' } });
    try {
      const ips = Array.from({ length: 6 }, (_, i) => `2001:db8:5:${(i * 0x100).toString(16)}::1`);
      assert.deepEqual(await statuses(t, ips), [200, 200, 200, 200, 429, 429]);
      const r = await demo(t, '2001:db8:5:ff00::1');
      assert.match(r.json().error.message, /at most 4 requests per day from one network \(2001:db8:5::\/48\)/);
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      assert.ok(Math.abs(Number(r.headers['retry-after']) - (midnight - Date.now()) / 1000) < 5);
      assert.deepEqual(await statuses(t, ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5']), [200, 200, 200, 200, 429]);
      assert.equal((await demo(t, '2001:db8:6::1')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('network buckets', () => {
    assert.deepEqual(networkBuckets('2001:db8:1:1ab::1'), { subnet: '2001:db8:1:100::/56', site: '2001:db8:1::/48' });
    assert.deepEqual(networkBuckets('2001:0db8:0001:01ab:0:0:0:1'), { subnet: '2001:db8:1:100::/56', site: '2001:db8:1::/48' });
    assert.deepEqual(networkBuckets('::ffff:198.51.100.7'), { subnet: '198.51.100.0/24', site: '198.51.100.0/24' });
    assert.equal(ipBucket('2001:db8:abcd:12:ffff:1:2:3'), '2001:db8:abcd:12::/64');
    assert.equal(ipBucket('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  });
});

describe('refused demo requests create nothing; the in-memory limiter is bounded', () => {
  test('memory: a flood of refused requests from distinct /64s and networks adds no limiter entries', async () => {
    const t = await buildTestApp({ env: { DEMO_DAILY_CAP: '4', DEMO_NETWORK_DAILY_SHARE_PERCENT: '100', DEMO_PER_IP_PER_MINUTE: '1', DEMO_PER_SUBNET_PER_HOUR: '2' } });
    try {
      const limiter = t.ctx.limiter as MemoryWindowLimiter;
      assert.ok(limiter instanceof MemoryWindowLimiter);
      assert.deepEqual(await statuses(t, ['2001:db8:9:100::1', '2001:db8:9:101::1', '2001:db8:9:102::1']), [200, 200, 429], 'the /56 limit');
      assert.equal((await demo(t, '198.51.100.1')).statusCode, 200);
      assert.equal((await demo(t, '198.51.100.1')).statusCode, 429, 'the per-IP minute limit');
      const size = limiter.size;
      for (let i = 0; i < 500; i++) assert.equal((await demo(t, `2001:db8:9:1${(i % 256).toString(16).padStart(2, '0')}:${i.toString(16)}::1`)).statusCode, 429);
      for (let i = 0; i < 200; i++) assert.equal((await demo(t, '198.51.100.1')).statusCode, 429);
      assert.equal(limiter.size, size, 'refused by a network or per-IP window');
      assert.equal((await demo(t, '192.0.2.1')).statusCode, 200, 'the last of the daily cap');
      const full = limiter.size;
      for (let i = 0; i < 1000; i++) {
        const r = await demo(t, `2001:db8:${(i + 16).toString(16)}:${i.toString(16)}::1`);
        assert.equal(r.json().error.code, 'DEMO_DAILY_CAP_REACHED');
      }
      assert.equal(limiter.size, full, 'refused by the daily cap');
    } finally {
      await t.close();
    }
  });

  test('the in-memory limiter keeps at most its bound of windows, least recently used dropped', async () => {
    const l = memoryLimiter(100) as MemoryWindowLimiter;
    assert.equal((await l.hit('hot', 1000, 60_000)).remaining, 999);
    for (let i = 0; i < 5000; i++) {
      await l.hit(`cold:${i}`, 5, 60_000);
      if (i % 50 === 0) await l.hit('hot', 1000, 60_000);
    }
    assert.equal(l.size, 100);
    assert.equal((await l.peek('hot', 1000, 60_000)).remaining, 1000 - 101, 'the window in use survives');
    assert.equal((await l.peek('cold:0', 5, 60_000)).remaining, 5, 'an old one was dropped');
  });

  describe('Redis', () => {
    const REDIS_URL = redisUrl(14); // this file's own database index
    before(() => flushRedis(REDIS_URL));
    after(() => flushRedis(REDIS_URL));

    test('a flood of refused requests adds no Redis keys; demo cache keys are hashes, never the query', async () => {
      const t = await buildTestApp({ env: { REDIS_URL, DEMO_DAILY_CAP: '4', DEMO_NETWORK_DAILY_SHARE_PERCENT: '100', DEMO_PER_IP_PER_MINUTE: '1', DEMO_PER_SUBNET_PER_HOUR: '2' } });
      const { Redis } = await import('ioredis');
      const r = new Redis(REDIS_URL);
      try {
        const { key } = generateKey();
        assert.equal((await demo(t, '198.51.100.1', `/v1/demo/resolve-entity?q=${key}`)).statusCode, 200);
        assert.equal((await demo(t, '198.51.100.1')).statusCode, 429);
        assert.deepEqual(await statuses(t, ['2001:db8:9:100::1', '2001:db8:9:101::1', '2001:db8:9:102::1']), [200, 200, 429]);
        const keys = (await r.keys('*')).sort();
        assert.ok(keys.some((k) => k.startsWith('dis:cache:demo:')), keys.join(' '));
        for (const k of keys) assert.ok(!k.includes('dis_live_') && !k.includes(key.slice(9)) && !k.includes('syrah'), k);
        const before = await r.dbsize();
        for (let i = 0; i < 300; i++) assert.equal((await demo(t, `2001:db8:9:1${(i % 256).toString(16).padStart(2, '0')}:${i.toString(16)}::1`)).statusCode, 429);
        for (let i = 0; i < 100; i++) assert.equal((await demo(t, '198.51.100.1')).statusCode, 429);
        assert.equal(await r.dbsize(), before, 'refused by a network or per-IP window');
        assert.equal((await demo(t, '192.0.2.1')).statusCode, 200, 'the last of the daily cap');
        const full = await r.dbsize();
        for (let i = 0; i < 300; i++) assert.equal((await demo(t, `2001:db8:${(i + 16).toString(16)}::1`)).statusCode, 503);
        assert.equal(await r.dbsize(), full, 'refused by the daily cap');
      } finally {
        r.disconnect();
        await t.close();
      }
    });
  });
});

describe('forwarded client addresses (TRUST_PROXY on)', () => {
  test('ports and brackets are stripped, so one client is one bucket; garbage falls back to the socket address', async () => {
    const t = await buildTestApp({ env: { TRUST_PROXY: 'true', DEMO_PER_IP_PER_MINUTE: '1' } });
    try {
      const via = async (xff: string, peer = '127.0.0.1') => (await demo(t, peer, undefined, { 'x-forwarded-for': xff })).statusCode;
      assert.equal(await via('9.8.7.6:1234'), 200);
      assert.equal(await via('9.8.7.6:1235'), 429, 'same client, another source port');
      assert.equal(await via('9.8.7.6'), 429);
      assert.equal(await via('[2001:db8::7]'), 200);
      assert.equal(await via('[2001:db8::7]:443'), 429);
      assert.equal(await via('2001:db8::8'), 429, 'same /64');
      assert.equal(await via('garbage-1', '192.0.2.10'), 200, 'the socket address');
      assert.equal(await via('garbage-2', '192.0.2.10'), 429, 'garbage is not a bucket of its own');
      assert.equal(await via('999.1.1.1', '192.0.2.10'), 429);
    } finally {
      await t.close();
    }
  });

  test('normaliseAddress', () => {
    assert.equal(normaliseAddress('9.8.7.6:1234'), '9.8.7.6');
    assert.equal(normaliseAddress('[2001:DB8::7]:443'), '2001:db8::7');
    assert.equal(normaliseAddress(' 2001:db8::7 '), '2001:db8::7');
    assert.equal(normaliseAddress('2001:db8::7:443'), '2001:db8::7:443', 'a valid IPv6 address as it is');
    for (const bad of ['', 'garbage', '1.2.3', '[1.2.3.4', '1.2.3.4:99999999', 'unknown']) assert.equal(normaliseAddress(bad), null, bad);
  });
});
