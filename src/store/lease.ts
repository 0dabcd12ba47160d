// Usage leases (issue 14): exact monthly metering without a database transaction per request.
//
// A process reserves a block of a key's monthly allowance in one transaction (reserveMonthly of the
// SQLite or PostgreSQL adapter), then admits requests from the block in memory. The block is
// counted in the monthly and daily rows when it is reserved, so the stored `used` is always "served
// plus reserved": no request can ever be admitted past the allowance, whatever the number of
// processes, and a crash (kill -9) can only leave a block counted but unserved (under-admission).
//
// Block size: the requests waiting now are always reserved exactly (min(waiting, left)); headroom
// beyond them is taken only for a key this process serves at >= minRate requests per second (over
// the last full 250 ms window), and is min(maxBlock, rate × horizon, floor((left − waiting) / (k × live
// holders))): it shrinks with what is left and is 0 near the end, so the last requests are counted
// one transaction at a time. Below minRate a key is counted exactly as before: one transaction per
// event-loop turn, nothing reserved ahead.
//
// Hand-back: an unserved remainder goes back (monthly and daily rows) when the block has been idle
// for idleMs, when it is older than maxAgeMs, at the UTC day's end, when the key's plan (limit)
// changes, and on close() (the SIGTERM path). Refunds (a counted request that failed on our side)
// go back into the local block. When a reservation cannot admit all waiting requests while other
// processes hold open blocks, the refused ones are retried once after retryMs (their blocks are
// handed back when idle), so a burst that ends is admitted exactly up to the allowance.
//
// Prefetch: when a block falls to its low-water mark (free <= prefetchAt × the headroom last
// granted, at least 1) and the key still qualifies for headroom (rate >= minRate, not retired or
// closing, more than PREFETCH_DAY_MARGIN_MS before the UTC day's end, not about to age out), the next
// block is reserved in the background (need 0, the usual headroom, capped so that the process holds
// at most maxBlock unserved). That reservation is `prefetching`, not `busy`: requests keep being
// served from the free remainder while it is in flight, and only those that find the block empty
// wait for it (as they wait for a reservation). Its grant is added to the block, which keeps one
// count, one day row and one hand-back: grants counted on different UTC days are never merged (a
// grant whose day differs from the block's still-unserved remainder goes straight back). Nothing
// else changes: the stored count is still served + reserved, and a hand-back returns everything
// unserved (the old remainder and the prefetched grant). A prefetch that fails or gets nothing
// fails no request: the remainder is still served, the next request that finds the block empty
// makes a normal reservation (with its error handling), and no prefetch is tried for retryMs.
//
// `used` (the quota headers) with overlapping grants: the stored count read at this process's
// latest grant (normal or prefetched), less this process's unserved requests at that moment, plus
// those served since. limit − used is therefore never more than was free then (this process's
// block plus what the store had not counted); other processes' blocks count as used.
import os from 'node:os';
import crypto from 'node:crypto';
import { seenAt } from './rate.ts';
import {
  dayOf,
  hasLeaseReservations,
  type AccountStore,
  type ApiKeyRecord,
  type ConsumeResult,
  type DailyUsage,
  type DeletePlanResult,
  type KeyStatus,
  type LeaseReservations,
  type Plan,
} from './ports.ts';

