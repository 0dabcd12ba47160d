// An engine-backed endpoint is declared once (path, parameters, documented body) and registered
// twice: as the keyed route here, and as its keyless demo twin by registerDemoTwin (demo-twin.ts).
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject, TSchema } from '@sinclair/typebox';
import { ApiError, ERROR_CODES, type ErrorCode } from '../gateway/errors.ts';
import { bodyJson, EngineUnavailableError, type EngineAnswer, type EngineOp, type EngineParams } from '../gateway/engine-client.ts';
import type { GatewayContext } from '../gateway/context.ts';
import { admit, authenticate, keyedHeaders, keyedStandardHeaders, refund } from '../gateway/keyed.ts';
import { HistogramSeries, type Metrics } from '../gateway/metric-series.ts';
import type { FastRoute } from '../gateway/fast-route.ts';
import { DEMO_PREFIX, demoPathOf } from '../gateway/paths.ts';
import { JSON_TYPE, MAX_AGE_SECONDS, matchesIfNoneMatch, PRIVATE_CACHE, PUBLIC_CACHE } from '../gateway/answer-headers.ts';
import { CACHE_HEADERS, ErrorBody, QUOTA_HEADERS, REQUEST_ID_HEADER, RETRY_HEADERS } from './schemas.ts';

export interface EngineRouteDef {
  op: EngineOp;
  /** the keyed path; a path parameter is written `:name` */
  path: string;
  summary: string;
  description: string;
  /** path-parameter schema, for paths with a `:name` segment */
  params?: TObject;
  /** query-string schema; `demo` drops keyed-only parameters, `maxLength` is 200 keyed, 80 demo */
  querystring: (opts: { maxLength: number; demo: boolean }) => TObject;
  /** engine parameters from the validated path parameters and query */
  toEngine: (input: Record<string, unknown>, opts: { demo: boolean; demoResultLimit: number }) => EngineParams;
  body: TSchema;
  /** the 404 the endpoint answers when there is nothing to show (never counted), or null */
  notFound: 'ENTITY_NOT_RESOLVED' | 'FOOD_NOT_RESOLVED' | 'NOT_FOUND' | null;
  /** further engine answers that are not counted either (the entity route: GONE, MOVED_PERMANENTLY) */
  otherErrors?: ErrorCode[];
  /** a realistic request for the docs: the query string, and the path parameters if any */
  example: string;
  examplePath?: Record<string, string>;
}

export { MAX_AGE_SECONDS, matchesIfNoneMatch };

export async function callEngine(ctx: GatewayContext, request: FastifyRequest, op: EngineOp, params: EngineParams): Promise<EngineAnswer> {
  const t0 = ctx.metrics ? performance.now() : 0;
  try {
    return engineAnswered(ctx, op, await ctx.engine.call(op, params), t0);
  } catch (e) {
    return engineFailed(ctx, request, op, e, t0);
  }
}

/**
 * The engine's answer without a promise where the engine runs in this process (callSync), else
 * callEngine: the same metrics, refunds and errors either way.
 */
function callEngineNow(ctx: GatewayContext, request: FastifyRequest, op: EngineOp, params: EngineParams): EngineAnswer | Promise<EngineAnswer> {
  if (!ctx.engine.callSync) return callEngine(ctx, request, op, params);
  const t0 = ctx.metrics ? performance.now() : 0;
  try {
    return engineAnswered(ctx, op, ctx.engine.callSync(op, params), t0);
  } catch (e) {
    return engineFailed(ctx, request, op, e, t0);
  }
}

function engineAnswered(ctx: GatewayContext, op: EngineOp, result: EngineAnswer, t0: number): EngineAnswer {
  if (ctx.metrics) engineTimer(ctx.metrics, op, result.status).observe((performance.now() - t0) / 1000);
  if (result.status >= 500) throw new ApiError('INTERNAL_ERROR', 'The engine failed to answer.');
  return result;
}

async function engineFailed(ctx: GatewayContext, request: FastifyRequest, op: EngineOp, e: unknown, t0: number): Promise<never> {
  if (ctx.metrics) engineTimer(ctx.metrics, op, 'unavailable').observe((performance.now() - t0) / 1000);
  await refund(ctx, request);
  if (e instanceof EngineUnavailableError) {
    request.log.warn({ err: e.message }, 'engine unavailable');
    throw new ApiError('ENGINE_UNAVAILABLE', 'The engine is unavailable. Retry shortly.', { 'Retry-After': '2' });
  }
  throw e;
}

/** The engine-latency histogram's child for an operation and outcome, kept (no label work per call). */
const engineTimers = new WeakMap<Metrics, Map<EngineOp, Map<number | string, HistogramSeries>>>();
function engineTimer(m: Metrics, op: EngineOp, outcome: number | string) {
  let byOp = engineTimers.get(m);
  if (!byOp) engineTimers.set(m, (byOp = new Map()));
  let byOutcome = byOp.get(op);
  if (!byOutcome) byOp.set(op, (byOutcome = new Map()));
  let t = byOutcome.get(outcome);
  if (!t) byOutcome.set(outcome, (t = new HistogramSeries(m.engineLatency, { op, outcome: String(outcome) })));
  return t;
}

