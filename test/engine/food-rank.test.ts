// The ranking of /v1/pair-food (src/engine/food-rank.ts, issue 33 item 3): each rule on small real records,
// then the examples on the shipped knowledge base.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  agreementScore,
  AGREEMENT_CAP,
  drinkWeight,
  GENERIC_CATEGORIES,
  GENERIC_FLOOR,
  itemRanks,
  PROMOTION_FLOOR,
  publisherKey,
} from '../../src/engine/food-rank.ts';
import type { Entity } from '../../src/engine/kb/load.ts';
import type { GuidanceItemRecord, Source } from '../../src/engine/kb/schema.ts';
import { kbEntity, sharedEngine } from '../helper.ts';

const source = (key: string, publisher: string, authority: Source['authority']) => ({ key, publisher, authority }) as Source;
const item = (source_key: string, food_category: string) => ({ source_key, food_category, confidence: 0.8 }) as GuidanceItemRecord;
const entity = (key: string) => ({ key, type: 'grape', facts: {} }) as unknown as Entity;

describe('rank weights of items', () => {
  const sources = new Map<string, Source>([
    ['assoc-a', source('assoc-a', 'Grape X Association (South Africa)', 'trade_body')],
    ['assoc-b', source('assoc-b', 'Grape X Association, recipes site', 'trade_body')],
    ['press', source('press', 'Some Magazine', 'wine_press')],
    ['press-narrow', source('press-narrow', 'Other Magazine', 'wine_press')],
  ]);
  const x = entity('grape/x');
  const y = entity('grape/y');

  test("a category body praising its drink with more than three food categories over all its pages is promotion", () => {
    // two pages of one body (the publisher folds to one voice), five categories together
    const items = [item('assoc-a', 'fish'), item('assoc-a', 'meat'), item('assoc-a', 'dessert'), item('assoc-b', 'spicy'), item('assoc-b', 'vegetable')];
    const ranks = itemRanks(items.map((i) => ({ entity: x, item: i })), sources);
    for (const i of items) {
      const r = ranks.get(i)!;
      assert.equal(r.reason, 'promotion');
      assert.equal(r.categories, 5);
      assert.equal(r.weight, Math.max(PROMOTION_FLOOR, GENERIC_CATEGORIES / 5));
      assert.equal(r.publisher, 'grape x association');
    }
  });

  test('the same body on another drink, with three categories, is not discounted', () => {
    const items = [item('assoc-a', 'fish'), item('assoc-a', 'meat'), item('assoc-b', 'cheese')];
    const ranks = itemRanks(items.map((i) => ({ entity: y, item: i })), sources);
    for (const i of items) assert.deepEqual([ranks.get(i)!.reason, ranks.get(i)!.weight], [null, 1]);
  });

  test('an independent page pairing one drink with everything is a generic line; a narrow page is not', () => {
    const wide = ['fish', 'meat', 'cheese', 'dessert', 'spicy', 'charcuterie', 'vegetable', 'pasta'].map((c) => item('press', c));
    const narrow = [item('press-narrow', 'seafood'), item('press-narrow', 'fish')];
    const ranks = itemRanks([...wide, ...narrow].map((i) => ({ entity: x, item: i })), sources);
    assert.equal(ranks.get(wide[0]!)!.reason, 'generic_line');
    assert.equal(ranks.get(wide[0]!)!.weight, Math.max(GENERIC_FLOOR, GENERIC_CATEGORIES / 8));
    assert.equal(ranks.get(narrow[0]!)!.reason, null);
    assert.equal(ranks.get(narrow[0]!)!.weight, 1);
  });

  test('independent press is never discounted as promotion, however many pages', () => {
    const items = [item('press-narrow', 'fish'), item('press-narrow', 'meat')];
    const ranks = itemRanks(items.map((i) => ({ entity: x, item: i })), sources);
    assert.ok([...ranks.values()].every((r) => r.reason !== 'promotion'));
  });

  test('agreement lifts the best publisher by a quarter of each other, at most half the best', () => {
    assert.deepEqual(agreementScore([0.6]), { best: 0.6, bonus: 0 });
    const two = agreementScore([0.6, 0.8]);
    assert.equal(two.best, 0.8);
    assert.ok(Math.abs(two.bonus - 0.15) < 1e-9);
    const many = agreementScore([0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]);
    assert.ok(Math.abs(many.bonus - AGREEMENT_CAP * 0.6) < 1e-9, 'seven voices at 0.6 cannot reach 1.0');
    assert.ok(many.best + many.bonus < 0.9 + 1e-9);
  });

  test('publishers fold to one organisation', () => {
    assert.equal(publisherKey('Wine Enthusiast (winemag.com)'), publisherKey('Wine Enthusiast'));
    assert.equal(publisherKey('Austrian Wine Marketing Board (Österreich Wein Marketing GmbH), austrianwine.com'), 'austrian wine marketing board');
  });

  test('a whole country weighs less than a wine a buyer can pick', () => {
    assert.ok(drinkWeight(kbEntity('geo/portugal')) < 1);
    assert.equal(drinkWeight(kbEntity('geo/chablis')), 1);
    assert.equal(drinkWeight(kbEntity('grape/pinot-noir')), 1);
  });
});

