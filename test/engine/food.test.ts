// The food vocabulary and the placing of guidance items in it (src/engine/food.ts, issue 23), on a small
// synthetic vocabulary so each rule shows on its own; the shipped vocabulary is checked at the end.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FoodEvidence, FoodVocabulary, type FoodVocabularyRecord } from '../../src/engine/food.ts';
import { sharedEngine } from '../helper.ts';

const doc: FoodVocabularyRecord = {
  source: 'test',
  url: 'https://example.org/',
  version: 't',
  licence: 't',
  derived_by: 't',
  languages: ['en', 'fr', 'de'],
  nodes: [
    { id: 'ing:en:fish', names: { en: ['fish'], fr: ['poisson'] }, parents: [] },
    { id: 'ing:en:salmon', names: { en: ['salmon'], fr: ['saumon'], de: ['Lachs'] }, parents: ['ing:en:fish'] },
    { id: 'ing:en:smoked salmon', names: { en: ['smoked salmon'], fr: ['saumon fumé'] }, parents: ['ing:en:salmon'] },
    { id: 'ing:en:cheese', names: { en: ['cheese'], fr: ['fromage'] }, parents: [] },
    { id: 'ing:en:goat cheese', names: { en: ['goat cheese'], fr: ['fromage de chèvre'] }, parents: ['ing:en:cheese'] },
    { id: 'cat:en:pizzas pies and quiches', names: { en: ['Pizzas pies and quiches'], de: ['Pizzas', 'Kuchen und Quiches'] }, parents: [] },
    { id: 'cat:en:pizzas', names: { en: ['Pizzas'] }, parents: ['cat:en:pizzas pies and quiches'] },
    { id: 'ing:en:oyster', names: { en: ['oyster', 'oysters'] }, parents: [] },
  ],
};
const v = new FoodVocabulary(doc);
const id = (q: string) => v.recognise(q).flatMap((t) => t.nodes.map((n) => v.ids[n]));

describe('recognising a food', () => {
  test('the whole query, in any of the languages, without case or accents', () => {
    assert.deepEqual(id('Salmon'), ['ing:en:salmon']);
    assert.deepEqual(id('LACHS'), ['ing:en:salmon']);
    assert.deepEqual(id('saumon fume'), ['ing:en:smoked salmon']);
    assert.deepEqual(id('fromage de chèvre'), ['ing:en:goat cheese']);
  });

  test('else the longest runs of words, left to right; a stop word alone is no food', () => {
    assert.deepEqual(v.recognise('what goes with smoked salmon?').map((t) => t.text), ['smoked salmon']);
    assert.deepEqual(v.recognise('cheese and oysters').map((t) => t.text), ['cheese', 'oysters']);
    assert.deepEqual(v.recognise('with de and'), []);
  });

  test('an English plural is read as its singular and the other way round', () => {
    assert.deepEqual(id('salmons'), ['ing:en:salmon']);
    assert.deepEqual(id('pizza'), ['cat:en:pizzas']);
  });

  test('a name shared by an entry and one above it is the narrower entry', () => {
    // German "Pizzas" is also a name of the broader "Pizzas pies and quiches"
    assert.deepEqual(id('pizzas'), ['cat:en:pizzas']);
  });

  test('the hierarchy and the root', () => {
    const smoked = v.recognise('smoked salmon')[0]!.nodes[0]!;
    assert.deepEqual([...v.ancestorsOrSelf(smoked)].map((n) => v.ids[n]).sort(), ['ing:en:fish', 'ing:en:salmon', 'ing:en:smoked salmon']);
    assert.equal(v.label(v.root(smoked)), 'fish');
  });

  test('suggestions for a word that names no food: near names with the same first letter', () => {
    assert.deepEqual(v.recognise('salomn'), []);
    assert.ok(v.suggest('salomn').includes('salmon'));
    assert.deepEqual(v.suggest('xyzzy'), []);
  });
});

