// The gateway application. Order of concerns, top to bottom: server limits (header and request
// deadlines, open connections), request ids and logging (keys redacted, percent-encoded ones too),
// the error envelope (400/404/405/408/500 and every ApiError), OpenAPI + local docs, then the routes.
import crypto from 'node:crypto';
import http from 'node:http';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyHttpOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { GatewayContext } from './gateway/context.ts';
import { ApiError, errorBody } from './gateway/errors.ts';
import { DEMO_PREFIX } from './gateway/paths.ts';
import { bodyJson } from './gateway/engine-client.ts';
import health, { invalidateHealth } from './routes/health.ts';
import { redactKeys, redactLine } from './gateway/redact.ts';
import { requestIdOf } from './gateway/request-id.ts';
import plans from './routes/plans.ts';
import resolveEntity, { resolveEntityRoute } from './routes/v1/resolve-entity.ts';
import explain, { explainRoute } from './routes/v1/explain.ts';
import parse, { parseRoute } from './routes/v1/parse.ts';
import pairFood, { pairFoodRoute } from './routes/v1/pair-food.ts';
import pair, { pairRoute } from './routes/v1/pair.ts';
import compare, { compareRoute } from './routes/v1/compare.ts';
import entity, { entityRoute } from './routes/v1/entity.ts';
import entities, { entitiesRoute } from './routes/v1/entities.ts';
import usage from './routes/v1/usage.ts';
import kb from './routes/v1/kb.ts';
import kbNotes from './routes/v1/kb-notes.ts';
import playground from './routes/playground.ts';
import { addExamples, addServiceExamples, openApiInfo } from './routes/openapi.ts';
import { registerMetrics } from './gateway/metrics.ts';
import { registerStandardHeaders } from './gateway/standard-headers.ts';
import { lazyChildLogger } from './gateway/lazy-logger.ts';
import { KeyedFastPath } from './gateway/fast-keyed.ts';
import { AccessLog, type LineSink } from './gateway/access-log.ts';
import { LogSink } from './gateway/log-sink.ts';

