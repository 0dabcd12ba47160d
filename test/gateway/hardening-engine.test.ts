// Issue 11 with the engine as its own HTTP process (ENGINE_URL): one length rule on both sides, in
// code points, so a term the gateway admits is never a 400 from the engine (item 2); control
// characters refused with 400 on both sides (item 13); keys masked in both logs, percent-encoded
// ones too (item 12).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import net, { type AddressInfo } from 'node:net';
import { buildTestApp, createKey, sharedEngine } from '../helper.ts';
import { buildEngineServer, codePointLength } from '../../src/engine-server.ts';
import { generateKey } from '../../src/gateway/keys.ts';
import { redactKeys } from '../../src/gateway/redact.ts';

function logSink() {
  const stream = new PassThrough();
  const sink = { stream, text: '' };
  stream.on('data', (c) => (sink.text += c.toString()));
  return sink;
}

async function withEngine(fn: (t: Awaited<ReturnType<typeof buildTestApp>>, engineBase: string, logs: { gateway: ReturnType<typeof logSink>; engine: ReturnType<typeof logSink> }) => Promise<void>) {
  const engineLog = logSink();
  const gatewayLog = logSink();
  const engineApp = buildEngineServer(sharedEngine(), 'info', engineLog.stream);
  await engineApp.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(engineApp.server.address() as AddressInfo).port}`;
  const t = await buildTestApp({ env: { ENGINE_URL: base, LOG_LEVEL: 'info' }, logStream: gatewayLog.stream });
  try {
    await fn(t, base, { gateway: gatewayLog, engine: engineLog });
  } finally {
    await t.close();
    await engineApp.close();
  }
}

const period = () => new Date().toISOString().slice(0, 7);

test('astral characters: a term the gateway admits (200 code points) is answered by the engine, never a 400, and counted exactly', async () => {
  await withEngine(async (t, engineBase) => {
    const k = await createKey(t.ctx, 'pro');
    const wine = '🍷'; // one code point, two UTF-16 units
    const q150 = wine.repeat(150);
    assert.equal(q150.length, 300);
    assert.equal(codePointLength(q150), 150);
    let ok = 0;
    for (const [path, expect] of [
      [`/v1/resolve-entity?q=${encodeURIComponent(q150)}`, [200]],
      [`/v1/resolve-entity?q=${encodeURIComponent(wine.repeat(200))}`, [200]],
      [`/v1/explain?q=${encodeURIComponent(`syrah ${wine.repeat(190)}`)}`, [200, 404]],
      [`/v1/compare?left=${encodeURIComponent(wine.repeat(200))}&right=syrah`, [404]],
      [`/v1/demo/resolve-entity?q=${encodeURIComponent(wine.repeat(80))}`, [200]],
    ] as const) {
      const r = await t.app.inject({ url: path, headers: path.includes('/demo/') ? {} : k.auth });
      assert.ok((expect as readonly number[]).includes(r.statusCode), `${path.slice(0, 40)}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      if (r.statusCode === 200 && !path.includes('/demo/')) ok++;
    }
    const over = await t.app.inject({ url: `/v1/resolve-entity?q=${encodeURIComponent(wine.repeat(201))}`, headers: k.auth });
    assert.equal(over.statusCode, 400);
    assert.match(over.json().error.message, /"q".*200/);
    assert.equal(await t.ctx.store.getMonthly(k.id, period()), ok, 'counted usage equals the 200s answered');
    // the engine applies the same rule when called directly
    assert.equal((await fetch(`${engineBase}/engine/v1/resolve-entity?q=${encodeURIComponent(wine.repeat(200))}`)).status, 200);
    assert.equal((await fetch(`${engineBase}/engine/v1/resolve-entity?q=${encodeURIComponent(wine.repeat(201))}`)).status, 400);
  });
});

