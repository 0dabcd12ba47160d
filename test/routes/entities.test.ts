// Entities as resources (issue 10): fetch by id, list and filter with cursors, ids wherever a term
// goes, type/domain filters on resolve, sensory on compare, ETag/304, and the metering of misses.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, sharedEngine } from '../helper.ts';
import { entityIdOf } from '../../src/engine/kb/load.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('entities as resources', () => {
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

  test('a country fact names its country as an entity (relations.country), in every family; null where there is none (issue 24, item 3)', async () => {
    const countryOf = async (key: string) => {
      const b = (await get(`/v1/entities/${entityIdOf(key)}`)).json();
      assert.ok('country' in b.entity.relations, `${key}: relations.country is always present`);
      return { ref: b.entity.relations.country, facts: b.entity.facts };
    };
    const vv = await countryOf('geo/vinho-verde');
    assert.equal(vv.facts.country.value, 'PT'); // the v1 fact keeps its code
    assert.deepEqual(vv.ref, { entity_id: entityIdOf('geo/portugal'), canonical_name: 'Portugal', entity_type: 'wine_geography', domain: 'wine' });
    assert.equal((await countryOf('spirit/cognac')).ref.canonical_name, 'France');
    assert.equal((await countryOf('geo/napa-valley')).ref.canonical_name, 'United States');
    const baga = await countryOf('grape/baga');
    assert.equal(baga.facts.country_of_origin.value, 'PORTUGAL');
    assert.equal(baga.ref.canonical_name, 'Portugal');
    // a country itself, an EU-wide category and a beer style have none
    assert.equal((await countryOf('geo/portugal')).ref, null);
    const eu = sharedEngine().kb.entities.find((e) => e.type === 'wine_style' && e.facts.country?.value === 'EU')!;
    assert.equal((await countryOf(eu.key)).ref, null);
    assert.equal((await countryOf('beer/21a-american-ipa')).ref, null);
  });

  test('GET /v1/entities/{id} answers the explain profile; the permanent key works URL-encoded', async () => {
    const id = entityIdOf('grape/syrah');
    const r = await get(`/v1/entities/${id}`);
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.ok, true);
    assert.equal(b.entity.entity_id, id);
    assert.equal(b.entity.canonical_name, 'Syrah');
    assert.ok(Array.isArray(b.reference_expressions));
    const ex = (await get('/v1/explain?q=syrah')).json();
    assert.deepEqual(b.entity, ex.profile);
    const byKey = await get('/v1/entities/grape%2Fsyrah');
    assert.equal(byKey.statusCode, 200);
    assert.equal(byKey.json().entity.entity_id, id);
    // an upper-case UUID names the same entity
    assert.equal((await get(`/v1/entities/${id.toUpperCase()}`)).json().entity.entity_id, id);
  });

  test('an unknown or malformed id is 404 NOT_FOUND naming the id, and is not counted', async () => {
    const before = await used();
    for (const bad of ['00000000-0000-5000-8000-000000000000', 'not-an-id', 'grape%2Fno-such-grape']) {
      const r = await get(`/v1/entities/${bad}`);
      assert.equal(r.statusCode, 404, bad);
      const e = r.json().error;
      assert.equal(e.code, 'NOT_FOUND');
      assert.ok(e.message.includes(decodeURIComponent(bad)), e.message);
      assert.equal(e.parameter, 'entity_id');
    }
    assert.equal(await used(), before);
  });

  test('a full cursor walk over all grapes returns each grape exactly once, matching kb stats', async () => {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await get(`/v1/entities?type=grape&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(r.statusCode, 200, r.body);
      const b = r.json();
      for (const e of b.entities) {
        assert.equal(e.entity_type, 'grape');
        assert.ok(!seen.has(e.entity_id), `duplicate ${e.entity_key}`);
        seen.add(e.entity_id);
      }
      cursor = b.next_cursor;
      pages++;
    } while (cursor);
    const grapes = sharedEngine().kb.entities.filter((e) => e.type === 'grape').length;
    assert.equal(seen.size, grapes);
    assert.equal(pages, Math.ceil(grapes / 100));
  });

  test('filters: type list, domain, country, parent; stable order by key', async () => {
    const fr = (await get('/v1/entities?type=wine_geography&country=fr&limit=100')).json();
    assert.ok(fr.entities.length === 100);
    const kb = sharedEngine().kb;
    for (const e of fr.entities) assert.equal(kb.byId.get(e.entity_id)!.facts.country?.value, 'FR');
    const keys = fr.entities.map((e: { entity_key: string }) => e.entity_key);
    assert.deepEqual(keys, [...keys].sort());
    const beer = (await get('/v1/entities?domain=beer&limit=100')).json();
    assert.ok(beer.entities.every((e: { domain: string }) => e.domain === 'beer'));
    const two = (await get('/v1/entities?type=spirit,beer_style&limit=100')).json();
    assert.ok(two.entities.every((e: { entity_type: string }) => e.entity_type === 'spirit' || e.entity_type === 'beer_style'));
    // parent: the direct children of a country are the entities whose parent fact names it
    const france = kb.byKey.get('geo/france')!;
    const children = (await get(`/v1/entities?parent=${france.id}&limit=100`)).json();
    assert.ok(children.entities.length > 0);
    for (const e of children.entities) assert.equal(kb.byId.get(e.entity_id)!.facts.parent?.value, 'geo/france');
  });

  test('bad filters and cursors are 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/v1/entities?type=cocktail', 'type'],
      ['/v1/entities?domain=cider', 'domain'],
      ['/v1/entities?country=FRA', 'country'],
      ['/v1/entities?parent=no-such', 'parent'],
      ['/v1/entities?limit=101', 'limit'],
      ['/v1/entities?limit=0', 'limit'],
      ['/v1/entities?cursor=garbage', 'cursor'],
    ];
    for (const [url, param] of cases) {
      const r = await get(url);
      assert.equal(r.statusCode, 400, `${url}: ${r.body}`);
      assert.equal(r.json().error.parameter, param, url);
    }
    // a cursor issued for other filters is foreign
    const page = (await get('/v1/entities?type=grape&limit=2')).json();
    const foreign = await get(`/v1/entities?type=spirit&cursor=${encodeURIComponent(page.next_cursor)}`);
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().error.parameter, 'cursor');
    assert.match(foreign.json().error.message, /does not belong to these filters/);
    // equivalent filters share cursors: the order and repetition of types do not matter
    const mixed = (await get('/v1/entities?type=grape,spirit&limit=2')).json();
    for (const same of ['spirit,grape', 'grape,spirit,grape']) {
      const next = await get(`/v1/entities?type=${same}&limit=2&cursor=${encodeURIComponent(mixed.next_cursor)}`);
      assert.equal(next.statusCode, 200, `${same}: ${next.body}`);
    }
    // a changed checksum does not match the filters either
    const altered = page.next_cursor.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    assert.equal((await get(`/v1/entities?type=grape&cursor=${encodeURIComponent(altered)}`)).statusCode, 400);
    assert.match((await get('/v1/entities?limit=101')).json().error.message, /1 to 100/);
  });

  test('an id anywhere a term goes: explain, pair and compare resolve it directly', async () => {
    const syrah = entityIdOf('grape/syrah');
    const grenache = entityIdOf('grape/grenache');
    for (const url of [`/v1/explain?q=${syrah}`, `/v1/pair?q=${syrah}`, '/v1/explain?q=grape/syrah']) {
      const b = (await get(url)).json();
      assert.equal(b.state, 'resolved', url);
      assert.equal(b.resolution.entity_id, syrah);
      assert.equal(b.resolution.matched_on, 'entity_id');
      assert.equal(b.resolution.match_score, 100);
    }
    const c = (await get(`/v1/compare?left=${syrah}&right=${grenache}`)).json();
    assert.equal(c.left.resolution.entity_id, syrah);
    assert.equal(c.right.resolution.entity_id, grenache);
    assert.equal(c.right.resolution.matched_on, 'entity_id');
  });

  test('compare carries each side\'s sensory reference expressions, or the boundary', async () => {
    const c = (await get('/v1/compare?left=chianti&right=syrah')).json();
    assert.ok(c.left.reference_expressions.length > 0);
    assert.equal(c.left.reference_expressions[0].expression_key.length > 0, true);
    assert.equal(c.left.sensory_boundary, null);
    const withoutSensory = sharedEngine().kb.entities.find((e) => e.sensory.length === 0 && e.type === 'grape')!;
    const d = (await get(`/v1/compare?left=chianti&right=${withoutSensory.id}`)).json();
    assert.deepEqual(d.right.reference_expressions, []);
    assert.equal(d.right.sensory_boundary.reason, 'no_sourced_sensory_evidence');
  });

  test('resolve-entity type and domain filters', async () => {
    // "champagne" is a shared term (the wine geography and other entities); within type it resolves
    // (each filtered list is checked non-empty and holding the entity the term names in that type:
    // an .every() over an empty list could not fail)
    const keyOf = (m: { entity_id: string }) => sharedEngine().kb.byId.get(m.entity_id)!.key;
    const all = (await get('/v1/resolve-entity?q=vouvray')).json();
    assert.equal(keyOf(all.matches[0]), 'geo/vouvray');
    const grapesOnly = (await get('/v1/resolve-entity?q=vouvray&type=grape')).json();
    assert.ok(grapesOnly.matches.length > 0 && grapesOnly.matches.every((m: { entity_type: string }) => m.entity_type === 'grape'));
    assert.equal(keyOf(grapesOnly.matches[0]), 'grape/chenin-blanc');
    const geoOnly = (await get('/v1/resolve-entity?q=toro&type=wine_geography')).json();
    assert.ok(geoOnly.matches.length > 0 && geoOnly.matches.every((m: { entity_type: string }) => m.entity_type === 'wine_geography'));
    assert.equal(keyOf(geoOnly.matches[0]), 'geo/toro');
    const beer = (await get('/v1/resolve-entity?q=bitter&domain=beer')).json();
    assert.ok(beer.matches.length > 0 && beer.matches.every((m: { domain: string }) => m.domain === 'beer'));
    assert.equal(keyOf(beer.matches[0]), 'beer/11a-ordinary-bitter');
    const spirits = (await get('/v1/resolve-entity?q=bitter&domain=spirits')).json();
    assert.ok(spirits.matches.length > 0 && spirits.matches.every((m: { domain: string }) => m.domain === 'spirits'));
    assert.equal(keyOf(spirits.matches[0]), 'spirit/bitter-tasting-spirit-drinks');
    assert.equal((await get('/v1/resolve-entity?q=syrah&type=cocktail')).statusCode, 400);
    assert.equal((await get('/v1/resolve-entity?q=syrah&domain=cider')).json().error.parameter, 'domain');
    const demo = await t.app.inject({ method: 'GET', url: '/v1/demo/resolve-entity?q=syrah&type=grape' });
    assert.equal(demo.statusCode, 200);
    assert.ok(demo.json().matches.every((m: { entity_type: string }) => m.entity_type === 'grape'));
  });

  test('new metering rule: 404 misses are not counted, but the per-minute limit still applies to them', async () => {
    const before = await used();
    const miss = await get('/v1/explain?q=zzzqqqxxy');
    assert.equal(miss.statusCode, 404);
    assert.equal(miss.json().error.code, 'ENTITY_NOT_RESOLVED');
    assert.equal(await used(), before);
    const hit = await get('/v1/explain?q=syrah');
    assert.equal(hit.statusCode, 200);
    assert.equal(await used(), before + 1);
    // the remaining header of a miss reports the allowance as it stands (the miss given back)
    assert.equal(Number(miss.headers['x-ratelimit-remaining']), Number(hit.headers['x-ratelimit-remaining']) + 1);

    // per-minute: a free-plan key whose minute window is used up by misses gets 429
    const k = await t.createKey('free');
    const plan = await t.ctx.accounts.plan('free');
    let last;
    for (let i = 0; i <= plan!.per_minute_limit; i++) last = await get(`/v1/explain?q=zzzqqq${i}x`, k.auth);
    assert.equal(last!.statusCode, 429);
    assert.equal(last!.json().error.code, 'RATE_LIMITED');
    assert.equal(await t.ctx.store.getMonthly(k.id, new Date().toISOString().slice(0, 7)), 0);
  });

  test('demo twins of both endpoints; the list demo caps limit at 5', async () => {
    const one = await t.app.inject({ method: 'GET', url: '/v1/demo/entities/grape%2Fsyrah' });
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().entity.canonical_name, 'Syrah');
    assert.equal(one.json().demo.endpoint, '/v1/entities/:entity_id');
    assert.match(one.json().demo.authenticated_equivalent, /\/v1\/entities\/grape%2Fsyrah"$/);
    assert.equal(one.headers['access-control-allow-origin'], '*');
    const list = await t.app.inject({ method: 'GET', url: '/v1/demo/entities?type=grape' });
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().entities.length, 5);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/demo/entities?limit=6' })).statusCode, 400);
    const nf = await t.app.inject({ method: 'GET', url: '/v1/demo/entities/nope' });
    assert.equal(nf.statusCode, 404);
    assert.equal(nf.json().error.code, 'NOT_FOUND');
    const pre = await t.app.inject({ method: 'OPTIONS', url: '/v1/demo/entities/grape%2Fsyrah' });
    assert.equal(pre.statusCode, 204);
  });

  test('ETag and 304: strong keyed tags, Cache-Control, and a 304 counted like the 200', async () => {
    const r = await get('/v1/explain?q=syrah');
    const etag = r.headers.etag as string;
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(r.headers['cache-control'], 'private, max-age=3600');
    const before = await used();
    const nm = await get('/v1/explain?q=syrah', { ...auth, 'if-none-match': etag });
    assert.equal(nm.statusCode, 304);
    assert.equal(nm.body, '');
    assert.equal(nm.headers.etag, etag);
    assert.equal(await used(), before + 1);
    // another request has another tag; a stale tag gets the full answer
    const other = await get('/v1/explain?q=grenache', { ...auth, 'if-none-match': etag });
    assert.equal(other.statusCode, 200);
    assert.notEqual(other.headers.etag, etag);
    // demo: weak tag, public
    const d = await t.app.inject({ method: 'GET', url: '/v1/demo/explain?q=syrah' });
    assert.match(d.headers.etag as string, /^W\/"/);
    assert.equal(d.headers['cache-control'], 'public, max-age=3600');
    const d304 = await t.app.inject({ method: 'GET', url: '/v1/demo/explain?q=syrah', headers: { 'if-none-match': d.headers.etag as string } });
    assert.equal(d304.statusCode, 304);
    // a miss carries no ETag
    assert.equal((await get('/v1/explain?q=zzzqqqxxy')).headers.etag, undefined);
  });
});
