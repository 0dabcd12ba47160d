// npm run bench:prefetch — how many requests wait at a block boundary with prefetch (issue 14),
// against a baseline measured in the same run: the same stream on a lease with prefetch off
// (prefetchAt 0). A figure, not a test (issue 24, 7.6: test/store/prefetch.test.ts asserts only
// what holds whatever the timing).
//
// The stream: PER_TICK (4) concurrent requests every 2 ms on one key, each answered from the block
// when it can be (consumeMonthlyNow, the fast path), else by the store (consumeMonthly: it waits).
// Counted after a WARMUP_MS (300 ms) lead-in: requests, and those that waited. Each round runs
// BENCH_SECONDS (2) with prefetch then BENCH_SECONDS without, on fresh keys; BENCH_ROUNDS (3)
// rounds, alternated, so both sides see the same machine. Lease options as in the test: minRate 1,
// 50 ms rate windows, horizon 1 s, blocks of at most 100.
// Stores: SQLite (a temp file) always; PostgreSQL when BENCH_PG_ADMIN_URL is set (a temp database
// created through it, dropped after: e.g. postgres://USER@127.0.0.1:5432/test); the Redis limiter's
// minute tokens (maxChunk 40) when BENCH_REDIS_URL is set (only this run's keys, deleted after).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteAccountStore } from '../src/store/sqlite.ts';
import { LeasedAccountStore, DEFAULT_LEASE_OPTIONS, type LeaseOptions } from '../src/store/lease.ts';
import { redisLimiter, DEFAULT_WINDOW_LEASE, type WindowLeaseOptions } from '../src/store/limiter.ts';
import type { AccountStore, LeaseReservations, WindowLimiter } from '../src/store/ports.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = 300;
const PER_TICK = 4;
const EVERY_MS = 2;
const OPTS: LeaseOptions = { ...DEFAULT_LEASE_OPTIONS, minRate: 1, rateWindowMs: 50, horizonMs: 1000, maxBlock: 100, idleMs: 60_000, maxAgeMs: 60_000, retryMs: 400 };
const LEASE: WindowLeaseOptions = { ...DEFAULT_WINDOW_LEASE, minRate: 50, maxChunk: 40, horizonMs: 200, idleMs: 60_000 };
const PERIOD = new Date().toISOString().slice(0, 7);
const LIMIT = 1_000_000_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Side {
  answered: number;
  waited: number;
}

/** One stream of SECONDS: `now()` answers at once or returns undefined, then `wait()` is the store's answer. */
async function stream(now: () => unknown, wait: () => Promise<unknown>): Promise<Side> {
  const start = Date.now();
  const side = { answered: 0, waited: 0 };
  while (Date.now() - start < SECONDS * 1000) {
    const warm = Date.now() - start >= WARMUP_MS;
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < PER_TICK; i++) {
      const r = now();
      if (warm) {
        side.answered++;
        if (!r) side.waited++;
      }
      calls.push(r ? Promise.resolve(r) : wait());
    }
    await Promise.all(calls);
    await sleep(EVERY_MS);
  }
  return side;
}

type Inner = AccountStore & LeaseReservations;

async function leaseRounds(label: string, open: () => Inner, admin: Inner) {
  const totals = { on: { answered: 0, waited: 0 }, off: { answered: 0, waited: 0 } };
  const newKey = async () => {
    const plan = `b${crypto.randomBytes(4).toString('hex')}`;
    await admin.upsertPlan({ name: plan, monthly_limit: LIMIT, per_minute_limit: 1_000_000 });
    const id = `key_${crypto.randomBytes(8).toString('hex')}`;
    await admin.insertKey({ id, key_hash: crypto.randomBytes(32).toString('hex'), display_prefix: 'dis_live_bench', client: 'bench:prefetch', plan, status: 'active', created_at: new Date().toISOString(), last_used_at: null });
    return id;
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ['on', 'off'] as const) {
      const key = await newKey();
      const L = new LeasedAccountStore(open(), side === 'on' ? OPTS : { ...OPTS, prefetchAt: 0 });
      const s = await stream(
        () => L.consumeMonthlyNow(key, PERIOD, LIMIT),
        () => L.consumeMonthly(key, PERIOD, LIMIT),
      );
      await L.close();
      totals[side].answered += s.answered;
      totals[side].waited += s.waited;
    }
  }
  report(label, totals);
}

