// The wine_style family and the designation words over HTTP (issue 20): the type filter of resolve and
// of the entity list, the style profile with its cited definition and verbatim excerpt, compare of two
// styles, pair's boundary for a style, `terms` on resolve-entity (keyed and demo), and the OpenAPI enums.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('wine styles and designation words over HTTP', () => {
  let t: App;
  let auth: Record<string, string>;
  const get = (url: string, headers: Record<string, string> = auth) => t.app.inject({ method: 'GET', url, headers });

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  test('type=wine_style restricts resolve to styles; the match says entity_type wine_style, domain wine', async () => {
    const b = (await get('/v1/resolve-entity?q=brut&type=wine_style')).json();
    assert.equal(b.state, 'resolved');
    assert.equal(b.matches[0].entity_type, 'wine_style');
    assert.equal(b.matches[0].domain, 'wine');
    assert.ok(b.matches.every((m: any) => m.entity_type === 'wine_style'));
  });

  test('the entity list pages through the styles, filtered by type and domain', async () => {
    const r = await get('/v1/entities?type=wine_style&limit=100');
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.ok(b.entities.length >= 20, `${b.entities.length}`);
    assert.ok(b.entities.every((e: any) => e.entity_type === 'wine_style' && e.entity_key.startsWith('style/')));
    const wine = (await get('/v1/entities?type=wine_style&domain=wine&limit=100')).json();
    assert.equal(wine.entities.length, b.entities.length);
  });

  test('explain of a style serves its definition with the verbatim excerpt and its language; other facts carry null excerpts', async () => {
    const b = (await get('/v1/explain?q=' + encodeURIComponent('Brut Nature'))).json();
    assert.equal(b.profile.entity_type, 'wine_style');
    const def = b.profile.facts.definition;
    assert.ok(def.value.length > 10);
    assert.equal(typeof def.provenance.source_excerpt, 'string');
    assert.ok(def.provenance.source_excerpt.length <= 300);
    assert.match(def.provenance.language_code, /^[a-z]{2,3}$/);
    assert.equal(b.profile.facts.category.value, 'sweetness_term');
    assert.ok('sugar_g_per_l' in b.profile.facts);
    // a grape's facts keep no excerpt: the fields are present, as null
    const g = (await get('/v1/explain?q=syrah')).json();
    const vivc = g.profile.facts.vivc_id.provenance;
    assert.equal(vivc.source_excerpt, null);
    assert.equal(vivc.language_code, null);
  });

  test('a sherry style names its appellation as a navigable entity', async () => {
    const b = (await get('/v1/explain?q=fino')).json();
    assert.equal(b.profile.entity_key, 'style/fino');
    assert.equal(b.profile.facts.appellation.value.canonical_name.length > 0, true);
    assert.equal(b.profile.facts.appellation.value.entity_type, 'wine_geography');
  });

  test('pair on a style answers with the boundary, never generic guidance', async () => {
    const b = (await get('/v1/pair?q=' + encodeURIComponent('extra brut'))).json();
    assert.equal(b.pairing_available, false);
    assert.deepEqual(b.pairing.guidance, []);
    assert.ok(b.boundary.reason);
  });

  test('compare two styles: their sourced facts side by side', async () => {
    const r = await get('/v1/compare?left=brut&right=' + encodeURIComponent('demi-sec'));
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.left.profile.entity_type, 'wine_style');
    assert.equal(b.right.profile.entity_type, 'wine_style');
  });

  test('resolve-entity reports designation words as terms, keyed and demo alike', async () => {
    const q = encodeURIComponent('DO Ribera del Duero');
    for (const [url, headers] of [[`/v1/resolve-entity?q=${q}`, auth], [`/v1/demo/resolve-entity?q=${q}`, {}]] as const) {
      const b = (await get(url, headers)).json();
      assert.equal(b.state, 'resolved', url);
      assert.equal(b.matches[0].canonical_name, 'Ribera del Duero');
      assert.deepEqual(b.terms.map((x: any) => [x.kind, x.value, x.start, x.end, x.text]), [['designation', 'DO', 0, 2, 'DO']]);
    }
    const plain = (await get('/v1/resolve-entity?q=syrah')).json();
    assert.deepEqual(plain.terms, []);
  });

  test('the OpenAPI document lists wine_style in the entity_type enum and describes terms', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const s = JSON.stringify(doc);
    assert.ok(s.includes('"wine_style"'));
    const resolve = doc.paths['/v1/resolve-entity'].get.responses['200'].content['application/json'].schema;
    assert.ok(resolve.properties.terms, 'terms in the resolve-entity schema');
    assert.ok(resolve.required.includes('terms'));
  });
});
