// Issue 11, server side: header and request deadlines and a connection limit (item 10); /health
// shows statuses only and logs the reasons (item 11); /health reuses a healthy answer for about a
// second, shares one check among concurrent calls and drops it when a request sees a dependency
// down (item 9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildTestApp, createKey, sharedEngine, sleep } from '../helper.ts';
import { buildEngineServer } from '../../src/engine-server.ts';
import { freePort, until } from '../services.ts';
import { HEALTH_CACHE_MS } from '../../src/routes/health.ts';

type T = Awaited<ReturnType<typeof buildTestApp>>;

async function listen(t: T) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

/** Opens a raw connection and collects what the server sends until it closes (or `boundMs`). */
function rawConnection(port: number, boundMs: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => undefined);
  const t0 = Date.now();
  const closed = new Promise<{ received: string; ms: number; closedByServer: boolean }>((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, ms: Date.now() - t0, closedByServer: false });
    }, boundMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, ms: Date.now() - t0, closedByServer: true });
    });
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, connected, get received() { return received; } };
}

test('a client that never finishes its headers is answered 408 and let go within the header deadline', async () => {
  const t = await buildTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } });
  try {
    const port = await listen(t);
    const c = rawConnection(port, 8000);
    await c.connected;
    c.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const end = await c.closed;
    assert.ok(end.closedByServer, `still open after ${end.ms} ms`);
    assert.match(end.received, /^HTTP\/1\.1 408 /);
    assert.match(end.received, /"code":"INVALID_REQUEST"/);
    // README: the headers within HTTP_HEADERS_TIMEOUT_MS (1 s here), or 408 and closed (bound: 4 × that)
    assert.ok(end.ms < 4000, `closed after ${end.ms} ms`);
    // a slow body past the request deadline too
    const b = rawConnection(port, 8000);
    await b.connected;
    b.socket.write('POST /v1/usage HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nContent-Type: text/plain\r\n\r\nabc');
    const bodyEnd = await b.closed;
    // README: the whole request within HTTP_REQUEST_TIMEOUT_MS (2 s here), or closed (bound: 2.5 × that)
    assert.ok(bodyEnd.closedByServer && bodyEnd.ms < 5000, `body: ${bodyEnd.ms} ms, ${bodyEnd.received.slice(0, 40)}`);
  } finally {
    await t.close();
  }
});

test('beyond HTTP_MAX_CONNECTIONS a new connection is closed at once; the open ones keep working', async () => {
  const t = await buildTestApp({ env: { HTTP_MAX_CONNECTIONS: '2' } });
  try {
    const port = await listen(t);
    const a = rawConnection(port, 10_000);
    const b = rawConnection(port, 10_000);
    await Promise.all([a.connected, b.connected]);
    // both connections counted by the server: each has had an answer (kept alive)
    for (const x of [a, b]) x.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await until('both connections answered', 5000, () => /^HTTP\/1\.1 200 /.test(a.received) && /^HTTP\/1\.1 200 /.test(b.received));
    const c = rawConnection(port, 3000);
    await c.connected.catch(() => undefined);
    c.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const cEnd = await c.closed;
    assert.ok(cEnd.closedByServer, 'the third connection was closed');
    assert.equal(cEnd.received, '', 'and got no answer');
    a.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const aEnd = await a.closed;
    assert.equal(aEnd.received.match(/HTTP\/1\.1 200 /g)?.length, 2, 'the open connection kept working');
    b.socket.destroy();
    const ok = await until('a place is free again', 5000, async () => (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.status === 200);
    assert.equal(ok, true, 'a place is free again');
  } finally {
    await t.close();
  }
});

test('the configuration refuses a header deadline longer than the request deadline', async () => {
  const { loadConfig } = await import('../../src/config.ts');
  assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }), /HTTP_HEADERS_TIMEOUT_MS/);
  assert.throws(() => loadConfig({ HTTP_MAX_CONNECTIONS: '-1' }), /HTTP_MAX_CONNECTIONS/);
  const c = loadConfig({});
  assert.deepEqual(c.http, { headersTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxConnections: 10_000 });
});

