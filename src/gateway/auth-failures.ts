// Failed authentications per client address (API keys and the /metrics token), per process: a leaf
// module, so keyed.ts and metrics.ts share the windows without importing each other.
import { LRUCache } from 'lru-cache';
import type { GatewayContext } from './context.ts';

/** Addresses whose failed authentications are counted at once, per process. */
const AUTH_FAILURE_WINDOWS = 20_000;
const FAILURE_WINDOW_MS = 60_000;

/**
 * Failed authentications per address bucket: fixed one-minute windows in a bounded LRU (the least
 * recently used dropped first), answered without a promise. A refused hit is not counted.
 */
export class FailureWindows {
  private readonly windows = new LRUCache<string, { count: number; resetAt: number }>({ max: AUTH_FAILURE_WINDOWS });

  get size() {
    return this.windows.size;
  }

  /** Whether one more authentication is allowed now (looking keeps no window alive). */
  peek(bucket: string, limit: number, now: number): { allowed: boolean; resetAt: number } {
    const w = this.windows.peek(bucket);
    if (!w || w.resetAt <= now) return { allowed: true, resetAt: now + FAILURE_WINDOW_MS };
    return { allowed: w.count < limit, resetAt: w.resetAt };
  }

  /** Until when (epoch ms) some address may be refused: the latest end of a window that reached the limit. */
  blockedUntil = 0;

  hit(bucket: string, limit: number, now: number) {
    let w = this.windows.get(bucket);
    if (!w || w.resetAt <= now) this.windows.set(bucket, (w = { count: 0, resetAt: now + FAILURE_WINDOW_MS }));
    if (w.count < limit) w.count++;
    if (w.count >= limit && w.resetAt > this.blockedUntil) this.blockedUntil = w.resetAt;
  }
}

const windowsOf = new WeakMap<GatewayContext, FailureWindows>();

/** The failed-authentication windows of a gateway (one per context: API keys and the /metrics token). */
export function authFailureWindows(ctx: GatewayContext): FailureWindows {
  let w = windowsOf.get(ctx);
  if (!w) windowsOf.set(ctx, (w = new FailureWindows()));
  return w;
}

/**
 * Whether some address may be refused for its failed authentications now (one reached the limit in
 * a window that has not ended). While none may, the address check lets every request through, so
 * the keyed fast path (fast-keyed.ts), which does not look at addresses, answers only then.
 */
export function authFailuresSeen(ctx: GatewayContext, now = Date.now()): boolean {
  const w = windowsOf.get(ctx);
  return w !== undefined && now < w.blockedUntil;
}

