// Issue 33, item 1: sweetness and style words ("Spätlese", "brut", "tawny", "fino", "sec") narrow pair,
// explain, parse and pair-food to that scope, as colour words do, and the answer says so. Over HTTP (so
// the response schemas carry the new fields) against the real knowledge base. The words and their
// classes come from data/label-terms.json `scope_words`: EU 2019/33 Annex III (sweetness), WeinG § 20
// (Prädikate), the Jerez and Manzanilla pliegos (sherry types), the IVDP and Decanter (Port categories).
// The items read here: Mosel's verified items are three "Auslese" items and one with no scope; Porto's
// are scoped "ruby", "tawny" and "vintage"; Champagne has one "brut nature (zero dosage)" item.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('sweetness and style words narrow the answer (issue 33, item 1)', () => {
  let t: App;
  let auth: Record<string, string>;
  const get = async (url: string, status = 200) => {
    const r = await t.app.inject({ method: 'GET', url, headers: auth });
    assert.equal(r.statusCode, status, r.body);
    return r.json();
  };
  const pair = (q: string) => get(`/v1/pair?q=${encodeURIComponent(q)}`);

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  test('pair "mosel riesling spätlese": the Auslese items are left out, and the scope is said', async () => {
    const all = await pair('mosel');
    assert.ok(all.pairing.guidance.some((g: any) => g.style_scope === 'Auslese'));
    const b = await pair('mosel riesling spätlese');
    assert.equal(b.resolution.canonical_name, 'Mosel');
    assert.deepEqual(b.applied_scope.style, ['Spätlese']);
    assert.deepEqual(b.applied_scope.colours, []);
    assert.equal(b.applied_scope.source_key, 'dsg-de-weing-20');
    for (const g of b.pairing.guidance) assert.notEqual(g.style_scope, 'Auslese');
    assert.equal(b.applied_scope.left_out, all.pairing.guidance.filter((g: any) => g.style_scope === 'Auslese').length);
    // the item about Mosel as a whole stays, marked so
    for (const g of b.pairing.guidance) assert.equal(g.scope_match, 'general');
  });

  test('pair "champagne brut" answers Champagne (not the style Brut) and leaves out the brut nature item', async () => {
    const b = await pair('champagne brut');
    assert.equal(b.resolution.canonical_name, 'Champagne');
    assert.equal(b.domain, 'wine');
    assert.notEqual(b.resolution.canonical_name, 'Brut');
    assert.deepEqual(b.applied_scope.sweetness, ['brut']);
    assert.deepEqual(b.applied_scope.terms, ['brut']);
    assert.ok(b.applied_scope.left_out >= 1);
    for (const g of b.pairing.guidance) assert.doesNotMatch(g.sweetness_scope ?? '', /brut nature/i);
    const nature = await pair('champagne brut nature');
    assert.deepEqual(nature.applied_scope.sweetness, ['brut nature']);
    assert.ok(nature.pairing.guidance.some((g: any) => g.scope_match === 'in_scope' && /brut nature/i.test(g.sweetness_scope)));
  });

  test('pair "tawny port" keeps the tawny items only; "porto lbv" has none and says so instead of falling back', async () => {
    const all = await pair('porto');
    const b = await pair('tawny port');
    assert.equal(b.resolution.canonical_name, 'Porto');
    assert.deepEqual(b.applied_scope.style, ['Tawny']);
    assert.ok(b.pairing.guidance.length > 0 && b.pairing.guidance.length < all.pairing.guidance.length);
    // kept: the tawny items, and the items about Port as a whole (no scope); never a ruby or vintage item
    assert.ok(b.pairing.guidance.some((g: any) => g.scope_match === 'in_scope'));
    for (const g of b.pairing.guidance) {
      if (g.scope_match === 'in_scope') assert.match(g.style_scope, /tawny/i);
      else assert.deepEqual([g.scope_match, g.style_scope], ['general', null]);
    }
    assert.equal(b.scope_boundary, null);
    const general = all.pairing.guidance.filter((g: any) => g.style_scope === null && g.sweetness_scope === null).length;
    const lbv = await pair('porto lbv');
    assert.deepEqual(lbv.applied_scope.style, ['Late Bottled Vintage']);
    // no LBV item: only the items about Port as a whole stay, and the count says none was in scope
    assert.equal(lbv.applied_scope.in_scope, 0);
    for (const g of lbv.pairing.guidance) assert.equal(g.scope_match, 'general');
    assert.equal(lbv.pairing.guidance.length, general);
    if (general === 0) assert.equal(lbv.scope_boundary.reason, 'no_evidence_in_scope');
    assert.equal(lbv.applied_scope.left_out, all.pairing.guidance.length - general);
    assert.equal(lbv.pairing_available, true);
    // "Vintage" is a Port category: beside Champagne it is no scope (label-terms `for`)
    const champagne = await pair('champagne vintage');
    assert.equal(champagne.resolution.canonical_name, 'Champagne');
    assert.equal(champagne.applied_scope, null);
  });

  test('explain "port tawny" resolves Port and says the scope it applied', async () => {
    const b = await get('/v1/explain?q=port%20tawny');
    assert.equal(b.resolution.canonical_name, 'Porto');
    assert.deepEqual(b.applied_scope.style, ['Tawny']);
    assert.deepEqual(b.applied_scope.terms, ['tawny']);
  });

  test('a style word that is the name asked for does not narrow; beside a name it does ("fino", "jerez fino")', async () => {
    const fino = await pair('fino');
    assert.equal(fino.resolution.canonical_name, 'Fino');
    assert.equal(fino.applied_scope, null);
    const jerez = await pair('jerez fino');
    assert.equal(jerez.resolution.canonical_name, 'Jerez-Xérès-Sherry');
    assert.deepEqual(jerez.applied_scope.style, ['Fino']);
    assert.ok(jerez.pairing.guidance.length > 0);
    for (const g of jerez.pairing.guidance) assert.match(g.style_scope, /^Fino/);
    assert.ok(jerez.applied_scope.left_out > 0);
  });

  test('"dry" or "sec" inside a name is no scope; beside a name it is the sweetness row "sec"', async () => {
    const creek = await pair('dry creek valley');
    assert.equal(creek.resolution.canonical_name, 'Dry Creek Valley');
    assert.equal(creek.applied_scope, null);
    const river = await get(`/v1/parse?text=${encodeURIComponent('Dry River Pinot Noir 2015')}`);
    assert.equal(river.applied_scope, null);
    const sec = await pair('vouvray sec');
    assert.equal(sec.resolution.canonical_name, 'Vouvray');
    assert.deepEqual(sec.applied_scope.sweetness, ['sec']);
    // "dry" is the English word of the row "sec"; "semi-dry" is no legal term and names no class
    for (const g of sec.pairing.guidance) assert.equal(g.scope_match, g.sweetness_scope === 'dry' ? 'in_scope' : 'unstated', g.sweetness_scope);
    assert.ok(sec.pairing.guidance.some((g: any) => g.scope_match === 'in_scope'));
    const seco = await get(`/v1/parse?text=${encodeURIComponent('Rioja seco 2019')}`);
    assert.deepEqual(seco.applied_scope.sweetness, ['sec']);
  });

  test('parse records a Prädikat and a sweetness term of the line in its scope', async () => {
    const b = await get(`/v1/parse?text=${encodeURIComponent('Dr. Loosen Mosel Riesling Spätlese 2019')}`);
    assert.equal(b.primary.canonical_name, 'Mosel');
    assert.deepEqual(b.applied_scope.style, ['Spätlese']);
    assert.deepEqual(b.applied_scope.terms, ['Spätlese']);
    const brut = await get(`/v1/parse?text=${encodeURIComponent('Taittinger Champagne Brut Réserve NV')}`);
    assert.deepEqual(brut.applied_scope.sweetness, ['brut']);
  });

  test('pair-food with scope: only wines whose items are in that scope; none in scope is a scope boundary', async () => {
    const all = await get('/v1/pair-food?q=blue%20cheese&limit=25');
    assert.equal(all.applied_scope, null);
    const sweet = await get('/v1/pair-food?q=blue%20cheese&scope=sweet&limit=25');
    assert.deepEqual(sweet.applied_scope.sweetness, ['doux']);
    assert.ok(sweet.drinks.length > 0 && sweet.drinks.length < all.drinks.length);
    for (const d of sweet.drinks) {
      assert.equal(d.domain ?? 'wine', 'wine');
      for (const g of d.guidance) assert.match(`${g.style_scope ?? ''} ${g.sweetness_scope ?? ''}`, /sweet/i, d.canonical_name);
    }
    assert.equal(sweet.scope_boundary, null);
    const tawny = await get('/v1/pair-food?q=blue%20cheese&scope=tawny');
    assert.deepEqual(tawny.drinks, []);
    assert.equal(tawny.scope_boundary.reason, 'no_evidence_in_scope');
    // the food has evidence: the v1 boundary (none at all) stays null
    assert.equal(tawny.boundary, null);
    const bad = await get('/v1/pair-food?q=blue%20cheese&scope=crunchy', 400);
    assert.match(JSON.stringify(bad), /scope/);
  });

  test('the OpenAPI document describes the sweetness and style scopes and pair-food\'s scope', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const pair = JSON.stringify(doc.paths['/v1/pair']);
    assert.match(pair, /"sweetness"/);
    assert.match(pair, /"style"/);
    const food = JSON.stringify(doc.paths['/v1/pair-food']);
    assert.match(food, /"name":"scope"/);
    assert.match(food, /scope_boundary/);
  });
});
