// /v1/usage's monthly count per key, kept at most USAGE_READ_TTL_MS (issue 24, item 4): a key polling
// /v1/usage in a loop costs at most one store read per second per process. A request this process
// counts or refunds for the key forgets the entry, so the process's own traffic is never hidden; what
// other processes counted shows within the second. Leaf module: keyed.ts and fast-keyed.ts both call it.
import { LRUCache } from 'lru-cache';
import type { GatewayContext } from './context.ts';

export const USAGE_READ_TTL_MS = 1_000;
/** Keys whose count is held at once, per process (the account cache's bound). */
export const USAGE_READ_KEYS = 50_000;

const cacheOf = new WeakMap<GatewayContext, LRUCache<string, number>>();

function cache(ctx: GatewayContext): LRUCache<string, number> {
  let c = cacheOf.get(ctx);
  if (!c) cacheOf.set(ctx, (c = new LRUCache<string, number>({ max: USAGE_READ_KEYS, ttl: USAGE_READ_TTL_MS, ttlAutopurge: false })));
  return c;
}

/** The key's monthly count: from a read at most USAGE_READ_TTL_MS old, else from `read` (kept). */
export async function usageRead(ctx: GatewayContext, keyId: string, period: string, read: () => Promise<number>): Promise<number> {
  const c = cache(ctx);
  const k = `${keyId}|${period}`;
  const known = c.get(k);
  if (known !== undefined) return known;
  const used = await read();
  c.set(k, used);
  return used;
}

/** Forgets the key's kept count (this process just counted or refunded a request of it). */
export function forgetUsage(ctx: GatewayContext, keyId: string, period: string): void {
  const c = cacheOf.get(ctx);
  if (c !== undefined && c.size > 0) c.delete(`${keyId}|${period}`);
}
