// The TypeScript client (clients/typescript) against a live service started here, on a real port:
// one method per endpoint (the issue-10 endpoints included, so `npm run typecheck` type-checks
// calls to them through the generated types), typed errors, quota fields, the demo flag; its
// retries against a real HTTP server that answers 503 with Retry-After; and the drift check: the
// committed generated types equal what the running service describes.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp } from '../helper.ts';
import { createClient, DrinksApiError, type ErrorCode } from '../../clients/typescript/src/index.ts';
import { generatedTypes, liveOpenApi, SCHEMA_FILE } from '../../scripts/client-generate.ts';

describe('TypeScript client against a live service', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let baseUrl: string;
  let key: string;

  before(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    key = (await t.createKey('pro')).key;
  });
  after(async () => t.close());

  test('one method per endpoint, typed bodies, quota headers as numbers', async () => {
    const c = createClient({ baseUrl, apiKey: key });
    const r = await c.resolveEntity({ q: 'shiraz', limit: 3, type: 'grape' });
    assert.equal(r.data.matches[0]!.canonical_name, 'Syrah');
    assert.equal(r.quota!.plan, 'pro');
    assert.equal(typeof r.quota!.monthlyRemaining, 'number');
    assert.ok(r.requestId);
    const ex = await c.explain('barolo');
    assert.equal(ex.data.profile.canonical_name, 'Barolo');
    assert.match(ex.etag!, /^"/);
    const byId = await c.entity(ex.data.profile.entity_id);
    assert.equal(byId.data.entity.entity_key, ex.data.profile.entity_key);
    const pair = await c.pair(ex.data.profile.entity_id);
    assert.equal(pair.data.resolution.matched_on, 'entity_id');
    const pf = await c.pairFood({ q: 'oysters', limit: 3, domain: 'wine' });
    assert.deepEqual(pf.data.food.matched, ['oysters']);
    assert.ok(pf.data.drinks.length >= 1 && pf.data.drinks.length <= 3);
    for (const d of pf.data.drinks) assert.equal(d.domain, 'wine');
    const cmp = await c.compare('syrah', 'grenache');
    assert.equal(cmp.data.comparison.same_entity, false);
    const page = await c.entities({ type: 'beer_style', limit: 2 });
    assert.equal(page.data.entities.length, 2);
    let n = 0;
    for await (const e of c.allEntities({ type: 'beer_style', limit: 100 })) {
      assert.equal(e.entity_type, 'beer_style');
      n++;
    }
    assert.ok(n > 100);
    const u = await c.usage();
    assert.equal(u.data.plan.name, 'pro');
    assert.equal(typeof u.data.usage.used, 'number');
  });

  test('errors are typed by code', async () => {
    const c = createClient({ baseUrl, apiKey: key });
    const expectCode = async (p: Promise<unknown>, code: ErrorCode, status: number) => {
      await assert.rejects(p, (e: unknown) => e instanceof DrinksApiError && e.code === code && e.status === status && typeof e.requestId === 'string');
    };
    await expectCode(c.entity('no-such-entity'), 'NOT_FOUND', 404);
    await expectCode(c.explain('zzqqxxyy'), 'ENTITY_NOT_RESOLVED', 404);
    await expectCode(c.pairFood({ q: 'zzqqxxyy' }), 'FOOD_NOT_RESOLVED', 404);
    await expectCode(c.entities({ cursor: 'garbage' }), 'INVALID_REQUEST', 400);
    await expectCode(createClient({ baseUrl, apiKey: 'dis_live_unknownkeyunknownkeyunknownkey' }).explain('syrah'), 'UNAUTHORIZED', 401);
  });

  test('the demo flag calls the keyless twins', async () => {
    const c = createClient({ baseUrl, demo: true });
    const r = await c.resolveEntity({ q: 'riesling', limit: 20 });
    assert.ok(r.data.matches.length <= 5);
    assert.equal((r.data as { demo?: { demo: boolean } }).demo?.demo, true);
    assert.equal(r.quota, null);
  });

  test('the committed generated types equal what the running service describes', async () => {
    const types = await generatedTypes(await liveOpenApi());
    assert.equal(fs.readFileSync(SCHEMA_FILE, 'utf8'), types, 'run npm run client:generate');
  });
});

describe('TypeScript client retries', () => {
  test('429/503 with Retry-After are retried, bounded and opt-out', async () => {
    let calls = 0;
    const server = http.createServer((_req, res) => {
      calls++;
      if (calls % 2 === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', 'x-request-id': `r${calls}` });
        res.end(JSON.stringify({ ok: false, error: { code: 'ENGINE_UNAVAILABLE', message: 'The engine is unavailable. Retry shortly.', request_id: `r${calls}` } }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, query: 'x', state: 'unresolved', resolved: false, ambiguous: false, top_score: 0, matches: [] }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await createClient({ baseUrl, apiKey: 'k' }).resolveEntity({ q: 'x' });
      assert.equal(r.data.state, 'unresolved');
      assert.equal(calls, 2, 'one retry after the 503');
      // opt-out: the first 503 is thrown with its code and Retry-After
      await assert.rejects(createClient({ baseUrl, apiKey: 'k', retry: false }).resolveEntity({ q: 'x' }), (e: unknown) => e instanceof DrinksApiError && e.code === 'ENGINE_UNAVAILABLE' && e.retryAfter === 1);
      assert.equal(calls, 3);
      // bounded: a Retry-After longer than maxDelayMs is not waited for
      calls = 2;
      await assert.rejects(createClient({ baseUrl, apiKey: 'k', retry: { maxDelayMs: 500 } }).resolveEntity({ q: 'x' }), DrinksApiError);
      assert.equal(calls, 3);
    } finally {
      server.close();
    }
  });
});
