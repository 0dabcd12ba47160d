// Keyed routes: bearer authentication, per-minute limit, exact monthly metering and quota headers.
// Order: authenticate (onRequest, before validation, so a bad key is 401 whatever the query) →
// validate (400, never counted) → per-minute limit (429 RATE_LIMITED) → monthly allowance
// (429 QUOTA_EXCEEDED) → handler. What counts: every admitted request answered 200 (or 304). A
// request that fails on our side (503 ENGINE_UNAVAILABLE, 500) is refunded.
// Failed authentications are limited per client address (per IPv6 /64): past
// AUTH_FAILURES_PER_IP_PER_MINUTE, any authentication from that address gets 429 RATE_LIMITED
// before a store look-up, so guessing keys costs no database work. The count is kept in process
// memory (bounded LRU): with N processes an address gets at most N times the limit.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, retryPhrase } from './errors.ts';
import { hashKey, looksLikeKey } from './keys.ts';
import type { GatewayContext } from './context.ts';
import { monthBounds, monthPeriod } from '../store/ports.ts';
import { LimiterUnavailableError, MemoryWindowLimiter } from '../store/limiter.ts';
import { clientIp, ipBucket } from './client-address.ts';
import { plansUrl } from './demo.ts';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function storeDown(e: unknown): never {
  if (e instanceof ApiError) throw e;
  throw new ApiError('STORE_UNAVAILABLE', 'The key and usage store is unavailable; nothing was counted. Retry shortly.', { 'Retry-After': '5' });
}

/** Addresses whose failed authentications are counted at once, per process. */
const AUTH_FAILURE_WINDOWS = 20_000;
const authFailureWindows = new WeakMap<GatewayContext, MemoryWindowLimiter>();

export function authenticate(ctx: GatewayContext) {
  let failures = authFailureWindows.get(ctx);
  if (!failures) authFailureWindows.set(ctx, (failures = new MemoryWindowLimiter(AUTH_FAILURE_WINDOWS)));
  const limit = ctx.config.authFailuresPerIpPerMinute;
  const lim = failures;
  return async function authenticateKey(request: FastifyRequest) {
    const header = request.headers.authorization;
    if (!header) throw new ApiError('UNAUTHORIZED', 'Missing Authorization header. Send "Authorization: Bearer <API key>".');
    const bucket = ipBucket(clientIp(request));
    const seen = await lim.peek(bucket, limit, 60_000);
    if (!seen.allowed) {
      const retry = Math.max(1, Math.ceil((seen.resetAt - Date.now()) / 1000));
      throw new ApiError('RATE_LIMITED', `Too many failed authentications from this address (${limit} per minute); ${retryPhrase(ctx.now(), retry)}, with a valid key.`, { 'Retry-After': String(retry) });
    }
    const fail = async (message: string): Promise<never> => {
      await lim.hit(bucket, limit, 60_000);
      throw new ApiError('UNAUTHORIZED', message);
    };
    const m = BEARER.exec(header);
    if (!m) return fail('Malformed Authorization header. Use the Bearer scheme: "Authorization: Bearer <API key>".');
    const key = m[1]!;
    if (!looksLikeKey(key)) return fail(unknownKey(ctx));
    let rec;
    let plan;
    try {
      rec = await ctx.accounts.keyByHash(hashKey(key));
      if (rec && rec.status === 'active') plan = await ctx.accounts.plan(rec.plan);
    } catch (e) {
      storeDown(e);
    }
    if (!rec) return fail(unknownKey(ctx));
    if (rec.status === 'revoked') return fail(`This API key has been revoked and cannot be used again. Ask the operator of this service for a new key (the plans are at ${plansUrl(ctx)}); operators create one with "admin keys create".`);
    if (rec.status !== 'active') return fail('This API key is inactive.');
    if (!plan) throw new ApiError('INTERNAL_ERROR', `The plan "${rec.plan}" of this key does not exist.`);
    request.account = { key: rec, plan, period: monthOf(ctx.now()).period, counted: false };
    ctx.accounts.touch(rec.id);
  };
}

const epochSeconds = (ms: number) => Math.ceil(ms / 1000);

/** The calendar month (UTC) holding `now`: kept until the clock leaves it, so a request builds no dates. */
let month = { start: 0, end: -1, period: '' };
function monthOf(now: Date) {
  const t = now.getTime();
  if (!(t >= month.start && t < month.end)) {
    const b = monthBounds(now);
    month = { start: b.start.getTime(), end: b.end.getTime(), period: monthPeriod(now) };
  }
  return month;
}

function monthlyHeaders(reply: FastifyReply, ctx: GatewayContext, request: FastifyRequest, used: number) {
  const a = request.account!;
  reply.header('X-RateLimit-Plan', a.plan.name);
  reply.header('X-RateLimit-Limit', a.plan.monthly_limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, a.plan.monthly_limit - used));
  reply.header('X-RateLimit-Reset', epochSeconds(monthOf(ctx.now()).end));
}

function minuteHeaders(reply: FastifyReply, r: { limit: number; remaining: number; resetAt: number }) {
  reply.header('X-RateLimit-Minute-Limit', r.limit);
  reply.header('X-RateLimit-Minute-Remaining', r.remaining);
  reply.header('X-RateLimit-Minute-Reset', epochSeconds(r.resetAt));
}

