// Prometheus metrics through prom-client, one registry per gateway app: requests by route and
// status, latency histograms, quota and rate-limit refusals (by error code), the demo cache hit
// ratio, engine latency and store errors. Served at GET /metrics only with METRICS_TOKEN (bearer),
// or on a separate METRICS_PORT (its own listener, loopback by default); never public by default.
import http from 'node:http';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GatewayContext } from './context.ts';
import { ApiError } from './errors.ts';

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'dis_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status', labelNames: ['route', 'method', 'status'] as const, registers: [this.registry] });
  readonly latency = new Histogram({ name: 'dis_http_request_duration_seconds', help: 'Time to answer, by route pattern', labelNames: ['route'] as const, buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry] });
  readonly refusals = new Counter({ name: 'dis_refusals_total', help: 'Requests refused by a limit, by error code (RATE_LIMITED, QUOTA_EXCEEDED, DEMO_RATE_LIMITED, DEMO_DAILY_CAP_REACHED)', labelNames: ['code'] as const, registers: [this.registry] });
  readonly errors = new Counter({ name: 'dis_errors_total', help: 'Error answers by error code (includes STORE_UNAVAILABLE and ENGINE_UNAVAILABLE)', labelNames: ['code'] as const, registers: [this.registry] });
  readonly storeErrors = new Counter({ name: 'dis_store_errors_total', help: 'Requests that met an unavailable account store or limiter', registers: [this.registry] });
  readonly demoCache = new Counter({ name: 'dis_demo_cache_lookups_total', help: 'Demo answer cache look-ups by result (hit, miss); hit ratio = hit / (hit + miss)', labelNames: ['result'] as const, registers: [this.registry] });
  readonly engineLatency = new Histogram({ name: 'dis_engine_call_duration_seconds', help: 'Engine call time by operation and outcome', labelNames: ['op', 'outcome'] as const, buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'dis_' });
  }
}

const REFUSALS = new Set(['RATE_LIMITED', 'QUOTA_EXCEEDED', 'DEMO_RATE_LIMITED', 'DEMO_DAILY_CAP_REACHED']);

/** Constant-time comparison of the presented bearer token with the configured one. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!m) return false;
  const a = crypto.createHash('sha256').update(m[1]!).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/** Hooks on the root app (every route), the /metrics route when a token is set, the metrics port. */
export function registerMetrics(app: FastifyInstance, ctx: GatewayContext) {
  const m = new Metrics();
  ctx.metrics = m;
  // the labelled children are kept (bounded by routes × methods × statuses), so a request costs no
  // label hashing in prom-client
  const counters = new Map<string, ReturnType<typeof m.requests.labels>>();
  const timers = new Map<string, ReturnType<typeof m.latency.labels>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const id = `${route} ${request.method} ${reply.statusCode}`;
    let c = counters.get(id);
    if (!c) counters.set(id, (c = m.requests.labels({ route, method: request.method, status: String(reply.statusCode) })));
    c.inc();
    let t = timers.get(route);
    if (!t) timers.set(route, (t = m.latency.labels({ route })));
    t.observe(reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', (_request, _reply, err, done) => {
    if (err instanceof ApiError) {
      m.errors.inc({ code: err.code });
      if (REFUSALS.has(err.code)) m.refusals.inc({ code: err.code });
      if (err.code === 'STORE_UNAVAILABLE') m.storeErrors.inc();
    }
    done();
  });
  const { token, port, host } = ctx.config.metrics;
  if (token) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!tokenMatches(request.headers.authorization, token)) {
        reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"');
        return { ok: false, error: { code: 'UNAUTHORIZED', message: 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".', request_id: request.id } };
      }
      reply.header('Content-Type', m.registry.contentType).header('Cache-Control', 'no-store');
      return m.registry.metrics();
    });
  }
  if (port !== null) {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      m.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': m.registry.contentType, 'Cache-Control': 'no-store' }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    app.addHook('onReady', () => new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    }));
    app.addHook('onClose', () => new Promise<void>((resolve) => server.close(() => resolve())));
  }
  return m;
}
