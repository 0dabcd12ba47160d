// Keyed routes: bearer authentication, per-minute limit, exact monthly metering and quota headers.
// Order: authenticate (onRequest, before validation, so a bad key is 401 whatever the query) →
// validate (400, never counted) → per-minute limit (429 RATE_LIMITED) → monthly allowance
// (429 QUOTA_EXCEEDED) → handler. What counts: every admitted request answered 200 (or 304). A
// request that fails on our side (503 ENGINE_UNAVAILABLE, 500) is refunded.
// Failed authentications are limited per client address (per IPv6 /64): past
// AUTH_FAILURES_PER_IP_PER_MINUTE, any authentication from that address gets 429 RATE_LIMITED
// before a store look-up, so guessing keys costs no database work. The count is kept in process
// memory (bounded LRU): with N processes an address gets at most N times the limit.
//
// The request path (issue 14): authentication is a callback hook that answers without a promise
// when the key and its plan are in the account cache (the store is asked, through a promise, only
// on a miss); the engine routes meter inside their handler (admit(), no preHandler hook), take the
// in-memory limiter's answer without a promise, and set every quota header once at the end of a
// 200 (keyedHeaders(), with the constant parts computed once per plan and month), so the
// standard-headers hook has nothing left to read back.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError, retryPhrase } from './errors.ts';
import { hashKey, looksLikeKey } from './keys.ts';
import type { CallerAccount, GatewayContext } from './context.ts';
import { monthBounds, type ApiKeyRecord, type ConsumeResult, type LimitResult, type Plan } from '../store/ports.ts';
import { LimiterBusyError, LimiterUnavailableError, MemoryWindowLimiter } from '../store/limiter.ts';
import { clientIp, ipBucket } from './client-address.ts';
import { plansUrl } from './paths.ts';
import { monthOf, secondsOfMonth } from './calendar.ts';
import { authFailureWindows } from './auth-failures.ts';
import { forgetUsage, usageRead } from './usage-reads.ts';

export const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function storeDown(e: unknown): never {
  if (e instanceof ApiError) throw e;
  throw new ApiError('STORE_UNAVAILABLE', 'The key and usage store is unavailable; nothing was counted. Retry shortly.', { 'Retry-After': '5' });
}

