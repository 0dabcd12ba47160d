// The request rate a lease or a minute-token slot is sized by: counted over fixed windows of
// `windowMs`, the rate of the last full window (0 once a window went by with nothing), and the
// last use (for the idle hand-back). Shared by the usage leases (lease.ts) and the Redis limiter's
// tokens (limiter.ts).
export interface RateWindow {
  windowStart: number;
  windowCount: number;
  /** requests per second over the last full window */
  rate: number;
  lastUse: number;
}

/** One request seen at `now` (epoch ms). */
export function seenAt(s: RateWindow, now: number, windowMs: number) {
  const since = now - s.windowStart;
  if (since >= windowMs) {
    s.rate = since < 2 * windowMs ? (s.windowCount * 1000) / since : 0;
    s.windowStart = now;
    s.windowCount = 0;
  }
  s.windowCount++;
  s.lastUse = now;
}
