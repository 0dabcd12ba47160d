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
    const foods = (k: string) => new Set((e.kb.byKey.get(k)!.pairing?.items ?? []).filter((it) => it.pairing_relationship !== 'avoid').map((it) => it.food_item));
    const sa = foods('geo/sancerre');
    for (const f of p.only_left) assert.ok(!sa.has(f), f);
    for (const f of p.shared) assert.ok(sa.has(f), f);
  });

  test('beer styles have no appellation or grape contrasts, only what they have', async () => {
    const { body, bytes } = await get('/v1/compare?left=irish%20stout&right=american%20ipa');
    assert.equal(body.comparison.contrasts.appellations, undefined);
    assert.equal(body.comparison.contrasts.grapes, undefined);
    assert.ok(body.comparison.differences.length > 0);
    assert.ok(bytes < 32_000, `${bytes} bytes`);
  });
});
