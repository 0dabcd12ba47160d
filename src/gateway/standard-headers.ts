// Standard headers beside ours (issue 12), added in one onSend hook on the root app:
// - keyed answers: the IETF RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers)
//   beside the X-RateLimit-* headers, one policy for the month and one for the minute;
//   `X-Content-Type-Options: nosniff`; and on errors `Cache-Control: no-store`;
// - a 401: `WWW-Authenticate: Bearer realm="drinks-intelligence"`, with `error="invalid_token"`
//   where a key was sent;
// - demo answers: `Access-Control-Expose-Headers`, so browser code can read Retry-After,
//   X-Request-Id and ETag.
import type { FastifyInstance } from 'fastify';
import { DEMO_PREFIX } from './paths.ts';
import { secondsOfMonth } from './calendar.ts';

export const REALM = 'drinks-intelligence';
export const DEMO_EXPOSED_HEADERS = 'Retry-After, X-Request-Id, ETag';

const num = (v: unknown) => (v === undefined || v === null || v === '' ? null : Number(v));


export function registerStandardHeaders(app: FastifyInstance, now: () => Date = () => new Date()) {
  app.addHook('onSend', (request, reply, payload, done) => {
    // a keyed 200 or 304 whose headers the route set at once (keyedHeaders): nothing to add
    if (request.account?.headersSet === true && reply.statusCode < 400) return done(null, payload);
    const path = request.url;
    const keyed = path.startsWith('/v1/') && !path.startsWith(DEMO_PREFIX);
    if (path.startsWith(DEMO_PREFIX)) reply.header('Access-Control-Expose-Headers', DEMO_EXPOSED_HEADERS);
    if (keyed) {
      reply.header('X-Content-Type-Options', 'nosniff');
      if (reply.statusCode >= 400) reply.header('Cache-Control', 'no-store');
      const limit = num(reply.getHeader('X-RateLimit-Limit'));
      const minuteLimit = num(reply.getHeader('X-RateLimit-Minute-Limit'));
      const d = now();
      const nowS = Math.ceil(d.getTime() / 1000);
      const policies: string[] = [];
      const states: string[] = [];
      if (limit !== null) {
        const reset = num(reply.getHeader('X-RateLimit-Reset'));
        const remaining = num(reply.getHeader('X-RateLimit-Remaining'));
        // the monthly window: a calendar month, given as the seconds of the current one
        const monthSeconds = secondsOfMonth(d);
        policies.push(`"monthly";q=${limit};w=${monthSeconds}`);
        if (remaining !== null && reset !== null) states.push(`"monthly";r=${remaining};t=${Math.max(0, reset - nowS)}`);
      }
      if (minuteLimit !== null) {
        const reset = num(reply.getHeader('X-RateLimit-Minute-Reset'));
        const remaining = num(reply.getHeader('X-RateLimit-Minute-Remaining'));
        policies.push(`"minute";q=${minuteLimit};w=60`);
        if (remaining !== null && reset !== null) states.push(`"minute";r=${remaining};t=${Math.max(0, reset - nowS)}`);
      }
      if (policies.length) reply.header('RateLimit-Policy', policies.join(', '));
      if (states.length) reply.header('RateLimit', states.join(', '));
    }
    if (reply.statusCode === 401 && !path.startsWith('/metrics')) {
      reply.header('WWW-Authenticate', request.headers.authorization ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`);
    }
    done(null, payload);
  });
}
