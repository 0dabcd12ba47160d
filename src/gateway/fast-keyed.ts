// The keyed fast path (issue 14): a keyed GET that Fastify has already answered 200 for the very
// same request line is answered again before Fastify's routing, from node:http's own request
// event, when every answer it needs is at hand in this process:
//   - the URL (path and query, byte for byte) is one a keyed engine route answered 200 before, so
//     routing, the control-character and repeated-parameter checks and schema validation would
//     give the same outcome again (they read nothing but the URL); its engine parameters are kept;
//   - the key and its plan are in the account cache and fresh (the same 1 s as the Fastify path);
//   - this address is not refused for failed authentications (its own bucket is looked at only
//     while some address is: with TRUST_PROXY the address is Fastify's to read, so then Fastify
//     answers);
//   - the engine runs in this process and answers 200 at once (callSync, its memo);
//   - the monthly count is admitted without a promise (a usage lease's block in hand), then the
//     per-minute limiter admits without a promise (in-memory windows, or Redis tokens held), or,
//     when Redis' tokens ran out while the next grant is on its way, after the request waited here
//     for the limiter as it would on the Fastify path (refused, or the limiter failing: the month
//     goes back and Fastify answers, counting it once);
//   - at LOG_LEVEL info and below it writes the same access line the Fastify path writes
//     (app.ts: one "request completed" line per request), so the default logs every request;
//     behind TRUST_PROXY the line names the forwarded address, which only Fastify reads, so there
//     Fastify answers while requests are logged.
// Anything else is handed to Fastify: before anything is counted, or with what was taken given
// back at once (a month taken from the block when the minute or the engine then sends the request
// on goes back into the block, synchronously), so Fastify counts it exactly once. That covers
// refusals (401, 429), errors, 304s with a changed tag, misses (404), HEAD and every other method,
// demo routes, and every request once the server starts closing (Fastify then answers with
// Connection: close, so kept-alive clients let go). The answer is the one the Fastify path gives,
// header for header in the same order (test/gateway/fast-keyed.test.ts compares them): the quota
// headers, ETag, Cache-Control, nosniff, RateLimit-Policy and RateLimit, and the body bytes the
// engine's memo holds, or a 304 when If-None-Match names the tag. It is counted in
// dis_http_requests_total and the latency histogram like any answer, and its engine call in the
// engine-latency histogram (only for answers given here).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { LRUCache } from 'lru-cache';
import { peerFields, urlField, type AccessLog } from './access-log.ts';
import { authFailuresSeen, authFailureWindows } from './auth-failures.ts';
import { ipBucket, socketAddress } from './client-address.ts';
import type { GatewayContext } from './context.ts';
import { BEARER, limiterFailedOn, planHeaders, windowKey, type PlanHeaders } from './keyed.ts';
import { monthOf } from './calendar.ts';
import { forgetUsage } from './usage-reads.ts';
import { hashKey } from './keys.ts';
import { requestIdOf } from './request-id.ts';
import { answerSeriesOf } from './metric-series.ts';
import type { FastAnswer, FastPathHandle, FastRoute } from './fast-route.ts';
import type { LimitResult, Plan } from '../store/ports.ts';
import { LimiterUnavailableError } from '../store/limiter.ts';
import { JSON_TYPE, matchesIfNoneMatch, PRIVATE_CACHE } from './answer-headers.ts';
import { headTail, rawHeadFits, setRawHead, writeHeadRaw } from './raw-head.ts';

export type { FastAnswer, FastRoute } from './fast-route.ts';

/** Request lines remembered at most. */
export const FAST_PATH_ENTRIES = 6_000;
/** Only request lines up to this many characters are remembered (a longer one is always Fastify's). */
export const FAST_PATH_MAX_URL = 512;
/**
 * The memo's budget: what an entry holds at most, counted when it is remembered (the request line,
 * kept twice: as the key and as the access line's URL field, 2 bytes a character each at worst; the
 * entry, its route, its engine call and the header segments of its 200: 2.2 KB of heap an entry,
 * measured after a full collection with 3,000 pair-food lines remembered, then forgotten); past
 * it, or past FAST_PATH_ENTRIES, the least recently used line is forgotten (never the whole memo). An
 * entry holds no answer body: the bytes are the engine memo's (32 MB budget), so the memo's heap
 * stays within this budget whatever the answers' size (issue 31).
 */
