// GET /v1/pair-food and /v1/demo/pair-food over HTTP (issue 23): drinks for a food from the verified
// guidance items, the food vocabulary's hierarchy, the boundary for a known food without evidence, the
// 404 for a word that is no food (not counted), filters, limits, metering and the OpenAPI document.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('GET /v1/pair-food', () => {
  let t: App;
  let auth: Record<string, string>;
  let keyId: string;
  const get = (url: string, headers: Record<string, string> = auth) => t.app.inject({ method: 'GET', url, headers });
  const used = async () => t.ctx.store.getMonthly(keyId, new Date().toISOString().slice(0, 7));
  const food = async (q: string, extra = '') => {
    const r = await get(`/v1/pair-food?q=${encodeURIComponent(q)}${extra}`);
    assert.equal(r.statusCode, 200, `${q}: ${r.body}`);
    return r.json();
  };

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    const k = await t.createKey('pro');
    auth = k.auth;
    keyId = k.id;
  });
  after(async () => t.close());

  test('salmon: ranked drinks, each with its verified items about salmon or a narrower food; counted', async () => {
    const before = await used();
    const b = await food('salmon');
    assert.equal(b.ok, true);
    assert.equal(b.query, 'salmon');
    assert.deepEqual(b.food.matched, ['salmon']);
    assert.equal(b.food.category, 'fish');
    assert.ok(b.drinks.length > 0 && b.drinks.length <= 10);
    assert.ok(b.drinks_total >= b.drinks.length);
    assert.equal(b.boundary, null);
    for (let i = 0; i < b.drinks.length; i++) {
      const d = b.drinks[i];
      assert.ok(['wine', 'spirits', 'beer'].includes(d.domain));
      assert.ok(d.guidance.length >= 1);
      // every item names salmon (or a kind of it: smoked, sashimi, gravlax…) in its food or dish
      for (const g of d.guidance) assert.match(`${g.food_item} ${g.dish ?? ''} ${g.source_excerpt}`.toLowerCase(), /salmon|saumon|lachs|salm|gravlax|gravad/, JSON.stringify(g));
      // the score (issue 33, item 3): the best publisher's item after the discounts, plus the agreement bonus,
      // times the drink's weight; publishers are folded to organisations, so source_count is at most the
      // distinct publisher strings
      const best = new Map<string, number>();
      for (const g of d.guidance) best.set(g.source_publisher, Math.max(best.get(g.source_publisher) ?? 0, g.confidence));
      assert.ok(d.source_count >= 1 && d.source_count <= best.size);
      const rb = d.rank_basis;
      assert.ok(rb.best_item <= Math.max(...best.values()) + 1e-9, 'no item counts more than its confidence');
      assert.ok(rb.agreement_bonus <= rb.best_item / 2 + 0.01);
      if (d.source_count === 1) assert.equal(rb.agreement_bonus, 0);
      assert.ok(Math.abs(d.score - (rb.best_item + rb.agreement_bonus) * rb.drink_weight) < 0.02);
      if (i > 0) assert.ok(b.drinks[i - 1].score >= d.score, 'best first');
    }
    assert.equal(await used(), before + 1);
  });

  test('the hierarchy: "fish" finds salmon items; "smoked salmon" never returns an item placed only on salmon or fish', async () => {
    const fish = await food('fish');
    const fishItems = fish.drinks.flatMap((d: any) => d.guidance.map((g: any) => g.food_item.toLowerCase()));
    assert.ok(fishItems.some((f: string) => f.includes('salmon')), 'fish finds salmon');
    const smoked = await food('smoked salmon', '&limit=25');
    assert.ok(smoked.drinks.length > 0);
    for (const d of smoked.drinks) for (const g of d.guidance) assert.match(`${g.food_item} ${g.dish ?? ''}`.toLowerCase(), /smoked|fumé|geräuchert|ahumado|affumicato/, JSON.stringify(g.food_item));
    assert.ok(smoked.drinks_total < (await food('salmon', '&limit=25')).drinks_total);
  });

  test('names in the languages of the excerpts: French and German find the same food', async () => {
    const en = await food('goat cheese', '&limit=25');
    const fr = await food('fromage de chèvre', '&limit=25');
    assert.deepEqual(fr.food.entries.map((e: any) => e.id).sort(), en.food.entries.map((e: any) => e.id).sort());
    assert.deepEqual(fr.drinks.map((d: any) => d.entity_id), en.drinks.map((d: any) => d.entity_id));
    const de = await food('Lachs');
    assert.ok(de.food.entries.some((e: any) => e.id === 'ing:en:salmon'));
  });

  test('a question is read for its food', async () => {
    const b = await food('what goes with oysters?');
    assert.deepEqual(b.food.matched, ['oysters']);
    assert.ok(b.drinks.length > 0);
  });

  test('domain and type filter the drinks; limit bounds them', async () => {
    const beer = await food('cheese', '&domain=beer&limit=25');
    assert.ok(beer.drinks.length > 0);
    for (const d of beer.drinks) assert.equal(d.domain, 'beer');
    const grapes = await food('cheese', '&type=grape');
    for (const d of grapes.drinks) assert.equal(d.entity_type, 'grape');
    const one = await food('cheese', '&limit=1');
    assert.equal(one.drinks.length, 1);
    assert.equal((await get('/v1/pair-food?q=cheese&limit=26')).statusCode, 400);
    assert.equal((await get('/v1/pair-food?q=cheese&limit=0')).statusCode, 400);
    assert.equal((await get('/v1/pair-food?q=cheese&domain=cider')).statusCode, 400);
  });

  test('a known food with no verified evidence is 200 with drinks [] and a boundary; still counted', async () => {
    const before = await used();
    const b = await food('broccoli');
    assert.deepEqual(b.drinks, []);
    assert.equal(b.drinks_total, 0);
    assert.equal(b.boundary.reason, 'no_verified_pairing_evidence_for_food');
    assert.match(b.boundary.message, /never substituted/);
    assert.equal(await used(), before + 1);
  });

  test('a word that is no food is 404 FOOD_NOT_RESOLVED with suggestions, and is not counted', async () => {
    const before = await used();
    const r = await get('/v1/pair-food?q=salomn');
    assert.equal(r.statusCode, 404);
    const e = r.json().error;
    assert.equal(e.code, 'FOOD_NOT_RESOLVED');
    assert.equal(e.parameter, 'q');
    assert.ok(e.suggestions.includes('salmon'), JSON.stringify(e.suggestions));
    const none = await get('/v1/pair-food?q=xyzzy');
    assert.equal(none.statusCode, 404);
    assert.deepEqual(none.json().error.suggestions, []);
    assert.equal(await used(), before);
  });

  test('q is required, at most 200 code points keyed and 80 on the demo; a control character is a 400', async () => {
    assert.equal((await get('/v1/pair-food')).statusCode, 400);
    assert.equal((await get(`/v1/pair-food?q=${'a'.repeat(201)}`)).statusCode, 400);
    assert.equal((await get(`/v1/pair-food?q=${encodeURIComponent('salmon\u0007')}`)).statusCode, 400);
    assert.equal((await get(`/v1/demo/pair-food?q=${'a'.repeat(81)}`, {})).statusCode, 400);
  });

  test('the demo twin answers the same drinks without a key; the keyed endpoint needs one', async () => {
    const demo = (await get('/v1/demo/pair-food?q=oysters', {})).json();
    assert.equal(demo.demo.demo, true);
    assert.ok(demo.drinks.length > 0);
    assert.equal((await get('/v1/pair-food?q=oysters', {})).statusCode, 401);
  });

  test('the OpenAPI document publishes /v1/pair-food, its demo twin and FOOD_NOT_RESOLVED', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/pair-food']?.get;
    assert.ok(op, 'path present');
    const schema = op.responses['200'].content['application/json'].schema;
    for (const f of ['query', 'food', 'drinks', 'drinks_total', 'boundary', 'vocabulary']) assert.ok(schema.properties[f], f);
    assert.ok(op.responses['404'], '404 documented');
    assert.ok(JSON.stringify(op).includes('FOOD_NOT_RESOLVED'));
    assert.ok(doc.paths['/v1/demo/pair-food'], 'demo twin present');
    assert.ok(JSON.stringify(op).includes('salmon'), 'example request');
  });
});
