// The keyed fast path (src/gateway/fast-keyed.ts) over real HTTP on the embedded default (SQLite,
// in-memory limiter): a repeated keyed request answered before Fastify's routing gives the answer
// the Fastify path gives (header for header, in order, and the same body), is metered exactly,
// and leaves every refusal, error and other method to Fastify. Leases reserve ahead only above
// USAGE_LEASE_MIN_RATE requests per second, so these tests set it to 1 and drive a few hundred
// requests over a second or two until the fast path answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildTestApp, sleep } from '../helper.ts';
import type { FastRoute } from '../../src/gateway/fast-keyed.ts';
import { flushRedis, redisUrl, Relay, viaRelay } from '../services.ts';

interface Answer {
  status: number;
  /** raw header names and values, in the order sent */
  raw: [string, string][];
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** true when the fast path answered it */
  fast: boolean;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

async function started(env: Record<string, string> = {}) {
  const t = await buildTestApp({ env: { USAGE_LEASE_MIN_RATE: '1', AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000', ...env } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const fast = t.ctx.fastPath!;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Answer>((resolve, reject) => {
      const before = fast.answered;
      const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) raw.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode!, raw, headers: res.headers, body: Buffer.concat(chunks), fast: fast.answered > before });
        });
      });
      req.on('error', reject);
      req.end();
    });
  return { ...t, port, fast, get };
}

/** Sends `path` until the fast path answers it (a lease block held), at most `ms`; returns the last Fastify answer and the first fast one. */
async function untilFast(get: (p: string, h?: Record<string, string>) => Promise<Answer>, path: string, headers: Record<string, string>, ms = 5000) {
  const end = Date.now() + ms;
  let slow: Answer | undefined;
  while (Date.now() < end) {
    const a = await get(path, headers);
    assert.equal(a.status, 200, a.body.toString());
    if (a.fast) return { slow: slow!, fast: a };
    slow = a;
  }
  throw new Error(`the fast path never answered ${path} within ${ms} ms`);
}

/** Header values that differ between two answers for a reason: the counts, the clock. */
const VARYING = new Set(['x-ratelimit-minute-remaining', 'x-ratelimit-remaining', 'x-ratelimit-minute-reset', 'ratelimit', 'date']);

function sameShape(slow: Answer, fast: Answer) {
  assert.deepEqual(fast.raw.map(([k]) => k), slow.raw.map(([k]) => k), 'the same header names in the same order');
  for (let i = 0; i < slow.raw.length; i++) {
    const [k, v] = slow.raw[i]!;
    if (!VARYING.has(k.toLowerCase())) assert.equal(fast.raw[i]![1], v, `header ${k}`);
  }
  assert.ok(slow.body.equals(fast.body), 'the same body bytes');
  // the counts: each answer one lower than the one before it
  assert.equal(Number(fast.headers['x-ratelimit-remaining']), Number(slow.headers['x-ratelimit-remaining']) - 1);
  assert.equal(Number(fast.headers['x-ratelimit-minute-remaining']), Number(slow.headers['x-ratelimit-minute-remaining']) - 1);
  const r = /^"monthly";r=(\d+);t=(\d+), "minute";r=(\d+);t=(\d+)$/.exec(String(fast.headers.ratelimit));
  assert.ok(r, `RateLimit header: ${fast.headers.ratelimit}`);
  assert.equal(r[1], fast.headers['x-ratelimit-remaining']);
  assert.equal(r[3], fast.headers['x-ratelimit-minute-remaining']);
  assert.ok(Number(r[4]) <= 60);
}

