import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildTestApp } from '../helper.ts';
import { sharedEngine } from '../helper.ts';

test('/health reports engine, knowledge-base version and store', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({ url: '/health' });
    assert.equal(res.statusCode, 200);
    const b = res.json();
    assert.equal(b.status, 'ok');
    assert.equal(b.version, '1.0.0-early-access');
    assert.deepEqual(b.engine, { status: 'ok', mode: 'in-process', kb_version: sharedEngine().version });
    assert.equal(b.store.status, 'ok');
    assert.equal(b.store.database.kind, 'sqlite');
    assert.equal(b.store.limiter.kind, 'memory');
  } finally {
    await t.close();
  }
});

test('/health is 503 when the store is unavailable', async () => {
  const t = await buildTestApp();
  try {
    await t.ctx.store.close();
    const res = await t.app.inject({ url: '/health' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().status, 'unavailable');
    assert.equal(res.json().store.database.status, 'unavailable');
  } finally {
    await t.app.close();
  }
});

test('/plans lists the plans, and answers 503 STORE_UNAVAILABLE (not 500) when the store is down', async () => {
  const t = await buildTestApp();
  try {
    const ok = await t.app.inject({ url: '/plans' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json().plans.map((p: { name: string }) => p.name), ['free', 'starter', 'pro']);
  } finally {
    await t.close();
  }
  const down = await buildTestApp();
  try {
    await down.ctx.store.close();
    const res = await down.app.inject({ url: '/plans' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().error.code, 'STORE_UNAVAILABLE');
  } finally {
    await down.app.close();
  }
});

test('/openapi.json is OpenAPI 3.1, version 1.0.0-early-access, with every endpoint, errors, headers and bearer auth', async () => {
  const t = await buildTestApp();
  try {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    const validation = await new Validator().validate(doc);
    assert.equal(validation.valid, true, JSON.stringify(validation.errors));
    assert.equal(doc.info.version, '1.0.0-early-access');
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', bearerFormat: 'dis_live_<secret>', description: 'API key issued with `admin keys create`.' });
    const engineBacked = ['/v1/resolve-entity', '/v1/explain', '/v1/pair', '/v1/compare', '/v1/entities/{entity_id}', '/v1/entities'];
    for (const p of ['/health', '/v1/usage', ...engineBacked, ...engineBacked.map((x) => x.replace('/v1/', '/v1/demo/'))]) {
      assert.ok(doc.paths[p]?.get, `missing ${p}`);
    }
    // every engine-backed 200 has a realistic example from the knowledge base, 304 documented
    for (const p of [...engineBacked, ...engineBacked.map((x) => x.replace('/v1/', '/v1/demo/'))]) {
      const ok = doc.paths[p].get.responses['200'];
      const ex = ok.content['application/json'].example;
      assert.equal(ex?.ok, true, `example of ${p}`);
      assert.ok(doc.paths[p].get.responses['304'], `304 of ${p}`);
      if (p.includes('/demo/')) assert.equal(ex.demo.demo, true);
      assert.ok(ok.headers.ETag, `ETag header of ${p}`);
    }
    assert.equal(doc.paths['/v1/explain'].get.responses['200'].content['application/json'].example.profile.canonical_name, 'Syrah');
    // and the other 200s: /health and /plans as answered, /v1/usage as a key would see it
    for (const p of ['/health', '/plans', '/v1/usage']) assert.ok(doc.paths[p].get.responses['200'].content['application/json'].example, `example of ${p}`);
    assert.equal(doc.paths['/health'].get.responses['200'].content['application/json'].example.status, 'ok');
    assert.match(JSON.stringify(doc.paths['/v1/entities/{entity_id}'].get.responses['404'].content['application/json'].schema.properties.error.properties.code), /"NOT_FOUND"/);
    const re = doc.paths['/v1/resolve-entity'].get;
    assert.deepEqual(re.security, [{ bearerAuth: [] }]);
    for (const s of ['200', '400', '401', '429']) assert.ok(re.responses[s], `resolve-entity ${s}`);
    assert.ok(re.responses['200'].headers['X-RateLimit-Minute-Remaining']);
    assert.ok(re.responses['429'].headers['Retry-After']);
    assert.ok(doc.paths['/v1/explain'].get.responses['404']);
    for (const s of ['200', '400', '429', '503']) assert.ok(doc.paths['/v1/demo/pair'].get.responses[s], `demo pair ${s}`);
    assert.equal(doc.paths['/v1/demo/resolve-entity'].get.security, undefined);
    const demoParams = doc.paths['/v1/demo/resolve-entity'].get.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(demoParams, ['q', 'type', 'domain']);
    const docs = await t.app.inject({ url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
    assert.match(docs.body, /<title>Drinks Intelligence API/);
    assert.doesNotMatch(docs.body, /https?:\/\/(cdn|unpkg)/);
  } finally {
    await t.close();
  }
});