export interface LeaseOptions {
  /** most requests one block may reserve beyond those waiting (USAGE_LEASE_MAX_BLOCK; 0: leases off) */
  maxBlock: number;
  /** per-process requests per second on one key below which no headroom is reserved */
  minRate: number;
  /** headroom ≈ rate × horizonMs */
  horizonMs: number;
  /** an unused block is handed back after this long */
  idleMs: number;
  /** a block older than this is handed back (and a new one reserved on the next request) */
  maxAgeMs: number;
  /** k of the shrinking rule */
  share: number;
  /** refused while other processes hold open blocks: one retry after this long */
  retryMs: number;
  /** the request rate is measured over windows of this length (default 250 ms) */
  rateWindowMs?: number;
  /** this process's holder id (default host:pid:random) */
  holder?: string;
  /** the next block is reserved in the background once free <= this × the headroom last granted (default 0.25; 0: no prefetch) */
  prefetchAt?: number;
  /**
   * The clock (epoch ms) the leases read for the rate window, the idle, age and end-of-UTC-day
   * hand-backs and the no-prefetch margin before the day's end (default Date.now). A test sets it to
   * put a block near the end of the UTC day without waiting for midnight. Waits that are real time
   * (a store call's deadline, retries of a failed hand-back, close()) keep the wall clock.
   */
  now?: () => number;
}

export const DEFAULT_LEASE_OPTIONS: LeaseOptions = { maxBlock: 500, minRate: 200, horizonMs: 250, idleMs: 500, maxAgeMs: 5000, share: 2, retryMs: 750 };

interface Waiter {
  resolve: (r: ConsumeResult) => void;
  reject: (e: unknown) => void;
  retried: boolean;
  /** arrival (epoch ms, wall clock): the reservation's deadline runs from the earliest waiter's */
  at: number;
}

class Lease {
  /** unserved requests of the block */
  free = 0;
  /** used before the block's reservation, and served from it since (for the quota headers) */
  before = 0;
  served = 0;
  /** the grant's day (store clock), and the end of the gateway's UTC day it was taken in */
  day = '';
  dayEnd = 0;
  grantedAt = 0;
  lastUse = 0;
  /** this holder has an open usage_leases row for the block */
  open = false;
  /** refunds that came while the lease was busy (added to the block when it is not) */
  refundsDue = 0;
  /** a reservation that requests wait for (or a hand-back) is in flight: the block serves nothing */
  busy = false;
  /** a background reservation (prefetch) is in flight: the block keeps serving its free requests */
  prefetching = false;
  /** a prefetch starts when free falls to this (0: none; set from the headroom of each grant) */
  lowWater = 0;
  noPrefetchUntil = 0;
  retired = false;
  /** a retry found the allowance still taken: refuse at once for a while */
  noRetryUntil = 0;
  waiting: Waiter[] = [];
  windowStart: number;
  windowCount = 0;
  rate = 0;
  constructor(readonly keyId: string, readonly period: string, readonly limit: number, now: number) {
    this.windowStart = now;
    this.lastUse = now;
  }
}

const nextUtcMidnight = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

interface PendingReturn {
  id: string;
  keyId: string;
  period: string;
  day: string;
  n: number;
  since: number;
}

/** No prefetch this close to the end of the UTC day (gateway clock): a block never spans two day rows. */
const PREFETCH_DAY_MARGIN_MS = 5000;

/** A failed hand-back is sent again (same id, applied once) for this long; then it stays counted. */
const RETURN_RETRY_FOR_MS = 30 * 60_000;

export interface LeaseStats {
  /** reservation transactions, prefetches included */
  reservations: number;
  /** background reservations (prefetches) that returned */
  prefetches: number;
  handBacks: number;
  /** hand-backs given up on (still failing after RETURN_RETRY_FOR_MS, or at close): their remainder stays counted (under-admission) */
  stranded: number;
}

/**
 * An AccountStore whose monthly metering goes through leases; every other AccountStore method is
 * delegated to the wrapped adapter explicitly (no Proxy: nothing intercepts the request path's
 * property reads), as is the one adapter property read through the wrapper (unsettledGroups).
 */
