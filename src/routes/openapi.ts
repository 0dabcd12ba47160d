// The OpenAPI document's frame: version label, bearer scheme, servers and the prose that the
// route schemas cannot carry (error codes, metering, scores and states, id promise).
import type { GatewayContext } from '../gateway/context.ts';
import { ERROR_CODES } from '../gateway/errors.ts';
import { STARTER_PLANS } from '../store/ports.ts';

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

## Authentication
Keyed endpoints take \`Authorization: Bearer dis_live_…\`. Keys are stored only as SHA-256 hashes. Never put a key in browser-side code: keyed endpoints send no CORS permission. The keyless \`/v1/demo/\` twins do (\`Access-Control-Allow-Origin: *\`).

## Errors
Every error body is \`{"ok": false, "error": {"code", "message", "request_id"}}\`; the request id is also in the \`X-Request-Id\` header of every response.

| code | status | meaning |
|---|---|---|
${errors}

## Metering
Each key has one plan: a monthly allowance (calendar month, UTC) and a per-minute limit. Under any concurrency exactly the allowance is admitted, never one more. **What counts:** every request that passes authentication and validation and is admitted, answered 200 or 404 \`ENTITY_NOT_RESOLVED\`. **What does not count:** 400, 401 and 429 responses, \`/v1/usage\`, and requests that fail on our side (503 \`ENGINE_UNAVAILABLE\`/\`STORE_UNAVAILABLE\`, 500), which are refunded. A \`HEAD\` request is a \`GET\` without a body and counts the same. Quota headers (\`X-RateLimit-*\`) carry UTC epoch seconds for resets.

Starter plans on a new database (operators can change them):

| plan | monthly | per minute |
|---|---|---|
${plans}

## Parameters
A missing, empty, repeated or over-long parameter, or a \`limit\` that is not a whole number from 1 to 25, is a 400 \`INVALID_REQUEST\` naming the parameter. Unknown parameters are ignored, except that the demo refuses \`limit\`.

## Demo
Per-IP limits count IPv4 callers per address and IPv6 callers per /64 prefix.

## Scores and states
\`match_score\` and \`top_score\` run 0–100 and are comparable across queries: 100 exact canonical name, 97 exact alias, 94/92 accent-folded, 88/86 any word order, 60–85 word prefix (by how many of the name's words the query covers), typo-tolerant up to 75 (one edit from 5 letters, two from 9). \`state\` is \`unresolved\` below 55 (no matches are returned), \`ambiguous\` when the term is a declared shared term such as "pinot" or "champagne", when the runner-up is within 3 points, or within 5 points when the top is only a prefix or typo match, and \`resolved\` otherwise.

## Identifiers
\`entity_id\` is the UUIDv5 of a permanent entity key and never changes across data releases or restarts: store it.`,
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