/** Admits one request against the per-minute limit and the monthly allowance. */
export function meter(ctx: GatewayContext) {
  return async function meterRequest(request: FastifyRequest, reply: FastifyReply) {
    const a = request.account!;
    let minute;
    try {
      minute = await ctx.limiter.hit(`key:${a.key.id}`, a.plan.per_minute_limit, 60_000);
    } catch (e) {
      if (e instanceof LimiterUnavailableError) {
        // documented policy: the per-minute limit fails closed (the monthly meter is the contract)
        throw new ApiError('STORE_UNAVAILABLE', 'The rate-limit store is unavailable; nothing was counted. Retry shortly.', { 'Retry-After': '5' });
      }
      throw e;
    }
    minuteHeaders(reply, minute);
    const now = ctx.now().getTime();
    if (!minute.allowed) {
      const retry = Math.max(1, Math.ceil((minute.resetAt - now) / 1000));
      throw new ApiError('RATE_LIMITED', `Per-minute limit of ${a.plan.per_minute_limit} requests for plan "${a.plan.name}" reached; ${retryPhrase(ctx.now(), retry)}.`, {
        'Retry-After': String(retry),
      });
    }
    let res;
    try {
      res = await ctx.store.consumeMonthly(a.key.id, a.period, a.plan.monthly_limit);
    } catch (e) {
      storeDown(e);
    }
    monthlyHeaders(reply, ctx, request, res.used);
    if (!res.admitted) {
      // a refused request must not use up the minute window too, or the caller would soon see
      // RATE_LIMITED (retry in a minute) instead of QUOTA_EXCEEDED (retry next month)
      await ctx.limiter.refund(`key:${a.key.id}`, a.plan.per_minute_limit, 60_000);
      minuteHeaders(reply, { ...minute, remaining: Math.min(minute.limit, minute.remaining + 1) });
      const retry = Math.max(1, Math.ceil((monthBounds(ctx.now()).end.getTime() - now) / 1000));
      const next = await nextPlanUp(ctx, a.plan);
      const more = next
        ? ` For more now, move to plan "${next.name}" (${next.monthly_limit.toLocaleString('en-US')} requests a month): see ${plansUrl(ctx)}.`
        : ` See ${plansUrl(ctx)} for the plans.`;
      throw new ApiError('QUOTA_EXCEEDED', `Monthly allowance of ${a.plan.monthly_limit} requests for plan "${a.plan.name}" is used up; it renews at 00:00 UTC on the 1st: ${retryPhrase(ctx.now(), retry)}.${more}`, {
        'Retry-After': String(retry),
      }, { plans: plansUrl(ctx), ...(next ? { next_plan: next.name } : {}) });
    }
    a.counted = true;
  };
}

function unknownKey(ctx: GatewayContext): string {
  return `Unknown API key. Check that it was copied whole (it starts with dis_live_). To get a key, ask the operator of this service (the plans are at ${plansUrl(ctx)}); operators create one with "admin keys create".`;
}

/** The public plan with the smallest monthly allowance above this one, if any. */
async function nextPlanUp(ctx: GatewayContext, plan: { name: string; monthly_limit: number }) {
  try {
    const plans = (await ctx.store.listPlans()) as { name: string; monthly_limit: number; private?: boolean }[];
    return plans.filter((p) => !p.private && p.monthly_limit > plan.monthly_limit).sort((x, y) => x.monthly_limit - y.monthly_limit)[0] ?? null;
  } catch {
    return null;
  }
}

/** Gives back a counted request that failed on our side. */
export async function refund(ctx: GatewayContext, request: FastifyRequest) {
  const a = request.account;
  if (!a?.counted) return;
  a.counted = false;
  await ctx.store.refundMonthly(a.key.id, a.period).catch(() => undefined);
}

/**
 * For /v1/usage: refused with 429 RATE_LIMITED while the key's per-minute window is used up, never
 * counted (neither in the window nor monthly); then the quota headers. The report does not depend
 * on the limiter: while it is unreachable the report is given anyway.
 */
export async function peekHeaders(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply): Promise<number> {
  const a = request.account!;
  let minute;
  try {
    minute = await ctx.limiter.peek(`key:${a.key.id}`, a.plan.per_minute_limit, 60_000);
  } catch {
    minute = undefined;
  }
  if (minute) {
    minuteHeaders(reply, minute);
    if (!minute.allowed) {
      const retry = Math.max(1, Math.ceil((minute.resetAt - ctx.now().getTime()) / 1000));
      throw new ApiError('RATE_LIMITED', `Per-minute limit of ${a.plan.per_minute_limit} requests for plan "${a.plan.name}" reached; /v1/usage answers again: ${retryPhrase(ctx.now(), retry)}.`, {
        'Retry-After': String(retry),
      });
    }
  }
  let used;
  try {
    used = await ctx.store.getMonthly(a.key.id, a.period);
  } catch (e) {
    storeDown(e);
  }
  monthlyHeaders(reply, ctx, request, used);
  return used;
}
