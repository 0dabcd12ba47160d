// Short-lived response caches for the demo twins: lru-cache in memory, or Redis (shared by every
// gateway process). Values are serialized response bodies.
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { ResponseCache } from './ports.ts';

export function memoryCache(maxEntries = 5000): ResponseCache {
  const lru = new LRUCache<string, string>({ max: maxEntries, ttlAutopurge: false });
  return {
    async get(key) {
      return lru.get(key) ?? null;
    },
    async set(key, value, ttlSeconds) {
      if (ttlSeconds > 0) lru.set(key, value, { ttl: ttlSeconds * 1000 });
    },
  };
}

export function redisCache(redis: Redis): ResponseCache {
  return {
    async get(key) {
      return redis.get(`dis:cache:${key}`);
    },
    async set(key, value, ttlSeconds) {
      if (ttlSeconds > 0) await redis.set(`dis:cache:${key}`, value, 'EX', ttlSeconds);
    },
  };
}