export function authenticate(ctx: GatewayContext) {
  const lim = authFailureWindows(ctx);
  const limit = ctx.config.authFailuresPerIpPerMinute;

  /** Counts a failed authentication of this request's address and refuses it. */
  const fail = (request: FastifyRequest, bucket: string | undefined, message: string): ApiError => {
    lim.hit(bucket ?? ipBucket(clientIp(request)), limit, Date.now());
    return new ApiError('UNAUTHORIZED', message);
  };

  /** The answer for a key record and its plan (both known): undefined when admitted. */
  const accept = (request: FastifyRequest, bucket: string | undefined, rec: ApiKeyRecord | null, plan: Plan | null | undefined): ApiError | undefined => {
    if (!rec) return fail(request, bucket, unknownKey(ctx));
    if (rec.status === 'revoked') return fail(request, bucket, `This API key has been revoked and cannot be used again. Ask the operator of this service for a new key (the plans are at ${plansUrl(ctx)}); operators create one with "admin keys create".`);
    if (rec.status !== 'active') return fail(request, bucket, 'This API key is inactive.');
    if (!plan) return new ApiError('INTERNAL_ERROR', `The plan "${rec.plan}" of this key does not exist.`);
    const account: CallerAccount = { key: rec, plan, period: monthOf(ctx.now().getTime()).period, counted: false, minute: null, used: 0 };
    request.account = account;
    ctx.accounts.touch(rec.id);
    return undefined;
  };

  /** A key not in the account cache (or stale there): its format, then the store. */
  const lookUp = async (request: FastifyRequest, bucket: string | undefined, key: string, hash: string): Promise<ApiError | undefined> => {
    if (!looksLikeKey(key)) return fail(request, bucket, unknownKey(ctx));
    let rec;
    let plan;
    try {
      rec = await ctx.accounts.keyByHash(hash);
      if (rec && rec.status === 'active') plan = await ctx.accounts.plan(rec.plan);
    } catch (e) {
      storeDown(e);
    }
    return accept(request, bucket, rec, plan);
  };

  return function authenticateKey(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    const header = request.headers.authorization;
    if (!header) return done(new ApiError('UNAUTHORIZED', 'Missing Authorization header. Send "Authorization: Bearer <API key>".'));
    const now = Date.now();
    // while no address has failed lately there is nothing to look up (and no address to normalise)
    let bucket: string | undefined;
    if (lim.size > 0) {
      bucket = ipBucket(clientIp(request));
      const seen = lim.peek(bucket, limit, now);
      if (!seen.allowed) {
        const retry = Math.max(1, Math.ceil((seen.resetAt - now) / 1000));
        return done(new ApiError('RATE_LIMITED', `Too many failed authentications from this address (${limit} per minute); ${retryPhrase(ctx.now(), retry)}, with a valid key.`, { 'Retry-After': String(retry) }));
      }
    }
    const m = BEARER.exec(header);
    if (!m) return done(fail(request, bucket, 'Malformed Authorization header. Use the Bearer scheme: "Authorization: Bearer <API key>".'));
    const key = m[1]!;
    const hash = hashKey(key);
    // a cached record (or a cached "no such key") answers at once; a hash that matches a stored key
    // needs no format check (looksLikeKey is for keys on their way to the store)
    const rec = ctx.accounts.peekKey(hash, now);
    if (rec !== undefined) {
      const plan = rec && rec.status === 'active' ? ctx.accounts.peekPlan(rec.plan, now) : null;
      if (plan !== undefined) return done(accept(request, bucket, rec, plan));
    }
    lookUp(request, bucket, key, hash).then((err) => done(err), done);
  };
}

const epochSeconds = (ms: number) => Math.ceil(ms / 1000);

function monthlyHeaders(reply: FastifyReply, ctx: GatewayContext, request: FastifyRequest, used: number) {
  const a = request.account!;
  reply.header('X-RateLimit-Plan', a.plan.name);
  reply.header('X-RateLimit-Limit', a.plan.monthly_limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, a.plan.monthly_limit - used));
  reply.header('X-RateLimit-Reset', epochSeconds(monthOf(ctx.now().getTime()).end));
}

function minuteHeaders(reply: FastifyReply, r: { limit: number; remaining: number; resetAt: number }) {
  reply.header('X-RateLimit-Minute-Limit', r.limit);
  reply.header('X-RateLimit-Minute-Remaining', r.remaining);
  reply.header('X-RateLimit-Minute-Reset', epochSeconds(r.resetAt));
}

/** The parts of a plan's quota headers that stay the same for a month (and a per-minute limit). */
export interface PlanHeaders {
  monthStart: number;
  monthEnd: number;
  minuteLimit: number;
  limit: string;
  minuteLimitS: string;
  reset: number;
  resetS: string;
  policy: string;
}
const planHeaderCache = new WeakMap<Plan, PlanHeaders>();

export function planHeaders(plan: Plan, minuteLimit: number, nowMs: number): PlanHeaders {
  let h = planHeaderCache.get(plan);
  if (!h || !(nowMs >= h.monthStart && nowMs < h.monthEnd) || h.minuteLimit !== minuteLimit) {
    const m = monthOf(nowMs);
    const reset = epochSeconds(m.end);
    h = {
      monthStart: m.start,
      monthEnd: m.end,
      minuteLimit,
      limit: String(plan.monthly_limit),
      minuteLimitS: String(minuteLimit),
      reset,
      resetS: String(reset),
      // as the standard-headers hook writes it: the calendar month in seconds, then the minute
      policy: `"monthly";q=${plan.monthly_limit};w=${secondsOfMonth(new Date(nowMs))}, "minute";q=${minuteLimit};w=60`,
    };
    planHeaderCache.set(plan, h);
  }
  return h;
}

