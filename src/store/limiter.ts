// Window limiters: in memory for the embedded default (fixed windows in an LRU of bounded size),
// and on rate-limiter-flexible's RateLimiterRedis (an atomic Lua INCR + server-side TTL, so windows
// follow Redis' clock, not each process's) for scale-out. A window is kept per (limit, window, key);
// a plan change therefore starts a fresh window under the new limit.
import { RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { LimitResult, WindowLimiter } from './ports.ts';
import { seenAt } from './rate.ts';

type Factory = (opts: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

/**
 * One atomic reservation in a window (Redis: a Lua script on the same key rate-limiter-flexible
 * uses): admits min(need, limit − count) plus headroom of at most floor((left − need) / share), and
 * counts only what it admits. Returns [count before, granted, ms until the window resets].
 */
type Reserve = (fullKey: string, limit: number, need: number, extra: number, share: number, windowSeconds: number) => Promise<[number, number, number, number]>;

/**
 * The Redis side of a window limiter (issue 31): every write to a window goes through one of three
 * scripts, each of which also returns (or checks) the window's end in Redis' own clock, its identity.
 * A window key that expired, was evicted or deleted, and was made again is a different window with a
 * later end, so a give-back meant for the old one never reaches it.
 */
interface WindowScripts {
  /** counts `need` (and headroom) in a window: [count before, granted, ms until the window resets, the window's end] */
  reserve: Reserve | null;
  /** counts n hits whatever the limit (a refused hit stays counted): [count after, ms until the window resets, the window's end] */
  count: (fullKey: string, n: number, windowSeconds: number) => Promise<[number, number, number]>;
  /** adds delta (< 0: gives back, never below 0) only while the key is still the window that ends at `end` (± 50 ms); returns what it applied */
  adjust: (fullKey: string, delta: number, end: number) => Promise<number>;
}

/**
 * Minute-window tokens reserved ahead (issue 14), for keys this process hits at >= minRate per
 * second: headroom min(maxChunk, rate × horizonMs, floor((left − waiting) / share)). Below minRate
 * (every starter plan: 10, 60, 600 a minute) each hit is counted as it comes, exactly as before.
 * Never admits over the limit: tokens are counted in Redis when reserved. A process's unused
 * tokens are given back when the key is idle for idleMs, on close, and lapse with their window.
 *
 * Prefetch: when the tokens fall to a low-water mark (prefetchAt × the tokens last granted, at
 * least 1) and the key still qualifies (rate >= minRate, more than horizonMs before the window
 * resets), the next tokens are reserved in the background (need 0, the usual headroom, capped so
 * that at most maxChunk are held) while hit/hitNow keep answering from the rest; only hits that find
 * no tokens wait for it. The grant is added to the tokens held when it is in the same window; if the
 * window reset meanwhile, the old tokens lapse with it (they were counted in the old window) and only
 * the new ones are held. A prefetch that fails or gets nothing fails no hit (the next hit that finds
 * no tokens reserves as usual); none is tried again for a second. `remaining` with overlapping
 * grants: the limit less Redis' count at the latest grant, plus this process's unused tokens then,
 * less its hits since; never more than was free then.
 */
export interface WindowLeaseOptions {
  minRate: number;
  maxChunk: number;
  horizonMs: number;
  idleMs: number;
  share: number;
  /** the hit rate is measured over windows of this length (default 250 ms) */
  rateWindowMs?: number;
  /** the next tokens are reserved in the background once tokens <= this × the tokens last granted (default 0.25; 0: no prefetch) */
  prefetchAt?: number;
}

export const DEFAULT_WINDOW_LEASE: WindowLeaseOptions = { minRate: 200, maxChunk: 100, horizonMs: 100, idleMs: 200, share: 2 };

/**
 * Requests waiting for Redis to answer a minute window, at most, in one process (LIMITER_MAX_WAITERS);
 * one more is answered 503 STORE_UNAVAILABLE at once.
 */
export const LIMITER_MAX_WAITERS = 5000;
/**
 * A request waits this long at most for Redis to answer its minute window, counted from its arrival
 * (whatever it queued behind); then it is answered 503 STORE_UNAVAILABLE (LimiterUnavailableError).
 */
export const LIMITER_WAIT_MS = 2000;

export interface WaitBounds {
  /** waiters at most (default LIMITER_MAX_WAITERS) */
  maxWaiters?: number;
  /** the wait from arrival, at most (default LIMITER_WAIT_MS) */
  waitMs?: number;
}

/** A request waiting on a window's reservation. */
interface Waiter {
  /** arrival (epoch ms) */
  at: number;
  /** answered already (by its reservation, or by its deadline) */
  settled: boolean;
  done: (r: LimitResult | Error) => void;
}

interface Slot {
  key: string;
  limit: number;
  windowMs: number;
  tokens: number;
  before: number;
  taken: number;
  resetAt: number;
  /** the window's end in Redis' clock (its identity; 0: none seen yet) */
  window: number;
  /**
   * hits served from tokens that no Redis answer has yet shown to be counted in a window that still
   * exists: if the window turns out to have been lost early (evicted, deleted), they are counted in
   * the window that replaced it
   */
  unconfirmed: number;
  /** a reservation that hits wait for is in flight: the tokens answer nothing */
  busy: boolean;
  /** a background reservation (prefetch) is in flight: the tokens keep answering */
  prefetching: boolean;
  /** a prefetch starts when the tokens fall to this (0: none) */
  lowWater: number;
  noPrefetchUntil: number;
  waiting: Waiter[];
  /** the waiters of the reservation in flight */
  batch: Waiter[];
  lastUse: number;
  windowStart: number;
  windowCount: number;
  rate: number;
}

export class LimiterUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`limiter store unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'LimiterUnavailableError';
  }
}

/** LIMITER_MAX_WAITERS requests already wait for Redis in this process: this one is not queued. */
export class LimiterBusyError extends LimiterUnavailableError {
  constructor(waiting: number) {
    super(new Error(`${waiting} requests already wait for Redis`));
    this.name = 'LimiterBusyError';
  }
}

class FlexibleWindowLimiter implements WindowLimiter {
  private readonly instances = new Map<string, RateLimiterAbstract>();
  private readonly reserve: Reserve | null;
  private readonly maxWaiters: number;
  private readonly waitMs: number;
  /** requests waiting for Redis now (bounded by maxWaiters) */
  private waiters = 0;
  /** windows found lost before their end (evicted, deleted) while this process held their tokens */
  lostWindows = 0;

  private readonly slots = new Map<string, Slot>();
  private readonly sweeper: NodeJS.Timeout | null = null;
  private closing = false;
  /** prefetches in flight (close waits for them, then gives their tokens back) */
  private readonly prefetches = new Set<Promise<void>>();

  constructor(
    readonly kind: 'redis',
    private readonly factory: Factory,
    private readonly pingFn: () => Promise<void>,
    private readonly closeFn: () => Promise<void>,
    private readonly scripts: WindowScripts,
    private readonly lease: WindowLeaseOptions = DEFAULT_WINDOW_LEASE,
    bounds: WaitBounds = {},
  ) {
    this.reserve = scripts.reserve;
    this.maxWaiters = bounds.maxWaiters ?? LIMITER_MAX_WAITERS;
    this.waitMs = bounds.waitMs ?? LIMITER_WAIT_MS;
    if (this.reserve) {
      this.sweeper = setInterval(
        () => {
          this.expireWaiters();
          void this.sweep();
        },
        Math.max(20, Math.min(100, lease.idleMs / 2)),
      ).unref();
    }
  }

  /** Requests waiting for Redis now (for tests and diagnostics). */
  get waiting(): number {
    return this.waiters;
  }

  /** Answers 503 (LimiterUnavailableError) every waiter whose wait from arrival has reached waitMs. */
  private expireWaiters() {
    if (this.waiters === 0) return;
    const oldest = Date.now() - this.waitMs;
    for (const s of this.slots.values()) {
      for (const w of s.batch) if (!w.settled && w.at <= oldest) this.settle(w, new LimiterUnavailableError(new Error(`no answer from Redis within ${this.waitMs} ms`)));
      if (s.waiting.length && s.waiting[0]!.at <= oldest) {
        const late = s.waiting.filter((w) => w.at <= oldest);
        s.waiting = s.waiting.filter((w) => w.at > oldest);
        for (const w of late) this.settle(w, new LimiterUnavailableError(new Error(`no answer from Redis within ${this.waitMs} ms`)));
      }
    }
  }

  /** Answers a waiter once; false when it was answered already (its deadline passed). */
  private settle(w: Waiter, r: LimitResult | Error): boolean {
    if (w.settled) return false;
    w.settled = true;
    this.waiters--;
    w.done(r);
    return true;
  }

  /** Tokens reserved ahead and not yet used, per window key (for tests and diagnostics). */
  heldTokens(): number {
    let n = 0;
    for (const s of this.slots.values()) if (s.resetAt > Date.now()) n += s.tokens;
    return n;
  }

  /** The windows this process keeps (for tests and diagnostics): their count, or one window's state. */
  windowCount(): number {
    return this.slots.size;
  }
  windowOf(limit: number, windowMs: number, key: string): Readonly<Slot> | undefined {
    const s = this.slots.get(`${limit}:${windowMs}:${key}`);
    return s && { ...s };
  }

  private fullKey(limit: number, windowMs: number, key: string) {
    return `dis:rl:${limit}:${windowMs}:${key}`;
  }

  /** One hit seen on `s`: the rate window (for the headroom) and the idle clock. */
  private seen(s: Slot, now: number) {
    seenAt(s, now, this.lease.rateWindowMs ?? 250);
  }

  /**
   * The hit admitted from the tokens held for window `id`, when they can answer it now; otherwise
   * undefined, with nothing counted or changed (no slot created).
   */
  private fromTokens(id: string, limit: number, now: number): LimitResult | undefined {
    const s = this.slots.get(id);
    if (!s || s.tokens <= 0 || s.busy || now >= s.resetAt) return undefined;
    this.seen(s, now);
    s.tokens--;
    s.taken++;
    s.unconfirmed++;
    if (s.tokens > 0 && s.tokens <= s.lowWater && !s.prefetching) this.prefetch(s, now);
    return { allowed: true, remaining: Math.max(0, limit - (s.before + s.taken)), resetAt: s.resetAt, limit, window: s.window };
  }

  private lowWaterFor(granted: number): number {
    const f = this.lease.prefetchAt ?? 0.25;
    return f > 0 && granted > 0 ? Math.max(1, Math.floor(granted * f)) : 0;
  }

  /** Starts a background reservation of the next tokens for `s` when the key still qualifies. */
  private prefetch(s: Slot, now: number) {
    const o = this.lease;
    if (this.closing || s.busy || s.rate < o.minRate || now < s.noPrefetchUntil || now + o.horizonMs >= s.resetAt) return;
    const extra = Math.min(o.maxChunk - s.tokens, Math.ceil((s.rate * o.horizonMs) / 1000));
    if (extra <= 0) return;
    s.prefetching = true;
    const p = this.runPrefetch(s, extra, now);
    this.prefetches.add(p);
    void p.finally(() => this.prefetches.delete(p));
  }

  private async runPrefetch(s: Slot, extra: number, start: number) {
    const u0 = s.unconfirmed;
    try {
      const [before, granted, pttl, end] = await this.reserve!(this.fullKey(s.limit, s.windowMs, s.key), s.limit, 0, extra, this.lease.share, Math.max(1, Math.ceil(s.windowMs / 1000)));
      const resetAt = start + Math.max(0, pttl);
      const owed = this.reconcile(s, u0, granted, end, pttl);
      if (owed >= 0) {
        // the window reset (or was lost) meanwhile: the tokens held lapsed with it, the grant is the
        // new window's (less what pays for hits owed to it)
        s.tokens = granted - owed;
        s.before = before + owed;
        s.taken = 0;
        s.resetAt = resetAt;
        s.window = end;
      } else {
        // Redis' count at this grant, less the tokens this process has not used
        s.before = before - s.tokens - s.taken;
        s.tokens += granted;
      }
      if (granted > 0) s.lowWater = this.lowWaterFor(granted);
      else s.noPrefetchUntil = Date.now() + 1000;
    } catch {
      // no hit waited for it: the next hit that finds no tokens reserves as usual
      s.noPrefetchUntil = Date.now() + 1000;
    }
    s.prefetching = false;
    if (s.waiting.length && !s.busy) {
      s.busy = true;
      setImmediate(() => void this.runSlot(s));
    }
  }

  /**
   * hit() without a promise: with tokens reserved ahead (the lease on), the answer when they admit
   * the hit at once (exactly when hit would, with the same bookkeeping), and the refusal for a limit
   * <= 0; undefined, with nothing counted or changed, when Redis must answer (then call hit). Without
   * the lease, always undefined.
   */
  hitNow(key: string, limit: number, windowMs: number): LimitResult | undefined {
    if (!this.reserve) return undefined;
    if (limit <= 0) return { allowed: false, remaining: 0, resetAt: Date.now() + windowMs, limit };
    return this.fromTokens(`${limit}:${windowMs}:${key}`, limit, Date.now());
  }

  /** hit() through reserved tokens: one Redis call in flight per window key, later hits wait for the next. */
  private leasedHit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    const now = Date.now();
    const id = `${limit}:${windowMs}:${key}`;
    const taken = this.fromTokens(id, limit, now);
    if (taken) return Promise.resolve(taken);
    let s = this.slots.get(id);
    if (this.waiters >= this.maxWaiters) return Promise.reject(new LimiterBusyError(this.waiters));
    if (!s) this.slots.set(id, (s = { key, limit, windowMs, tokens: 0, before: 0, taken: 0, resetAt: 0, window: 0, unconfirmed: 0, busy: false, prefetching: false, lowWater: 0, noPrefetchUntil: 0, waiting: [], batch: [], lastUse: now, windowStart: now, windowCount: 0, rate: 0 }));
    this.seen(s, now);
    const slot = s;
    this.waiters++;
    return new Promise((resolve, reject) => {
      slot.waiting.push({ at: now, settled: false, done: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      // a prefetch in flight runs the waiting hits when it returns
      if (!slot.busy && !slot.prefetching) {
        slot.busy = true;
        setImmediate(() => void this.runSlot(slot));
      }
    });
  }

  private async runSlot(s: Slot) {
    const now = Date.now();
    // tokens of a window that has reset lapsed with it
    if (now >= s.resetAt) s.tokens = 0;
    // hits that queued behind a reservation are served from the tokens it brought
    while (s.tokens > 0 && s.waiting.length) {
      s.tokens--;
      s.unconfirmed++;
      this.settle(s.waiting.shift()!, { allowed: true, remaining: Math.max(0, s.limit - (s.before + ++s.taken)), resetAt: s.resetAt, limit: s.limit, window: s.window });
    }
    const batch = s.waiting;
    s.waiting = [];
    if (!batch.length) {
      s.busy = false;
      return;
    }
    s.batch = batch;
    const need = batch.length;
    const o = this.lease;
    const extra = s.rate >= o.minRate ? Math.min(o.maxChunk, Math.ceil((s.rate * o.horizonMs) / 1000)) : 0;
    const u0 = s.unconfirmed;
    try {
      // unused tokens of the current window are kept; a new reservation only when they are gone
      const [before, granted, pttl, end] = await this.reserve!(this.fullKey(s.limit, s.windowMs, s.key), s.limit, need, s.tokens > 0 ? 0 : extra, o.share, Math.max(1, Math.ceil(s.windowMs / 1000)));
      const resetAt = now + Math.max(0, pttl);
      // hits served from a window lost early are counted in this grant first (see reconcile)
      const owed = Math.max(0, this.reconcile(s, u0, granted, end, pttl));
      if (resetAt !== s.resetAt && now >= s.resetAt) s.tokens = 0;
      s.resetAt = resetAt;
      s.window = end;
      s.before = before + owed;
      s.taken = 0;
      const usable = granted - owed;
      const admit = Math.min(need, usable);
      let used = 0;
      for (let i = 0; i < batch.length; i++) {
        const w = batch[i]!;
        if (i >= admit) this.settle(w, { allowed: false, remaining: 0, resetAt, limit: s.limit, window: end });
        // a waiter already answered by its deadline leaves its token to the next hit
        else if (this.settle(w, { allowed: true, remaining: Math.max(0, s.limit - (s.before + s.taken + 1)), resetAt, limit: s.limit, window: end })) {
          s.taken++;
          used++;
        }
      }
      s.tokens += usable - used;
      s.lowWater = this.lowWaterFor(usable - admit);
    } catch (e) {
      const err = new LimiterUnavailableError(e);
      for (const w of batch) this.settle(w, err);
    }
    s.batch = [];
    s.busy = false;
    if (s.waiting.length) {
      s.busy = true;
      setImmediate(() => void this.runSlot(s));
    }
  }

  /**
   * The bookkeeping of a Redis answer for `s` (a reservation that ran at end − pttl in Redis' clock,
   * begun when `u0` hits served from tokens were unconfirmed). The same window as before: the hits
   * served before the call are now known to be counted in a window that existed after them; returns
   * -1. Another window: returns how many of the `granted` tokens pay for hits owed to it. A window lost
   * before its end (evicted, deleted, FLUSHDB) left the hits served from its tokens since the last
   * confirmation uncounted in the window that replaced it: they are counted in the new grant first,
   * and what the grant cannot cover is added to the new window in Redis, so it never admits more
   * than its limit (at worst, a few fewer). A window that simply ended owes nothing.
   */
  private reconcile(s: Slot, u0: number, granted: number, end: number, pttl: number): number {
    if (s.window !== 0 && Math.abs(end - s.window) <= WINDOW_END_TOLERANCE_MS) {
      s.unconfirmed -= u0;
      return -1;
    }
    const lostEarly = s.window !== 0 && s.window - WINDOW_END_TOLERANCE_MS > end - pttl;
    const hits = lostEarly ? s.unconfirmed : 0;
    s.unconfirmed = 0;
    if (hits === 0) return 0;
    this.lostWindows++;
    const owed = Math.min(hits, granted);
    if (hits > owed) void this.scripts.adjust(this.fullKey(s.limit, s.windowMs, s.key), hits - owed, end).catch(() => undefined);
    return owed;
  }

  /** Gives back the unused tokens of keys idle for idleMs (best effort) and forgets idle slots. */
  private sweep(all = false) {
    const now = Date.now();
    const done: Promise<unknown>[] = [];
    for (const [id, s] of this.slots) {
      if (s.busy || s.prefetching || (!all && now - s.lastUse < this.lease.idleMs)) continue;
      // back only into the window they were counted in: a window that ended (or was lost) meanwhile
      // is left alone, never made again below zero
      if (s.tokens > 0 && now < s.resetAt) done.push(this.scripts.adjust(this.fullKey(s.limit, s.windowMs, s.key), -s.tokens, s.window).catch(() => undefined));
      s.tokens = 0;
      if (!s.waiting.length) this.slots.delete(id);
    }
    return Promise.all(done);
  }

  private instance(limit: number, windowMs: number): RateLimiterAbstract {
    const id = `${limit}:${windowMs}`;
    let rl = this.instances.get(id);
    if (!rl) {
      rl = this.factory({ points: Math.max(1, limit), duration: Math.max(1, Math.ceil(windowMs / 1000)), keyPrefix: `dis:rl:${id}` });
      this.instances.set(id, rl);
    }
    return rl;
  }

  private readonly pendingHits = new Map<string, { key: string; limit: number; windowMs: number; waiters: ((r: LimitResult | Error) => void)[] }>();

  /**
   * In Redis, hits on the same window key that arrive in the same event-loop turn are counted with
   * one increment of n (one round trip for a burst of one key's requests). The store returns
   * the count after the increment, so the first `limit - before` of them are admitted, exactly as
   * if they had come one by one.
   */
  hit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    if (limit <= 0) return Promise.resolve({ allowed: false, remaining: 0, resetAt: Date.now() + windowMs, limit });
    if (this.reserve) return this.leasedHit(key, limit, windowMs);
    if (this.waiters >= this.maxWaiters) return Promise.reject(new LimiterBusyError(this.waiters));
    const id = `${limit}:${windowMs}:${key}`;
    this.waiters++;
    return new Promise((resolve, reject) => {
      let g = this.pendingHits.get(id);
      if (!g) {
        this.pendingHits.set(id, (g = { key, limit, windowMs, waiters: [] }));
        setImmediate(() => this.flushHits(id));
      }
      g.waiters.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
    });
  }

  private async flushHits(id: string) {
    const g = this.pendingHits.get(id)!;
    this.pendingHits.delete(id);
    const n = g.waiters.length;
    let count: number, pttl: number, end: number;
    try {
      [count, pttl, end] = await this.scripts.count(this.fullKey(g.limit, g.windowMs, g.key), n, Math.max(1, Math.ceil(g.windowMs / 1000)));
    } catch (e) {
      this.waiters -= n;
      const err = new LimiterUnavailableError(e);
      for (const w of g.waiters) w(err);
      return;
    }
    this.waiters -= n;
    const before = count - n;
    const admitted = Math.max(0, Math.min(n, g.limit - before));
    const resetAt = Date.now() + pttl;
    g.waiters.forEach((w, i) =>
      w(i < admitted
        ? { allowed: true, remaining: Math.max(0, g.limit - (before + i + 1)), resetAt, limit: g.limit, window: end }
        : { allowed: false, remaining: 0, resetAt, limit: g.limit, window: end }),
    );
  }

  /** One hit, counted on its own (for hitAll, which must be able to give back exactly what it took). */
  private async hitOne(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    if (limit <= 0) return { allowed: false, remaining: 0, resetAt: Date.now() + windowMs, limit };
    let count: number, pttl: number, end: number;
    try {
      [count, pttl, end] = await this.scripts.count(this.fullKey(limit, windowMs, key), 1, Math.max(1, Math.ceil(windowMs / 1000)));
    } catch (e) {
      throw new LimiterUnavailableError(e);
    }
    return { allowed: count <= limit, remaining: Math.max(0, limit - count), resetAt: Date.now() + pttl, limit, window: end };
  }

  async hitAll(checks: { key: string; limit: number; windowMs: number }[]): Promise<LimitResult[]> {
    const done: { key: string; limit: number; windowMs: number; hit: LimitResult }[] = [];
    const results: LimitResult[] = [];
    // a refused request (or one the store failed halfway through) must not use up the other windows
    const giveBack = () => Promise.all(done.map((d) => this.refund(d.key, d.limit, d.windowMs, d.hit)));
    for (const c of checks) {
      let r: LimitResult;
      try {
        r = await this.hitOne(c.key, c.limit, c.windowMs);
      } catch (e) {
        await giveBack();
        throw e;
      }
      results.push(r);
      if (!r.allowed) {
        await giveBack();
        return results;
      }
      done.push({ ...c, hit: r });
    }
    return results;
  }

  /**
   * Gives back `hit`: into the tokens held when it came from them, else into its window in Redis,
   * only while that window still exists (a window that ended, or was lost and made again, is left
   * alone: a late give-back must never make a fresh window start below zero). Never fails.
   */
  async refund(key: string, limit: number, windowMs: number, hit: LimitResult): Promise<void> {
    if (limit <= 0 || !hit.allowed) return;
    const s = this.slots.get(`${limit}:${windowMs}:${key}`);
    if (s && !s.busy && s.taken > 0 && s.window === hit.window && Date.now() < s.resetAt) {
      // back into the tokens reserved ahead (given back to Redis when the key goes idle)
      s.taken--;
      s.tokens++;
      if (s.unconfirmed > 0) s.unconfirmed--;
      return;
    }
    if (hit.window === undefined) return;
    await this.scripts.adjust(this.fullKey(limit, windowMs, key), -1, hit.window).catch(() => undefined);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    try {
      const res = await this.instance(limit, windowMs).get(key);
      if (!res) return { allowed: true, remaining: limit, resetAt: Date.now() + windowMs, limit };
      return { allowed: res.remainingPoints > 0, remaining: Math.max(0, res.remainingPoints), resetAt: Date.now() + res.msBeforeNext, limit };
    } catch (e) {
      throw new LimiterUnavailableError(e);
    }
  }

  ping() {
    return this.pingFn();
  }

  async close() {
    if (this.sweeper) clearInterval(this.sweeper);
    this.closing = true;
    await Promise.allSettled([...this.prefetches]);
    await this.sweep(true);
    return this.closeFn();
  }
}

/**
 * Two windows whose ends (Redis' clock, ms) are this close are the same window: both ends are read
 * in one script (TIME + PTTL), so one window's end reads the same to the millisecond; a window made
 * again after a loss ends later by the time between the two windows' first hits.
 */
const WINDOW_END_TOLERANCE_MS = 50;

/** Redis' clock in epoch ms, inside a script (TIME: seconds and microseconds). */
const NOW_MS = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** The window's TTL in ms, set from ARGV[arg] (seconds) if the key has none. */
const WINDOW_TTL = (arg: number) => `local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then
  redis.call('expire', KEYS[1], ARGV[${arg}])
  ttl = 1000 * tonumber(ARGV[${arg}])
end`;

// every script returns the window's end in Redis' clock (now + pttl): its identity
const RESERVE_LUA = `redis.call('set', KEYS[1], 0, 'EX', ARGV[5], 'NX')
local cur = tonumber(redis.call('get', KEYS[1]))
if cur < 0 then
  redis.call('set', KEYS[1], 0, 'KEEPTTL')
  cur = 0
end
local limit = tonumber(ARGV[1])
local need = tonumber(ARGV[2])
local left = limit - cur
if left < 0 then left = 0 end
local n = math.min(need, left)
local e = math.min(tonumber(ARGV[3]), math.floor((left - n) / tonumber(ARGV[4])))
if e < 0 then e = 0 end
if n + e > 0 then redis.call('incrby', KEYS[1], n + e) end
${WINDOW_TTL(5)}
${NOW_MS}
return {cur, n + e, ttl, now + ttl}`;

// rate-limiter-flexible's fixed-window increment (the same key and format), with the window's end
const COUNT_LUA = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local c = redis.call('incrby', KEYS[1], ARGV[1])
${WINDOW_TTL(2)}
${NOW_MS}
return {c, ttl, now + ttl}`;

// a change to a window only while the key is the window that ends at ARGV[2] (± ARGV[3] ms); a
// give-back (delta < 0) never takes the count below zero, and never creates a key
const ADJUST_LUA = `local ttl = redis.call('pttl', KEYS[1])
if ttl <= 0 then return 0 end
${NOW_MS}
if math.abs(now + ttl - tonumber(ARGV[2])) > tonumber(ARGV[3]) then return 0 end
local d = tonumber(ARGV[1])
if d < 0 then
  local cur = tonumber(redis.call('get', KEYS[1])) or 0
  if cur <= 0 then return 0 end
  if -d > cur then d = -cur end
end
redis.call('incrby', KEYS[1], d)
return d`;

/** Windows the in-memory limiter keeps at most; beyond it the least recently used are dropped. */
export const MEMORY_LIMITER_MAX_WINDOWS = 100_000;

/**
 * Fixed windows in process memory, bounded: at most `maxWindows` windows (about 330 bytes each with
 * the demo's window names, so some 33 MB of heap at the default: bench/limiter-memory.ts), least
 * recently used dropped first. A dropped window can only give its
 * caller a fresh window early; the windows in use (the daily cap, active callers) are the recently
 * used ones. Expired windows are replaced on their next use.
 */
export class MemoryWindowLimiter implements WindowLimiter {
  readonly kind = 'memory' as const;
  private readonly windows: LRUCache<string, { count: number; resetAt: number }>;

  constructor(maxWindows = MEMORY_LIMITER_MAX_WINDOWS) {
    this.windows = new LRUCache({ max: maxWindows });
  }

  /** Windows held now (for tests and diagnostics). */
  get size() {
    return this.windows.size;
  }

  /** Window ids by key, kept so a hit builds no string (bounded). */
  private readonly ids = new Map<string, { limit: number; windowMs: number; id: string }>();
  private id(key: string, limit: number, windowMs: number) {
    const c = this.ids.get(key);
    if (c !== undefined && c.limit === limit && c.windowMs === windowMs) return c.id;
    if (this.ids.size >= 100_000) this.ids.clear();
    const id = `${limit}:${windowMs}:${key}`;
    this.ids.set(key, { limit, windowMs, id });
    return id;
  }

  private live(id: string, now: number) {
    const w = this.windows.get(id);
    return w && w.resetAt > now ? w : undefined;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    return this.hitNow(key, limit, windowMs);
  }

  /** hit() without the promise: the windows live in this process, so the answer is at hand. */
  hitNow(key: string, limit: number, windowMs: number): LimitResult {
    const now = Date.now();
    if (limit <= 0) return { allowed: false, remaining: 0, resetAt: now + windowMs, limit };
    const id = this.id(key, limit, windowMs);
    let w = this.live(id, now);
    if (!w) this.windows.set(id, (w = { count: 0, resetAt: now + windowMs }));
    // a refused hit is not counted: it must neither extend the caller's refusal nor grow anything
    if (w.count >= limit) return { allowed: false, remaining: 0, resetAt: w.resetAt, limit };
    w.count++;
    return { allowed: true, remaining: limit - w.count, resetAt: w.resetAt, limit };
  }

  async hitAll(checks: { key: string; limit: number; windowMs: number }[]): Promise<LimitResult[]> {
    const results: LimitResult[] = [];
    for (const c of checks) {
      const r = this.hitNow(c.key, c.limit, c.windowMs);
      results.push(r);
      if (!r.allowed) {
        for (const d of checks.slice(0, results.length - 1)) this.giveBack(d.key, d.limit, d.windowMs);
        return results;
      }
    }
    return results;
  }

  /** One hit back into the live window, when it is still the window that ends at `resetAt` (if given). */
  private giveBack(key: string, limit: number, windowMs: number, resetAt?: number) {
    const w = this.live(this.id(key, limit, windowMs), Date.now());
    if (w && w.count > 0 && (resetAt === undefined || w.resetAt === resetAt)) w.count--;
  }

  async refund(key: string, limit: number, windowMs: number, hit: LimitResult): Promise<void> {
    if (limit > 0 && hit.allowed) this.giveBack(key, limit, windowMs, hit.resetAt);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    const now = Date.now();
    // peek() on the LRU: looking does not keep a window alive, and never creates one
    const w = this.windows.peek(this.id(key, limit, windowMs));
    if (!w || w.resetAt <= now) return { allowed: limit > 0, remaining: Math.max(0, limit), resetAt: now + windowMs, limit };
    return { allowed: w.count < limit, remaining: Math.max(0, limit - w.count), resetAt: w.resetAt, limit };
  }

  async ping() {}

  async close() {
    this.windows.clear();
  }
}

export function memoryLimiter(maxWindows = MEMORY_LIMITER_MAX_WINDOWS): WindowLimiter {
  return new MemoryWindowLimiter(maxWindows);
}

export function redisLimiter(redis: Redis, lease: WindowLeaseOptions | null = DEFAULT_WINDOW_LEASE, bounds: WaitBounds = {}): WindowLimiter {
  // plain EVALSHA (EVAL once the server answers NOSCRIPT), not ioredis' defineCommand: a defined
  // script inside an auto-pipeline crashed the process when Redis did not have it cached yet
  // ("results[i] is not iterable" in ioredis' autoPipelining, ioredis 6.0.0)
  const script = (lua: string) => {
    const sha = crypto.createHash('sha1').update(lua).digest('hex');
    return async (key: string, ...args: (string | number)[]): Promise<number[]> => {
      if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
      let r: unknown;
      try {
        r = await redis.evalsha(sha, 1, key, ...args);
      } catch (e) {
        if (!/NOSCRIPT/.test((e as Error)?.message ?? '')) throw e;
        r = await redis.eval(lua, 1, key, ...args);
      }
      return Array.isArray(r) ? r.map(Number) : [Number(r)];
    };
  };
  const reserveScript = script(RESERVE_LUA);
  const countScript = script(COUNT_LUA);
  const adjustScript = script(ADJUST_LUA);
  const scripts: WindowScripts = {
    reserve: lease
      ? async (fullKey, limit, need, extra, share, windowSeconds) => {
          const [before, granted, ttl, end] = await reserveScript(fullKey, limit, need, extra, Math.max(1, share), windowSeconds);
          return [before!, granted!, ttl!, end!];
        }
      : null,
    count: async (fullKey, n, windowSeconds) => {
      const [count, ttl, end] = await countScript(fullKey, n, windowSeconds);
      return [count!, ttl!, end!];
    },
    adjust: async (fullKey, delta, end) => (await adjustScript(fullKey, delta, end, WINDOW_END_TOLERANCE_MS))[0]!,
  };
  return new FlexibleWindowLimiter(
    'redis',
    // rate-limiter-flexible reads a window for peek (/v1/usage); every write goes through the scripts above
    (o) => new RateLimiterRedis({ ...o, storeClient: redis, rejectIfRedisNotReady: true }),
    async () => {
      await redis.ping();
    },
    async () => {
      redis.disconnect();
    },
    scripts,
    lease ?? DEFAULT_WINDOW_LEASE,
    bounds,
  );
}
