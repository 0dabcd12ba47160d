// The demo's policy: per-IP minute and hour limits and per-network hour limits and daily share
// (429 DEMO_RATE_LIMITED), a daily cap across all callers (503 DEMO_DAILY_CAP_REACHED), the on/off
// switch (503 DEMO_DISABLED), a short-lived response cache, and the `demo` object of every demo
// body. Every admitted demo request counts toward all the windows, cached or not; a refused one
// counts toward nothing and creates no limiter entry of its own (see admitDemo).
// The demo twins themselves are registered from src/routes/demo-twin.ts, which calls these.
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError, retryPhrase } from './errors.ts';
import { clientIp, ipBucket, networkBuckets } from './client-address.ts';
import type { GatewayContext } from './context.ts';
import type { EngineAnswer } from './engine-client.ts';
import { plansUrl } from './paths.ts';



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

/** One window of the demo; `daily` windows are keyed by the UTC date, so a refusal lasts until midnight. */
type Check = { key: string; limit: number; windowMs: number; daily?: boolean; refusal: (retry: number) => string };

/**
 * Admits one demo request from the caller's address against the daily cap, the per-network limits
 * (IPv4 /24, IPv6 /56 and /48, and their share of the daily cap) and the per-IP minute and hour
 * limits, or throws the documented error. Returns what is left this hour for the caller.
 *
 * Memory stays bounded under a flood of refused requests: the daily cap is looked at first (a
 * refusal then touches nothing), and the windows are counted widest first, so a request refused by
 * a network window only ever touched wider windows, which that window's own traffic already
 * created (and one refused by the caller's own windows, only windows of its own bucket).
 */
export async function admitDemo(ctx: GatewayContext, request: FastifyRequest, keyedPath: string): Promise<{ remainingThisHour: number }> {
  const d = ctx.config.demo;
  const how = howToKey(ctx, keyedPath);
  const now = ctx.now();
  const ip = clientIp(request);
  const bucket = ipBucket(ip);
  const { subnet, site } = networkBuckets(ip);
  const day = now.toISOString().slice(0, 10);
  const HOUR = 3_600_000;
  const DAY = 86_400_000;
  const dayCap = { key: `demo:day:${day}`, limit: d.dailyCap, windowMs: DAY };
  const checks: Check[] = [];
  if (site) {
    const share = Math.max(1, Math.floor((d.dailyCap * d.networkDailySharePercent) / 100));
    checks.push({ key: `demo:netday:${day}:${site}`, limit: share, windowMs: DAY, daily: true, refusal: () => `The demo allows at most ${share} requests per day from one network (${site}); it renews at 00:00 UTC: ${retryPhrase(now, untilNextUtcMidnight(now))}.` });
    if (site !== subnet) checks.push({ key: `demo:net:${site}`, limit: d.perSitePerHour, windowMs: HOUR, refusal: (r) => `Demo limit of ${d.perSitePerHour} requests per hour per network (${site}) reached; ${retryPhrase(now, r)}.` });
  }
  if (subnet) checks.push({ key: `demo:net:${subnet}`, limit: d.perSubnetPerHour, windowMs: HOUR, refusal: (r) => `Demo limit of ${d.perSubnetPerHour} requests per hour per network (${subnet}) reached; ${retryPhrase(now, r)}.` });
  // the caller's own windows: minute before hour (same bucket, so nothing new is created either way),
  // so a burst refused by the minute limit never touches the hour count it reports
  checks.push(
    { key: `demo:minute:${bucket}`, limit: d.perIpPerMinute, windowMs: 60_000, refusal: (r) => `Demo limit of ${d.perIpPerMinute} requests per minute per IP reached; ${retryPhrase(now, r)}.` },
    { key: `demo:hour:${bucket}`, limit: d.perIpPerHour, windowMs: HOUR, refusal: (r) => `Demo limit of ${d.perIpPerHour} requests per hour per IP reached; ${retryPhrase(now, r)}.` },
  );
  const capReached = () =>
    new ApiError('DEMO_DAILY_CAP_REACHED', `The demo daily cap of ${d.dailyCap} requests across all callers is reached; it renews at 00:00 UTC: ${retryPhrase(now, untilNextUtcMidnight(now))}. Get a key at ${how.plans} and call ${keyedPath} with it.`, { 'Retry-After': String(untilNextUtcMidnight(now)) }, how);
  let results;
  try {
    if (!(await ctx.limiter.peek(dayCap.key, dayCap.limit, dayCap.windowMs)).allowed) throw capReached();
    results = await ctx.limiter.hitAll([...checks, dayCap]);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // documented policy: demo limits fail closed; the demo is a convenience, never a bypass
    throw new ApiError('STORE_UNAVAILABLE', 'The demo limiter is unavailable. Retry shortly or use a key.', { 'Retry-After': '5' }, how);
  }
  const refusedAt = results.findIndex((r) => !r.allowed);
  if (refusedAt === checks.length) throw capReached();
  if (refusedAt >= 0) {
    const refused = results[refusedAt]!;
    const retry = checks[refusedAt]!.daily ? untilNextUtcMidnight(now) : Math.max(1, Math.ceil((refused.resetAt - now.getTime()) / 1000));
    throw new ApiError('DEMO_RATE_LIMITED', `${checks[refusedAt]!.refusal(retry)} Get a key at ${how.plans} and call ${keyedPath} with it.`, { 'Retry-After': String(retry) }, how);
  }
  const hour = results[checks.length - 1]!;
  return { remainingThisHour: hour.remaining };
}

/** The demo's short-lived answer cache (off when demo.cacheTtlSeconds is 0), keyed by a hash of `request`. */
export async function demoCached(ctx: GatewayContext, request: string, compute: () => Promise<EngineAnswer>): Promise<{ result: EngineAnswer; cached: boolean }> {
  const ttl = ctx.config.demo.cacheTtlSeconds;
  // hashed: a query may hold anything a caller pasted (an API key too), and cache keys are visible
  // to whoever can list Redis keys
  const cacheKey = `demo:${crypto.createHash('sha256').update(request).digest('base64url')}`;
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
