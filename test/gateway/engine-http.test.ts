import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { buildTestApp, createKey, sharedEngine, sleep } from '../helper.ts';
import { runEngineOp } from '../../src/gateway/engine-client.ts';
import { buildEngineServer } from '../../src/engine-server.ts';

test('HTTP engine mode: bodies pass through; engine down gives 503 ENGINE_UNAVAILABLE and /health 503; both recover', async () => {
  let engineApp = buildEngineServer(sharedEngine(), 'silent');
  await engineApp.listen({ port: 0, host: '127.0.0.1' });
  const port = (engineApp.server.address() as AddressInfo).port;
  const t = await buildTestApp({ env: { ENGINE_URL: `http://127.0.0.1:${port}` } });
  try {
    const k = await createKey(t.ctx, 'pro');
    const viaHttp = await t.app.inject({ url: '/v1/explain?q=barolo', headers: k.auth });
    assert.equal(viaHttp.statusCode, 200);
    // the engine's answer as every door gives it (runEngineOp: with its knowledge_base_version)
    assert.deepEqual(viaHttp.json(), runEngineOp(sharedEngine(), 'explain', { q: 'barolo' }).body);
    const nf = await t.app.inject({ url: '/v1/pair?q=asdfgh', headers: k.auth });
    assert.equal(nf.statusCode, 404);
    assert.equal(nf.json().error.code, 'ENTITY_NOT_RESOLVED');
    assert.equal(nf.json().error.request_id, nf.headers['x-request-id']);
    assert.equal((await t.app.inject({ url: '/health' })).json().engine.mode, 'http');

    await engineApp.close();
    const down = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
    assert.equal(down.statusCode, 503);
    assert.equal(down.json().error.code, 'ENGINE_UNAVAILABLE');
    assert.equal(down.json().error.request_id, down.headers['x-request-id']);
    const demoDown = await t.app.inject({ url: '/v1/demo/resolve-entity?q=syrah' });
    assert.equal(demoDown.statusCode, 503);
    assert.equal(demoDown.json().error.code, 'ENGINE_UNAVAILABLE');
    const health = await t.app.inject({ url: '/health' });
    assert.equal(health.statusCode, 503);
    assert.equal(health.json().engine.status, 'unavailable');
    const usage = (await t.app.inject({ url: '/v1/usage', headers: k.auth })).json();
    assert.equal(usage.usage.used, 1, 'the failed request was refunded and the 404 not counted');

    engineApp = buildEngineServer(sharedEngine(), 'silent');
    await engineApp.listen({ port, host: '127.0.0.1' });
    await sleep(100);
    assert.equal((await t.app.inject({ url: '/health' })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth })).statusCode, 200);
  } finally {
    await t.close();
    await engineApp.close();
  }
});

test('the engine process checks its own parameters; a malformed engine answer is ENGINE_UNAVAILABLE (the refund of such a failure is checked above)', async () => {
  const engineApp = buildEngineServer(sharedEngine(), 'silent');
  engineApp.get('/engine/v1/broken', async () => ({ error: 'Not Found' }));
  await engineApp.listen({ port: 0, host: '127.0.0.1' });
  const port = (engineApp.server.address() as AddressInfo).port;
  try {
    const direct = await fetch(`http://127.0.0.1:${port}/engine/v1/resolve-entity?q=${'x'.repeat(201)}`);
    assert.equal(direct.status, 400);
    assert.equal((await direct.json()).error.code, 'INVALID_REQUEST');
    const noQ = await fetch(`http://127.0.0.1:${port}/engine/v1/explain`);
    assert.equal(noQ.status, 400);
    const badLimit = await fetch(`http://127.0.0.1:${port}/engine/v1/resolve-entity?q=syrah&limit=99`);
    assert.equal(badLimit.status, 400);

    const { HttpEngineClient, EngineUnavailableError } = await import('../../src/gateway/engine-client.ts');
    const client = new HttpEngineClient(`http://127.0.0.1:${port}`);
    await assert.rejects(client.call('broken' as never, {}), EngineUnavailableError);
    await client.close();
  } finally {
    await engineApp.close();
  }
});