export const FAST_PATH_BYTES = 16 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 2200;



interface Entry {
  route: FastRoute;
  /** the access line's URL field (made on first use) */
  logUrl?: string;
  /** the header segments of its 200 for one plan's headers and answer (made on first use) */
  head?: Segments;
  /** the request-count and latency series of its 200s and 304s (made on first use) */
  series: [ReturnType<typeof answerSeriesOf> | undefined, ReturnType<typeof answerSeriesOf> | undefined];
}

/**
 * The key hash of the Authorization header last seen on each open connection: a client that sends
 * the same header on a kept-alive connection costs one SHA-256 per connection, not per request.
 * The header is compared whole; it is held only while the connection is open (a WeakMap on the
 * socket) and never written anywhere.
 */
const connectionKeys = new WeakMap<Socket, { header: string; hash: string }>();
/** The access line's peer fields of each open connection, for the Host header it last sent. */
const connectionPeers = new WeakMap<Socket, { host: string | undefined; fields: string }>();
/** The address bucket of each open connection's peer (looked up only while some address is refused). */
const connectionBuckets = new WeakMap<Socket, string>();

export class KeyedFastPath implements FastPathHandle {
  private readonly routes = new LRUCache<string, Entry>({
    max: FAST_PATH_ENTRIES,
    maxSize: FAST_PATH_BYTES,
    sizeCalculation: (_e, url) => url.length * 4 + ENTRY_OVERHEAD_BYTES,
  });
  /** the access log, when requests are logged at the configured level (set by the app) */
  private log: AccessLog | undefined;
  /** answers given here (for tests and diagnostics) */
  answered = 0;
  /** set when the server starts closing: from then on Fastify answers (with Connection: close) */
  closing = false;
  /** requests that waited here for the limiter's minute tokens (for tests and diagnostics) */
  waited = 0;
  /** months given back that the store failed to take (for tests and diagnostics) */
  refundFailures = 0;
  /**
   * Fastify's own request handler (set by app.ts): a request that waited here for the limiter and
   * is then not answered here is handed to it. Without it such a request goes to Fastify at once.
   */
  fallback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  constructor(
    private readonly ctx: GatewayContext,
    /** false: remember nothing, answer nothing (KEYED_FAST_PATH=off, or the engine in another process) */
    readonly enabled: boolean,
  ) {}

  /** Request lines remembered now. */
  get size() {
    return this.routes.size;
  }

  /** The memo's size in its budget's bytes (see FAST_PATH_BYTES). */
  get bytes() {
    return this.routes.calculatedSize;
  }

  /** Writes an access line for each answer given here, as app.ts does for Fastify's (info and below). */
  logTo(log: AccessLog | undefined) {
    this.log = log;
  }

  has(url: string) {
    return this.routes.has(url);
  }

  /** Remembers a request line a keyed engine route answered 200 for. */
  remember(url: string, route: FastRoute) {
    if (!this.enabled || url.length > FAST_PATH_MAX_URL) return;
    this.routes.set(url, { route, series: [undefined, undefined] });
  }

  forget() {
    this.routes.clear();
  }

