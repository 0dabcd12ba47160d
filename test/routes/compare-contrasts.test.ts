// Issue 33, item 5: compare helps a buyer choose. The comparison comes first, with what tells the two
// apart beyond their catalogue facts (where each is allowed, pairings one has and the other lacks,
// sourced sensory evidence); catalogue ids are never compared; each side's long lists are cut.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, sharedEngine } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('compare: differences first, bodies that fit (issue 33, item 5)', () => {
  let t: App;
  let auth: Record<string, string>;
  const get = async (url: string) => {
    const r = await t.app.inject({ method: 'GET', url, headers: auth });
    assert.equal(r.statusCode, 200, r.body);
    return { body: r.json(), bytes: Buffer.byteLength(r.body) };
  };

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  test('Pinot Noir against Gamay: the comparison comes first and names where only one of them is allowed', async () => {
    const { body, bytes } = await get('/v1/compare?left=pinot%20noir&right=gamay');
    assert.deepEqual(Object.keys(body).slice(0, 3), ['ok', 'comparison', 'left']);
    const a = body.comparison.contrasts.appellations;
    const e = sharedEngine();
    const geos = (k: string) => new Set(e.kb.byKey.get(k)!.appellations.map((x) => x.geo));
    const pn = geos('grape/pinot-noir');
    const ga = geos('grape/gamay');
    assert.equal(a.only_left_total, [...pn].filter((g) => !ga.has(g)).length);
    assert.equal(a.only_right_total, [...ga].filter((g) => !pn.has(g)).length);
    assert.equal(a.shared_total, [...pn].filter((g) => ga.has(g)).length);
    assert.ok(a.only_left.length > 0 && a.only_left.length <= 8);
    for (const x of a.only_left) assert.ok(!ga.has(e.kb.byId.get(x.entity_id)!.idx), x.canonical_name);
    assert.equal(typeof body.comparison.contrasts.sensory.left_available, 'boolean');
    // catalogue ids are never compared
    for (const x of [...body.comparison.shared, ...body.comparison.differences]) assert.ok(!/vivc|file_number|style_id/.test(x.field), x.field);
    assert.ok(bytes < 32_000, `${bytes} bytes`);
    // each side's lists are cut at 5, with the query for the whole list
    assert.equal(body.left.profile.relations.appellations.length, 5);
    assert.match(body.left.profile.relations_more.appellations.list, /^\/v1\/entities\?grape=/);
  });

  test('two appellations: the grapes only one of them allows, and the foods only one has verified items for', async () => {
    const { body } = await get('/v1/compare?left=chablis&right=sancerre');
    const g = body.comparison.contrasts.grapes;
    assert.ok(g, 'grapes contrast present');
    const names = (xs: any[]) => xs.map((x) => x.canonical_name);
    assert.ok(names(g.only_right).includes('Pinot Noir'), JSON.stringify(g));
    assert.ok(!names(g.only_left).includes('Pinot Noir'));
    const p = body.comparison.contrasts.pairings;
    assert.ok(p, 'pairings contrast present');
    const e = sharedEngine();
    const foods = (k: string) => new Set((e.kb.byKey.get(k)!.pairing?.items ?? []).filter((it) => it.pairing_relationship !== 'avoid').map((it) => it.food_item.toLowerCase()));
    const sa = foods('geo/sancerre');
    // foods are compared by name, not by the items' keys: Chablis's "oysters" and Sancerre's Pleine Mer oysters are one food
    for (const f of p.only_left) assert.ok(!sa.has(f.toLowerCase()), f);
    for (const f of p.shared) assert.ok(sa.has(f.toLowerCase()), f);
  });

  test('every cut in a compare says what it cut and where the whole is; with provenance=by_key the body is under 16 KB as served (keyed and demo)', async () => {
    const e = sharedEngine();
    for (const [l, r] of [['geo/champagne', 'geo/rioja'], ['geo/champagne', 'geo/rheinhessen'], ['barolo', 'barbaresco'], ['pinot noir', 'gamay']]) {
      const url = `/v1/compare?left=${encodeURIComponent(l!)}&right=${encodeURIComponent(r!)}&provenance=by_key`;
      const { body, bytes } = await get(url);
      assert.ok(bytes < 16 * 1024, `${l} / ${r}: ${bytes} bytes`);
      const demo = await t.app.inject({ method: 'GET', url: url.replace('/v1/', '/v1/demo/') });
      assert.equal(demo.statusCode, 200);
      assert.ok(Buffer.byteLength(demo.body) < 16 * 1024, `demo ${l} / ${r}: ${Buffer.byteLength(demo.body)} bytes`);
      for (const which of ['left', 'right'] as const) {
        const side = body[which];
        const p = side.profile;
        const x = e.kb.byId.get(p.entity_id)!;
        const full = `/v1/entities/${p.entity_id}`;
        assert.equal(p.provenance_by_key.full_profile, full);
        // each fact names its source by key, and that source is given once, in the side's sources
        const keys = p.sources.map((s: any) => s.source_key);
        assert.equal(new Set(keys).size, keys.length);
        for (const [k, f] of Object.entries<any>(p.facts)) {
          assert.equal(f.provenance.source_title, undefined, k);
          assert.ok(keys.includes(f.provenance.source_key), `${p.canonical_name} ${k}: ${f.provenance.source_key}`);
          assert.equal(p.sources.find((s: any) => s.source_key === f.provenance.source_key).title, e.kb.sources.get(f.provenance.source_key)!.title);
        }
        // the sources not shown, the aliases, the grape rules and the sensory expressions are counted and linked
        const all = (await get(full)).body.entity;
        assert.equal(p.relations_more.sources?.total ?? p.sources.length, all.sources.length);
        if (p.sources.length < all.sources.length) assert.equal(p.relations_more.sources.list, full);
        if (x.aliases.length) assert.deepEqual(p.relations_more.aliases, { total: x.aliases.length, shown: 0, list: full });
        assert.equal(p.aliases, undefined);
        if (p.facts.grapes?.value_total !== undefined) {
          assert.equal(p.facts.grapes.value_total, all.facts.grapes.value_total ?? all.facts.grapes.value.length);
          assert.equal(p.relations_more.grape_rules.total, p.facts.grapes.value_total);
          assert.equal(p.relations_more.grape_rules.shown, p.facts.grapes.value.length);
        }
        // the names the rules' sources list that map to no grape: the first two, and the count of them all
        const unmapped = all.facts.grapes?.unmapped ?? [];
        if (unmapped.length > 2) {
          assert.deepEqual(p.facts.grapes.unmapped, unmapped.slice(0, 2));
          assert.deepEqual(p.relations_more.unmapped, { total: unmapped.length, shown: 2, list: full });
        } else assert.deepEqual(p.facts.grapes?.unmapped ?? [], unmapped);
        if (x.sensory.length > side.reference_expressions.length) assert.deepEqual(side.reference_expressions_more, { total: x.sensory.length, shown: side.reference_expressions.length, list: full });
        else assert.equal(side.reference_expressions_more, undefined);
      }
      // the comparison's lists give their totals, and where each side's whole list is
      const c = body.comparison;
      for (const part of [c.contrasts.appellations, c.contrasts.grapes, c.contrasts.pairings].filter(Boolean)) {
        assert.ok(part.only_left.length <= part.only_left_total && part.only_right.length <= part.only_right_total);
        assert.ok(part.left_list === null || /^\/v1\/(entities|pair)\?/.test(part.left_list), part.left_list);
      }
      for (const d of [...c.shared, ...c.differences].filter((d: any) => Array.isArray(d.left))) {
        assert.ok(d.left.length <= d.left_total && d.right.length <= d.right_total && d.common.length <= d.common_total, d.field);
        if (d.left.length < d.left_total || d.right.length < d.right_total) assert.equal(d.left_list, `/v1/entities/${body.left.profile.entity_id}`);
      }
    }
  });

  test('by default (no provenance parameter) each fact keeps its v1 provenance in full; a bad provenance value is a 400 naming it', async () => {
    const e = sharedEngine();
    for (const url of ['/v1/compare?left=champagne&right=rioja', '/v1/compare?left=champagne&right=rioja&provenance=inline']) {
      const { body, bytes } = await get(url);
      assert.ok(bytes <= 32 * 1024, `${bytes} bytes`);
      for (const which of ['left', 'right'] as const) {
        const p = body[which].profile;
        assert.equal(p.provenance_by_key, undefined);
        for (const [k, f] of Object.entries<any>(p.facts)) {
          const src = e.kb.sources.get(f.provenance.source_key)!;
          assert.equal(f.provenance.source_title, src.title, k);
          assert.equal(f.provenance.source_publisher, src.publisher, k);
          assert.equal(typeof f.provenance.source_url, 'string', k);
          assert.ok('retrieved_via' in f.provenance, k);
        }
      }
    }
    for (const prefix of ['/v1/', '/v1/demo/']) {
      const r = await t.app.inject({ method: 'GET', url: `${prefix}compare?left=champagne&right=rioja&provenance=short`, headers: prefix === '/v1/' ? auth : {} });
      assert.equal(r.statusCode, 400, r.body);
      assert.match(r.body, /provenance/);
    }
  });

  test('Rioja against Champagne: the pairings and grapes each side lacks, counted beyond the few listed', async () => {
    const { body } = await get('/v1/compare?left=champagne&right=rioja');
    const e = sharedEngine();
    const foods = (k: string) => new Set((e.kb.byKey.get(k)!.pairing?.items ?? []).filter((it) => it.pairing_relationship !== 'avoid').map((it) => it.food_item.toLowerCase()));
    const ch = foods('geo/champagne');
    const ri = foods('geo/rioja');
    const p = body.comparison.contrasts.pairings;
    assert.equal(p.only_left_total, [...ch].filter((k) => !ri.has(k)).length);
    assert.equal(p.only_right_total, [...ri].filter((k) => !ch.has(k)).length);
    assert.equal(p.shared_total, [...ch].filter((k) => ri.has(k)).length);
    assert.equal(p.left_list, `/v1/pair?q=${body.left.profile.entity_id}`);
    const g = body.comparison.contrasts.grapes;
    assert.equal(g.right_list, `/v1/entities?appellation=${body.right.profile.entity_id}&type=grape`);
    // a link given for a cut list answers with the whole list
    const listed = (await get(`${g.right_list}&limit=100`)).body;
    assert.equal(listed.next_cursor, null);
    const names = new Set(listed.entities.map((x: any) => x.canonical_name));
    assert.ok(names.size >= g.only_right_total + g.shared_total, [...names].join(', '));
    for (const x of g.only_right) assert.ok(names.has(x.canonical_name), x.canonical_name);
  });

  test('beer styles have no appellation or grape contrasts, only what they have', async () => {
    const { body, bytes } = await get('/v1/compare?left=irish%20stout&right=american%20ipa');
    assert.equal(body.comparison.contrasts.appellations, undefined);
    assert.equal(body.comparison.contrasts.grapes, undefined);
    assert.ok(body.comparison.differences.length > 0);
    assert.ok(bytes < 32_000, `${bytes} bytes`);
  });
});
