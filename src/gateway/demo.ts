// Demo twins: the one wrapper that turns a keyed engine route into its keyless /v1/demo/ twin.
// Same body plus the `demo` object; per-IP minute and hour limits (429 DEMO_RATE_LIMITED), a daily
// cap across all callers (503 DEMO_DAILY_CAP_REACHED), a short-lived response cache, q at most 80
// characters, resolve capped at 5 matches. Every admitted demo request counts toward the per-IP
// limits and the daily cap, cached or not; a refused one counts toward nothing.
// Demo responses may be read by browsers (Access-Control-Allow-Origin: *); keyed ones never are.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError, type ErrorCode } from './errors.ts';
import type { GatewayContext } from './context.ts';
import { callEngine, errorResponses, sendEngineResult, type EngineRouteDef } from '../routes/engine-route.ts';
import { DemoObject, REQUEST_ID_HEADER } from '../routes/schemas.ts';
import type { EngineResult } from '../engine/engine.ts';

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

function demoObject(ctx: GatewayContext, def: EngineRouteDef, query: Record<string, unknown>, cached: boolean, remainingThisHour: number) {
  const base = ctx.config.publicBaseUrl;
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return {
    demo: true as const,
    endpoint: def.path,
    authenticated_equivalent: `curl -H "Authorization: Bearer $DRINKS_API_KEY" "${base}${def.path}?${qs}"`,
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

export function registerDemoTwin(app: FastifyInstance, ctx: GatewayContext, def: EngineRouteDef) {
  const path = demoPathOf(def.path);
  const d = ctx.config.demo;
  const howToKey = { plans: plansUrl(ctx), keyed_endpoint: def.path };
  const codes: ErrorCode[] = ['INVALID_REQUEST', 'DEMO_RATE_LIMITED', 'DEMO_DISABLED', 'DEMO_DAILY_CAP_REACHED', 'ENGINE_UNAVAILABLE', 'STORE_UNAVAILABLE', 'INTERNAL_ERROR'];
  if (def.resolvesToOne) codes.splice(1, 0, 'ENTITY_NOT_RESOLVED');

  const demoParams = new Set(Object.keys(def.querystring({ maxLength: d.maxQueryLength, demo: true }).properties));
  const keyedOnly = Object.keys(def.querystring({ maxLength: 200, demo: false }).properties).filter((k) => !demoParams.has(k));

  app.route({
    method: 'GET',
    url: path,
    schema: {
      summary: `${def.summary} (keyless demo)`,
      description: `Keyless twin of \`${def.path}\`: the same body plus the \`demo\` object. Limits: ${d.perIpPerMinute} per IP per minute, ${d.perIpPerHour} per IP per hour, a daily cap of ${d.dailyCap} across all callers, query length at most ${d.maxQueryLength}${def.op === 'resolve-entity' ? `, at most ${d.resolveResultLimit} matches (no \`limit\` parameter)` : ''}. Responses may come from a ${d.cacheTtlSeconds}-second cache (\`demo.cached\`).`,
      tags: ['demo'],
      querystring: def.querystring({ maxLength: d.maxQueryLength, demo: true }),
      response: {
        200: { ...Type.Composite([def.body as never, Type.Object({ demo: DemoObject })]), headers: { ...REQUEST_ID_HEADER, 'Access-Control-Allow-Origin': { type: 'string', description: '*' } } },
        ...errorResponses(codes),
      },
    },
    onRequest: async (_request: FastifyRequest, reply: FastifyReply) => {
      reply.header('Access-Control-Allow-Origin', '*');
      if (!d.enabled) {
        throw new ApiError('DEMO_DISABLED', `The keyless demo is disabled on this deployment. Get a key at ${howToKey.plans} and call ${def.path}.`, { 'Retry-After': '3600' }, howToKey);
      }
    },
    preValidation: async (request) => {
      const query = request.query as Record<string, unknown>;
      for (const k of keyedOnly) {
        if (k in query) {
          throw new ApiError('INVALID_REQUEST', `Parameter "${k}" is not accepted by the demo (results are capped at ${d.resolveResultLimit}); use ${def.path} with a key.`, {}, { parameter: k });
        }
      }
    },
    handler: async (request, reply) => {
      const query = request.query as Record<string, unknown>;
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
        throw new ApiError('STORE_UNAVAILABLE', 'The demo limiter is unavailable. Retry shortly or use a key.', { 'Retry-After': '5' }, howToKey);
      }
      const [minute, hour, day] = results;
      const refused = results.find((r) => !r.allowed);
      if (refused && refused !== day) {
        const which = refused === minute ? `${d.perIpPerMinute} requests per minute` : `${d.perIpPerHour} requests per hour`;
        const retry = Math.max(1, Math.ceil((refused.resetAt - now.getTime()) / 1000));
        throw new ApiError('DEMO_RATE_LIMITED', `Demo limit of ${which} per IP reached. Retry in ${retry} s, or get a key at ${howToKey.plans} and call ${def.path} with it.`, { 'Retry-After': String(retry) }, howToKey);
      }
      if (refused) {
        throw new ApiError('DEMO_DAILY_CAP_REACHED', `The demo daily cap of ${d.dailyCap} requests across all callers is reached; it renews at 00:00 UTC. Get a key at ${howToKey.plans} and call ${def.path} with it.`, { 'Retry-After': String(untilNextUtcMidnight(now)) }, howToKey);
      }
      const params = def.toEngine(query, { demo: true, demoResultLimit: d.resolveResultLimit });
      const cacheKey = `${def.op}?${JSON.stringify(params)}`;
      let cached = false;
      let result: EngineResult | null = null;
      if (d.cacheTtlSeconds > 0) {
        const hit = await ctx.cache.get(cacheKey).catch(() => null);
        if (hit) {
          result = JSON.parse(hit) as EngineResult;
          cached = true;
        }
      }
      if (!result) {
        result = await callEngine(ctx, request, def.op, params);
        if (d.cacheTtlSeconds > 0) await ctx.cache.set(cacheKey, JSON.stringify(result), d.cacheTtlSeconds).catch(() => undefined);
      }
      const declared = Object.fromEntries(Object.entries(query).filter(([k]) => demoParams.has(k)));
      return sendEngineResult(reply, request, result, { demo: demoObject(ctx, def, declared, cached, hour!.remaining) });
    },
  });
}