describe('placing guidance items and finding them from a food', () => {
  const items = [
    { food_item: 'salmon', dish: null, food_category: 'fish' },
    { food_item: 'smoked salmon', dish: null, food_category: 'fish' },
    { food_item: 'fish', dish: null, food_category: 'fish' },
    { food_item: 'grilled salmon', dish: null, food_category: 'fish' },
    { food_item: 'strong, spicy food', dish: null, food_category: 'cheese' },
    { food_item: 'something odd', dish: null, food_category: 'spicy' },
  ];
  const ev = new FoodEvidence(v, items.map((item, i) => ({ entity: i, item })));
  const found = (q: string) => ev.itemsFor(v.recognise(q).flatMap((t) => t.nodes)).map((p) => p.item.food_item);

  test('an item is placed by its whole food name, else the longest food it names, else its category', () => {
    assert.equal(ev.placed[0]!.via, 'food_item');
    assert.deepEqual(ev.placed[3]!.nodes.map((n) => v.ids[n]), ['ing:en:salmon']);
    assert.equal(ev.placed[4]!.via, 'food_category');
    assert.deepEqual(ev.unplaced().map((p) => p.item.food_item), ['something odd']);
  });

  test('a query finds the items placed on its food or a narrower one', () => {
    assert.deepEqual(found('fish'), ['salmon', 'smoked salmon', 'fish', 'grilled salmon']);
    assert.deepEqual(found('salmon'), ['salmon', 'smoked salmon', 'grilled salmon']);
  });

  test('a narrower query never returns a broader item as if it were specific', () => {
    assert.deepEqual(found('smoked salmon'), ['smoked salmon']);
    assert.deepEqual(found('goat cheese'), []);
  });
});

describe('the shipped vocabulary (Open Food Facts taxonomies) and the shipped evidence', () => {
  const COMMON = ['salmon', 'oysters', 'lamb', 'steak', 'pork', 'duck', 'goat cheese', 'chocolate', 'curry', 'sushi', 'pizza', 'mushrooms', 'barbecue', 'shellfish', 'blue cheese'];

  test('at least 13 of 15 common foods get drinks (issue 23)', () => {
    const e = sharedEngine();
    const served = COMMON.filter((q) => {
      const r = e.pairFood({ q });
      return r.status === 200 && (r.body.drinks as unknown[]).length > 0;
    });
    assert.ok(served.length >= 13, `served ${served.length}: missing ${COMMON.filter((q) => !served.includes(q)).join(', ')}`);
  });

  test('five foods: each answer holds a drink the evidence pairs with it, every item verified with its excerpt and source URL, across domains', () => {
    const e = sharedEngine();
    const pins: [string, string][] = [['oysters', 'geo/chablis'], ['salmon', 'style/rose-wine'], ['lamb', 'geo/ribera-del-duero'], ['chocolate', 'spirit/cognac'], ['blue cheese', 'geo/porto']];
    const domains = new Set<string>();
    for (const [q, key] of pins) {
      const r = e.pairFood({ q, limit: 25 });
      assert.equal(r.status, 200, q);
      const drinks = r.body.drinks as { entity_id: string; domain: string; guidance: Record<string, unknown>[] }[];
      assert.ok(drinks.some((d) => e.kb.byId.get(d.entity_id)!.key === key), `${q}: ${key}`);
      for (const d of drinks) {
        domains.add(d.domain);
        for (const g of d.guidance) {
          assert.equal(g.verification_status, 'verified');
          assert.ok(typeof g.source_excerpt === 'string' && (g.source_excerpt as string).length > 0);
          assert.match(String(g.source_url), /^https?:\/\//);
        }
      }
    }
    assert.deepEqual([...domains].sort(), ['beer', 'spirits', 'wine']);
  });

  test('an item whose excerpt is in another language is found from its food (Aligoté and gougères, read in French)', () => {
    const e = sharedEngine();
    const r = e.pairFood({ q: 'oysters', limit: 25 });
    assert.equal(r.status, 200);
    const items = ((r.body as Record<string, unknown>).drinks as { guidance: { language_code: string }[] }[]).flatMap((d) => d.guidance);
    assert.ok(items.some((g) => g.language_code !== 'en'), 'a non-English excerpt among the oyster items');
  });

  test('names in the languages of the excerpts find the same entries', () => {
    const e = sharedEngine();
    const ids = (q: string) => {
      const r = e.pairFood({ q });
      assert.equal(r.status, 200, q);
      return ((r.body.food as { entries: { id: string }[] }).entries.map((x) => x.id));
    };
    for (const q of ['saumon', 'Lachs', 'salmón', 'salmone', 'salmão']) assert.ok(ids(q).includes('ing:en:salmon'), q);
  });
});