test('control characters in any parameter are a 400 naming it, on the gateway and on the engine, and are not counted', async () => {
  await withEngine(async (t, engineBase) => {
    const k = await createKey(t.ctx, 'pro');
    for (const path of ['/v1/compare?left=syrah%00merlot&right=grenache', '/v1/resolve-entity?q=syrah%0Amerlot', '/v1/explain?q=syrah%7F', '/v1/pair?q=syrah%C2%85', '/v1/entities/grape%2Fsyrah%00']) {
      const r = await t.app.inject({ url: path, headers: k.auth });
      assert.equal(r.statusCode, 400, path);
      assert.equal(r.json().error.code, 'INVALID_REQUEST');
      assert.match(r.json().error.message, /control character/);
      const demo = await t.app.inject({ url: path.replace('/v1/', '/v1/demo/') });
      assert.equal(demo.statusCode, 400, `demo ${path}`);
    }
    assert.equal((await t.app.inject({ url: '/v1/compare?left=syrah%00merlot&right=grenache', headers: k.auth })).json().error.parameter, 'left');
    assert.equal(await t.ctx.store.getMonthly(k.id, period()), 0);
    for (const q of ['left=syrah%00merlot&right=grenache', 'left=syrah&right=merlot%00grenache']) {
      const r = await fetch(`${engineBase}/engine/v1/compare?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(((await r.json()) as { error: { message: string } }).error.message, /control character/);
    }
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=syrah%09', headers: k.auth })).statusCode, 400, 'a tab too');
    assert.equal((await t.app.inject({ url: '/v1/compare?left=syrah&right=merlot', headers: k.auth })).statusCode, 200);
  });
});

test('a key in q never reaches the gateway log or the engine log, plain or percent-encoded', async () => {
  await withEngine(async (t, _engineBase, logs) => {
    const k = await createKey(t.ctx, 'pro');
    const pasted = generateKey().key;
    const secret = pasted.slice('dis_live_'.length);
    const encoded = [...pasted].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const underscores = pasted.replace(/_/g, '%5F');
    for (const q of [pasted, underscores, encoded, encodeURIComponent(underscores)]) {
      const r = await t.app.inject({ url: `/v1/resolve-entity?q=${q}`, headers: k.auth });
      assert.equal(r.statusCode, 200, r.body);
      await t.app.inject({ url: `/v1/demo/explain?q=${q}`, remoteAddress: '192.0.2.1' });
    }
    await t.app.inject({ url: '/v1/usage', headers: { ...k.auth, 'x-request-id': underscores } });
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(logs.engine.text.includes('/engine/v1/resolve-entity'), 'the engine logged the calls');
    assert.ok(logs.gateway.text.includes('/v1/resolve-entity'), 'the gateway logged the calls');
    for (const [name, text] of [['gateway', logs.gateway.text], ['engine', logs.engine.text]] as const) {
      assert.ok(!text.includes(secret), `${name} log holds the key`);
      assert.ok(!text.includes(secret.slice(0, 12)), `${name} log holds part of the key`);
      assert.ok(!text.toLowerCase().includes(encoded.slice(27, 60).toLowerCase()), `${name} log holds the encoded key`);
      assert.ok(text.includes('dis_live_[redacted]'), `${name} log shows where a key was`);
    }
    assert.ok(!logs.gateway.text.includes(k.key.slice(9)), 'nor the bearer key');
  });
});

test('redactKeys decodes before it masks', () => {
  const key = generateKey().key;
  assert.equal(redactKeys(`/v1/x?q=${key}`), '/v1/x?q=dis_live_[redacted]');
  assert.equal(redactKeys(`/v1/x?q=${key.replace(/_/g, '%5F')}&a=%20b`), '/v1/x?q=dis_live_[redacted]&a= b');
  assert.equal(redactKeys(`/v1/x?q=${encodeURIComponent(key.replace(/_/g, '%5F'))}`), '/v1/x?q=dis_live_[redacted]');
  assert.equal(redactKeys('/v1/x?q=pinot%20noir'), '/v1/x?q=pinot%20noir', 'a line without a key is left as it came');
  assert.equal(redactKeys('/v1/x?q=%E0%A4%A'), '/v1/x?q=%E0%A4%A');
});

test('the engine process applies the same header deadline and connection limit', async () => {
  const engineApp = buildEngineServer(sharedEngine(), 'silent', undefined, { headersTimeoutMs: 1000, requestTimeoutMs: 1000, maxConnections: 1 });
  await engineApp.listen({ port: 0, host: '127.0.0.1' });
  const port = (engineApp.server.address() as AddressInfo).port;
  try {
    const slow = net.connect(port, '127.0.0.1');
    slow.on('error', () => undefined);
    slow.resume();
    await new Promise((r) => slow.once('connect', r));
    slow.write('GET /engine/health HTTP/1.1\r\nHost: x\r\n');
    // the one place is taken: a second connection is closed at once
    const second = net.connect(port, '127.0.0.1');
    second.on('error', () => undefined);
    second.resume();
    await new Promise((r) => second.once('close', r));
    const t0 = Date.now();
    await new Promise((r) => slow.once('close', r));
    assert.ok(Date.now() - t0 < 4000, 'the slow client was let go');
  } finally {
    await engineApp.close();
  }
});