/**
 * Every quota header of an answered keyed request at once (the X-RateLimit-* headers, nosniff and
 * the IETF RateLimit-Policy and RateLimit), from the counts admit() recorded: the same names and
 * values the per-step headers and the standard-headers hook give, without reading any back.
 */
export function keyedHeaders(reply: FastifyReply, a: CallerAccount, nowMs: number) {
  const minute = a.minute!;
  const h = planHeaders(a.plan, minute.limit, nowMs);
  const remaining = Math.max(0, a.plan.monthly_limit - a.used);
  const minuteReset = epochSeconds(minute.resetAt);
  const nowS = Math.ceil(nowMs / 1000);
  // names in lower case, as Fastify keeps (and writes) them: no new string per header
  reply
    .header('x-ratelimit-minute-limit', h.minuteLimitS)
    .header('x-ratelimit-minute-remaining', String(minute.remaining))
    .header('x-ratelimit-minute-reset', String(minuteReset))
    .header('x-ratelimit-plan', a.plan.name)
    .header('x-ratelimit-limit', h.limit)
    .header('x-ratelimit-remaining', String(remaining))
    .header('x-ratelimit-reset', h.resetS);
  return `"monthly";r=${remaining};t=${Math.max(0, h.reset - nowS)}, "minute";r=${minute.remaining};t=${Math.max(0, minuteReset - nowS)}`;
}

/**
 * The standard headers of a keyed 200 or 304, after keyedHeaders (and ETag, Cache-Control), as the
 * standard-headers hook would add them; the hook then leaves the answer alone.
 */
export function keyedStandardHeaders(reply: FastifyReply, a: CallerAccount, state: string) {
  reply.header('x-content-type-options', 'nosniff').header('ratelimit-policy', planHeaderCache.get(a.plan)!.policy).header('ratelimit', state);
  a.headersSet = true;
}

function minuteRefused(ctx: GatewayContext, a: CallerAccount, minute: LimitResult, nowMs: number): never {
  const retry = Math.max(1, Math.ceil((minute.resetAt - nowMs) / 1000));
  throw new ApiError('RATE_LIMITED', `Per-minute limit of ${a.plan.per_minute_limit} requests for plan "${a.plan.name}" reached; ${retryPhrase(ctx.now(), retry)}.`, {
    'Retry-After': String(retry),
  });
}

function limiterDown(e: unknown): never {
  if (e instanceof LimiterBusyError) {
    // LIMITER_MAX_WAITERS requests of this process already wait for Redis (it is slow or silent, or a
    // burst of thousands came at once): shed at once rather than hold more memory
    throw new ApiError('STORE_UNAVAILABLE', 'Too many requests are waiting for the rate-limit store; nothing was counted. Retry shortly.', { 'Retry-After': '1' });
  }
  if (e instanceof LimiterUnavailableError) {
    // documented policy: the per-minute limit fails closed (the monthly meter is the contract)
    throw new ApiError('STORE_UNAVAILABLE', 'The rate-limit store is unavailable; nothing was counted. Retry shortly.', { 'Retry-After': '5' });
  }
  throw e;
}