  /** Answers the request and returns true, or returns false having changed nothing (Fastify answers). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
    const e = this.routes.get(req.url!);
    if (e === undefined) return false;
    const ctx = this.ctx;
    const metrics = ctx.metrics;
    const t0 = metrics ? performance.now() : 0;
    const tLog = this.log !== undefined ? (metrics ? t0 : performance.now()) : 0;
    // the three headers read here, from the raw list (Node's header object is not built); a
    // repeated one is left to Fastify, which reads Node's object
    const raw = req.rawHeaders;
    let authorization: string | undefined;
    let inm: string | undefined;
    let requestId: string | undefined;
    let host: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      const n = name.length;
      if (n === 13) {
        if (name.toLowerCase() === 'authorization') {
          if (authorization !== undefined) return false;
          authorization = raw[i + 1];
        } else if (name.toLowerCase() === 'if-none-match') {
          if (inm !== undefined) return false;
          inm = raw[i + 1];
        }
      } else if (n === 12 && name.toLowerCase() === 'x-request-id') {
        if (requestId !== undefined) return false;
        requestId = raw[i + 1];
      } else if (n === 4 && host === undefined && name.toLowerCase() === 'host') {
        host = raw[i + 1];
      }
    }
    // behind TRUST_PROXY the access line names the forwarded address, which Fastify reads
    if (authorization === undefined || this.closing || (this.log !== undefined && ctx.config.trustProxy !== false)) return false;
    const socket = req.socket;
    if (authFailuresSeen(ctx) && !this.addressAdmitted(socket)) return false;
    const seen = connectionKeys.get(socket);
    let hash: string;
    if (seen !== undefined && seen.header === authorization) hash = seen.hash;
    else {
      const m = BEARER.exec(authorization);
      if (m === null) return false;
      hash = hashKey(m[1]!);
      connectionKeys.set(socket, { header: authorization, hash });
    }
    const clock = Date.now();
    const rec = ctx.accounts.peekKey(hash, clock);
    if (!rec || rec.status !== 'active') return false;
    const plan = ctx.accounts.peekPlan(rec.plan, clock);
    if (!plan) return false;
    const lim = ctx.limiter;
    const store = ctx.store;
    if (lim.hitNow === undefined || store.consumeMonthlyNow === undefined) return false;
    // the month first: a key without a lease block (below USAGE_LEASE_MIN_RATE) goes to Fastify
    // having touched nothing; a month taken here goes back at once (into the block) if the minute
    // or the engine then sends the request to Fastify, which counts it again
    const period = monthOf(ctx.now().getTime()).period;
    const month = store.consumeMonthlyNow(rec.id, period, plan.monthly_limit);
    // (a refusal counted nothing: Fastify refuses it with the full 429)
    if (month === undefined || !month.admitted) return false;
    forgetUsage(ctx, rec.id, period);
    const wkey = windowKey(rec);
    const minute = lim.hitNow(wkey, plan.per_minute_limit, 60_000);
    if (minute === undefined) {
      // no minute tokens in hand (Redis): the request waits here for the limiter, as it would on
      // the Fastify path, and is answered here when admitted; otherwise Fastify answers it
      const fallback = this.fallback;
      if (fallback === undefined) {
        this.monthBack(rec.id, period);
        return false;
      }
      this.waited++;
      lim.hit(wkey, plan.per_minute_limit, 60_000).then(
        (m) => {
          if (m.allowed && !this.closing && this.answer(req, res, e, rec.id, plan, wkey, month.used, m, requestId, inm, host, t0, tLog)) return;
          // refused (Fastify refuses it with the full 429, counting nothing), the server closing,
          // or the engine sending it on (answer() gave the minute back): what was taken goes back,
          // then Fastify answers
          this.monthBack(rec.id, period);
          if (m.allowed && this.closing) void lim.refund(wkey, plan.per_minute_limit, 60_000, m);
          fallback(req, res);
        },
        (err: unknown) => {
          // the limiter is unreachable (or its wait from arrival ran out): Fastify answers 503 at
          // once, without waiting for the limiter a second time (keyed.ts admit)
          this.monthBack(rec.id, period);
          limiterFailedOn.set(req, err instanceof LimiterUnavailableError ? err : new LimiterUnavailableError(err));
          fallback(req, res);
        },
      );
      return true;
    }
    if (!minute.allowed) {
      this.monthBack(rec.id, period);
      return false;
    }
    if (this.answer(req, res, e, rec.id, plan, wkey, month.used, minute, requestId, inm, host, t0, tLog)) return true;
    this.monthBack(rec.id, period);
    return false;
  }

  /**
   * Gives back a month taken here for a request Fastify then answers. It goes back into the lease's
   * block (lease.ts), which cannot fail; a store that must be written and fails is counted in
   * refundFailures, never left as an unhandled rejection (issue 31: that crashed the process).
   */
  private monthBack(keyId: string, period: string) {
    this.ctx.store.refundMonthly(keyId, period).catch(() => {
      this.refundFailures++;
    });
  }

