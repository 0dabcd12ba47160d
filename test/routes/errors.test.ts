import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

describe('request validation, unknown paths, methods and request ids', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let auth: Record<string, string>;
  before(async () => {
    t = await buildTestApp();
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  const cases: [string, RegExp][] = [
    ['/v1/resolve-entity', /Missing required parameter "q"/],
    ['/v1/resolve-entity?q=', /"q" must not be empty/],
    ['/v1/resolve-entity?q=%20%20', /"q" must not be empty/],
    [`/v1/resolve-entity?q=${'x'.repeat(201)}`, /"q" is too long: at most 200/],
    ['/v1/resolve-entity?q=syrah&limit=0', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&limit=26', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&limit=2.5', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&limit=ten', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&limit=1.0', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&limit=0x5', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&limit=5e0', /"limit" must be a whole number from 1 to 25/],
    ['/v1/resolve-entity?q=syrah&q=merlot', /"q" is repeated/],
    ['/v1/resolve-entity?q=syrah&limit=1&limit=2', /"limit" is repeated/],
    ['/v1/explain', /Missing required parameter "q"/],
    ['/v1/pair?q=', /"q" must not be empty/],
    ['/v1/compare?left=syrah', /Missing required parameter "right"/],
    [`/v1/compare?left=syrah&right=${'y'.repeat(201)}`, /"right" is too long/],
  ];
  for (const [url, message] of cases) {
    test(`400 INVALID_REQUEST naming the parameter: ${url.slice(0, 60)}`, async () => {
      const res = await t.app.inject({ url, headers: auth });
      assert.equal(res.statusCode, 400);
      const b = res.json();
      assert.equal(b.ok, false);
      assert.equal(b.error.code, 'INVALID_REQUEST');
      assert.match(b.error.message, message);
      assert.equal(b.error.request_id, res.headers['x-request-id']);
    });
  }

  test('q of exactly 200 characters is accepted on keyed endpoints', async () => {
    const res = await t.app.inject({ url: `/v1/resolve-entity?q=${'x'.repeat(200)}`, headers: auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().state, 'unresolved');
    assert.deepEqual(res.json().matches, []);
  });

  test('an unknown path gets 404 NOT_FOUND, a trailing slash included', async () => {
    for (const url of ['/v2/resolve-entity?q=syrah', '/v1/pair/?q=syrah', '/v1/demo/pair/']) {
      const res = await t.app.inject({ url, headers: auth });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error.code, 'NOT_FOUND');
    }
  });

  test('unknown parameters are ignored (cache-busters keep working), on /v1/usage too', async () => {
    const res = await t.app.inject({ url: '/v1/explain?q=syrah&_=123&utm_source=x', headers: auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().resolution.canonical_name, 'Syrah');
    assert.equal((await t.app.inject({ url: '/v1/usage?x=1', headers: auth })).statusCode, 200);
    const demo = await t.app.inject({ url: '/v1/demo/resolve-entity?q=syrah&_=1', remoteAddress: '192.0.2.200' });
    assert.equal(demo.statusCode, 200);
    assert.match(demo.json().demo.authenticated_equivalent, /resolve-entity\?q=syrah"$/);
  });

  test('a malformed URL gets a JSON 400 with a request id', async () => {
    const res = await t.app.inject({ url: '/v1/pair%' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'INVALID_REQUEST');
    assert.equal(res.json().error.request_id, res.headers['x-request-id']);
  });

  test('a wrong method gets 405 METHOD_NOT_ALLOWED with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: '/v1/resolve-entity?q=syrah', headers: auth, payload: method === 'DELETE' ? undefined : '{}' });
      assert.equal(res.statusCode, 405, method);
      assert.equal(res.headers.allow, 'GET, HEAD');
      assert.equal(res.json().error.code, 'METHOD_NOT_ALLOWED');
    }
  });

  test('OPTIONS grants CORS on demo endpoints only', async () => {
    const d = await t.app.inject({ method: 'OPTIONS', url: '/v1/demo/resolve-entity' });
    assert.equal(d.statusCode, 204);
    assert.equal(d.headers['access-control-allow-origin'], '*');
    const k = await t.app.inject({ method: 'OPTIONS', url: '/v1/resolve-entity' });
    assert.equal(k.statusCode, 405);
    assert.equal(k.headers['access-control-allow-origin'], undefined);
  });

  test('X-Request-Id: a safe caller value is echoed, an unsafe one replaced', async () => {
    const safe = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'abc-123.DEF:7' } });
    assert.equal(safe.headers['x-request-id'], 'abc-123.DEF:7');
    for (const bad of ['has space', 'x'.repeat(129), 'tab\there', 'é', 'dis_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await t.app.inject({ url: '/v1/nope', headers: { 'x-request-id': bad } });
      assert.notEqual(res.headers['x-request-id'], bad);
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      assert.equal(res.json().error.request_id, res.headers['x-request-id']);
    }
  });

  test('over real HTTP, a URL far over the limits gets a JSON 4xx, not a hang or a 500', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/v1/demo/resolve-entity?q=${'x'.repeat(70_000)}`);
    assert.equal(res.status, 431);
    const b = await res.json();
    assert.equal(b.error.code, 'INVALID_REQUEST');
    assert.equal(b.error.request_id, res.headers.get('x-request-id'));
    const long = await fetch(`http://127.0.0.1:${port}/v1/demo/resolve-entity?q=${'x'.repeat(5_000)}`);
    assert.equal(long.status, 400);
    assert.match((await long.json()).error.message, /"q" is too long/);
  });

  test('malformed percent-encoding is a 400, not a 500', async () => {
    for (const q of ['%E0%A4%A', '%', 'abc%2', '%FF%FE']) {
      const res = await t.app.inject({ url: `/v1/resolve-entity?q=${q}`, headers: auth });
      assert.equal(res.statusCode, 400, q);
      assert.equal(res.json().error.code, 'INVALID_REQUEST');
      assert.equal(res.json().error.parameter, 'q');
      assert.match(res.json().error.message, /malformed percent-encoding/);
    }
    // well-formed escapes still work
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=%C3%A9', headers: auth })).statusCode, 200);
  });
});
