// An engine-backed endpoint is declared once (path, parameters, documented body) and registered
// twice: as the keyed route here, and as its demo twin by the one wrapper in gateway/demo.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject, TSchema } from '@sinclair/typebox';
import { ApiError, ERROR_CODES, type ErrorCode } from '../gateway/errors.ts';
import { EngineUnavailableError, type EngineOp, type EngineParams } from '../gateway/engine-client.ts';
import type { EngineResult } from '../engine/engine.ts';
import type { GatewayContext } from '../gateway/context.ts';
import { authenticate, meter, refund } from '../gateway/keyed.ts';
import { ErrorBody, QUOTA_HEADERS, REQUEST_ID_HEADER, RETRY_HEADERS } from './schemas.ts';

export interface EngineRouteDef {
  op: EngineOp;
  path: string;
  summary: string;
  description: string;
  /** query-string schema; `demo` drops keyed-only parameters, `maxLength` is 200 keyed, 80 demo */
  querystring: (opts: { maxLength: number; demo: boolean }) => TObject;
  /** engine parameters from the validated query */
  toEngine: (query: Record<string, unknown>, opts: { demo: boolean; demoResultLimit: number }) => EngineParams;
  body: TSchema;
  /** whether the endpoint answers 404 ENTITY_NOT_RESOLVED */
  resolvesToOne: boolean;
  example: string;
}

export async function callEngine(ctx: GatewayContext, request: FastifyRequest, op: EngineOp, params: EngineParams): Promise<EngineResult> {
  try {
    const result = await ctx.engine.call(op, params);
    if (result.status >= 500) throw new ApiError('INTERNAL_ERROR', 'The engine failed to answer.');
    return result;
  } catch (e) {
    await refund(ctx, request);
    if (e instanceof EngineUnavailableError) {
      request.log.warn({ err: e.message }, 'engine unavailable');
      throw new ApiError('ENGINE_UNAVAILABLE', 'The engine is unavailable. Retry shortly.', { 'Retry-After': '2' });
    }
    throw e;
  }
}

/** Engine bodies pass through unchanged; engine errors get the request id like every error. */
export function sendEngineResult(reply: FastifyReply, request: FastifyRequest, result: EngineResult, extra?: Record<string, unknown>) {
  reply.code(result.status);
  if (result.status !== 200) {
    const body = result.body as { ok: false; error: Record<string, unknown> };
    return { ...body, error: { ...body.error, request_id: request.id } };
  }
  return extra ? { ...result.body, ...extra } : result.body;
}

export function errorResponses(codes: ErrorCode[]) {
  const out: Record<number, TSchema> = {};
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) {
    const status = ERROR_CODES[c].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), c]);
  }
  for (const [status, cs] of byStatus) {
    const headers = status === 429 || status === 503 ? RETRY_HEADERS : REQUEST_ID_HEADER;
    out[status] = { ...ErrorBody(cs), headers } as unknown as TSchema;
  }
  return out;
}

export function registerKeyed(app: FastifyInstance, ctx: GatewayContext, def: EngineRouteDef) {
  const codes: ErrorCode[] = ['INVALID_REQUEST', 'UNAUTHORIZED', 'RATE_LIMITED', 'QUOTA_EXCEEDED', 'STORE_UNAVAILABLE', 'ENGINE_UNAVAILABLE', 'INTERNAL_ERROR'];
  if (def.resolvesToOne) codes.splice(2, 0, 'ENTITY_NOT_RESOLVED');
  app.route({
    method: 'GET',
    url: def.path,
    schema: {
      summary: def.summary,
      description: def.description,
      tags: ['keyed'],
      security: [{ bearerAuth: [] }],
      querystring: def.querystring({ maxLength: 200, demo: false }),
      response: { 200: { ...def.body, headers: QUOTA_HEADERS }, ...errorResponses(codes) },
    },
    onRequest: authenticate(ctx),
    preHandler: meter(ctx),
    handler: async (request, reply) => {
      const result = await callEngine(ctx, request, def.op, def.toEngine(request.query as Record<string, unknown>, { demo: false, demoResultLimit: 0 }));
      return sendEngineResult(reply, request, result);
    },
  });
}
