// GET /v1/pair-food over HTTP, dishes as dishes (issue 33, item 4): the reading of the dish, the level of
// each item (dish or parent) and the 404 for a drink typed as a food reach the caller as documented.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('GET /v1/pair-food: dishes as dishes', () => {
  let t: App;
  let auth: Record<string, string>;
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: auth });

  before(async () => {
    t = await buildTestApp();
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  test('roast chicken: the dish, its parents, and each item marked dish or parent with the confidence that counted', async () => {
    const r = await get('/v1/pair-food?q=roast%20chicken&limit=25');
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.food.reading, 'whole');
    assert.deepEqual(b.food.dish.entries.map((e: any) => e.id), ['cat:en:roast chicken']);
    assert.ok(b.food.dish.parents.some((p: any) => p.id === 'cat:en:chickens'));
    assert.equal(b.food.dish.parent_weight, 0.5);
    assert.deepEqual(b.food.ignored_drinks, []);
    assert.ok(b.drinks_total > 5);
    const levels = new Set<string>();
    for (const d of b.drinks) {
      assert.ok(['dish', 'parent'].includes(d.evidence_level));
      for (const g of d.guidance) {
        levels.add(g.evidence_level);
        assert.equal(typeof g.evidence_about.id, 'string');
        assert.equal(g.applied_confidence, g.evidence_level === 'dish' ? g.confidence : Math.round(g.confidence * 50) / 100);
      }
    }
    assert.deepEqual([...levels].sort(), ['dish', 'parent']);
  });

  test('lamb tagine: read as a tagine with lamb', async () => {
    const b = (await get('/v1/pair-food?q=lamb%20tagine')).json();
    assert.equal(b.food.reading, 'dish');
    assert.deepEqual(b.food.dish.with, ['lamb']);
    assert.ok(!b.drinks.some((d: any) => d.canonical_name === 'Calvados'));
  });

  test('fish and chips: one dish over HTTP, its own items first, the fish-dish items of its parent at half weight; carbonara alone is a dish', async () => {
    const r = await get('/v1/pair-food?q=fish%20and%20chips&limit=25');
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.food.reading, 'whole');
    assert.deepEqual(b.food.matched, ['fish and chips']);
    assert.deepEqual(b.food.dish.entries.map((e: any) => e.id), ['cat:en:fish and chips']);
    assert.ok(b.food.dish.parents.some((p: any) => p.id === 'cat:en:meals with fish'));
    assert.equal(b.drinks[0].evidence_level, 'dish');
    const parent = b.drinks.flatMap((d: any) => d.guidance).filter((g: any) => g.evidence_level === 'parent');
    assert.ok(parent.length >= 1);
    for (const g of parent) {
      assert.equal(g.evidence_about.id, 'cat:en:meals with fish');
      assert.equal(g.applied_confidence, Math.round(g.confidence * 50) / 100);
    }
    const c = await get('/v1/pair-food?q=carbonara');
    assert.equal(c.statusCode, 200);
    assert.deepEqual(c.json().food.dish.entries.map((e: any) => e.id), ['cat:en:carbonara-style pasta']);
  });

  test('barolo: 404 FOOD_NOT_RESOLVED pointing to /v1/pair, with the drink and the query to make', async () => {
    const r = await get('/v1/pair-food?q=barolo');
    assert.equal(r.statusCode, 404);
    const e = r.json().error;
    assert.equal(e.code, 'FOOD_NOT_RESOLVED');
    assert.match(e.message, /\/v1\/pair\?q=barolo/);
    assert.equal(e.see, '/v1/pair?q=barolo');
    assert.equal(e.drink, 'barolo');
  });

  test('the OpenAPI document describes the reading, the dish and the item levels', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/pair-food'].get;
    assert.match(op.description, /Dishes as dishes/);
    assert.match(op.description, /\/v1\/pair/);
    const body = op.responses['200'].content['application/json'].schema;
    assert.ok(body.properties.food.properties.reading && body.properties.food.properties.dish && body.properties.food.properties.ignored_drinks);
    const drink = body.properties.drinks.items;
    assert.ok(drink.properties.evidence_level);
    assert.ok(drink.properties.guidance.items.properties.applied_confidence);
  });
});
