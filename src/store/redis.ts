// Redis for scale-out: window limiters (rate-limiter-flexible's atomic Lua script, Redis' own
// clock via TTLs) and the shared demo cache. No offline queue: while Redis is down a command fails
// at once (never hangs), and the client reconnects by itself when Redis returns.
import { Redis } from 'ioredis';
import { DEFAULT_WINDOW_LEASE, redisLimiter, type WaitBounds } from './limiter.ts';
import { redisCache } from './cache.ts';

export async function connectRedis(url: string, bounds: WaitBounds = {}) {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  redis.on('error', () => undefined); // surfaced through /health and per-request errors
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    redis.once('ready', done);
    setTimeout(done, 2000).unref();
  });
  return { redis, limiter: redisLimiter(redis, DEFAULT_WINDOW_LEASE, bounds), cache: redisCache(redis) };
}