/** Engine bodies pass through unchanged; engine errors get the request id like every error. */
export function sendEngineResult(reply: FastifyReply, request: FastifyRequest, result: EngineAnswer, extra?: Record<string, unknown>) {
  reply.code(result.status);
  if (result.status !== 200) {
    const body = result.body as { ok: false; error: Record<string, unknown> };
    // 301 (an entity merged or renamed): Location is the successor on this same surface (keyed or demo)
    const next = result.status === 301 ? (body.error.replaced_by as { path?: string } | undefined)?.path : undefined;
    if (next) reply.header('location', request.url.startsWith(DEMO_PREFIX) ? demoPathOf(next) : next);
    return { ...body, error: { ...body.error, request_id: request.id } };
  }
  return extra ? { ...result.body, ...extra } : result.body;
}

/**
 * The ETag of an engine answer: a hash of the knowledge-base version and the canonical request (the
 * operation and its engine parameters in key order), so every gateway process and engine gives the
 * same tag for the same answer. Demo tags are weak: demo bodies carry per-caller counters.
 */
export function etagOf(version: string, op: EngineOp, params: EngineParams, demo: boolean): string {
  const hash = etagHash(version, op, params);
  return demo ? `W/"${hash}"` : `"${hash}"`;
}

function etagHash(version: string, op: EngineOp, params: EngineParams): string {
  const canonical = Object.keys(params).sort().filter((k) => params[k] !== undefined).map((k) => `${k}=${params[k]}`).join('&');
  const input = `${version}\u0000${op}\u0000${canonical}`;
  let hash = etagHashes.get(input);
  if (hash === undefined) {
    // a bounded memo of recent tags: repeated requests cost no SHA-256
    if (etagHashes.size >= ETAG_MEMO_ENTRIES) etagHashes.clear();
    etagHashes.set(input, (hash = crypto.createHash('sha256').update(input).digest('base64url').slice(0, 27)));
  }
  return hash;
}
const ETAG_MEMO_ENTRIES = 10_000;
const etagHashes = new Map<string, string>();


/**
 * Sets ETag and Cache-Control on a 200 engine answer (keyed: strong and private; demo: weak and
 * public) and says whether If-None-Match names it, so the caller answers 304.
 */
export function notModified(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, op: EngineOp, params: EngineParams, result: EngineAnswer, demo: boolean): boolean {
  const hash = tagHashOf(ctx, op, params, result);
  const etag = demo ? `W/"${hash}"` : `"${hash}"`;
  reply.header('etag', etag).header('cache-control', demo ? PUBLIC_CACHE : PRIVATE_CACHE);
  const inm = request.headers['if-none-match'];
  return inm !== undefined && matchesIfNoneMatch(inm, etag);
}
/** The ETag hash of a 200 engine answer (without quotes or W/). */
function tagHashOf(ctx: GatewayContext, op: EngineOp, params: EngineParams, result: EngineAnswer): string {
  return tagOf(ctx, op, params, result).hash;
}
function tagOf(ctx: GatewayContext, op: EngineOp, params: EngineParams, result: EngineAnswer) {
  const version = result.version ?? ctx.engine.kbVersion ?? '';
  // a memoised answer is the same object for the same request (the engine's memo gives a new
  // object for any other variant of the terms), so its tag is kept beside it
  let tag = answerTags.get(result);
  if (tag === undefined || tag.version !== version || tag.op !== op) {
    answerTags.set(result, (tag = { version, op, hash: etagHash(version, op, params), quoted: undefined }));
  }
  return tag;
}

/**
 * The keyed fast path's view of a request line this route answered 200 for (gateway/fast-keyed.ts):
 * the engine is asked again each time (its memo answers), and only a 200 with its JSON at hand is
 * given; anything else leaves the request to Fastify. The engine-latency histogram counts the call
 * as the Fastify path does.
 */
function fastRoute(ctx: GatewayContext, def: EngineRouteDef, params: EngineParams): FastRoute | undefined {
  const call = ctx.engine.prepareSync?.(def.op, params);
  if (call === undefined) return undefined;
  // the quoted tag is kept beside the memoised answer object (answerTags; the bytes beside its
  // body: bytesOf), both going with the answer when the engine's memo lets it go: a remembered
  // request line keeps nothing of an answer alive, and holds no map of its own (issue 31)
  return {
    route: def.path,
    answer: () => {
      let result: EngineAnswer;
      try {
        result = call();
      } catch {
        return undefined;
      }
      if (result.status !== 200) return undefined;
      const bytes = bytesOf(result.body);
      if (bytes === undefined) return undefined;
      const tag = tagOf(ctx, def.op, params, result);
      return { bytes, etag: (tag.quoted ??= `"${tag.hash}"`) };
    },
    answered: (seconds) => {
      if (ctx.metrics) engineTimer(ctx.metrics, def.op, 200).observe(seconds);
    },
  };
}
const answerTags = new WeakMap<object, { version: string; op: EngineOp; hash: string; quoted: string | undefined }>();