export class LeasedAccountStore implements AccountStore {
  readonly kind: AccountStore['kind'];
  readonly holder: string;
  readonly stats: LeaseStats = { reservations: 0, prefetches: 0, handBacks: 0, stranded: 0 };
  private readonly leases = new Map<string, Lease>();
  private readonly retired = new Set<Lease>();
  private readonly timer: NodeJS.Timeout;
  private closing = false;
  /** refunds with no block of today, given back together at the end of the event-loop turn */
  private readonly refundBatch = new Map<string, { keyId: string; period: string; day: string; n: number; handedBack: Promise<void>; done: () => void }>();
  private refundFlush: NodeJS.Immediate | undefined;
  /** those hand-backs in flight (close waits for them) */
  private readonly returning = new Set<Promise<void>>();
  /** failed hand-backs being sent again, by id */
  private readonly pendingReturns = new Map<string, PendingReturn & { timer: NodeJS.Timeout }>();
  /** opts.now: the lease clock (epoch ms) */
  private readonly now: () => number;

  constructor(readonly inner: AccountStore & LeaseReservations, readonly opts: LeaseOptions = DEFAULT_LEASE_OPTIONS) {
    this.kind = inner.kind;
    this.holder = opts.holder ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
    this.now = opts.now ?? (() => Date.now()); // the global Date at each call, as before (a test may mock it)
    this.timer = setInterval(() => this.sweep(), Math.max(20, Math.min(250, opts.idleMs / 2))).unref();
  }

  // ---- the adapter's, as is ----------------------------------------------------------------