  /**
   * (Positional parameters, not an object: this runs for every answer and allocates nothing of its own.)
   * Answers an admitted request (its month and minute counted) from the engine's memo and returns
   * true; or, when the engine does not answer at once, gives the minute back and returns false (the
   * caller gives the month back and hands the request to Fastify).
   */
  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    e: Entry,
    keyId: string,
    plan: Plan,
    wkey: string,
    used: number,
    minute: LimitResult,
    requestId: string | undefined,
    inm: string | undefined,
    host: string | undefined,
    t0: number,
    tLog: number,
  ): boolean {
    const ctx = this.ctx;
    const metrics = ctx.metrics;
    const r = e.route;
    const te = metrics ? performance.now() : 0;
    const answer = r.answer();
    if (answer === undefined) {
      void ctx.limiter.refund(wkey, plan.per_minute_limit, 60_000, minute);
      return false;
    }
    if (metrics) r.answered((performance.now() - te) / 1000);
    ctx.accounts.touch(keyId);
    // the clock read after the minute window answered (as admit() does): `t` never exceeds 60
    const nowMs = ctx.now().getTime();
    const h = planHeaders(plan, minute.limit, nowMs);
    const remaining = Math.max(0, plan.monthly_limit - used);
    const minuteReset = Math.ceil(minute.resetAt / 1000);
    const nowS = Math.ceil(nowMs / 1000);
    const status = inm !== undefined && matchesIfNoneMatch(inm, answer.etag) ? 304 : 200;
    const id = requestIdOf(requestId);
    const rateLimit = '"monthly";r=' + remaining + ';t=' + Math.max(0, h.reset - nowS) + ', "minute";r=' + minute.remaining + ';t=' + Math.max(0, minuteReset - nowS);
    // the Date line reads the real clock, as node:http does
    const clock = Date.now();
    if (status === 200 && rawHeadFits(res, 200, plan.name)) {
      // the block writeHead would make from OUT_200 (below), from segments kept per request line
      // for its plan's headers and answer (raw-head.ts)
      const g = segmentsOf(e, h, plan.name, answer);
      setRawHead(res, 200, 'HTTP/1.1 200 OK\r\nx-request-id: ' + id + g.minute + minute.remaining + MINUTE_RESET + minuteReset + g.month + remaining + g.tag + rateLimit + g.body + headTail(res, clock));
      res.end(answer.bytes);
    } else {
      // the names, values and order of the Fastify path's answer (keyedHeaders, notModified,
      // keyedStandardHeaders, then content-type and content-length for a 200); the list is read
      // at once and none of it kept, so one list serves every request
      const out = status === 200 ? OUT_200 : OUT_304;
      out[1] = id;
      out[3] = h.minuteLimitS;
      out[5] = '' + minute.remaining;
      out[7] = '' + minuteReset;
      out[9] = plan.name;
      out[11] = h.limit;
      out[13] = '' + remaining;
      out[15] = h.resetS;
      out[17] = answer.etag;
      out[23] = h.policy;
      out[25] = rateLimit;
      if (status === 200) {
        out[29] = '' + answer.bytes.length;
        res.writeHead(200, out);
        res.end(answer.bytes);
      } else {
        if (!writeHeadRaw(res, 304, out, plan.name, clock)) res.writeHead(304, out);
        res.end();
      }
    }
    this.answered++;
    const log = this.log;
    if (log !== undefined) {
      // the line app.ts writes for a Fastify answer (access-log.ts), from parts kept per request
      // line and per connection
      const socket = req.socket;
      let peer = connectionPeers.get(socket);
      if (peer === undefined || peer.host !== host) connectionPeers.set(socket, (peer = { host, fields: peerFields(hostName(host), socket.remoteAddress, socket.remotePort) }));
      log.lineOf(id, 'GET', (e.logUrl ??= urlField(req.url!)), peer.fields, status, performance.now() - tLog);
    }
    if (metrics) {
      const i = status === 200 ? 0 : 1;
      const s = (e.series[i] ??= answerSeriesOf(metrics, r.route, 'GET', status));
      s.counter.inc();
      s.timer.observe((performance.now() - t0) / 1000);
    }
    return true;
  }

  /**
   * Whether this connection's address may authenticate now (its failed-authentication window has
   * room), as the Fastify path would find; with TRUST_PROXY the address comes from a header the
   * Fastify path reads, so the answer is no (Fastify answers).
   */
  private addressAdmitted(socket: Socket): boolean {
    const ctx = this.ctx;
    if (ctx.config.trustProxy !== false) return false;
    let bucket = connectionBuckets.get(socket);
    if (bucket === undefined) connectionBuckets.set(socket, (bucket = ipBucket(socketAddress(socket))));
    return authFailureWindows(ctx).peek(bucket, ctx.config.authFailuresPerIpPerMinute, Date.now()).allowed;
  }
}