/** The JSON bytes of a memoised engine body, kept beside it: a 200 writes them without serializing. */
const bodyBytes = new WeakMap<object, Buffer>();
function bytesOf(body: unknown): Buffer | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  let b = bodyBytes.get(body);
  if (b === undefined) {
    const json = bodyJson.get(body);
    if (json === undefined) return undefined;
    bodyBytes.set(body, (b = Buffer.from(json)));
  }
  return b;
}
const KEYED_ENGINE_OPTS = { demo: false, demoResultLimit: 0 };

export function errorResponses(codes: ErrorCode[]) {
  const out: Record<number, TSchema> = {};
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) {
    const status = ERROR_CODES[c].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), c]);
  }
  for (const [status, cs] of byStatus) {
    const headers = status === 429 || status === 503 ? RETRY_HEADERS : status === 301 ? { ...REQUEST_ID_HEADER, Location: { type: 'string', description: 'The successor on /v1/entities (/v1/demo/entities on the demo).' } } : REQUEST_ID_HEADER;
    out[status] = { ...ErrorBody(cs), headers } as unknown as TSchema;
  }
  return out;
}

export const NOT_MODIFIED = {
  description: 'Not Modified: If-None-Match named the current ETag. No body. Keyed: authenticated, limited and counted like the 200 it stands for.',
  type: 'null',
} as const;

export function engineInput(request: FastifyRequest): Record<string, unknown> {
  return { ...(request.params as Record<string, unknown> | undefined), ...(request.query as Record<string, unknown>) };
}

export function registerKeyed(app: FastifyInstance, ctx: GatewayContext, def: EngineRouteDef) {
  const codes: ErrorCode[] = ['INVALID_REQUEST', 'UNAUTHORIZED', 'RATE_LIMITED', 'QUOTA_EXCEEDED', 'STORE_UNAVAILABLE', 'ENGINE_UNAVAILABLE', 'INTERNAL_ERROR'];
  if (def.notFound) codes.splice(2, 0, def.notFound);
  if (def.otherErrors) codes.push(...def.otherErrors);
  app.route({
    method: 'GET',
    url: def.path,
    schema: {
      summary: def.summary,
      description: def.description,
      tags: ['keyed'],
      security: [{ bearerAuth: [] }],
      ...(def.params ? { params: def.params } : {}),
      querystring: def.querystring({ maxLength: 200, demo: false }),
      response: { 200: { ...def.body, headers: { ...QUOTA_HEADERS, ...CACHE_HEADERS } }, 304: NOT_MODIFIED, ...errorResponses(codes) },
    },
    // one hook (authentication, before validation) and the handler, which meters (admit), asks
    // the engine (without a promise in process) and sets every header once (keyedHeaders)
    onRequest: authenticate(ctx),
    handler: async (request, reply) => {
      const now = await admit(ctx, request, reply);
      const a = request.account!;
      // toEngine only reads its input: a route without path parameters reads the query as it is
      const params = def.toEngine(def.params ? engineInput(request) : (request.query as Record<string, unknown>), KEYED_ENGINE_OPTS);
      const answer = callEngineNow(ctx, request, def.op, params);
      const result = answer instanceof Promise ? await answer : answer;
      if (result.status !== 200) {
        // metering rule: a miss (404) or an engine-side refusal is not counted; the per-minute
        // limit still applies to it, so misses cannot be used to scrape
        if (a.counted) {
          await refund(ctx, request);
          a.used = Math.max(0, a.used - 1);
        }
        // the quota headers only: the standard-headers hook adds the rest of an error answer's
        keyedHeaders(reply, a, now);
        return sendEngineResult(reply, request, result);
      }
      const state = keyedHeaders(reply, a, now);
      const notMod = notModified(ctx, request, reply, def.op, params, result, false);
      keyedStandardHeaders(reply, a, state);
      if (notMod) return reply.code(304).send();
      const bytes = bytesOf(result.body);
      if (bytes === undefined) return sendEngineResult(reply, request, result);
      // a later identical request line may be answered before Fastify's routing (fast-keyed.ts)
      const fast = ctx.fastPath;
      if (fast !== undefined && fast.enabled && !fast.has(request.raw.url!)) {
        const r = fastRoute(ctx, def, params);
        if (r !== undefined) fast.remember(request.raw.url!, r);
      }
      reply.header('content-type', JSON_TYPE);
      return bytes;
    },
  });
}