  migrate(): Promise<string[]> {
    return this.inner.migrate();
  }
  pendingMigrations(): Promise<string[]> {
    return this.inner.pendingMigrations();
  }
  ping(): Promise<void> {
    return this.inner.ping();
  }
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.inner.findKeyByHash(hash);
  }
  getKey(id: string): Promise<ApiKeyRecord | null> {
    return this.inner.getKey(id);
  }
  insertKey(k: ApiKeyRecord): Promise<void> {
    return this.inner.insertKey(k);
  }
  listKeys(): Promise<ApiKeyRecord[]> {
    return this.inner.listKeys();
  }
  setKeyStatus(id: string, status: KeyStatus): Promise<void> {
    return this.inner.setKeyStatus(id, status);
  }
  touchKey(id: string, at: string): Promise<void> {
    return this.inner.touchKey(id, at);
  }
  setKeyPlan(id: string, plan: string): Promise<void> {
    return this.inner.setKeyPlan(id, plan);
  }
  rollKey(oldId: string, next: ApiKeyRecord, oldExpiresAt: string): Promise<void> {
    return this.inner.rollKey(oldId, next, oldExpiresAt);
  }
  getPlan(name: string): Promise<Plan | null> {
    return this.inner.getPlan(name);
  }
  listPlans(): Promise<Plan[]> {
    return this.inner.listPlans();
  }
  upsertPlan(p: Plan): Promise<void> {
    return this.inner.upsertPlan(p);
  }
  deletePlan(name: string): Promise<DeletePlanResult> {
    return this.inner.deletePlan(name);
  }
  /** PostgreSQL's count groups still being settled (0 for an adapter without them): for tests and diagnostics. */
  get unsettledGroups(): number {
    return (this.inner as { unsettledGroups?: number }).unsettledGroups ?? 0;
  }

  // ---- leases ------------------------------------------------------------------------------

  /** Blocks held now (for tests and diagnostics): unserved requests per key id. */
  held(): { keyId: string; period: string; free: number }[] {
    return [...this.leases.values(), ...this.retired].filter((l) => l.free > 0).map((l) => ({ keyId: l.keyId, period: l.period, free: l.free }));
  }

  /**
   * The bookkeeping of one key's lease (for tests and diagnostics), or undefined when none exists:
   * what a call that answers nothing must leave unchanged.
   */
  leaseOf(keyId: string, period: string): { free: number; served: number; busy: boolean; windowCount: number; windowStart: number; rate: number; lastUse: number; limit: number } | undefined {
    const l = this.leases.get(`${keyId}\u0000${period}`);
    return l && { free: l.free, served: l.served, busy: l.busy, windowCount: l.windowCount, windowStart: l.windowStart, rate: l.rate, lastUse: l.lastUse, limit: l.limit };
  }

  /** Leases known now, held blocks or not (for tests and diagnostics). */
  get leaseCount(): number {
    return this.leases.size;
  }

  /** The block can serve a request now (not expired, not yesterday's); `busy` is the caller's to check. */
  private live(l: Lease, now: number): boolean {
    return l.free > 0 && now < l.dayEnd && now - l.grantedAt < this.opts.maxAgeMs;
  }

  /** One request seen on `l`: the rate window (for the headroom) and the idle clock. */
  private seen(l: Lease, now: number) {
    seenAt(l, now, this.opts.rateWindowMs ?? 250);
  }

  /** Lease ids (key id and month) by key id, kept so a request builds no string (bounded). */
  private readonly ids = new Map<string, { period: string; id: string }>();
  private leaseId(keyId: string, period: string): string {
    const c = this.ids.get(keyId);
    if (c !== undefined && c.period === period) return c.id;
    if (this.ids.size >= 100_000) this.ids.clear();
    const id = `${keyId}\u0000${period}`;
    this.ids.set(keyId, { period, id });
    return id;
  }

  /**
   * The request served from the block held for `id` at `limit`, when there is one that can serve it
   * now; otherwise undefined, with nothing counted or changed.
   */
  private fromBlock(id: string, limit: number, now: number): ConsumeResult | undefined {
    const l = this.leases.get(id);
    if (!l || l.limit !== limit || l.busy || !this.live(l, now)) return undefined;
    this.seen(l, now);
    l.free--;
    l.served++;
    if (l.free > 0 && l.free <= l.lowWater && !l.prefetching) this.prefetch(l, now);
    return { admitted: true, used: l.before + l.served };
  }

  /** The low-water mark for a grant of `headroom` unserved requests. */
  private lowWaterFor(headroom: number): number {
    const f = this.opts.prefetchAt ?? 0.25;
    return f > 0 && headroom > 0 ? Math.max(1, Math.floor(headroom * f)) : 0;
  }

  /** Starts a background reservation for `l` when the key still qualifies for headroom. */
  private prefetch(l: Lease, now: number) {
    const o = this.opts;
    if (this.closing || l.retired || l.busy || l.rate < o.minRate || now < l.noPrefetchUntil) return;
    if (now + PREFETCH_DAY_MARGIN_MS >= l.dayEnd || now - l.grantedAt + o.horizonMs >= o.maxAgeMs) return;
    const extra = Math.min(o.maxBlock - l.free, Math.ceil((l.rate * o.horizonMs) / 1000));
    if (extra <= 0) return;
    l.prefetching = true;
    void this.runPrefetch(l, extra, now);
  }

  private async runPrefetch(l: Lease, extra: number, start: number) {
    try {
      const g = await this.inner.reserveMonthly({ holder: this.holder, keyId: l.keyId, period: l.period, limit: l.limit, need: 0, extra, share: this.opts.share, since: Date.now() });
      this.stats.reservations++;
      this.stats.prefetches++;
      if (g.granted <= 0) l.noPrefetchUntil = this.now() + this.opts.retryMs;
      else if (g.day === l.day || l.free === 0) {
        // one block: what the store counted at this grant, less what this process has not served
        l.before = g.before - l.free - l.served;
        if (g.day !== l.day) {
          l.day = g.day;
          l.dayEnd = nextUtcMidnight(start);
        }
        l.free += g.granted;
        l.open = true;
        l.grantedAt = start;
        l.lowWater = this.lowWaterFor(g.granted);
      } else {
        // counted on another day than the unserved remainder: straight back (one day row per block)
        l.noPrefetchUntil = this.now() + this.opts.retryMs;
        void this.giveBack(l.keyId, l.period, g.day, g.granted);
      }
    } catch {
      // no request waited for it: the next one that finds the block empty reserves as usual
      l.noPrefetchUntil = this.now() + this.opts.retryMs;
    }
    l.prefetching = false;
    if (l.retired) await this.handBack(l);
    else if (l.waiting.length) this.schedule(l);
  }

  /**
   * consumeMonthly without a promise: the answer when the held block serves the request at once
   * (exactly when consumeMonthly would, with the same bookkeeping); undefined, with nothing counted
   * or changed, when the store must answer (then call consumeMonthly).
   */
  consumeMonthlyNow(keyId: string, period: string, limit: number): ConsumeResult | undefined {
    return this.fromBlock(this.leaseId(keyId, period), limit, this.now());
  }

  consumeMonthly(keyId: string, period: string, limit: number): Promise<ConsumeResult> {
    const now = this.now();
    const id = this.leaseId(keyId, period);
    const served = this.fromBlock(id, limit, now);
    if (served) return Promise.resolve(served);
    let l = this.leases.get(id);
    if (l && l.limit !== limit) {
      // plan change: the old block goes back (at once, or as soon as its reservation returns)
      l.retired = true;
      this.retired.add(l);
      this.leases.delete(id);
      if (!l.busy && !l.prefetching) void this.handBack(l);
      l = undefined;
    }
    if (!l) this.leases.set(id, (l = new Lease(keyId, period, limit, now)));
    this.seen(l, now);
    const lease = l;
    return new Promise((resolve, reject) => {
      lease.waiting.push({ resolve, reject, retried: false, at: Date.now() });
      this.schedule(lease);
    });
  }

  private schedule(l: Lease) {
    // a prefetch in flight schedules the waiting requests when it returns
    if (l.busy || l.prefetching) return;
    l.busy = true;
    setImmediate(() => void this.run(l));
  }

  /** One reservation for the requests waiting on `l` (after handing back a stale block). */
  private async run(l: Lease) {
    const now = this.now();
    if (this.live(l, now) && !l.retired) {
      // requests that queued behind a reservation are served from the block it brought
      while (l.free > 0 && l.waiting.length) {
        l.free--;
        l.served++;
        l.waiting.shift()!.resolve({ admitted: true, used: l.before + l.served });
      }
    } else if (l.free > 0 || l.open) await this.returnBlock(l);
    const batch = l.waiting;
    l.waiting = [];
    if (batch.length) {
      const need = batch.length;
      const extra = !this.closing && !l.retired && l.rate >= this.opts.minRate ? Math.min(this.opts.maxBlock, Math.ceil((l.rate * this.opts.horizonMs) / 1000)) : 0;
      try {
        const since = batch.reduce((m, w) => Math.min(m, w.at), Infinity);
        const g = await this.inner.reserveMonthly({ holder: this.holder, keyId: l.keyId, period: l.period, limit: l.limit, need, extra, share: this.opts.share, since });
        this.stats.reservations++;
        const admit = Math.min(need, g.granted);
        l.before = g.before;
        l.served = 0;
        l.day = g.day;
        l.grantedAt = now;
        l.dayEnd = nextUtcMidnight(now);
        l.free = g.granted - admit;
        l.lowWater = this.lowWaterFor(l.free);
        if (l.free > 0) l.open = true;
        for (let i = 0; i < admit; i++) {
          l.served++;
          batch[i]!.resolve({ admitted: true, used: g.before + l.served });
        }
        const refused = batch.slice(admit);
        if (refused.length) {
          // other processes hold open blocks: they hand back what they do not use when idle
          const retry = g.holders > 1 && now >= l.noRetryUntil && !this.closing;
          const again: Waiter[] = [];
          for (const w of refused) {
            if (retry && !w.retried) {
              w.retried = true;
              again.push(w);
            } else {
              if (w.retried) l.noRetryUntil = now + 5 * this.opts.retryMs;
              w.resolve({ admitted: false, used: g.before + g.granted });
            }
          }
          if (again.length) {
            setTimeout(() => {
              l.waiting.unshift(...again);
              this.schedule(l);
            }, this.opts.retryMs).unref();
          }
        }
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    this.settleRefunds(l);
    l.busy = false;
    if (l.retired) await this.handBack(l);
    else if (l.waiting.length) this.schedule(l);
  }

  /**
   * Gives the unserved remainder back and closes the holder's row. The hand-back has an id, applied
   * once by the store, so one that failed (or whose answer was lost) is sent again in the background
   * with back-off for up to RETURN_RETRY_FOR_MS; only then does its remainder stay counted.
   */
  private async returnBlock(l: Lease) {
    const n = l.free;
    l.free = 0;
    l.open = false;
    await this.giveBack(l.keyId, l.period, l.day, n);
  }

  private async giveBack(keyId: string, period: string, day: string, n: number) {
    const id = crypto.randomUUID();
    try {
      await this.inner.returnMonthly(this.holder, keyId, period, day, n, id);
      this.stats.handBacks++;
    } catch {
      if (n > 0) this.retryReturn({ id, keyId, period, day, n, since: Date.now() }, 250);
    }
  }

  private retryReturn(r: PendingReturn, delayMs: number) {
    if (this.closing || Date.now() - r.since > RETURN_RETRY_FOR_MS) {
      this.pendingReturns.delete(r.id);
      this.stats.stranded++;
      return;
    }
    const t = setTimeout(async () => {
      try {
        await this.inner.returnMonthly(this.holder, r.keyId, r.period, r.day, r.n, r.id);
        this.pendingReturns.delete(r.id);
        this.stats.handBacks++;
      } catch {
        if (this.pendingReturns.has(r.id)) this.retryReturn(r, Math.min(delayMs * 2, 10_000));
      }
    }, delayMs).unref();
    this.pendingReturns.set(r.id, { ...r, timer: t });
  }

  /** Hand-backs that failed and are being sent again (for tests and diagnostics). */
  get pendingHandBacks(): number {
    return this.pendingReturns.size;
  }

  private async handBack(l: Lease) {
    // a prefetch in flight hands back (retired) or is handed back (sweep, close) when it returns
    if (l.busy || l.prefetching) return;
    if (l.free > 0 || l.open) {
      l.busy = true;
      await this.returnBlock(l);
      this.settleRefunds(l);
      l.busy = false;
    }
    if (l.retired && !l.busy && l.free === 0) this.retired.delete(l);
    if (l.waiting.length) this.schedule(l);
  }

  /** Hands back idle, old, retired and yesterday's blocks; forgets idle leases. */
  private sweep() {
    const now = this.now();
    for (const l of this.retired) if (!l.busy && !l.prefetching) void this.handBack(l);
    for (const [id, l] of this.leases) {
      if (l.busy || l.prefetching) continue;
      const idle = now - l.lastUse >= this.opts.idleMs;
      if ((l.free > 0 || l.open) && (idle || now - l.grantedAt >= this.opts.maxAgeMs || now >= l.dayEnd)) void this.handBack(l);
      else if (idle && l.free === 0 && !l.open && l.waiting.length === 0) this.leases.delete(id);
    }
  }

  /**
   * A counted request failed on our side. It goes back into this key's block when the block is of
   * today (the count is in the store's rows, so a free request of the block is handed back with the
   * rest), also when the block was just handed back or newly granted; while a reservation or a
   * hand-back is in flight it is added when that returns. With no block of today it is handed back
   * through the store with an id (applied once, and sent again in the background while the store
   * does not answer: giveBack), batched per key and day for one event-loop turn; close() waits for it. Never fails: a refund that rejected crashed the fast path (issue 31).
   */
  async refundMonthly(keyId: string, period: string): Promise<void> {
    const l = this.leases.get(`${keyId}\u0000${period}`);
    const now = this.now();
    if (l && now < l.dayEnd) {
      if (l.busy) l.refundsDue++;
      else {
        if (l.served > 0) l.served--;
        l.free++;
        // the row count still says "counted"; a block with free requests must be handed back
        l.open = true;
      }
      return;
    }
    // with no block of today (it went back while the request waited, say): handed back through the
    // store, one statement per key and day for the refunds of one event-loop turn (a burst of a
    // thousand refunds is one statement, not a thousand contending for the pool)
    const day = dayOf(new Date(now));
    const id = `${keyId}\u0000${period}\u0000${day}`;
    let b = this.refundBatch.get(id);
    if (b) b.n++;
    else {
      let done!: () => void;
      const handedBack = new Promise<void>((r) => (done = r));
      this.refundBatch.set(id, (b = { keyId, period, day, n: 1, handedBack, done }));
    }
    this.refundFlush ??= setImmediate(() => this.flushRefunds());
    // settled once the store took it, or once it failed there and is being sent again in the
    // background: a caller that waits then reads the month without it
    return b.handedBack;
  }

  /** Hands back the refunds batched since the last turn (each with an id, retried: giveBack). */
  private flushRefunds() {
    this.refundFlush = undefined;
    for (const b of this.refundBatch.values()) {
      const p = this.giveBack(b.keyId, b.period, b.day, b.n).then(b.done);
      this.returning.add(p);
      void p.finally(() => this.returning.delete(p));
    }
    this.refundBatch.clear();
  }

  /** Refunds that came while `l` was busy go into its block (called as it stops being busy). */
  private settleRefunds(l: Lease) {
    if (l.refundsDue === 0) return;
    l.free += l.refundsDue;
    l.refundsDue = 0;
    l.open = true;
  }

  private localFree(keyId: string, period: string, day?: string): number {
    let n = 0;
    const l = this.leases.get(`${keyId}\u0000${period}`);
    if (l && (!day || l.day === day)) n += l.free;
    for (const r of this.retired) if (r.keyId === keyId && r.period === period && (!day || r.day === day)) n += r.free;
    return n;
  }

  /** Stored used (served + every live block) less this process's own unserved block. */
  async getMonthly(keyId: string, period: string): Promise<number> {
    const used = await this.inner.getMonthly(keyId, period);
    return Math.max(0, used - this.localFree(keyId, period));
  }

  async dailyUsage(keyId: string, from: string, to: string): Promise<DailyUsage[]> {
    const rows = await this.inner.dailyUsage(keyId, from, to);
    const period = dayOf(new Date(this.now())).slice(0, 7);
    return rows.map((r) => ({ day: r.day, used: Math.max(0, r.used - this.localFree(keyId, period, r.day)) }));
  }

  /** Hands every block back (graceful shutdown), then closes the adapter. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    const deadline = Date.now() + 5000;
    for (;;) {
      const all = [...this.leases.values(), ...this.retired];
      const pending = all.filter((l) => l.busy || l.prefetching || l.waiting.length);
      await Promise.all(all.filter((l) => !l.busy && !l.prefetching && (l.free > 0 || l.open)).map((l) => this.handBack(l)));
      if (!pending.length || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    // refunds not yet handed back: sent now, and waited for (each call has the store's deadline)
    if (this.refundFlush) {
      clearImmediate(this.refundFlush);
      this.flushRefunds();
    }
    await Promise.all([...this.returning]);
    // one last attempt for hand-backs still being retried; what still fails stays counted
    const retries = [...this.pendingReturns.values()];
    this.pendingReturns.clear();
    await Promise.all(
      retries.map(async (r) => {
        clearTimeout(r.timer);
        try {
          await this.inner.returnMonthly(this.holder, r.keyId, r.period, r.day, r.n, r.id);
          this.stats.handBacks++;
        } catch {
          this.stats.stranded++;
        }
      }),
    );
    await this.inner.close();
  }
}

/** Wraps `store` in leases when it supports them and `opts.maxBlock` > 0; otherwise returns it as is. */
export function withLeases(store: AccountStore, opts: LeaseOptions): AccountStore {
  if (opts.maxBlock <= 0 || !hasLeaseReservations(store)) return store;
  return new LeasedAccountStore(store, opts);
}