test('/health shows only statuses to callers; the reason (an internal address) goes to the log', async () => {
  const port = await freePort();
  const stream = new PassThrough();
  let logs = '';
  stream.on('data', (c) => (logs += c.toString()));
  const t = await buildTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}/0` }, logStream: stream });
  try {
    const res = await t.app.inject({ url: '/health' });
    assert.equal(res.statusCode, 503);
    const b = res.json();
    assert.deepEqual(b.store.limiter, { status: 'unavailable', kind: 'redis' });
    assert.deepEqual(b.store.database, { status: 'ok', kind: 'sqlite' });
    assert.ok(!res.body.includes(String(port)) && !res.body.includes('127.0.0.1') && !/ECONNREFUSED|closed|timeout|writable/i.test(res.body), res.body);
    await until('the reason logged', 5000, () => /health: limiter store unavailable/.test(logs));
    assert.match(logs, /"component":"limiter"/);
  } finally {
    await t.close();
  }
});

// No elapsed-time assertion: the reuse is checked only for calls that ended before the healthy
// answer could be HEALTH_CACHE_MS old, and the new check only once it must be older.
test('/health reuses a healthy answer for about a second and shares one check among concurrent calls', async () => {
  const t = await buildTestApp();
  try {
    let pings = 0;
    const store = t.ctx.store;
    const realPing = store.ping.bind(store);
    store.ping = () => (pings++, realPing());
    const t0 = Date.now();
    const burst = await Promise.all(Array.from({ length: 50 }, () => t.app.inject({ url: '/health' })));
    const t1 = Date.now(); // the healthy answer is as of some time in [t0, t1]
    assert.ok(burst.every((r) => r.statusCode === 200));
    assert.equal(pings, 1, 'one check for 50 concurrent calls');
    let answeredBy = t1; // the latest healthy answer is as of this time or earlier
    for (let i = 0; i < 20; i++) {
      const before = pings;
      assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200);
      if (pings > before) answeredBy = Date.now(); // a slow machine: the second was over, checked again
      if (Date.now() < t0 + HEALTH_CACHE_MS) {
        assert.equal(pings, 1, 'reused while under a second old');
      }
    }
    while (Date.now() < answeredBy + HEALTH_CACHE_MS) await sleep(answeredBy + HEALTH_CACHE_MS - Date.now());
    const checksBefore = pings;
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200);
    assert.equal(pings, checksBefore + 1, 'checked again once the answer is a second old');
  } finally {
    await t.close();
  }
});

test('a dependency seen down by a request drops the reused healthy answer at once; a failing answer is never reused', async () => {
  let engineApp = buildEngineServer(sharedEngine(), 'silent');
  await engineApp.listen({ port: 0, host: '127.0.0.1' });
  const port = (engineApp.server.address() as AddressInfo).port;
  const t = await buildTestApp({ env: { ENGINE_URL: `http://127.0.0.1:${port}` } });
  try {
    const k = await createKey(t.ctx, 'pro');
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200);
    await engineApp.close();
    const keyed = await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth });
    assert.equal(keyed.json().error.code, 'ENGINE_UNAVAILABLE');
    const h = await t.app.inject({ url: '/health' });
    assert.equal(h.statusCode, 503, 'not the reused "ok"');
    assert.deepEqual(h.json().engine, { status: 'unavailable', mode: 'http', kb_version: null });
    assert.equal(h.headers['retry-after'], '5');
    engineApp = buildEngineServer(sharedEngine(), 'silent');
    await engineApp.listen({ port, host: '127.0.0.1' });
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200, 'the 503 was not reused');
  } finally {
    await t.close();
    await engineApp.close();
  }
});