type Drink = { entity_id: string; canonical_name: string; score: number; source_count: number; rank_basis: { best_item: number; agreement_bonus: number; drink_weight: number; discount: { reason: string; food_categories: number; weight: number } | null } };
const drinks = (q: string, extra: Record<string, unknown> = {}) => {
  const r = sharedEngine().pairFood({ q, limit: 50, ...extra });
  assert.equal(r.status, 200, q);
  return (r.body as { drinks: Drink[] }).drinks;
};
const pos = (list: Drink[], key: string) => list.findIndex((d) => d.entity_id === kbEntity(key).id);

describe("the issue's examples on the shipped knowledge base", () => {
  test('oysters: Chablis and Muscadet rank above Islay whisky; Islay is no longer first', () => {
    const list = drinks('oysters');
    assert.ok(pos(list, 'geo/chablis') >= 0 && pos(list, 'geo/chablis') < pos(list, 'spirit/islay'), 'Chablis above Islay');
    assert.ok(pos(list, 'grape/melon-de-bourgogne') >= 0 && pos(list, 'grape/melon-de-bourgogne') < pos(list, 'spirit/islay'), 'Muscadet above Islay');
    assert.notEqual(list[0]!.entity_id, kbEntity('spirit/islay').id);
  });

  test("oysters: Irish whiskey's generic marketing line is discounted and ranks below Chablis", () => {
    const list = drinks('oysters');
    const irish = list[pos(list, 'spirit/irish-whiskey')]!;
    assert.ok(irish, 'Irish whiskey is still listed (the evidence is real)');
    assert.ok(irish.rank_basis.discount, 'with the discount named');
    assert.ok(irish.rank_basis.discount!.food_categories > GENERIC_CATEGORIES);
    assert.ok(pos(list, 'spirit/irish-whiskey') > pos(list, 'geo/chablis'));
  });

  test("sushi: the Pinotage Association's own drink is promotion and not first", () => {
    const list = drinks('sushi');
    const p = list[pos(list, 'grape/pinotage')]!;
    assert.equal(p.rank_basis.discount?.reason, 'promotion');
    assert.notEqual(list[0]!.entity_id, kbEntity('grape/pinotage').id);
  });

  test('salmon: a whole country (Portugal) weighs 0.75 and is not first', () => {
    const list = drinks('salmon');
    const p = list[pos(list, 'geo/portugal')];
    assert.ok(p, 'Portugal is listed');
    assert.equal(p!.rank_basis.drink_weight, 0.75);
    assert.notEqual(list[0]!.entity_id, kbEntity('geo/portugal').id);
  });

  test('every score is reproducible from its rank_basis, and the list is sorted by it', () => {
    for (const q of ['oysters', 'salmon', 'lamb', 'chocolate', 'goat cheese', 'mushroom risotto']) {
      const list = drinks(q);
      for (const d of list) {
        const b = d.rank_basis;
        assert.ok(b.agreement_bonus <= AGREEMENT_CAP * b.best_item + 0.01, `${q}: ${d.canonical_name}`);
        assert.ok(Math.abs(d.score - (b.best_item + b.agreement_bonus) * b.drink_weight) < 0.02, `${q}: ${d.canonical_name}`);
        if (d.source_count === 1) assert.equal(b.agreement_bonus, 0);
      }
      for (let i = 1; i < list.length; i++) assert.ok(list[i - 1]!.score >= list[i]!.score, q);
    }
  });
});
