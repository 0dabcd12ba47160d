// Window limiters: in memory for the embedded default (fixed windows in an LRU of bounded size),
// and on rate-limiter-flexible's RateLimiterRedis (an atomic Lua INCR + server-side TTL, so windows
// follow Redis' clock, not each process's) for scale-out. A window is kept per (limit, window, key);
// a plan change therefore starts a fresh window under the new limit.
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { LimitResult, WindowLimiter } from './ports.ts';

type Factory = (opts: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

export class LimiterUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`limiter store unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'LimiterUnavailableError';
  }
}

class FlexibleWindowLimiter implements WindowLimiter {
  private readonly instances = new Map<string, RateLimiterAbstract>();

  constructor(
    readonly kind: 'redis',
    private readonly factory: Factory,
    private readonly pingFn: () => Promise<void>,
    private readonly closeFn: () => Promise<void>,
  ) {}

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

  close() {
    return this.closeFn();
  }
}

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

  private id(key: string, limit: number, windowMs: number) {
    return `${limit}:${windowMs}:${key}`;
  }

  private live(id: string, now: number) {
    const w = this.windows.get(id);
    return w && w.resetAt > now ? w : undefined;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    return this.hitNow(key, limit, windowMs);
  }

  private hitNow(key: string, limit: number, windowMs: number): LimitResult {
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

export function redisLimiter(redis: Redis): WindowLimiter {
  return new FlexibleWindowLimiter(
    'redis',
    (o) => new RateLimiterRedis({ ...o, storeClient: redis, rejectIfRedisNotReady: true }),
    async () => {
      await redis.ping();
    },
    async () => {
      redis.disconnect();
    },
  );
}