/** Sets the headers of a refused minute or month (read back by the standard-headers hook) and throws. */
async function monthRefused(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, minute: LimitResult, used: number, nowMs: number): Promise<never> {
  const a = request.account!;
  monthlyHeaders(reply, ctx, request, used);
  // a refused request must not use up the minute window too, or the caller would soon see
  // RATE_LIMITED (retry in a minute) instead of QUOTA_EXCEEDED (retry next month)
  await ctx.limiter.refund(`key:${a.key.id}`, a.plan.per_minute_limit, 60_000, minute);
  minuteHeaders(reply, { ...minute, remaining: Math.min(minute.limit, minute.remaining + 1) });
  const retry = Math.max(1, Math.ceil((monthBounds(ctx.now()).end.getTime() - nowMs) / 1000));
  const next = await nextPlanUp(ctx, a.plan);
  const more = next
    ? ` For more now, move to plan "${next.name}" (${next.monthly_limit.toLocaleString('en-US')} requests a month): see ${plansUrl(ctx)}.`
    : ` See ${plansUrl(ctx)} for the plans.`;
  throw new ApiError('QUOTA_EXCEEDED', `Monthly allowance of ${a.plan.monthly_limit} requests for plan "${a.plan.name}" is used up; it renews at 00:00 UTC on the 1st: ${retryPhrase(ctx.now(), retry)}.${more}`, {
    'Retry-After': String(retry),
  }, { plans: plansUrl(ctx), ...(next ? { next_plan: next.name } : {}) });
}

/**
 * Requests whose wait for the limiter failed on the keyed fast path before they were handed to
 * Fastify (gateway/fast-keyed.ts): admit() answers them 503 at once instead of waiting again, so a
 * request's wait for Redis is bounded from its arrival on either path (issue 31).
 */
export const limiterFailedOn = new WeakMap<object, unknown>();

/** The key's per-minute window name (`key:<id>`), kept beside the cached key record. */
const windowKeys = new WeakMap<ApiKeyRecord, string>();
export function windowKey(rec: ApiKeyRecord): string {
  let k = windowKeys.get(rec);
  if (k === undefined) windowKeys.set(rec, (k = `key:${rec.id}`));
  return k;
}

/**
 * Admits one request against the per-minute limit and the monthly allowance (for the engine
 * routes' handler). On admission it records the minute result and the month's count on the
 * account (for keyedHeaders) and sets no header; a refusal sets the headers of what was counted
 * and throws. The in-memory limiter answers without a promise. Returns the clock read just after
 * the minute window answered (epoch ms): retry times and the headers' `t` are counted from it, so
 * they never exceed the window (a clock read before the limiter's would give 61 s).
 */
export async function admit(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply): Promise<number> {
  const a = request.account!;
  let minute: LimitResult;
  // the fast path already waited for the limiter on this request, until it failed: not a second wait
  const failed = limiterFailedOn.get(request.raw);
  if (failed !== undefined) limiterDown(failed);
  try {
    const key = windowKey(a.key);
    // the in-memory limiter's windows are in this process: its answer without a promise
    const lim = ctx.limiter;
    minute = lim instanceof MemoryWindowLimiter ? lim.hitNow(key, a.plan.per_minute_limit, 60_000) : await lim.hit(key, a.plan.per_minute_limit, 60_000);
  } catch (e) {
    limiterDown(e);
  }
  const nowMs = ctx.now().getTime();
  if (!minute.allowed) {
    minuteHeaders(reply, minute);
    minuteRefused(ctx, a, minute, nowMs);
  }
  let res: ConsumeResult;
  try {
    res = await ctx.store.consumeMonthly(a.key.id, a.period, a.plan.monthly_limit);
  } catch (e) {
    minuteHeaders(reply, minute);
    storeDown(e);
  }
  if (!res.admitted) {
    minuteHeaders(reply, minute);
    await monthRefused(ctx, request, reply, minute, res.used, nowMs);
  }
  a.counted = true;
  a.minute = minute;
  a.used = res.used;
  forgetUsage(ctx, a.key.id, a.period);
  return nowMs;
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
  forgetUsage(ctx, a.key.id, a.period);
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
    used = await usageRead(ctx, a.key.id, a.period, () => ctx.store.getMonthly(a.key.id, a.period));
  } catch (e) {
    storeDown(e);
  }
  monthlyHeaders(reply, ctx, request, used);
  return used;
}