/** C0 and C1 control characters and DEL: never part of a term, refused in every parameter. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export { redactKeys };

export { requestIdOf };

/** The first parameter holding a control character, if any. */
function controlCharParameter(values: Record<string, unknown> | undefined): string | undefined {
  if (!values) return undefined;
  for (const k in values) {
    const v = values[k];
    if ((typeof v === 'string' && CONTROL.test(v)) || CONTROL.test(k)) return k;
  }
  return undefined;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Turns a schema-validation failure into a message that names the parameter. */
export function validationMessage(errors: AjvError[], limitMax = 25): { message: string; parameter: string | undefined } {
  const e = errors[0]!;
  const param = e.instancePath.replace(/^\//, '') || (e.params.missingProperty as string) || (e.params.additionalProperty as string);
  switch (e.keyword) {
    case 'required':
      return { message: `Missing required parameter "${param}".`, parameter: param };
    case 'additionalProperties':
      return { message: `Unknown parameter "${param}" for this endpoint.`, parameter: param };
    case 'minLength':
    case 'pattern':
      return { message: `Parameter "${param}" must not be empty.`, parameter: param };
    case 'maxLength':
      return { message: `Parameter "${param}" is too long: at most ${e.params.limit} characters.`, parameter: param };
    case 'type':
    case 'minimum':
    case 'maximum':
      if (param === 'limit') return { message: `Parameter "limit" must be a whole number from 1 to ${limitMax}.`, parameter: param };
      return { message: `Parameter "${param}" ${e.message ?? 'is invalid'}.`, parameter: param };
    default:
      return { message: `Parameter "${param}" ${e.message ?? 'is invalid'}.`, parameter: param };
  }
}

/** The largest `limit` the route accepts (25 unless its schema says otherwise). */
function limitMaxOf(request: { routeOptions?: { schema?: { querystring?: unknown } } }): number {
  const qs = request.routeOptions?.schema?.querystring as { properties?: { limit?: { maximum?: number } } } | undefined;
  return qs?.properties?.limit?.maximum ?? 25;
}

export interface AppOptions {
  logger?: boolean | object;
  /** where the log lines go (default: standard output through a LogSink); a LogSink's dropped lines are counted in the metrics */
  logStream?: NodeJS.WritableStream | LogSink;
}

/**
 * The gateway app. Plugin order, which matters (hooks run in the order they are added):
 * server limits and the keyed fast path in front of routing, engine bodies as they are, request
 * checks, the error envelope, shutdown, metrics, standard headers, the OpenAPI document, routes.
 */
export async function buildApp(ctx: GatewayContext, opts: AppOptions = {}) {
  const fast = keyedFastPath(ctx);
  const app = Fastify(fastifyOptions(ctx, opts, fast));
  const logs = opts.logStream ?? logDestination();
  registerAccessLog(app, fast, logs);
  limitConnections(app, ctx);
  serializeEngineBodies(app);
  registerRequestChecks(app);
  registerErrorEnvelope(app, ctx);
  registerShutdown(app, fast);
  registerMetrics(app, ctx, logs instanceof LogSink ? () => logs.droppedLines : undefined);
  registerStandardHeaders(app, ctx.now);
  await registerDocs(app, ctx);
  await registerRoutes(app, ctx);
  return app;
}

type App = FastifyInstance;

/**
 * Pino's options: the level, keys redacted from the URL and the Authorization header, and from
 * every other field of every line, in any encoding (redactLine: a header that reaches a line by
 * any way, a Host or a forwarded address in an error, is covered too).
 */
function loggerOptions(ctx: GatewayContext, opts: AppOptions) {
  return {
    level: ctx.config.logLevel,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
    hooks: { streamWrite: redactLine },
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactKeys(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    // standard output, written in blocks of 64 KB instead of one system call per line (an access
    // line per request at info): flushed every second, on close and at exit
    stream: opts.logStream ?? logDestination(),
  };
}

/** Buffered log lines are written at least this often. */
export const LOG_FLUSH_MS = 1000;
let destination: LogSink | undefined;
/** Standard output for the logs, buffered (64 KB blocks, src/gateway/log-sink.ts) and flushed on close and at exit; one per process. */
function logDestination() {
  if (!destination) {
    // Node puts a pipe or socket into non-blocking mode when process.stdout is first used: then a
    // reader that stops makes a write fail with EAGAIN instead of blocking (a thread, or the stop,
    // for ever), so the sink can give up at its drain deadline (LOG_DRAIN_MS)
    void process.stdout;
    destination = new LogSink(1);
    // a quiet service still shows its lines within a second
    setInterval(() => flushLogs(false), LOG_FLUSH_MS).unref();
    process.once('exit', () => flushLogs(true));
  }
  return destination;
}

/** Writes the buffered log lines now (`sync`: before returning); a flush already under way, or a closed stream, is left alone. */
function flushLogs(sync: boolean) {
  const d = destination;
  if (!d) return;
  try {
    if (sync) d.flushSync();
    else d.flush();
  } catch {
    // the next flush writes the rest, or nothing more can be written
  }
}

/**
 * The keyed fast path (src/gateway/fast-keyed.ts): off where the engine is remote, and with
 * KEYED_FAST_PATH=off. At every log level: it writes the same access line as the Fastify path.
 */
function keyedFastPath(ctx: GatewayContext) {
  const fast = new KeyedFastPath(ctx, ctx.config.keyedFastPath && typeof ctx.engine.callSync === 'function');
  ctx.fastPath = fast;
  return fast;
}

/**
 * The access log (LOG_LEVEL info and below): one line per request, "request completed", with the
 * request id, the request (method, URL with keys redacted, host, address, port), the status and the
 * time taken in ms. Fastify's own two lines per request ("incoming request", "request completed")
 * are off; the keyed fast path writes this same line for the answers it gives.
 */
function registerAccessLog(app: App, fast: KeyedFastPath, out: LineSink) {
  if ((app.log as unknown as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') !== true) return;
  const access = new AccessLog(out);
  fast.logTo(access);
  app.addHook('onResponse', (request, reply, done) => {
    access.line(request.id, request.method, request.url, request.hostname, request.ip, request.socket?.remotePort, reply.statusCode, reply.elapsedTime);
    done();
  });
}

/** Fastify's options: logging, deadlines, proxies, request ids, the HTTP server with the fast path in front, malformed requests. */
function fastifyOptions(ctx: GatewayContext, opts: AppOptions, fast: KeyedFastPath) {
  const limits = ctx.config.http;
  return {
    logger: opts.logger === false ? false : loggerOptions(ctx, opts),
    // one access line per request instead of Fastify's two (registerAccessLog)
    logController: new LogController({ disableRequestLogging: true }),
    // a client that sends its headers or its request too slowly is answered 408 and let go; the
    // deadlines are checked every second (Node's default would check every 30 s)
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: 1000 },
    // only when configured: true trusts the last hop only; a list trusts exactly those proxies
    trustProxy: Array.isArray(ctx.config.trustProxy) ? ctx.config.trustProxy : ctx.config.trustProxy ? (_addr: string, hop: number) => hop < 1 : false,
    requestIdHeader: false,
    genReqId: (req) => requestIdOf(req.headers['x-request-id']),
    // request loggers made on first use: a request that logs nothing builds no pino child
    childLoggerFactory: lazyChildLogger,
    ajv: { customOptions: { coerceTypes: true, allErrors: false, removeAdditional: false } },
    // requests still arriving while the server closes are answered normally
    return503OnClosing: false,
    // the HTTP/1 server as Fastify makes it (lib/server.js), with the keyed fast path in front of
    // Fastify's routing: a request it does not answer goes to Fastify untouched
    serverFactory: (handler, opts) => {
      // Fastify passes its options with its defaults filled in
      const o = opts as unknown as { http?: http.ServerOptions; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket: number };
      fast.fallback = handler;
      const server = http.createServer(o.http ?? {}, fast.enabled ? (req, res) => fast.handle(req, res) || handler(req, res) : handler);
      server.keepAliveTimeout = o.keepAliveTimeout;
      server.requestTimeout = o.requestTimeout;
      server.setTimeout(o.connectionTimeout);
      if (o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
      return server;
    },
    frameworkErrors: (error, request, reply) => {
      const id = requestIdOf(request.headers['x-request-id']);
      (reply as unknown as FastifyReply)
        .code(400)
        .header('X-Request-Id', id)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(errorBody('INVALID_REQUEST', error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL: invalid percent-encoding in the path.' : 'Malformed request.', id)));
    },
    clientErrorHandler: (err, socket) => {
      const code = (err as { code?: string }).code;
      const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const id = crypto.randomUUID();
      const message =
        status === 431 ? 'Request line or headers too large (a parameter is far over its length limit).'
        : status === 408 ? `Request not received in time: headers are due within ${limits.headersTimeoutMs} ms and the whole request within ${limits.requestTimeoutMs} ms.`
        : 'Malformed HTTP request.';
      const body = JSON.stringify(errorBody('INVALID_REQUEST', message, id));
      const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
      if (socket.writable) {
        socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      } else socket.destroy(err);
    },
  } satisfies FastifyHttpOptions<http.Server>;
}

/** Beyond this many open connections new ones are closed at once (0: no limit). */
function limitConnections(app: App, ctx: GatewayContext) {
  if (ctx.config.http.maxConnections > 0) app.server.maxConnections = ctx.config.http.maxConnections;
}

/** Engine bodies are passed through as they are (see below). */
function serializeEngineBodies(app: App) {
  // engine bodies are passed through as they are: serialize with JSON.stringify, never drop fields.
  // Memoised engine bodies carry their JSON already (bodyJson).
  app.setSerializerCompiler(() => (data) => (data !== null && typeof data === 'object' && bodyJson.get(data as object)) || JSON.stringify(data));
}

/** The request id header, and the checks every request passes before schema validation. */
function registerRequestChecks(app: App) {
  // callback-style hooks on the hot path: no promise per request
  app.addHook('onRequest', (request, reply, done) => {
    // the name in lower case, as Fastify keeps and writes it (no new string per request)
    reply.header('x-request-id', request.id);
    done();
  });

  // a repeated parameter is an error, not an array; a control character is never part of a term
  // (and would let two different requests look the same in logs or keys)
  app.addHook('preValidation', (request, _reply, done) => {
    // a malformed percent-encoding ("%E0%A4%A", a lone "%") is refused, not read as the literal text
    const url = request.url;
    const qs = url.indexOf('?');
    if (qs >= 0 && url.includes('%', qs)) {
      for (const part of url.slice(qs + 1).split('&')) {
        try {
          decodeURIComponent(part.replace(/\+/g, ' '));
        } catch {
          const name = part.split('=')[0] ?? '';
          let shown = name;
          try {
            shown = decodeURIComponent(name);
          } catch {
            shown = '';
          }
          return done(new ApiError('INVALID_REQUEST', `The query string has a malformed percent-encoding${shown ? ` in parameter "${shown}"` : ''}: encode the text as UTF-8 with %XX escapes.`, {}, shown ? { parameter: shown } : {}));
        }
      }
    }
    const q = request.query as Record<string, unknown> | undefined;
    const bad = controlCharParameter(q) ?? controlCharParameter(request.params as Record<string, unknown> | undefined);
    if (bad !== undefined) {
      const name = CONTROL.test(bad) ? 'a parameter name' : `"${bad}"`;
      return done(new ApiError('INVALID_REQUEST', `Parameter ${name} contains a control character (U+0000–U+001F, U+007F–U+009F); remove it.`, {}, CONTROL.test(bad) ? {} : { parameter: bad }));
    }
    if (q) {
      for (const k in q) {
        if (Array.isArray(q[k])) return done(new ApiError('INVALID_REQUEST', `Parameter "${k}" is repeated; give it once.`, {}, { parameter: k }));
      }
      // "1.0", "0x5" or "5e0" would be coerced to integers by the validator: only digits are a whole number
      if (typeof q.limit === 'string' && !/^[0-9]{1,3}$/.test(q.limit)) {
        return done(new ApiError('INVALID_REQUEST', `Parameter "limit" must be a whole number from 1 to ${limitMaxOf(request)}.`, {}, { parameter: 'limit' }));
      }
    }
    done();
  });
}

/** The error envelope: every ApiError, validation failure, 404, 405 and 500 as one JSON shape. */
function registerErrorEnvelope(app: App, ctx: GatewayContext) {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (err instanceof ApiError) {
      if (err.status >= 500) request.log.warn({ code: err.code }, err.message);
      // a dependency seen down by a request: /health must not keep answering a reused "ok"
      if (err.code === 'ENGINE_UNAVAILABLE' || err.code === 'STORE_UNAVAILABLE') invalidateHealth(ctx);
      reply.headers(err.headers).code(err.status);
      return errorBody(err.code, err.message, request.id, err.details);
    }
    if ((err as FastifyError).validation) {
      const { message, parameter } = validationMessage((err as FastifyError).validation as unknown as AjvError[], limitMaxOf(request));
      reply.code(400);
      return errorBody('INVALID_REQUEST', message, request.id, parameter ? { parameter } : {});
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      reply.code(status);
      return errorBody('INVALID_REQUEST', err.message, request.id);
    }
    request.log.error({ err }, 'unhandled error');
    reply.code(500);
    return errorBody('INTERNAL_ERROR', 'Internal error. It has been logged with this request id.', request.id);
  });

  const knownPaths = new Set<string>();
  const knownPatterns: RegExp[] = [];
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET' || (Array.isArray(route.method) && route.method.includes('GET'))) {
      knownPaths.add(route.url);
      if (route.url.includes('/:')) knownPatterns.push(new RegExp(`^${route.url.replace(/:[A-Za-z_]+/g, '[^/]+')}$`));
    }
  });
  const isKnownPath = (p: string) => knownPaths.has(p) || knownPatterns.some((r) => r.test(p));

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (isKnownPath(path)) {
      if (request.method === 'OPTIONS' && path.startsWith(DEMO_PREFIX)) {
        // demo endpoints may be called from browsers; keyed endpoints never grant CORS
        reply.headers({
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, HEAD',
          'Access-Control-Allow-Headers': 'X-Request-Id, If-None-Match',
          'Access-Control-Max-Age': '600',
        });
        return reply.code(204).send();
      }
      reply.code(405).header('Allow', 'GET, HEAD');
      return errorBody('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on ${path}; use GET.`, request.id);
    }
    reply.code(404);
    return errorBody('NOT_FOUND', `No endpoint at ${path}. See /docs for the API.`, request.id);
  });
}

/** Once the server starts closing, Fastify answers every request. */
function registerShutdown(app: App, fast: KeyedFastPath) {
  // the buffered log lines are written before the app is gone
  app.addHook('onClose', (_app, done) => {
    flushLogs(true);
    done();
  });
  // once the server starts closing, Fastify answers every request (with Connection: close, so
  // kept-alive clients let go and the close completes)
  app.addHook('preClose', (done) => {
    fast.closing = true;
    done();
  });
}

/** The OpenAPI document at /openapi.json and the documentation at /docs. */
async function registerDocs(app: App, ctx: GatewayContext) {
  await app.register(swagger, { openapi: openApiInfo(ctx) });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true }, staticCSP: true, theme: { title: 'Drinks Intelligence API: documentation' } });
  // /health and /plans answer only once the app is ready, so their examples are taken on the first
  // request for the document (never at start-up: an early health check would race the stores'
  // first connections)
  let serviceExamplesDone: Promise<void> | null = null;
  const serviceExamples = () => (serviceExamplesDone ??= addServiceExamples(app.swagger() as never, (url) => app.inject({ url }), ctx.now()));
  app.get('/openapi.json', { schema: { hide: true } }, async () => {
    await serviceExamples();
    return app.swagger();
  });
}

/** Every endpoint, one file each under src/routes, and the examples of its document. */
async function registerRoutes(app: App, ctx: GatewayContext) {
  for (const route of [health, plans, kb, kbNotes, resolveEntity, explain, pair, pairFood, compare, parse, entity, entities, usage, playground]) {
    await app.register(async (instance) => route(instance, ctx));
  }
  // realistic examples from the knowledge base on every engine-backed 200 (the document is built once)
  app.addHook('onReady', async () => {
    await addExamples(app.swagger() as never, ctx, [resolveEntityRoute, explainRoute, pairRoute, pairFoodRoute, compareRoute, parseRoute, entityRoute, entitiesRoute]);
  });
}