async function redisRounds(url: string) {
  const { Redis } = await import('ioredis');
  const run = crypto.randomBytes(4).toString('hex');
  const raw = new Redis(url, { maxRetriesPerRequest: 1 });
  const keys: string[] = [];
  const totals = { on: { answered: 0, waited: 0 }, off: { answered: 0, waited: 0 } };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['on', 'off'] as const) {
        const key = `bench:prefetch:${run}:${round}:${side}`;
        keys.push(`dis:rl:${LIMIT}:60000:${key}`);
        const r = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
        await r.ping();
        const lim: WindowLimiter = redisLimiter(r, side === 'on' ? LEASE : { ...LEASE, prefetchAt: 0 });
        const s = await stream(
          () => lim.hitNow!(key, LIMIT, 60_000),
          () => lim.hit(key, LIMIT, 60_000),
        );
        await lim.close();
        totals[side].answered += s.answered;
        totals[side].waited += s.waited;
      }
    }
  } finally {
    if (keys.length) await raw.del(...keys).catch(() => undefined);
    raw.disconnect();
  }
  report('Redis minute tokens', totals);
}

function report(label: string, t: { on: Side; off: Side }) {
  const per1000 = (s: Side) => (s.answered ? (1000 * s.waited) / s.answered : 0);
  const on = per1000(t.on);
  const off = per1000(t.off);
  console.log(
    `${label}: waited after warm-up ${t.on.waited} of ${t.on.answered} with prefetch (${on.toFixed(2)} per 1000), ` +
      `${t.off.waited} of ${t.off.answered} without (${off.toFixed(2)} per 1000); ratio with ÷ without ${off ? (on / off).toFixed(3) : 'n/a'}`,
  );
}

console.log(`${ROUNDS} rounds of ${SECONDS} s per side, ${PER_TICK} requests every ${EVERY_MS} ms, first ${WARMUP_MS} ms of each not counted`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-bench-prefetch-'));
try {
  const file = path.join(dir, 'prefetch.db');
  const opened: Inner[] = [];
  const open = () => {
    const s = new SqliteAccountStore(file);
    opened.push(s);
    return s as Inner;
  };
  const admin = open();
  await admin.migrate();
  await leaseRounds('usage lease, SQLite', open, admin);
  for (const s of opened) await s.close().catch(() => undefined);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

if (process.env.BENCH_PG_ADMIN_URL) {
  const pg = (await import('pg')).default;
  const { PostgresAccountStore } = await import('../src/store/postgres.ts');
  const adminUrl = process.env.BENCH_PG_ADMIN_URL;
  const db = `dis_bench_${crypto.randomBytes(6).toString('hex')}`;
  const adminQuery = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  await adminQuery(`CREATE DATABASE ${db}`);
  try {
    const opened: Inner[] = [];
    const open = () => {
      const s = new PostgresAccountStore(u.toString());
      opened.push(s);
      return s as Inner;
    };
    const admin = open();
    await admin.migrate();
    await leaseRounds('usage lease, PostgreSQL', open, admin);
    for (const s of opened) await s.close().catch(() => undefined);
  } finally {
    await adminQuery(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
} else console.log('usage lease, PostgreSQL: skipped (set BENCH_PG_ADMIN_URL)');

if (process.env.BENCH_REDIS_URL) await redisRounds(process.env.BENCH_REDIS_URL);
else console.log('Redis minute tokens: skipped (set BENCH_REDIS_URL)');