/** A Host header's host name without its port (as Fastify's request.hostname), for the access line. */
function hostName(h: string | undefined): string | undefined {
  if (h === undefined) return undefined;
  const colon = h.lastIndexOf(':');
  return colon > h.lastIndexOf(']') ? h.slice(0, colon) : h;
}

const HEADER_NAMES = [
  'x-request-id',
  'x-ratelimit-minute-limit',
  'x-ratelimit-minute-remaining',
  'x-ratelimit-minute-reset',
  'x-ratelimit-plan',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'etag',
  'cache-control',
  'x-content-type-options',
  'ratelimit-policy',
  'ratelimit',
];
/** [name, value, name, value, …] with the constant values in place (the rest set per answer). */
function headerList(extra: string[]): string[] {
  const out: string[] = [];
  for (const n of [...HEADER_NAMES, ...extra]) out.push(n, '');
  out[out.indexOf('cache-control') + 1] = PRIVATE_CACHE;
  out[out.indexOf('x-content-type-options') + 1] = 'nosniff';
  if (extra.length) out[out.indexOf('content-type') + 1] = JSON_TYPE;
  return out;
}
const OUT_200 = headerList(['content-type', 'content-length']);

/**
 * The constant runs of a 200's header block between the values that change per request (OUT_200's
 * names and order, each line `name: value` and CRLF as writeHead writes it): kept per request line
 * while its plan's headers (the same PlanHeaders object: plan, minute limit, month) and its answer
 * stay the same.
 */
interface Segments {
  h: PlanHeaders;
  plan: string;
  /** the answer's tag and length (never the answer: its bytes are the engine memo's to keep or let go) */
  etag: string;
  length: number;
  /** after the request id, before the minute's remaining count */
  minute: string;
  /** after the minute's reset, before the month's remaining count */
  month: string;
  /** after the month's remaining count, before the RateLimit value */
  tag: string;
  /** after the RateLimit value: content type and length */
  body: string;
}
const MINUTE_RESET = '\r\nx-ratelimit-minute-reset: ';

/** A string flattened once, so writing it later copies one piece. */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

function segmentsOf(e: Entry, h: PlanHeaders, plan: string, answer: FastAnswer): Segments {
  const g = e.head;
  // the engine route gives a new answer object on every call: the same answer is the same tag and length
  if (g !== undefined && g.h === h && g.plan === plan && g.etag === answer.etag && g.length === answer.bytes.length) return g;
  return (e.head = {
    h,
    plan,
    etag: answer.etag,
    length: answer.bytes.length,
    minute: flat('\r\nx-ratelimit-minute-limit: ' + h.minuteLimitS + '\r\nx-ratelimit-minute-remaining: '),
    month: flat('\r\nx-ratelimit-plan: ' + plan + '\r\nx-ratelimit-limit: ' + h.limit + '\r\nx-ratelimit-remaining: '),
    tag: flat(
      '\r\nx-ratelimit-reset: ' + h.resetS + '\r\netag: ' + answer.etag + '\r\ncache-control: ' + PRIVATE_CACHE + '\r\nx-content-type-options: nosniff\r\nratelimit-policy: ' + h.policy + '\r\nratelimit: ',
    ),
    body: flat('\r\ncontent-type: ' + JSON_TYPE + '\r\ncontent-length: ' + answer.bytes.length + '\r\n'),
  });
}
const OUT_304 = headerList([]);
