// `npm run engine`: the engine as its own HTTP process (PORT, HOST). The gateway reaches it with
// ENGINE_URL. Bodies are the engine's v1 bodies; the gateway passes them through unchanged.
// The engine has no authentication and no metering of its own: bind it to a private address that
// only the gateways reach. It checks its own parameters by the keyed API's rules: lengths in
// Unicode code points (as the gateway's JSON-schema validation counts them, so a term the gateway
// admits is never refused here), no control characters. Its log masks keys, percent-encoded too, in every field.
import Fastify from 'fastify';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { loadEngine } from './bootstrap.ts';
import { ENGINE_OPS, EngineRunner, KB_VERSION_HEADER, type EngineOp } from './gateway/engine-client.ts';
import type { Engine } from './engine/engine.ts';
import { redactKeys, redactLine } from './gateway/redact.ts';

/** Length in Unicode code points: what JSON Schema's maxLength counts (an emoji is 1, not 2). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const TERMS: Record<EngineOp, string[]> = { 'resolve-entity': ['q'], explain: ['q'], pair: ['q'], 'pair-food': ['q'], compare: ['left', 'right'], parse: ['q'], entity: ['id'], entities: [], kb: [], 'kb-notes': [] };

/** The keyed API's parameter rules, so the engine is safe to call directly too. */
export function engineParamProblem(op: EngineOp, q: Record<string, unknown>): { message: string; parameter: string } | null {
  for (const [k, v] of Object.entries(q)) {
    if (typeof v === 'string' && CONTROL.test(v)) return { message: `Parameter "${k}" contains a control character (U+0000–U+001F, U+007F–U+009F); remove it.`, parameter: k };
  }
  for (const t of TERMS[op]) {
    const v = q[t];
    if (typeof v !== 'string' || !v.trim()) return { message: `Missing required parameter "${t}".`, parameter: t };
    const max = op === 'parse' ? 300 : 200;
    if (codePointLength(v) > max) return { message: `Parameter "${t}" is too long: at most ${max} characters.`, parameter: t };
  }
  if (op === 'compare' && q.provenance !== undefined && q.provenance !== 'inline' && q.provenance !== 'by_key') {
    return { message: 'Parameter "provenance" must be "inline" or "by_key".', parameter: 'provenance' };
  }
  if (op === 'entities') {
    for (const k of ['type', 'domain', 'country', 'parent', 'grape', 'appellation', 'cursor']) {
      const v = q[k];
      if (v !== undefined && (typeof v !== 'string' || codePointLength(v) > 400)) return { message: `Parameter "${k}" is invalid.`, parameter: k };
    }
    const l = q.limit;
    if (l !== undefined && (typeof l !== 'string' || !/^[0-9]{1,3}$/.test(l) || Number(l) < 1 || Number(l) > 100)) {
      return { message: 'Parameter "limit" must be a whole number from 1 to 100.', parameter: 'limit' };
    }
    return null;
  }
  if ((op === 'resolve-entity' || op === 'pair-food') && q.limit !== undefined) {
    const l = q.limit;
    if (typeof l !== 'string' || !/^[0-9]{1,2}$/.test(l) || Number(l) < 1 || Number(l) > 25) {
      return { message: 'Parameter "limit" must be a whole number from 1 to 25.', parameter: 'limit' };
    }
  }
  return null;
}

/** `limits`: the same header/request deadlines and connection limit as the gateway (HTTP_* settings). */
export function buildEngineServer(engine: Engine, logLevel = 'info', logStream?: NodeJS.WritableStream, limits?: Config['http']) {
  const app = Fastify({
    ...(limits
      ? {
          requestTimeout: limits.requestTimeoutMs,
          http: { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: 1000 },
        }
      : {}),
    logger: {
      level: logLevel,
      ...(logStream ? { stream: logStream } : {}),
      // keys masked from every field of every line, in any encoding (redact.ts)
      hooks: { streamWrite: redactLine },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactKeys(req.url), remoteAddress: req.ip }),
      },
    },
  });
  if (limits && limits.maxConnections > 0) app.server.maxConnections = limits.maxConnections;
  const runner = new EngineRunner(engine);
  app.get('/engine/health', async () => ({ status: 'ok', kb_version: engine.version }));
  for (const op of ENGINE_OPS) {
    app.get(`/engine/v1/${op}`, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const problem = engineParamProblem(op as EngineOp, query);
      if (problem) {
        reply.code(400);
        return { ok: false, error: { code: 'INVALID_REQUEST', ...problem } };
      }
      const result = runner.run(op as EngineOp, query as Record<string, string>);
      reply.code(result.status).header(KB_VERSION_HEADER, engine.version);
      return result.body;
    });
  }
  return app;
}

async function main() {
  const config = loadConfig();
  const engine = loadEngine(config);
  // the pair-food index is built before listening: a food vocabulary that cannot be loaded is a
  // start-up error naming the file, never a crash after listening (issue 31, item 5)
  engine.warmFood();
  const app = buildEngineServer(engine, config.logLevel, undefined, config.http);
  await app.listen({ port: config.port, host: config.host });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e instanceof ConfigError ? e.message : e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
