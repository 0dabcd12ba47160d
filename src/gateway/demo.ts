// The demo's policy: per-IP minute and hour limits (429 DEMO_RATE_LIMITED), a daily cap across all
// callers (503 DEMO_DAILY_CAP_REACHED), the on/off switch (503 DEMO_DISABLED), a short-lived response
// cache, and the `demo` object of every demo body. Every admitted demo request counts toward the
// per-IP limits and the daily cap, cached or not; a refused one counts toward nothing.
// The demo twins themselves are registered from src/routes/demo-twin.ts, which calls these.
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import type { GatewayContext } from './context.ts';
import type { EngineAnswer } from './engine-client.ts';

export const DEMO_PREFIX = '/v1/demo/';

export function demoPathOf(keyedPath: string) {
  return keyedPath.replace(/^\/v1\//, DEMO_PREFIX);
}

export function plansUrl(ctx: GatewayContext) {
  return `${ctx.config.publicBaseUrl}/plans`;
}

/**
 * The demo's per-IP bucket: an IPv4 address as it is, an IPv6 address by its /64 prefix (one
 * subscriber usually holds a whole /64, so per-address limits would be no limit at all).
 */
export function ipBucket(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

function untilNextUtcMidnight(now: Date) {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}


/** Where a demo caller is sent to get a key, for error details. */
export function howToKey(ctx: GatewayContext, keyedPath: string) {
  return { plans: plansUrl(ctx), keyed_endpoint: keyedPath };
}

/** 503 DEMO_DISABLED when the demo is switched off. */
export function assertDemoEnabled(ctx: GatewayContext, keyedPath: string) {
  if (!ctx.config.demo.enabled) {
    const how = howToKey(ctx, keyedPath);
    throw new ApiError('DEMO_DISABLED', `The keyless demo is disabled on this deployment. Get a key at ${how.plans} and call ${keyedPath}.`, { 'Retry-After': '3600' }, how);
  }
}

/**
 * Admits one demo request from the caller's address against the per-IP minute and hour limits and
 * the daily cap, or throws the documented error. Returns what is left this hour for the caller.
 */
export async function admitDemo(ctx: GatewayContext, request: FastifyRequest, keyedPath: string): Promise<{ remainingThisHour: number }> {
  const d = ctx.config.demo;
  const how = howToKey(ctx, keyedPath);
  const now = ctx.now();
  const ip = ipBucket(request.ip);
  let results;
  try {
    results = await ctx.limiter.hitAll([
      { key: `demo:minute:${ip}`, limit: d.perIpPerMinute, windowMs: 60_000 },
      { key: `demo:hour:${ip}`, limit: d.perIpPerHour, windowMs: 3_600_000 },
      { key: `demo:day:${now.toISOString().slice(0, 10)}`, limit: d.dailyCap, windowMs: 86_400_000 },
    ]);
  } catch {
    // documented policy: demo limits fail closed; the demo is a convenience, never a bypass
    throw new ApiError('STORE_UNAVAILABLE', 'The demo limiter is unavailable. Retry shortly or use a key.', { 'Retry-After': '5' }, how);
  }
  const [minute, hour, day] = results;
  const refused = results.find((r) => !r.allowed);
  if (refused && refused !== day) {
    const which = refused === minute ? `${d.perIpPerMinute} requests per minute` : `${d.perIpPerHour} requests per hour`;
    const retry = Math.max(1, Math.ceil((refused.resetAt - now.getTime()) / 1000));
    throw new ApiError('DEMO_RATE_LIMITED', `Demo limit of ${which} per IP reached. Retry in ${retry} s, or get a key at ${how.plans} and call ${keyedPath} with it.`, { 'Retry-After': String(retry) }, how);
  }
  if (refused) {
    throw new ApiError('DEMO_DAILY_CAP_REACHED', `The demo daily cap of ${d.dailyCap} requests across all callers is reached; it renews at 00:00 UTC. Get a key at ${how.plans} and call ${keyedPath} with it.`, { 'Retry-After': String(untilNextUtcMidnight(now)) }, how);
  }
  return { remainingThisHour: hour!.remaining };
}

/** The demo's short-lived answer cache (off when demo.cacheTtlSeconds is 0). */
export async function demoCached(ctx: GatewayContext, cacheKey: string, compute: () => Promise<EngineAnswer>): Promise<{ result: EngineAnswer; cached: boolean }> {
  const ttl = ctx.config.demo.cacheTtlSeconds;
  if (ttl > 0) {
    const hit = await ctx.cache.get(cacheKey).catch(() => null);
    if (hit) return { result: JSON.parse(hit) as EngineAnswer, cached: true };
  }
  const result = await compute();
  if (ttl > 0) await ctx.cache.set(cacheKey, JSON.stringify(result), ttl).catch(() => undefined);
  return { result, cached: false };
}

/** The `demo` object of every demo body. `keyedUrl` is the keyed path with its query string. */
export function demoObject(ctx: GatewayContext, keyedPath: string, keyedUrl: string, cached: boolean, remainingThisHour: number) {
  const base = ctx.config.publicBaseUrl;
  return {
    demo: true as const,
    endpoint: keyedPath,
    authenticated_equivalent: `curl -H "Authorization: Bearer $DRINKS_API_KEY" "${base}${keyedUrl}"`,
    limits: {
      per_ip_per_minute: ctx.config.demo.perIpPerMinute,
      per_ip_per_hour: ctx.config.demo.perIpPerHour,
      max_query_length: ctx.config.demo.maxQueryLength,
      resolve_result_limit: ctx.config.demo.resolveResultLimit,
    },
    note: 'Keyless demo: limited per IP and per day, and possibly cached. A key removes these limits; never put a key in browser-side code.',
    docs: `${base}/docs`,
    plans: plansUrl(ctx),
    cached,
    remaining_this_hour: remainingThisHour,
  };
}
