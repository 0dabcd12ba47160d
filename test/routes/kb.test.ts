// GET /v1/kb (issue 36): the release's version, date, counts and notes link, keyless, never metered,
// cacheable (public Cache-Control, ETag, 304); and every engine answer names the release.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, sharedEngine } from '../helper.ts';

describe('GET /v1/kb', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let auth: Record<string, string>;
  before(async () => {
    t = await buildTestApp();
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t?.close());

  test('answers without a key: the version, the date, counts that agree with the knowledge base', async () => {
    const r = await t.app.inject({ url: '/v1/kb' });
    assert.equal(r.statusCode, 200);
    const b = r.json();
    const kb = sharedEngine().kb;
    assert.equal(b.knowledge_base_version, kb.version);
    assert.equal(b.date, kb.date);
    assert.equal(b.counts.entities, kb.entities.length);
    assert.equal(b.counts.sources, kb.sources.size);
    assert.equal(b.counts.tombstones, kb.tombstones.size);
    assert.equal(Object.values(b.counts.entities_by_domain as Record<string, number>).reduce((a, n) => a + n, 0), kb.entities.length);
    assert.equal(b.counts.pairing_items, kb.entities.reduce((n, e) => n + (e.pairing?.items.length ?? 0), 0));
    assert.equal(b.notes_url, kb.releaseNotes() === null ? null : '/v1/kb/notes');
    assert.equal(r.headers['access-control-allow-origin'], '*');
  });

  test('cacheable: public Cache-Control and an ETag; If-None-Match answers 304', async () => {
    const r = await t.app.inject({ url: '/v1/kb' });
    assert.match(String(r.headers['cache-control']), /^public, max-age=\d+/);
    const etag = String(r.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    const again = await t.app.inject({ url: '/v1/kb', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  test('never metered: a keyed caller calling it leaves its usage unchanged', async () => {
    const u0 = (await t.app.inject({ url: '/v1/usage', headers: auth })).json();
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ url: '/v1/kb', headers: auth })).statusCode, 200);
    const u1 = (await t.app.inject({ url: '/v1/usage', headers: auth })).json();
    assert.deepEqual(u1.usage, u0.usage);
    assert.equal((await t.app.inject({ url: '/v1/kb', headers: auth })).headers['x-ratelimit-remaining'], undefined);
  });

  test('the notes: 200 with Markdown when the release has them, else 404 NOT_FOUND naming the file', async () => {
    const r = await t.app.inject({ url: '/v1/kb/notes' });
    const kb = sharedEngine().kb;
    if (kb.releaseNotes() === null) {
      assert.equal(r.statusCode, 404);
      assert.equal(r.json().error.code, 'NOT_FOUND');
    } else {
      assert.equal(r.statusCode, 200);
      assert.equal(r.json().notes, kb.releaseNotes());
      assert.match(r.json().notes, new RegExp(kb.version.replace(/\./g, '\\.')));
    }
  });

  test('in the OpenAPI document, with /v1/entities/{entity_id} documenting 410 and 301', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    assert.ok(doc.paths['/v1/kb']?.get?.responses?.['200'], '/v1/kb is documented');
    assert.ok(doc.paths['/v1/kb/notes']?.get, '/v1/kb/notes is documented');
    for (const p of ['/v1/entities/{entity_id}', '/v1/demo/entities/{entity_id}']) {
      const res = doc.paths[p].get.responses;
      assert.ok(res['410'], `${p} documents 410`);
      assert.ok(res['301'], `${p} documents 301`);
      assert.ok(res['301'].headers?.Location, `${p}: 301 documents Location`);
      assert.match(JSON.stringify(res['410']), /GONE/);
      assert.match(JSON.stringify(res['301']), /MOVED_PERMANENTLY/);
    }
  });
});

describe('every engine answer names its knowledge-base version', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let auth: Record<string, string>;
  before(async () => {
    t = await buildTestApp();
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t?.close());

  const urls = [
    '/v1/resolve-entity?q=Syrah',
    '/v1/explain?q=Barolo',
    '/v1/pair?q=Barolo',
    '/v1/pair?q=Gin',
    '/v1/pair-food?q=roast%20lamb',
    '/v1/compare?left=Syrah&right=Grenache',
    '/v1/parse?text=Barolo%202019',
    '/v1/entities/grape%2Fsyrah',
    '/v1/entities?type=grape&limit=2',
  ];
  for (const url of urls) {
    test(url, async () => {
      const version = sharedEngine().kb.version;
      const keyed = await t.app.inject({ url, headers: auth });
      assert.equal(keyed.statusCode, 200, keyed.body.slice(0, 200));
      assert.equal(keyed.json().knowledge_base_version, version);
      const demo = await t.app.inject({ url: url.replace('/v1/', '/v1/demo/').replace('limit=2', '') });
      if (demo.statusCode === 200) assert.equal(demo.json().knowledge_base_version, version);
    });
  }
});
