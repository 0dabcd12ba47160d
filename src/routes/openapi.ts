// The OpenAPI document's frame: version label, bearer scheme, servers and the prose that the
// route schemas cannot carry (error codes, metering, scores and states, id promise).
import type { GatewayContext } from '../gateway/context.ts';
import { ERROR_CODES } from '../gateway/errors.ts';
import { STARTER_PLANS } from '../store/ports.ts';
import { demoObject } from '../gateway/demo.ts';
import { demoPathOf } from '../gateway/paths.ts';
import type { EngineRouteDef } from './engine-route.ts';

export const API_VERSION = '1.0.0-early-access';

export function openApiInfo(ctx: GatewayContext) {
  const errors = Object.entries(ERROR_CODES).map(([code, v]) => `| \`${code}\` | ${v.status} | ${v.meaning} |`).join('\n');
  const plans = STARTER_PLANS.map((p) => `| ${p.name} | ${p.monthly_limit} | ${p.per_minute_limit} |`).join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Drinks Intelligence API',
      version: API_VERSION,
      description: `Evidence-backed information about wine, spirits and beer. Every fact carries its source; where there is no evidence the response says so.

Try it in a browser, without a key: the [playground](/) searches the keyless demo twins and shows each answer with its sources.

## Authentication
Keyed endpoints take \`Authorization: Bearer dis_live_…\`. Keys are stored only as SHA-256 hashes. Never put a key in browser-side code: keyed endpoints send no CORS permission. The keyless \`/v1/demo/\` twins do (\`Access-Control-Allow-Origin: *\`).

## Errors
Every error body is \`{"ok": false, "error": {"code", "message", "request_id"}}\`; the request id is also in the \`X-Request-Id\` header of every response.

| code | status | meaning |
|---|---|---|
${errors}

## Metering
Each key has one plan: a monthly allowance (calendar month, UTC) and a per-minute limit. Under any concurrency exactly the allowance is admitted, never one more. **What counts:** every request that passes authentication and validation and is admitted and answered 200, or 304 Not Modified (a 304 stands for the 200 it saves, so a client's count does not depend on its cache). **What does not count:** 404 \`ENTITY_NOT_RESOLVED\` and 404 \`NOT_FOUND\` (our coverage gaps are not your cost), 400, 401 and 429 responses, \`/v1/usage\`, and requests that fail on our side (503 \`ENGINE_UNAVAILABLE\`/\`STORE_UNAVAILABLE\`, 500), which are refunded. The per-minute limit still applies to misses, so misses cannot be used to scrape. A \`HEAD\` request is a \`GET\` without a body and counts the same. Quota headers (\`X-RateLimit-*\`) carry UTC epoch seconds for resets. With several gateway processes serving one key at a high rate, each process meters from blocks of the allowance it reserves ahead (usage leases), so \`X-RateLimit-Remaining\` is that process's view: it does not yet see what other processes reserved since its last reservation (at most one block each). The allowance itself is never exceeded.

## Caching
Engine-backed 200 answers carry an \`ETag\`. Keyed tags are strong: a hash of the knowledge-base version and the canonical request, the same on every gateway process, changing only with a data release. Keyed answers carry \`Cache-Control: private, max-age=3600\`; demo answers \`public, max-age=3600\` and a weak tag (their bodies carry per-caller counters). Send the tag back in \`If-None-Match\` to get 304 with no body; a keyed 304 is authenticated, limited and counted like the 200 it stands for.

Starter plans on a new database (operators can change them):

| plan | monthly | per minute |
|---|---|---|
${plans}

## Parameters
A missing, empty, repeated or over-long parameter, or a \`limit\` that is not a whole number from 1 to 25 (1 to 100 on \`/v1/entities\`), is a 400 \`INVALID_REQUEST\` naming the parameter. Unknown parameters are ignored, except that the demo refuses \`limit\`.

## Demo
Per-IP limits count IPv4 callers per address and IPv6 callers per /64 prefix.

## Scores and states
\`match_score\` and \`top_score\` run 0–100 and are comparable across queries: 100 exact canonical name, 97 exact alias, 94/92 accent-folded, 88/86 any word order, 60–85 word prefix (by how many of the name's words the query covers), typo-tolerant up to 75 (one edit from 5 letters, two from 9). \`state\` is \`unresolved\` below 55 (no matches are returned), \`ambiguous\` when the term is a declared shared term such as "pinot" or "champagne", when the runner-up is within 3 points, or within 5 points when the top is only a prefix or typo match, and \`resolved\` otherwise.

## Identifiers
\`entity_id\` is the UUIDv5 of a permanent entity key and never changes across data releases or restarts: store it. \`GET /v1/entities/{entity_id}\` fetches one entity by it, and every term parameter (\`q\`, \`left\`, \`right\`) accepts it too (or the permanent key): that entity is then resolved directly with \`matched_on: "entity_id"\` and score 100. \`GET /v1/entities\` lists what the service knows, filtered by type, domain, country or parent, in pages with an opaque cursor.`,
    },
    servers: [{ url: ctx.config.publicBaseUrl }],
    tags: [
      { name: 'keyed', description: 'Require a bearer key; metered.' },
      { name: 'demo', description: 'Keyless twins with demo limits and the `demo` object.' },
      { name: 'service', description: 'Health and plans.' },
    ],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'dis_live_<secret>', description: 'API key issued with `admin keys create`.' },
      },
    },
  };
}

