// The store fixture shared by the usage-lease tests (lease, prefetch, sync-answers): called inside a
// `describe` for one store kind, it registers that describe's before / after hooks (a temp dir with
// one SQLite file, or a temp PostgreSQL database; migrated by an admin store; every store and lease
// opened here closed after, then the dir removed or the database dropped) and returns what the
// tests use. Also the loop that drives a steady stream of requests until stop(), and a watch on an
// adapter's reservations and hand-backs (wrapped on the instance: public methods, no private state).
import { before, after } from 'node:test';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteAccountStore } from '../../src/store/sqlite.ts';
import { PostgresAccountStore } from '../../src/store/postgres.ts';
import { LeasedAccountStore, type LeaseOptions } from '../../src/store/lease.ts';
import type { AccountStore, LeaseReservations } from '../../src/store/ports.ts';
import { createDatabase, dbUrl, dropDatabase, tempDatabaseName } from '../services.ts';

export type Inner = AccountStore & LeaseReservations;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LeaseHarnessOptions {
  /** SQLite: the temp dir's prefix (e.g. `dis-lease-`) and the file's name in it. */
  dirPrefix: string;
  file: string;
  /** The `client` of the keys newKey() inserts. */
  client: string;
  /** What every lease() starts from (its own options on top). */
  opts: LeaseOptions;
}

export function leaseHarness(name: 'sqlite' | 'postgres', h: LeaseHarnessOptions) {
  let dir = '';
  const db = tempDatabaseName();
  const opened: AccountStore[] = [];
  const leased: LeasedAccountStore[] = [];
  /** A new adapter instance on this describe's database (closed after). */
  const open = (): Inner => {
    const s = name === 'sqlite' ? new SqliteAccountStore(path.join(dir, h.file)) : new PostgresAccountStore(dbUrl(db));
    opened.push(s);
    return s as Inner;
  };
  /** A lease wrapper to close after (and returned). */
  const keep = <L extends LeasedAccountStore>(L: L) => {
    leased.push(L);
    return L;
  };
  /** A lease over `inner` (a new adapter by default) with `opts` over the harness's; closed after. */
  const lease = (opts: Partial<LeaseOptions> = {}, inner = open()) => keep(new LeasedAccountStore(inner, { ...h.opts, ...opts }));
  let admin: Inner;

  before(async () => {
    if (name === 'sqlite') dir = fs.mkdtempSync(path.join(os.tmpdir(), h.dirPrefix));
    else await createDatabase(db);
    admin = open();
    await admin.migrate();
  });
  after(async () => {
    for (const L of leased) await L.close().catch(() => undefined);
    for (const s of opened) await s.close().catch(() => undefined);
    if (name === 'sqlite') fs.rmSync(dir, { recursive: true, force: true });
    else await dropDatabase(db);
  });

  /** An active key on a new plan of `limit` a month (and 1,000,000 a minute); its id. */
  async function newKey(limit: number) {
    const plan = `p${crypto.randomBytes(4).toString('hex')}`;
    await admin.upsertPlan({ name: plan, monthly_limit: limit, per_minute_limit: 1_000_000 });
    const id = `key_${crypto.randomBytes(8).toString('hex')}`;
    await admin.insertKey({ id, key_hash: crypto.randomBytes(32).toString('hex'), display_prefix: 'dis_live_test', client: h.client, plan, status: 'active', created_at: new Date().toISOString(), last_used_at: null });
    return id;
  }

  // admin(): the migrated store the tests read through (set once before() has run)
  return { open, lease, keep, admin: () => admin, newKey };
}

/**
 * Runs `tick` then waits `everyMs`, over and over until stop() (the first tick starts at once,
 * synchronously up to its first await). stop() resolves when the loop has ended.
 */
export function steady(tick: () => Promise<void>, everyMs: number) {
  let running = true;
  const done = (async () => {
    while (running) {
      await tick();
      await sleep(everyMs);
    }
  })();
  return async () => {
    running = false;
    // a refused request may wait for its retry on an unref'd timer (SQLite holds no handle): keep the loop alive meanwhile
    const alive = setInterval(() => undefined, 50);
    await done.finally(() => clearInterval(alive));
  };
}

/**
 * Watches `inner`'s reservations and hand-backs (its public reserveMonthly / returnMonthly, wrapped
 * on this instance): how many are in flight, how many background reservations (prefetches, need 0)
 * were started, and optional faults for them: `failPrefetch` makes them throw before reaching the
 * store; `holdPrefetch`, while set, keeps a prefetch's grant (already counted in the store) from
 * returning to the lease until the promise resolves.
 */
export function watchReservations(inner: Inner) {
  const reserve = inner.reserveMonthly.bind(inner);
  const giveBack = inner.returnMonthly.bind(inner);
  const w = { inFlight: 0, prefetchesStarted: 0, prefetchesFailed: 0, failPrefetch: false, holdPrefetch: undefined as Promise<void> | undefined };
  inner.reserveMonthly = async (r) => {
    w.inFlight++;
    try {
      if (r.need === 0) {
        w.prefetchesStarted++;
        if (w.failPrefetch) {
          w.prefetchesFailed++;
          throw new Error('prefetch refused by the test');
        }
      }
      const g = await reserve(r);
      if (r.need === 0 && w.holdPrefetch) await w.holdPrefetch;
      return g;
    } finally {
      w.inFlight--;
    }
  };
  inner.returnMonthly = async (...a) => {
    w.inFlight++;
    try {
      return await giveBack(...a);
    } finally {
      w.inFlight--;
    }
  };
  return w;
}

/** Resolves once no reservation or hand-back of `w` is in flight (checked across a few turns); fails after `ms`. */
export async function noneInFlight(w: { inFlight: number }, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (let quiet = 0; quiet < 3; ) {
    if (Date.now() > deadline) throw new Error(`reservations still in flight after ${ms} ms`);
    await new Promise((r) => setImmediate(r));
    await sleep(5);
    quiet = w.inFlight === 0 ? quiet + 1 : 0;
  }
}
