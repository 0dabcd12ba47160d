// The keyed fast path on PostgreSQL + Redis with both stopped by paused TCP relays (issue 31): a
// burst of requests that took their month from a lease block and then wait for Redis' minute
// window. Before issue 31 the month refunds of those requests went to PostgreSQL while the lease
// was busy handing its block back, failed there, and crashed the process (an unhandled rejection);
// requests waited for Redis two or three times. Now every request ends within 3 s of its arrival
// (200 from tokens in hand, else 503 STORE_UNAVAILABLE), nothing is left unhandled, and once the
// services return the month counts exactly the 200s answered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PostgresAccountStore } from '../../src/store/postgres.ts';
import { monthPeriod } from '../../src/store/ports.ts';
import { buildTestApp, sleep } from '../helper.ts';
import { dbUrl, flushRedis, migratedDatabase, redisUrl, Relay, until, viaRelay } from '../services.ts';

const REDIS_URL = redisUrl(4); // this file's own Redis database index
const BIG = { name: 'fault', monthly_limit: 1_000_000, per_minute_limit: 1_000_000 };
const db = migratedDatabase([BIG]);

before(() => flushRedis(REDIS_URL));
after(() => flushRedis(REDIS_URL));

interface Outcome {
  status: number;
  code?: string;
  /** ms from sending to the whole answer */
  ms: number;
}

/**
 * A gateway on this file's PostgreSQL database and Redis index, each behind a relay, listening on
 * HTTP, with a key of the BIG plan warmed until the fast path answers it from a lease block and
 * minute tokens in hand.
 */
async function warmGateway() {
  const pgRelay = new Relay();
  const redisRelay = new Relay();
  await pgRelay.start(Number(new URL(dbUrl(db)).port || 5432));
  await redisRelay.start(Number(new URL(REDIS_URL).port || 6379));
  const t = await buildTestApp({
    env: { DATABASE_URL: viaRelay(dbUrl(db), pgRelay), REDIS_URL: viaRelay(REDIS_URL, redisRelay), USAGE_LEASE_MIN_RATE: '1', AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000' },
  });
  const direct = new PostgresAccountStore(dbUrl(db));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const fast = t.ctx.fastPath!;
  const { id, auth } = await t.createKey(BIG.name);
  const path = '/v1/resolve-entity?q=merlot';
  const get = (via = agent) =>
    new Promise<Outcome>((resolve, reject) => {
      const t0 = Date.now();
      const req = http.request({ host: '127.0.0.1', port, path, headers: auth, agent: via }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          let code: string | undefined;
          try {
            code = JSON.parse(body).error?.code;
          } catch {
            code = undefined;
          }
          resolve({ status: res.statusCode!, code, ms: Date.now() - t0 });
        });
      });
      req.on('error', reject);
      req.end();
    });
  /** `n` requests at once, each on its own connection (none queued in the client) */
  const burst = async (n: number) => {
    const each = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    try {
      return await Promise.all(Array.from({ length: n }, () => get(each)));
    } finally {
      each.destroy();
    }
  };
  const warm: Outcome[] = [];
  for (const end = Date.now() + 10_000; Date.now() < end && fast.answered < 300; ) warm.push(...(await Promise.all(Array.from({ length: 32 }, () => get()))));
  assert.ok(fast.answered >= 300, 'the fast path answers');
  assert.ok(warm.every((o) => o.status === 200));
  let closed = false;
  const close = async () => {
    if (!closed) await t.close().catch(() => undefined);
    closed = true;
  };
  const done = async () => {
    agent.destroy();
    redisRelay.resume();
    pgRelay.resume();
    await close();
    await direct.close();
    await redisRelay.close();
    await pgRelay.close();
  };
  /** the month of the key once it equals `answered` (after the blocks are handed back), or its last value */
  const usedSettled = async (answered: number) =>
    until('the month to settle', 20_000, async () => ((await direct.getMonthly(id, monthPeriod(new Date()))) === answered ? answered : undefined)).catch(() => direct.getMonthly(id, monthPeriod(new Date())));
  return { t, fast, warm, burst, pgRelay, redisRelay, close, done, usedSettled };
}

/** Collects unhandled rejections while `fn` runs (an unhandled rejection ends a real gateway). */
async function watchingUnhandled(fn: (unhandled: unknown[]) => Promise<void>) {
  const unhandled: unknown[] = [];
  const on = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', on);
  try {
    await fn(unhandled);
  } finally {
    process.off('unhandledRejection', on);
  }
}

function onlyOkOrUnavailable(burst: Outcome[]) {
  const ok = burst.filter((o) => o.status === 200);
  const unavailable = burst.filter((o) => o.status === 503);
  assert.equal(ok.length + unavailable.length, burst.length, `only 200 and 503: ${[...new Set(burst.map((o) => o.status))]}`);
  assert.ok(unavailable.length > 0, 'some requests found no minute tokens in hand');
  for (const o of unavailable) assert.equal(o.code, 'STORE_UNAVAILABLE');
  return ok;
}

test('Redis silent under a burst on the fast path: each request ends within 3 s of its arrival (503 unless tokens were in hand), and the month counts exactly the 200s', { timeout: 60_000 }, async () => {
  await watchingUnhandled(async (unhandled) => {
    const g = await warmGateway();
    try {
      g.redisRelay.holdAll();
      const waitedBefore = g.fast.waited;
      const burst = await g.burst(300);
      assert.ok(g.fast.waited > waitedBefore, 'requests waited on the fast path for the limiter');
      const ok = onlyOkOrUnavailable(burst);
      const slowest = Math.max(...burst.map((o) => o.ms));
      assert.ok(slowest < 3000, `every request ended within 3 s of its arrival (slowest ${slowest} ms)`);
      g.redisRelay.resume();
      await g.close();
      assert.equal(await g.usedSettled(g.warm.length + ok.length), g.warm.length + ok.length, 'usage equals the 200s answered');
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
    } finally {
      await g.done();
    }
  });
});

test('Redis and PostgreSQL silent under a burst on the fast path: refunds that cannot reach PostgreSQL crash nothing, every request ends in a 503, and the month counts exactly the 200s', { timeout: 60_000 }, async () => {
  await watchingUnhandled(async (unhandled) => {
    const g = await warmGateway();
    try {
      g.redisRelay.holdAll();
      g.pgRelay.holdAll();
      const burst = await g.burst(300);
      const ok = onlyOkOrUnavailable(burst);
      // a request handed to Fastify after the limiter failed looks its key up again: the limiter's
      // 2 s, then PostgreSQL's deadline (STORE_TIMEOUT_MS + 1 s)
      const slowest = Math.max(...burst.map((o) => o.ms));
      assert.ok(slowest < 6000, `every request ended (slowest ${slowest} ms)`);
      // the refunds and hand-backs wait for a silent PostgreSQL (its deadline is 3 s): nothing may crash
      await sleep(4000);
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
      g.redisRelay.resume();
      g.pgRelay.resume();
      // once PostgreSQL answers, closing hands every block back: the month equals the 200s answered
      await g.close();
      assert.equal(await g.usedSettled(g.warm.length + ok.length), g.warm.length + ok.length, 'usage equals the 200s answered');
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
    } finally {
      await g.done();
    }
  });
});