/**
 * Puts a realistic example on every engine-backed 200 response: the engine's real answer to the
 * route's example request (and, for demo twins, with a demo object). Taken from the running
 * knowledge base at start-up, so examples never drift from the data. An engine that cannot be
 * reached at start-up (ENGINE_URL mode) leaves the schema-only document.
 */
export async function addExamples(
  doc: { paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { example?: unknown }> }> }>> },
  ctx: GatewayContext,
  defs: EngineRouteDef[],
) {
  for (const def of defs) {
    const input: Record<string, unknown> = { ...Object.fromEntries(new URLSearchParams(def.example)), ...def.examplePath };
    const openApiPath = def.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    for (const demo of [false, true]) {
      const params = def.toEngine(input, { demo, demoResultLimit: ctx.config.demo.resolveResultLimit });
      let result;
      try {
        result = await ctx.engine.call(def.op, params);
      } catch {
        return;
      }
      if (result.status !== 200) continue;
      const path = demo ? demoPathOf(openApiPath) : openApiPath;
      const json = doc.paths?.[path]?.get?.responses?.['200']?.content?.['application/json'];
      if (!json) continue;
      const query = def.example ? `?${def.example}` : '';
      const keyedUrl = def.path.replace(/:([A-Za-z_]+)/g, (_m, n: string) => encodeURIComponent(String(def.examplePath?.[n] ?? ''))) + query;
      json.example = demo ? { ...result.body, demo: demoObject(ctx, def.path, keyedUrl, false, ctx.config.demo.perIpPerHour - 1) } : result.body;
    }
  }
}

/**
 * Examples for the 200s that are not engine-backed: /health and /plans as this service answers them
 * at start-up, /v1/usage as a starter-plan key would see it mid-month.
 */
export async function addServiceExamples(
  doc: { paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { example?: unknown }> }> }>> },
  inject: (url: string) => Promise<{ statusCode: number; body: string }>,
  now: Date,
) {
  const set = (path: string, example: unknown) => {
    const json = doc.paths?.[path]?.get?.responses?.['200']?.content?.['application/json'];
    if (json) json.example = example;
  };
  for (const path of ['/health', '/plans']) {
    try {
      const r = await inject(path);
      if (r.statusCode === 200) set(path, JSON.parse(r.body));
    } catch {
      // the schema-only document stays
    }
  }
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  set('/v1/usage', {
    ok: true,
    plan: { name: 'starter', monthly_limit: 50_000, per_minute_limit: 60 },
    usage: { period_start: start.toISOString(), period_end: end.toISOString(), used: 1_234 },
    remaining: 48_766,
  });
}