test('a repeated keyed request is answered by the fast path with the Fastify answer, header for header', async () => {
  const t = await started();
  try {
    assert.equal(t.fast.enabled, true);
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    for (const path of ['/v1/resolve-entity?q=merlot', '/v1/resolve-entity?q=islay%20single%20malt&limit=3', '/v1/explain?q=rioja', '/v1/pair?q=pinot%20noir']) {
      const headers = { ...auth, 'x-request-id': 'fast-path-test-1' };
      const { slow, fast } = await untilFast(t.get, path, headers);
      sameShape(slow, fast);
      assert.equal(fast.headers['x-request-id'], 'fast-path-test-1');
      assert.equal(fast.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(Number(fast.headers['content-length']), fast.body.length);
      // a new id where the caller gave none (or an unsafe one), as Fastify's genReqId
      const own = await t.get(path, auth);
      assert.match(String(own.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      const unsafe = await t.get(path, { ...auth, 'x-request-id': 'a b' });
      assert.match(String(unsafe.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    }
    // the path-parameter route too
    const resolved = JSON.parse((await t.get('/v1/resolve-entity?q=merlot', auth)).body.toString());
    const id = resolved.matches[0].entity_id;
    const { slow, fast } = await untilFast(t.get, `/v1/entities/${id}`, auth);
    assert.equal(fast.headers['x-request-id'] === slow.headers['x-request-id'], false);
    sameShape({ ...slow, raw: slow.raw.filter(([k]) => k !== 'x-request-id') }, { ...fast, raw: fast.raw.filter(([k]) => k !== 'x-request-id') });
  } finally {
    await t.close();
  }
});

/** One request on a fresh connection, its answer's bytes as they came (head and body). */
async function rawGet(port: number, path: string, headers: Record<string, string>): Promise<{ head: string; body: Buffer }> {
  const net = await import('node:net');
  const c = net.connect(port, '127.0.0.1');
  await new Promise((r) => c.once('connect', r));
  c.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
  let got = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer: ${got.toString('latin1')}`)), 5000);
    c.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = got.subarray(0, end + 4).toString('latin1');
      const len = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(head)?.[1] ?? 0);
      if (got.length >= end + 4 + len) {
        clearTimeout(t);
        c.destroy();
        resolve({ head, body: got.subarray(end + 4, end + 4 + len) });
      }
    });
  });
}

test('the fast path’s header block is the Fastify path’s, byte for byte, but for the counts, the resets and the date', async () => {
  const t = await started();
  try {
    const { auth } = await t.createKey('pro');
    const path = '/v1/resolve-entity?q=chardonnay';
    const headers = { ...auth, 'X-Request-Id': 'same-id-1' };
    const slow = await rawGet(t.port, path, headers);
    let fast: { head: string; body: Buffer } | undefined;
    for (let i = 0; i < 400 && fast === undefined; i++) {
      const before = t.fast.answered;
      const a = await rawGet(t.port, path, headers);
      if (t.fast.answered > before) fast = a;
    }
    assert.ok(fast, 'the fast path answered');
    assert.ok(fast.body.equals(slow.body));
    const lines = (h: string) => h.split('\r\n');
    const [sl, fl] = [lines(slow.head), lines(fast.head)];
    assert.equal(fl.length, sl.length, fast.head);
    assert.equal(fl[0], 'HTTP/1.1 200 OK');
    const varying = /^(x-ratelimit-minute-remaining|x-ratelimit-remaining|x-ratelimit-minute-reset|ratelimit|date): /i;
    for (let i = 0; i < sl.length; i++) {
      if (varying.test(sl[i]!)) {
        assert.equal(fl[i]!.split(': ')[0], sl[i]!.split(': ')[0], `line ${i}`);
        assert.match(fl[i]!, /^[A-Za-z-]+: [\x21-\x7e][\x20-\x7e]*$/);
      } else assert.equal(fl[i], sl[i], `line ${i}`);
    }
    assert.ok(fast.head.endsWith('\r\n\r\n'));
  } finally {
    await t.close();
  }
});

test('If-None-Match with the current tag: a 304 from the fast path, counted, with the headers of the Fastify 304', async () => {
  const t = await started();
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=chardonnay';
    const { fast: first } = await untilFast(t.get, path, auth);
    const etag = String(first.headers.etag);
    const h = { ...auth, 'if-none-match': etag, 'x-request-id': 'inm-1' };
    let slow: Answer | undefined;
    let fast: Answer | undefined;
    for (let i = 0; i < 2000 && !fast; i++) {
      const a = await t.get(path, h);
      assert.equal(a.status, 304);
      assert.equal(a.body.length, 0);
      if (a.fast) fast = a;
      else slow = a;
    }
    assert.ok(fast, 'the fast path answered a 304');
    // (the Fastify 304 is compared below, with KEYED_FAST_PATH off on a second app)
    void slow;
    assert.equal(fast.headers.etag, etag);
    assert.equal(fast.headers['content-type'], undefined);
    // counted: the next answer's remaining is lower
    const after = await t.get(path, auth);
    assert.ok(Number(after.headers['x-ratelimit-remaining']) < Number(fast.headers['x-ratelimit-remaining']));
    // a tag that does not match: a 200 with the body
    const other = await t.get(path, { ...auth, 'if-none-match': '"something-else"' });
    assert.equal(other.status, 200);
    assert.ok(other.body.length > 0);
  } finally {
    await t.close();
  }

  // the same 304 from Fastify (fast path off): the same header names in the same order
  const off = await started({ KEYED_FAST_PATH: 'off' });
  const on = await started();
  try {
    assert.equal(off.fast.enabled, false);
    const path = '/v1/resolve-entity?q=chardonnay';
    await off.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    await on.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const k1 = await off.createKey('roomy');
    const k2 = await on.createKey('roomy');
    const { fast } = await untilFast(on.get, path, k2.auth);
    const inmFast = await (async () => {
      for (let i = 0; i < 2000; i++) {
        const a = await on.get(path, { ...k2.auth, 'if-none-match': String(fast.headers.etag), 'x-request-id': 'inm-2' });
        if (a.fast) return a;
      }
      throw new Error('no fast 304');
    })();
    const inmSlow = await off.get(path, { ...k1.auth, 'if-none-match': String(fast.headers.etag), 'x-request-id': 'inm-2' });
    assert.equal(inmSlow.status, 304);
    assert.equal(inmSlow.fast, false);
    assert.deepEqual(inmFast.raw.map(([k]) => k), inmSlow.raw.map(([k]) => k));
    for (const [k, v] of inmSlow.raw) if (!VARYING.has(k.toLowerCase()) && k !== 'x-ratelimit-plan') assert.equal(inmFast.headers[k.toLowerCase()], v, k);
  } finally {
    await off.close();
    await on.close();
  }
});

test('metering through the fast path is exact: the monthly allowance and the per-minute limit', async () => {
  const t = await started();
  try {
    await t.ctx.store.upsertPlan({ name: 'month2000', monthly_limit: 2000, per_minute_limit: 100_000 });
    const { id, auth } = await t.createKey('month2000');
    const path = '/v1/resolve-entity?q=pinot%20noir';
    let ok = 0;
    let fastOk = 0;
    const refused: string[] = [];
    // sequential until the fast path answers (a block held), then a concurrent burst past the end
    let sent = 0;
    const end = Date.now() + 5000;
    while (fastOk === 0 && Date.now() < end && sent < 1500) {
      // a few hundred a second: the lease measures the rate over a full second before it reserves ahead
      await sleep(2);
      const a = await t.get(path, auth);
      sent++;
      if (a.status === 200) ok++;
      if (a.fast) fastOk++;
    }
    const burst = await Promise.all(Array.from({ length: 2200 - sent }, () => t.get(path, auth)));
    for (const a of burst) {
      if (a.status === 200) {
        ok++;
        if (a.fast) fastOk++;
      } else refused.push(JSON.parse(a.body.toString()).error.code);
    }
    assert.equal(ok, 2000, 'exactly the allowance admitted');
    assert.ok(fastOk > 0, `some were answered by the fast path (sent ${sent}, ok ${ok}, answered ${t.fast.answered})`);
    assert.equal(refused.length, 200);
    assert.deepEqual([...new Set(refused)], ['QUOTA_EXCEEDED']);
    // the stored count: what was admitted (blocks handed back on close are not counted)
    await sleep(50);
    const held = (t.ctx.store as unknown as { held?: () => { free: number }[] }).held?.() ?? [];
    const used = await t.ctx.store.getMonthly(id, new Date().toISOString().slice(0, 7));
    assert.equal(used - held.reduce((n, b) => n + b.free, 0), 2000);

    // per minute: 4,000 a minute, never more (enough requests that a lease block is held, the
    // lease needing a second's rate, before the window is used up)
    await t.ctx.store.upsertPlan({ name: 'minute4000', monthly_limit: 1_000_000, per_minute_limit: 4000 });
    const m = await t.createKey('minute4000');
    let admitted = 0;
    let fastAdmitted = 0;
    let refusedInRow = 0;
    const codes = new Set<string>();
    // admitted per minute window (named by its reset time), and each window's remaining counts
    const perWindow = new Map<string, number[]>();
    for (let i = 0; i < 9000 && refusedInRow < 50; i++) {
      const a = await t.get('/v1/resolve-entity?q=rioja', m.auth);
      if (a.status === 200) {
        admitted++;
        refusedInRow = 0;
        if (a.fast) fastAdmitted++;
        const w = String(a.headers['x-ratelimit-minute-reset']);
        perWindow.set(w, [...(perWindow.get(w) ?? []), Number(a.headers['x-ratelimit-minute-remaining'])]);
      } else {
        refusedInRow++;
        codes.add(JSON.parse(a.body.toString()).error.code);
      }
    }
    assert.deepEqual([...codes], ['RATE_LIMITED']);
    // no window admits more than 4,000, and each admitted answer in a window is one lower: no
    // request counted twice or left out, whichever path answered it
    for (const [w, rem] of perWindow) {
      assert.ok(rem.length <= 4000, `window ${w}: ${rem.length} admitted`);
      for (let i = 1; i < rem.length; i++) assert.equal(rem[i], rem[i - 1]! - 1, `window ${w}, answer ${i}`);
    }
    // the loop ended on refusals: the window it ended in was used up exactly
    const last = [...perWindow.values()].at(-1)!;
    assert.equal(last.at(-1), 0);
    assert.ok(fastAdmitted > 0, 'some admitted by the fast path');
  } finally {
    await t.close();
  }
});

test('refusals go to Fastify: an unknown, malformed or revoked key, a missing header, HEAD, another query', async () => {
  const t = await started({ KEY_CACHE_TTL_MS: '100' });
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { id, auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=merlot';
    await untilFast(t.get, path, auth);
    const before = t.fast.answered;
    const unknown = await t.get(path, { authorization: 'Bearer dis_live_0000000000000000000000000000000000000000' });
    assert.equal(unknown.status, 401);
    assert.match(String(unknown.headers['www-authenticate']), /invalid_token/);
    assert.equal((await t.get(path, { authorization: 'Basic abc' })).status, 401);
    assert.equal((await t.get(path)).status, 401);
    const period = new Date().toISOString().slice(0, 7);
    const usedBeforeHead = await t.ctx.store.getMonthly(id, period);
    const head = await t.get(path, auth, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.fast, false);
    // a HEAD is a GET without a body, counted the same
    assert.equal(head.body.length, 0);
    assert.equal(await t.ctx.store.getMonthly(id, period), usedBeforeHead + 1);
    assert.equal((await t.get('/v1/resolve-entity?limit=2&q=merlot', auth)).fast, false);
    // the demo twin (a real route: 200) is always Fastify's
    const demo = await t.get('/v1/demo/resolve-entity?q=merlot');
    assert.equal(demo.status, 200);
    assert.equal(demo.fast, false);
    assert.equal(t.fast.answered, before, 'none of these answered by the fast path');
    // a revoked key is refused once the account cache lets go of it (KEY_CACHE_TTL_MS)
    await t.ctx.store.setKeyStatus(id, 'revoked');
    await sleep(150);
    const revoked = await t.get(path, auth);
    assert.equal(revoked.status, 401);
    assert.match(JSON.parse(revoked.body.toString()).error.message, /revoked/);
  } finally {
    await t.close();
  }
});

test('counted in dis_http_requests_total like any answer; at LOG_LEVEL=info it answers too, writing the access line the Fastify path writes', async () => {
  const t = await started();
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=champagne';
    let n = 0;
    const end = Date.now() + 5000;
    while (t.fast.answered < 20 && Date.now() < end) {
      await t.get(path, auth);
      n++;
    }
    assert.ok(t.fast.answered >= 20);
    const text = await t.ctx.metrics!.registry.metrics();
    const line = text.split('\n').find((l) => l.startsWith('dis_http_requests_total{') && l.includes('route="/v1/resolve-entity"') && l.includes('status="200"'));
    assert.ok(line, text);
    assert.equal(Number(line.split(' ').pop()), n);
    const count = text.split('\n').find((l) => l.startsWith('dis_http_request_duration_seconds_count{route="/v1/resolve-entity"}'));
    assert.equal(Number(count!.split(' ').pop()), n);
    // the fast path's own answers, read from its count at scrape time (and again: no double count)
    const answers = (txt: string) => Number(txt.split('\n').find((l) => l.startsWith('dis_fast_path_answers_total '))!.split(' ').pop());
    assert.equal(answers(text), t.fast.answered);
    await t.get(path, auth);
    assert.equal(answers(await t.ctx.metrics!.registry.metrics()), t.fast.answered);
  } finally {
    await t.close();
  }
  const lines: string[] = [];
  const { Writable } = await import('node:stream');
  const stream = new Writable({ write(c, _e, cb) { lines.push(String(c)); cb(); } });
  const logged = await buildTestApp({ logStream: stream, env: { USAGE_LEASE_MIN_RATE: '1', AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000' } });
  try {
    // at LOG_LEVEL=info (the default of npm start) the fast path answers, and writes the access line
    // the Fastify path writes: one "request completed" line per request, the same fields
    assert.equal(logged.ctx.fastPath!.enabled, true);
    await logged.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (logged.app.server.address() as AddressInfo).port;
    await logged.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await logged.createKey('roomy');
    const send = (id: string) =>
      new Promise<number>((resolve, reject) => {
        const before = logged.ctx.fastPath!.answered;
        http.get({ host: '127.0.0.1', port, path: '/v1/resolve-entity?q=stout', headers: { ...auth, 'x-request-id': id }, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(logged.ctx.fastPath!.answered - before));
        }).on('error', reject);
      });
    const ids: { id: string; fast: boolean }[] = [];
    for (let i = 0, end = Date.now() + 10_000; Date.now() < end && !ids.some((x) => x.fast); i++) {
      const id = `access-${i}`;
      ids.push({ id, fast: (await send(id)) > 0 });
    }
    const fastOne = ids.find((x) => x.fast);
    assert.ok(fastOne, 'the fast path answered at info');
    const slowOne = ids.find((x) => !x.fast)!;
    await sleep(50);
    const entries = lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l));
    const lineOf = (id: string) => entries.filter((e) => e.reqId === id);
    for (const { id } of [fastOne, slowOne]) {
      const mine = lineOf(id);
      assert.equal(mine.length, 1, `one access line for ${id}: ${JSON.stringify(mine)}`);
      const e = mine[0];
      assert.equal(e.msg, 'request completed');
      assert.equal(e.level, 30);
      assert.deepEqual(Object.keys(e).sort(), ['hostname', 'level', 'msg', 'pid', 'req', 'reqId', 'res', 'responseTime', 'time']);
      assert.deepEqual(Object.keys(e.req).sort(), ['host', 'method', 'remoteAddress', 'remotePort', 'url']);
      assert.equal(e.req.url, '/v1/resolve-entity?q=stout');
      assert.equal(e.req.method, 'GET');
      assert.equal(e.req.remoteAddress, '127.0.0.1');
      assert.equal(e.req.host, "127.0.0.1");
      assert.deepEqual(e.res, { statusCode: 200 });
      assert.equal(typeof e.responseTime, 'number');
    }
    assert.ok(!lines.join('').includes(auth.authorization.slice(7)), 'no key in the access lines');
  } finally {
    await logged.close();
  }
});

test('behind TRUST_PROXY at LOG_LEVEL=info, Fastify answers, so the access line names the forwarded address', async () => {
  const lines: string[] = [];
  const { Writable } = await import('node:stream');
  const stream = new Writable({ write(c, _e, cb) { lines.push(String(c)); cb(); } });
  const t = await buildTestApp({ logStream: stream, env: { USAGE_LEASE_MIN_RATE: '1', TRUST_PROXY: 'true', AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000' } });
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const send = () =>
      new Promise<void>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/v1/resolve-entity?q=lager', headers: { ...auth, 'x-forwarded-for': '203.0.113.7' }, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', reject);
      });
    // as long as the fast path takes to answer elsewhere (a lease block held): here it never does
    for (const end = Date.now() + 2000; Date.now() < end; ) await send();
    assert.equal(t.ctx.fastPath!.answered, 0);
    await sleep(50);
    const entries = lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.msg === 'request completed');
    assert.ok(entries.length > 10);
    assert.ok(entries.every((e) => e.req.remoteAddress === '203.0.113.7'), JSON.stringify(entries[0]));
  } finally {
    await t.close();
  }
});

test('an address refused for failed authentications is refused on the fast path too; failures below the limit leave it on', async () => {
  const t = await started({ AUTH_FAILURES_PER_IP_PER_MINUTE: '4' });
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=guinness';
    await untilFast(t.get, path, auth);
    const bad = { authorization: 'Bearer dis_live_0000000000000000000000000000000000000000' };
    for (let i = 0; i < 3; i++) assert.equal((await t.get(path, bad)).status, 401);
    // three failures of four: this address is not refused, and the fast path still answers
    const still = await untilFast(t.get, path, auth);
    assert.equal(still.fast.status, 200);
    assert.equal((await t.get(path, bad)).status, 401);
    // the fourth: every authentication from this address is refused for the rest of the minute
    const refused = await t.get(path, auth);
    assert.equal(refused.status, 429);
    assert.equal(refused.fast, false);
    assert.equal(JSON.parse(refused.body.toString()).error.code, 'RATE_LIMITED');
  } finally {
    await t.close();
  }
});

test('another address refused for failed authentications leaves the fast path on for this one (issue 25)', async () => {
  const t = await started({ AUTH_FAILURES_PER_IP_PER_MINUTE: '4' });
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=porter';
    await untilFast(t.get, path, auth);
    // 127.0.0.2 is another loopback address: its own connections, its own bucket
    const from2 = (headers: Record<string, string>) =>
      new Promise<{ status: number; code?: string }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: t.port, path, headers, localAddress: '127.0.0.2', agent: false }, (res) => {
          let b = '';
          res.on('data', (c) => (b += c));
          res.on('end', () => resolve({ status: res.statusCode!, code: res.statusCode! >= 400 ? JSON.parse(b).error.code : undefined }));
        }).on('error', reject);
      });
    const bad = { authorization: 'Bearer dis_live_0000000000000000000000000000000000000000' };
    for (let i = 0; i < 4; i++) assert.equal((await from2(bad)).status, 401);
    // 127.0.0.2 is refused now, even with a good key ...
    assert.deepEqual(await from2(auth), { status: 429, code: 'RATE_LIMITED' });
    // ... while 127.0.0.1 is still answered on the fast path (before: one flag for the whole process)
    for (let i = 0; i < 5; i++) {
      const a = await t.get(path, auth);
      assert.equal(a.status, 200);
      assert.equal(a.fast, true, `request ${i} answered on the fast path`);
    }
  } finally {
    await t.close();
  }
});

test('one kept-alive connection carrying different keys: each request is answered for its own key', async () => {
  const t = await started();
  try {
    await t.ctx.store.upsertPlan({ name: 'plan-a', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    await t.ctx.store.upsertPlan({ name: 'plan-b', monthly_limit: 2_000_000, per_minute_limit: 100_000 });
    const a = await t.createKey('plan-a');
    const b = await t.createKey('plan-b');
    const path = '/v1/resolve-entity?q=merlot';
    await untilFast(t.get, path, a.auth);
    await untilFast(t.get, path, b.auth);
    // one socket for all of them
    const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const viaOne = (headers: Record<string, string>) =>
      new Promise<{ status: number; plan: string | undefined; fast: boolean; socket: unknown }>((resolve, reject) => {
        const before = t.fast.answered;
        const req = http.request({ host: '127.0.0.1', port: t.port, path, headers, agent: one }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, plan: res.headers['x-ratelimit-plan'] as string | undefined, fast: t.fast.answered > before, socket: req.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    const seen: { status: number; plan: string | undefined; fast: boolean; socket: unknown }[] = [];
    const end = Date.now() + 8000;
    const fastFor = (plan: string) => seen.some((s) => s.fast && s.plan === plan);
    while (Date.now() < end && !(fastFor('plan-a') && fastFor('plan-b') && seen.length >= 120)) {
      seen.push(await viaOne(a.auth));
      seen.push(await viaOne(b.auth));
      seen.push(await viaOne({ authorization: 'Bearer dis_live_0000000000000000000000000000000000000000' }));
    }
    one.destroy();
    assert.equal(new Set(seen.map((s) => s.socket)).size, 1, 'all on one connection');
    for (let i = 0; i < seen.length; i += 3) {
      assert.deepEqual([seen[i]!.status, seen[i]!.plan], [200, 'plan-a']);
      assert.deepEqual([seen[i + 1]!.status, seen[i + 1]!.plan], [200, 'plan-b']);
      assert.equal(seen[i + 2]!.status, 401);
      assert.equal(seen[i + 2]!.fast, false);
    }
    assert.ok(seen.some((s) => s.fast && s.plan === 'plan-a') && seen.some((s) => s.fast && s.plan === 'plan-b'), 'both keys answered by the fast path on the one connection');
  } finally {
    await t.close();
  }
});

test('engine calls are counted once per answer, whichever path gives it', async () => {
  const t = await started();
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=cabernet%20sauvignon';
    const count = async () => {
      const text = await t.ctx.metrics!.registry.metrics();
      const line = text.split('\n').find((l) => l.startsWith('dis_engine_call_duration_seconds_count{') && l.includes('op="resolve-entity"') && l.includes('outcome="200"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    // slow at first (no lease block: every request through Fastify), then the fast path
    let n = 0;
    const end = Date.now() + 5000;
    while (t.fast.answered < 50 && Date.now() < end) {
      await t.get(path, auth);
      n++;
    }
    assert.ok(t.fast.answered >= 50);
    assert.ok(n > t.fast.answered, 'some went through Fastify');
    assert.equal(await count(), n);
  } finally {
    await t.close();
  }
});

test('closing: from the start of close() Fastify answers every request, with Connection: close, and the close completes', async () => {
  const net = await import('node:net');
  const t = await started();
  await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
  const { auth } = await t.createKey('roomy');
  const path = '/v1/resolve-entity?q=merlot';
  await untilFast(t.get, path, auth);
  agent.destroy();
  // a request held in flight across the start of close() (so its connection is not idle and stays
  // open), then more requests on the same connection: the server's request listener is wrapped
  // to hold the one marked X-Hold for 300 ms before it reaches the gateway
  const server = t.app.server;
  const [listener] = server.listeners('request') as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.headers['x-hold']) setTimeout(() => listener!(req, res), 300);
    else listener!(req, res);
  });
  const sock = net.connect(t.port, '127.0.0.1');
  let data = '';
  sock.on('data', (c) => (data += c));
  sock.on('error', () => undefined);
  const one = (extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n${extra}\r\n`;
  try {
    sock.write(one('X-Hold: 1\r\n'));
    await sleep(50);
    let closed = false;
    const closing = t.app.close().then(() => (closed = true));
    const before = t.fast.answered;
    await sleep(400);
    for (let i = 0; i < 4 && !sock.destroyed; i++) {
      sock.write(one());
      await sleep(50);
    }
    await Promise.race([closing, sleep(3000)]);
    const connections = data.split('\r\n').filter((l) => /^connection:/i.test(l)).map((l) => l.toLowerCase());
    assert.equal(t.fast.answered, before, 'no fast answer once close() began');
    assert.ok(connections.length >= 1, data);
    assert.deepEqual([...new Set(connections)], ['connection: close']);
    assert.equal(closed, true, 'the close completed');
  } finally {
    sock.destroy();
    await t.close().catch(() => undefined);
  }
});

test('on Redis (minute tokens) and a lease block: the fast path answers, exactly as Fastify, and the minute limit holds', async () => {
  const REDIS_URL = redisUrl(9); // this file's own Redis database index
  await flushRedis(REDIS_URL);
  const t = await started({ REDIS_URL });
  try {
    assert.equal(t.ctx.limiter.kind, 'redis');
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=rioja';
    const { slow, fast } = await untilFast(t.get, path, { ...auth, 'x-request-id': 'redis-1' });
    sameShape(slow, fast);
    // a minute limit on Redis: never more than it within one window, whichever path answers
    await t.ctx.store.upsertPlan({ name: 'minute3000', monthly_limit: 1_000_000, per_minute_limit: 3000 });
    const m = await t.createKey('minute3000');
    const perWindow = new Map<string, number>();
    let fastAdmitted = 0;
    let refusedInRow = 0;
    for (let i = 0; i < 8000 && refusedInRow < 50; i++) {
      const a = await t.get(path, m.auth);
      if (a.status === 200) {
        refusedInRow = 0;
        if (a.fast) fastAdmitted++;
        const w = String(a.headers['x-ratelimit-minute-reset']);
        perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
      } else {
        refusedInRow++;
        assert.equal(JSON.parse(a.body.toString()).error.code, 'RATE_LIMITED');
      }
    }
    assert.ok(fastAdmitted > 0, 'the fast path answered from Redis tokens');
    for (const [w, n] of perWindow) assert.ok(n <= 3000, `window ${w}: ${n} admitted`);
    assert.ok(refusedInRow >= 50, 'the limit was reached');
  } finally {
    await t.close();
    await flushRedis(REDIS_URL);
  }
});

/** A test app whose Redis (this file's index 9) is reached through a relay that can hold its replies. */
async function behindRelay() {
  const REDIS_URL = redisUrl(9);
  await flushRedis(REDIS_URL);
  const relay = new Relay();
  await relay.start(Number(new URL(REDIS_URL).port || 6379));
  const t = await started({ REDIS_URL: viaRelay(REDIS_URL, relay) });
  const done = async () => {
    relay.resume();
    await t.close();
    await relay.close();
    await flushRedis(REDIS_URL);
  };
  return { t, relay, done };
}

/**
 * With Redis' replies held, sends `n` requests at once, waits until some of them wait on the fast
 * path for the limiter (asserted), then lets Redis answer; returns every answer.
 */
async function burstWhileHeld(t: Awaited<ReturnType<typeof started>>, relay: Relay, n: number, send: () => Promise<Answer>) {
  relay.holdReplies();
  const waitedBefore = t.fast.waited;
  const burst = Promise.all(Array.from({ length: n }, send));
  for (let i = 0; i < 200 && t.fast.waited === waitedBefore; i++) await sleep(10);
  assert.ok(t.fast.waited > waitedBefore, 'requests wait for the limiter on the fast path');
  relay.resume();
  return burst;
}

test('on Redis, a request that finds no minute tokens in hand waits on the fast path for the limiter, is answered there, and is counted once (issue 25)', async () => {
  const { t, relay, done } = await behindRelay();
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 1_000_000 });
    const { auth } = await t.createKey('roomy');
    const path = '/v1/resolve-entity?q=merlot';
    const answers: Answer[] = [];
    // until the fast path answers from minute tokens reserved ahead (a rate above the lease's minimum)
    for (const end = Date.now() + 8000; Date.now() < end && t.fast.answered < 200; ) answers.push(...(await Promise.all(Array.from({ length: 32 }, () => t.get(path, auth)))));
    assert.ok(t.fast.answered >= 200, 'the fast path answers');
    // Redis stops answering: the tokens in hand run out while the next reservation is held
    const answeredBefore = t.fast.answered;
    const got = await burstWhileHeld(t, relay, 300, () => t.get(path, auth));
    answers.push(...got);
    assert.ok(answers.every((a) => a.status === 200));
    assert.equal(t.fast.answered - answeredBefore, got.length, 'every request of the burst was answered on the fast path, those that waited too');
    const waits = (await t.ctx.metrics!.registry.metrics()).split('\n').find((l) => l.startsWith('dis_fast_path_waits_total '));
    assert.equal(Number(waits!.split(' ').pop()), t.fast.waited, 'dis_fast_path_waits_total');
    // counted exactly once each: every answer reports its own monthly count, none repeated, none skipped
    const remaining = answers.map((a) => Number(a.headers['x-ratelimit-remaining'])).sort((a, b) => b - a);
    assert.equal(new Set(remaining).size, answers.length, 'no two answers share a monthly count');
    assert.equal(remaining[0]! - remaining.at(-1)!, answers.length - 1, 'no count skipped');
    // the answers given after waiting are the Fastify answer, header for header
    const slow = await t.get('/v1/resolve-entity?q=merlot&x=1', auth);
    assert.equal(slow.fast, false);
    for (const a of got.slice(-5)) {
      assert.deepEqual(a.raw.map(([k]) => k), slow.raw.map(([k]) => k));
      for (let i = 0; i < slow.raw.length; i++) {
        const [k, v] = slow.raw[i]!;
        if (!VARYING.has(k.toLowerCase()) && k.toLowerCase() !== 'x-request-id') assert.equal(a.raw[i]![1], v, `header ${k}`);
      }
      assert.ok(a.body.equals(slow.body));
    }
  } finally {
    await done();
  }
});

test('on Redis, a request waiting on the fast path that the limiter then refuses gets Fastify’s full 429, and the month counts only what was admitted', async () => {
  const { t, relay, done } = await behindRelay();
  try {
    await t.ctx.store.upsertPlan({ name: 'tight', monthly_limit: 1_000_000, per_minute_limit: 2000 });
    const { auth } = await t.createKey('tight');
    const path = '/v1/resolve-entity?q=rioja';
    const answers: Answer[] = [];
    // a few hundred requests a second (the leases' rate), well below the minute's limit
    for (const end = Date.now() + 8000; Date.now() < end && t.fast.answered < 50; await sleep(10)) answers.push(...(await Promise.all(Array.from({ length: 4 }, () => t.get(path, auth)))));
    assert.ok(t.fast.answered > 0, `the fast path answers (${answers.length} sent: ${[...new Set(answers.map((a) => a.status))]})`);
    const admitted = answers.filter((a) => a.status === 200).length;
    answers.push(...(await burstWhileHeld(t, relay, 2000 - admitted + 300, () => t.get(path, auth))));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(ok.length + refused.length, answers.length);
    assert.ok(refused.length > 0, 'the minute limit was reached');
    for (const a of refused) {
      assert.equal(JSON.parse(a.body.toString()).error.code, 'RATE_LIMITED');
      assert.ok(Number(a.headers['retry-after']) >= 1);
    }
    const perWindow = new Map<string, number>();
    for (const a of ok) perWindow.set(String(a.headers['x-ratelimit-minute-reset']), (perWindow.get(String(a.headers['x-ratelimit-minute-reset'])) ?? 0) + 1);
    for (const [w, n] of perWindow) assert.ok(n <= 2000, `window ${w}: ${n} admitted`);
    // the month counted each admitted request once and no refused one
    const lowest = Math.min(...ok.map((a) => Number(a.headers['x-ratelimit-remaining'])));
    assert.equal(lowest, 1_000_000 - ok.length);
  } finally {
    await done();
  }
});

test('the request-line memo keeps no answer body: a body the fast path sent is collectable at once (issue 31)', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const t = await started();
  try {
    await t.ctx.store.upsertPlan({ name: 'roomy', monthly_limit: 1_000_000, per_minute_limit: 100_000 });
    const { auth } = await t.createKey('roomy');
    await untilFast(t.get, '/v1/resolve-entity?q=merlot', auth);
    // a line whose answer is a new 1 MB body on every call, as the engine route gives a new answer
    // object on every call (its bytes are the engine memo's to keep, never the fast path's)
    const bodies: WeakRef<Buffer>[] = [];
    const route: FastRoute = {
      route: '/v1/resolve-entity',
      answer: () => {
        const bytes = Buffer.alloc(1 << 20, 0x20);
        bodies.push(new WeakRef(bytes));
        return { bytes, etag: '"memo-body-test"' };
      },
      answered: () => undefined,
    };
    const path = '/v1/resolve-entity?q=memo-body-test';
    t.fast.remember(path, route);
    for (let i = 0; i < 4; i++) {
      const a = await t.get(path, auth);
      assert.equal(a.status, 200);
      assert.equal(a.fast, true, 'answered on the fast path');
      assert.equal(a.body.length, 1 << 20);
    }
    assert.equal(bodies.length, 4);
    for (let i = 0; i < 3; i++) {
      await sleep(20);
      gc();
    }
    assert.deepEqual(bodies.map((b) => b.deref() === undefined), [true, true, true, true], 'no answer body outlives its answer');
  } finally {
    await t.close();
  }
});
