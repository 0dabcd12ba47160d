// Demo twins: the one wrapper that turns a keyed engine route into its keyless /v1/demo/ twin.
// Same body plus the `demo` object; the limits, the cache and the demo object come from the
// gateway's demo policy (gateway/demo.ts). Demo responses may be read by browsers
// (Access-Control-Allow-Origin: *); keyed ones never are.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError, type ErrorCode } from '../gateway/errors.ts';
import type { GatewayContext } from '../gateway/context.ts';
import { admitDemo, assertDemoEnabled, demoCached, demoObject } from '../gateway/demo.ts';
import { demoPathOf } from '../gateway/paths.ts';
import { callEngine, engineInput, errorResponses, NOT_MODIFIED, notModified, sendEngineResult, type EngineRouteDef } from './engine-route.ts';
import { CACHE_HEADERS, DemoObject, REQUEST_ID_HEADER } from './schemas.ts';

/** The keyed URL a demo request stands for: path parameters filled in, then the demo's query. */
function keyedUrlOf(def: EngineRouteDef, params: Record<string, unknown>, query: Record<string, unknown>) {
  const path = def.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return qs ? `${path}?${qs}` : path;
}

export function registerDemoTwin(app: FastifyInstance, ctx: GatewayContext, def: EngineRouteDef) {
  const path = demoPathOf(def.path);
  const d = ctx.config.demo;
  const codes: ErrorCode[] = ['INVALID_REQUEST', 'DEMO_RATE_LIMITED', 'DEMO_DISABLED', 'DEMO_DAILY_CAP_REACHED', 'ENGINE_UNAVAILABLE', 'STORE_UNAVAILABLE', 'INTERNAL_ERROR'];
  if (def.notFound) codes.splice(1, 0, def.notFound);
  if (def.otherErrors) codes.push(...def.otherErrors);

  const demoParams = new Set(Object.keys(def.querystring({ maxLength: d.maxQueryLength, demo: true }).properties));
  const keyedOnly = Object.keys(def.querystring({ maxLength: 200, demo: false }).properties).filter((k) => !demoParams.has(k));
  const limitNote = def.op === 'resolve-entity' ? `, at most ${d.resolveResultLimit} matches (no \`limit\` parameter)` : def.op === 'entities' ? `, at most ${d.resolveResultLimit} entities per page` : '';

  app.route({
    method: 'GET',
    url: path,
    schema: {
      summary: `${def.summary} (keyless demo)`,
      description: `Keyless twin of \`${def.path}\`: the same body plus the \`demo\` object. Limits: ${d.perIpPerMinute} per IP per minute, ${d.perIpPerHour} per IP per hour (IPv6: per /64), ${d.perSubnetPerHour} per hour per network (IPv4 /24, IPv6 /56) and ${d.perSitePerHour} per IPv6 /48, a daily cap of ${d.dailyCap} across all callers of which one network (IPv4 /24, IPv6 /48) takes at most ${d.networkDailySharePercent}%, query length at most ${d.maxQueryLength}${limitNote}. Responses may come from a ${d.cacheTtlSeconds}-second cache (\`demo.cached\`). 200 answers carry a weak ETag and \`Cache-Control: public\`; If-None-Match with it answers 304, which counts toward the demo limits like a 200.`,
      tags: ['demo'],
      ...(def.params ? { params: def.params } : {}),
      querystring: def.querystring({ maxLength: d.maxQueryLength, demo: true }),
      response: {
        200: { ...Type.Composite([def.body as never, Type.Object({ demo: DemoObject })]), headers: { ...REQUEST_ID_HEADER, ...CACHE_HEADERS, 'Access-Control-Allow-Origin': { type: 'string', description: '*' } } },
        304: NOT_MODIFIED,
        ...errorResponses(codes),
      },
    },
    onRequest: async (_request: FastifyRequest, reply: FastifyReply) => {
      reply.header('Access-Control-Allow-Origin', '*');
      assertDemoEnabled(ctx, def.path);
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
      const { remainingThisHour } = await admitDemo(ctx, request, def.path);
      const params = def.toEngine(engineInput(request), { demo: true, demoResultLimit: d.resolveResultLimit });
      const { result, cached } = await demoCached(ctx, `${def.op}?${JSON.stringify(params)}`, () => callEngine(ctx, request, def.op, params));
      if (d.cacheTtlSeconds > 0) ctx.metrics?.demoCache.inc({ result: cached ? 'hit' : 'miss' });
      if (result.status === 200) {
        if (notModified(ctx, request, reply, def.op, params, result, true)) return reply.code(304).send();
      }
      const query = request.query as Record<string, unknown>;
      const declared = Object.fromEntries(Object.entries(query).filter(([k]) => demoParams.has(k)));
      const keyedUrl = keyedUrlOf(def, (request.params as Record<string, unknown>) ?? {}, declared);
      return sendEngineResult(reply, request, result, { demo: demoObject(ctx, def.path, keyedUrl, cached, remainingThisHour) });
    },
  });
}
