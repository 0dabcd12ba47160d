// Prometheus metrics through prom-client, one registry per gateway app: requests by route and
// status, latency histograms, quota and rate-limit refusals (by error code), the demo cache hit
// ratio, engine latency and store errors. Served at GET /metrics only with METRICS_TOKEN (bearer),
// or on a separate METRICS_PORT (its own listener, loopback by default); never public by default.
import http from 'node:http';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import { answerCounted, Metrics } from './metric-series.ts';
import type { GatewayContext } from './context.ts';
import { ApiError } from './errors.ts';
import { authFailureWindows } from './auth-failures.ts';
import { clientIp, ipBucket } from './client-address.ts';
import type { DroppedLines } from './log-sink.ts';

export { answerCounted, answerSeriesOf, CounterSeries, HistogramSeries, Metrics } from './metric-series.ts';

const REFUSALS = new Set(['RATE_LIMITED', 'QUOTA_EXCEEDED', 'DEMO_RATE_LIMITED', 'DEMO_DAILY_CAP_REACHED']);

/** Constant-time comparison of the presented bearer token with the configured one. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!m) return false;
  const a = crypto.createHash('sha256').update(m[1]!).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/** A counter whose value is a running count kept elsewhere, read at scrape time. */
function countedFrom(m: Metrics, name: string, help: string, read: () => number) {
  let counted = 0;
  new Counter({
    name,
    help,
    registers: [m.registry],
    collect() {
      const now = read();
      if (now > counted) this.inc(now - counted);
      counted = now;
    },
  });
}

/** Log lines dropped, by level: a running count kept by the log sink, read at scrape time. */
function droppedLogLines(m: Metrics, read: () => DroppedLines) {
  const counted: DroppedLines = { info: 0, warn: 0 };
  const severity = { info: 'info_or_below', warn: 'warn_or_above' } as const;
  new Counter({
    name: 'dis_log_lines_dropped_total',
    help: 'Log lines dropped because standard output did not drain (16 MB of blocks waiting for info and below, 1 MB more for warn and above; or at the drain deadline of a stop)',
    labelNames: ['severity'],
    registers: [m.registry],
    collect() {
      const now = read();
      for (const k of ['info', 'warn'] as const) {
        this.inc({ severity: severity[k] }, Math.max(0, now[k] - counted[k]));
        counted[k] = now[k];
      }
    },
  });
}

/** Hooks on the root app (every route), the /metrics route when a token is set, the metrics port. */
export function registerMetrics(app: FastifyInstance, ctx: GatewayContext, logLinesDropped: () => DroppedLines = () => ({ info: 0, warn: 0 })) {
  const m = new Metrics();
  ctx.metrics = m;
  // counts kept where they happen, read at scrape time (nothing per request)
  countedFrom(m, 'dis_fast_path_answers_total', 'Keyed answers given by the keyed fast path (also counted in dis_http_requests_total)', () => ctx.fastPath?.answered ?? 0);
  countedFrom(m, 'dis_fast_path_waits_total', 'Keyed requests that waited on the fast path for Redis minute tokens (answered there when admitted, else by Fastify)', () => ctx.fastPath?.waited ?? 0);
  droppedLogLines(m, logLinesDropped);
  app.addHook('onResponse', (request, reply, done) => {
    answerCounted(m, request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
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
    const failures = authFailureWindows(ctx);
    const limit = ctx.config.authFailuresPerIpPerMinute;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      // token guesses count in the same per-address windows as failed API keys (issue 24, 8.4)
      const bucket = ipBucket(clientIp(request));
      const now = Date.now();
      const seen = failures.peek(bucket, limit, now);
      if (!seen.allowed) {
        const retry = Math.max(1, Math.ceil((seen.resetAt - now) / 1000));
        reply.code(429).header('Retry-After', String(retry));
        return { ok: false, error: { code: 'RATE_LIMITED', message: `Too many failed authentications from this address (${limit} per minute); retry in ${retry} s with the metrics token.`, request_id: request.id } };
      }
      if (!tokenMatches(request.headers.authorization, token)) {
        failures.hit(bucket, limit, now);
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
