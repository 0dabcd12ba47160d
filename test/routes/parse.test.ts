// GET /v1/parse and /v1/demo/parse over HTTP (issue 22): the body, its length limits (300 keyed, the
// demo's 80), metering like the other engine endpoints, and the OpenAPI document.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('GET /v1/parse', () => {
  let t: App;
  let auth: Record<string, string>;
  let keyId: string;
  const get = (url: string, headers: Record<string, string> = auth) => t.app.inject({ method: 'GET', url, headers });
  const used = async () => t.ctx.store.getMonthly(keyId, new Date().toISOString().slice(0, 7));

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    const k = await t.createKey('pro');
    auth = k.auth;
    keyId = k.id;
  });
  after(async () => t.close());

  test('answers the reading of a line, and counts the request', async () => {
    const before = await used();
    const line = 'Brunello di Montalcino Casanova di Neri 2016';
    const r = await get(`/v1/parse?text=${encodeURIComponent(line)}`);
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.ok, true);
    assert.equal(b.text, line);
    assert.equal(b.state, 'resolved');
    assert.equal(b.primary.canonical_name, 'Brunello di Montalcino');
    assert.equal(b.primary.entity_type, 'wine_geography');
    assert.equal(b.vintage, 2016);
    assert.deepEqual(b.unexplained.map((u: any) => line.slice(u.start, u.end)), ['Casanova di Neri']);
    assert.equal(b.mentions[0].role, 'appellation');
    assert.equal(b.implied[0].canonical_name, 'Sangiovese');
    assert.ok(r.headers.etag);
    assert.equal(await used(), before + 1);
  });

  test('a line with no entity is 200 unresolved with primary null (still counted: the reading is the answer)', async () => {
    const r = await get(`/v1/parse?text=${encodeURIComponent('Casanova di Neri Tenuta Nuova')}`);
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.state, 'unresolved');
    assert.equal(b.primary, null);
    assert.deepEqual(b.implied, []);
  });

  test('text is required and at most 300 code points keyed; the demo twin keeps its 80', async () => {
    assert.equal((await get('/v1/parse')).statusCode, 400);
    const long = 'Barolo '.repeat(50).slice(0, 301);
    const r = await get(`/v1/parse?text=${encodeURIComponent(long)}`);
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().error.code, 'INVALID_REQUEST');
    const ok = await get(`/v1/parse?text=${encodeURIComponent(long.slice(0, 300))}`);
    assert.equal(ok.statusCode, 200);
    const demoLong = await get(`/v1/demo/parse?text=${encodeURIComponent('Barolo '.repeat(20).slice(0, 81))}`, {});
    assert.equal(demoLong.statusCode, 400);
  });

  test('the demo twin answers the same body plus the demo object, without a key', async () => {
    const line = 'Chablis Clotilde Davenne';
    const keyed = (await get(`/v1/parse?text=${encodeURIComponent(line)}`)).json();
    const demo = (await get(`/v1/demo/parse?text=${encodeURIComponent(line)}`, {})).json();
    assert.equal(demo.demo.demo, true);
    const { demo: _d, ...rest } = demo;
    assert.deepEqual(rest, keyed);
  });

  test('hostile input: a control character is a 400 naming the parameter; odd lines are read without error', async () => {
    const bad = await get(`/v1/parse?text=${encodeURIComponent('Barolo\u0007 2015')}`);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.code, 'INVALID_REQUEST');
    for (const line of [',,,,,,,,', '’’’ 99 % % % 75cl cl', '🍷 Barolo 🍷 2015', 'ברולו Barolo', 'X'.repeat(300), 'de de de de de de de de', '1999 2000 2001 NV N.V.']) {
      const r = await get(`/v1/parse?text=${encodeURIComponent(line)}`);
      assert.equal(r.statusCode, 200, line);
      const b = r.json();
      for (const s of [...b.mentions, ...b.terms, ...b.unexplained]) assert.equal(line.slice(s.start, s.end), s.text, line);
    }
  });

  test('without a key the keyed endpoint is 401', async () => {
    assert.equal((await get('/v1/parse?text=Barolo', {})).statusCode, 401);
  });

  test('the OpenAPI document publishes /v1/parse with a real example', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/parse']?.get;
    assert.ok(op, 'path present');
    const schema = op.responses['200'].content['application/json'].schema;
    for (const f of ['text', 'state', 'primary', 'mentions', 'terms', 'vintage', 'unexplained', 'implied']) assert.ok(schema.properties[f], f);
    assert.ok(doc.paths['/v1/demo/parse'], 'demo twin present');
    assert.ok(JSON.stringify(op).includes('Brunello'), 'example request');
  });
});
