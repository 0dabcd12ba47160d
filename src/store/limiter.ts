// Window limiters: in memory for the embedded default (fixed windows in an LRU of bounded size),
// and on rate-limiter-flexible's RateLimiterRedis (an atomic Lua INCR + server-side TTL, so windows
// follow Redis' clock, not each process's) for scale-out. A window is kept per (limit, window, key);
// a plan change therefore starts a fresh window under the new limit.
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
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
type Reserve = (fullKey: string, limit: number, need: number, extra: number, share: number, windowSeconds: number) => Promise<[number, number, number]>;

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

interface Slot {
  key: string;
  limit: number;
  windowMs: number;
  tokens: number;
  before: number;
  taken: number;
  resetAt: number;
  /** a reservation that hits wait for is in flight: the tokens answer nothing */
  busy: boolean;
  /** a background reservation (prefetch) is in flight: the tokens keep answering */
  prefetching: boolean;
  /** a prefetch starts when the tokens fall to this (0: none) */
  lowWater: number;
  noPrefetchUntil: number;
  waiting: ((r: LimitResult | Error) => void)[];
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

class FlexibleWindowLimiter implements WindowLimiter {
  private readonly instances = new Map<string, RateLimiterAbstract>();

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
    private readonly reserve: Reserve | null = null,
    private readonly lease: WindowLeaseOptions = DEFAULT_WINDOW_LEASE,
  ) {
    if (reserve) this.sweeper = setInterval(() => this.sweep(), Math.max(20, lease.idleMs / 2)).unref();
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
    if (s.tokens > 0 && s.tokens <= s.lowWater && !s.prefetching) this.prefetch(s, now);
    return { allowed: true, remaining: Math.max(0, limit - (s.before + s.taken)), resetAt: s.resetAt, limit };
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
    try {
      const [before, granted, pttl] = await this.reserve!(this.fullKey(s.limit, s.windowMs, s.key), s.limit, 0, extra, this.lease.share, Math.max(1, Math.ceil(s.windowMs / 1000)));
      const resetAt = start + Math.max(0, pttl);
      if (Date.now() >= s.resetAt || Math.abs(resetAt - s.resetAt) > s.windowMs / 2) {
        // the window reset meanwhile: the tokens held lapsed with it, the grant is the new window's
        s.tokens = granted;
        s.before = before;
        s.taken = 0;
        s.resetAt = resetAt;
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
    if (!s) this.slots.set(id, (s = { key, limit, windowMs, tokens: 0, before: 0, taken: 0, resetAt: 0, busy: false, prefetching: false, lowWater: 0, noPrefetchUntil: 0, waiting: [], lastUse: now, windowStart: now, windowCount: 0, rate: 0 }));
    this.seen(s, now);
    const slot = s;
    return new Promise((resolve, reject) => {
      slot.waiting.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
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
      s.waiting.shift()!({ allowed: true, remaining: Math.max(0, s.limit - (s.before + ++s.taken)), resetAt: s.resetAt, limit: s.limit });
    }
    const batch = s.waiting;
    s.waiting = [];
    if (!batch.length) {
      s.busy = false;
      return;
    }
    const need = batch.length;
    const o = this.lease;
    const extra = s.rate >= o.minRate ? Math.min(o.maxChunk, Math.ceil((s.rate * o.horizonMs) / 1000)) : 0;
    try {
      // unused tokens of the current window are kept; a new reservation only when they are gone
      const [before, granted, pttl] = await this.reserve!(this.fullKey(s.limit, s.windowMs, s.key), s.limit, need, s.tokens > 0 ? 0 : extra, o.share, Math.max(1, Math.ceil(s.windowMs / 1000)));
      const resetAt = now + Math.max(0, pttl);
      const admit = Math.min(need, granted);
      if (resetAt !== s.resetAt && now >= s.resetAt) s.tokens = 0;
      s.resetAt = resetAt;
      s.before = before;
      s.taken = 0;
      s.tokens += granted - admit;
      s.lowWater = this.lowWaterFor(granted - admit);
      for (let i = 0; i < batch.length; i++) {
        batch[i]!(i < admit ? { allowed: true, remaining: Math.max(0, s.limit - (before + ++s.taken)), resetAt, limit: s.limit } : { allowed: false, remaining: 0, resetAt, limit: s.limit });
      }
    } catch (e) {
      const err = new LimiterUnavailableError(e);
      for (const w of batch) w(err);
    }
    s.busy = false;
    if (s.waiting.length) {
      s.busy = true;
      setImmediate(() => void this.runSlot(s));
    }
  }

  /** Gives back the unused tokens of keys idle for idleMs (best effort) and forgets idle slots. */
  private sweep(all = false) {
    const now = Date.now();
    const done: Promise<unknown>[] = [];
    for (const [id, s] of this.slots) {
      if (s.busy || s.prefetching || (!all && now - s.lastUse < this.lease.idleMs)) continue;
      if (s.tokens > 0 && now < s.resetAt) done.push(this.instance(s.limit, s.windowMs).reward(s.key, s.tokens).catch(() => undefined));
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

  private toResult(res: RateLimiterRes, limit: number, allowed: boolean): LimitResult {
    return { allowed, remaining: Math.max(0, res.remainingPoints), resetAt: Date.now() + res.msBeforeNext, limit };
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
    const id = `${limit}:${windowMs}:${key}`;
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
    let res: RateLimiterRes;
    try {
      res = await this.instance(g.limit, g.windowMs).consume(g.key, n);
    } catch (e) {
      if (e instanceof RateLimiterRes) res = e;
      else {
        const err = new LimiterUnavailableError(e);
        for (const w of g.waiters) w(err);
        return;
      }
    }
    const before = res.consumedPoints - n;
    const admitted = Math.max(0, Math.min(n, g.limit - before));
    const resetAt = Date.now() + res.msBeforeNext;
    g.waiters.forEach((w, i) =>
      w(i < admitted
        ? { allowed: true, remaining: Math.max(0, g.limit - (before + i + 1)), resetAt, limit: g.limit }
        : { allowed: false, remaining: 0, resetAt, limit: g.limit }),
    );
  }

  /** One hit, counted on its own (for hitAll, which must be able to give back exactly what it took). */
  private async hitOne(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    if (limit <= 0) return { allowed: false, remaining: 0, resetAt: Date.now() + windowMs, limit };
    try {
      const res = await this.instance(limit, windowMs).consume(key, 1);
      return this.toResult(res, limit, true);
    } catch (e) {
      if (e instanceof RateLimiterRes) return this.toResult(e, limit, false);
      throw new LimiterUnavailableError(e);
    }
  }

  async hitAll(checks: { key: string; limit: number; windowMs: number }[]): Promise<LimitResult[]> {
    const done: { key: string; limit: number; windowMs: number }[] = [];
    const results: LimitResult[] = [];
    // a refused request (or one the store failed halfway through) must not use up the other windows
    const giveBack = () => Promise.all(done.map((d) => this.instance(d.limit, d.windowMs).reward(d.key, 1).catch(() => undefined)));
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
      done.push(c);
    }
    return results;
  }

  async refund(key: string, limit: number, windowMs: number): Promise<void> {
    if (limit <= 0) return;
    const s = this.slots.get(`${limit}:${windowMs}:${key}`);
    if (s && !s.busy && s.taken > 0 && Date.now() < s.resetAt) {
      // back into the tokens reserved ahead (given back to Redis when the key goes idle)
      s.taken--;
      s.tokens++;
      return;
    }
    await this.instance(limit, windowMs).reward(key, 1).catch(() => undefined);
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

const RESERVE_LUA = `redis.call('set', KEYS[1], 0, 'EX', ARGV[5], 'NX')
local cur = tonumber(redis.call('get', KEYS[1]))
local limit = tonumber(ARGV[1])
local need = tonumber(ARGV[2])
local left = limit - cur
if left < 0 then left = 0 end
local n = math.min(need, left)
local e = math.min(tonumber(ARGV[3]), math.floor((left - n) / tonumber(ARGV[4])))
if e < 0 then e = 0 end
if n + e > 0 then redis.call('incrby', KEYS[1], n + e) end
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then
  redis.call('expire', KEYS[1], ARGV[5])
  ttl = 1000 * tonumber(ARGV[5])
end
return {cur, n + e, ttl}`;

/** Windows the in-memory limiter keeps at most; beyond it the least recently used are dropped. */
export const MEMORY_LIMITER_MAX_WINDOWS = 100_000;

/**
 * Fixed windows in process memory, bounded: at most `maxWindows` windows (about 150 bytes each, so
 * some 15 MB at the default), least recently used dropped first. A dropped window can only give its
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

  private giveBack(key: string, limit: number, windowMs: number) {
    const w = this.live(this.id(key, limit, windowMs), Date.now());
    if (w && w.count > 0) w.count--;
  }

  async refund(key: string, limit: number, windowMs: number): Promise<void> {
    if (limit > 0) this.giveBack(key, limit, windowMs);
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

export function redisLimiter(redis: Redis, lease: WindowLeaseOptions | null = DEFAULT_WINDOW_LEASE): WindowLimiter {
  // rate-limiter-flexible's script (rlflxIncr, a defineCommand) outside ioredis' auto-pipelines: a
  // pipeline of several script calls that Redis has not cached yet (NOSCRIPT) crashed the process
  // in ioredis 6.0.0 ("results[i] is not iterable" in autoPipelining.js), e.g. a burst of refunds
  // on a fresh Redis; sent on their own, ioredis retries them with EVAL
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  if (!ignored.includes('rlflxIncr')) redis.options.autoPipeliningIgnoredCommands = [...ignored, 'rlflxIncr'];
  let reserve: Reserve | null = null;
  if (lease) {
    // plain EVALSHA (EVAL once the server answers NOSCRIPT), not ioredis' defineCommand: a defined
    // script inside an auto-pipeline crashed the process when Redis did not have it cached yet
    // ("results[i] is not iterable" in ioredis' autoPipelining, ioredis 6.0.0)
    const sha = crypto.createHash('sha1').update(RESERVE_LUA).digest('hex');
    reserve = async (fullKey, limit, need, extra, share, windowSeconds) => {
      if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
      const args = [fullKey, limit, need, extra, Math.max(1, share), windowSeconds];
      let r: unknown;
      try {
        r = await redis.evalsha(sha, 1, ...args);
      } catch (e) {
        if (!/NOSCRIPT/.test((e as Error)?.message ?? '')) throw e;
        r = await redis.eval(RESERVE_LUA, 1, ...args);
      }
      const [before, granted, ttl] = r as [number, number, number];
      return [Number(before), Number(granted), Number(ttl)];
    };
  }
  return new FlexibleWindowLimiter(
    'redis',
    (o) => new RateLimiterRedis({ ...o, storeClient: redis, rejectIfRedisNotReady: true }),
    async () => {
      await redis.ping();
    },
    async () => {
      redis.disconnect();
    },
    reserve,
    lease ?? DEFAULT_WINDOW_LEASE,
  );
}
