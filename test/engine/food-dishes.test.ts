// Dishes as dishes (issue 33, item 4) against the knowledge base as shipped: a dish of several words is
// read as one dish before its words; evidence on its parents applies at half its confidence, marked
// "parent"; evidence about another version of the dish or about one of its foods alone does not apply;
// the Open Food Facts dishes of 2022 are in the vocabulary with their parents; a drink is no food. Each
// example of the issue fails on the code before this change.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';
import { PARENT_WEIGHT } from '../../src/engine/food.ts';

const engine = sharedEngine();
type Guidance = { food_item: string; dish: string | null; confidence: number; evidence_level: 'dish' | 'parent'; evidence_about: { id: string; name: string }; applied_confidence: number };
type Drink = { canonical_name: string; score: number; evidence_level: 'dish' | 'parent'; guidance: Guidance[] };
type Body = { food: { matched: string[]; entries: { id: string; name: string }[]; reading: string; dish: { entries: { id: string }[]; with: string[]; parents: { id: string; name: string }[] } | null }; drinks: Drink[]; drinks_total: number; boundary: unknown };

function pair(q: string): Body {
  const r = engine.pairFood({ q, limit: 25 });
  assert.equal(r.status, 200, `${q}: ${JSON.stringify(r.body)}`);
  return r.body as unknown as Body;
}
const items = (b: Body) => b.drinks.flatMap((d) => d.guidance.map((g) => ({ drink: d.canonical_name, ...g })));
const text = (g: Guidance) => `${g.food_item} ${g.dish ?? ''}`.toLowerCase();

describe('a dish of several words is one dish', () => {
  test('"mushroom risotto" is the mushroom risotto, never the asparagus or the turkey risotto', () => {
    const b = pair('mushroom risotto');
    assert.deepEqual(b.food.matched, ['mushroom risotto']);
    assert.equal(b.food.reading, 'whole');
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:mushrooms risottos']);
    const all = items(b);
    assert.ok(all.length > 0);
    for (const g of all) assert.doesNotMatch(text(g), /asparagus|turkey/, g.food_item);
    // the risotto items that name a mushroom (in the dish field too) are about the dish; a plain risotto is a parent
    const about = (re: RegExp) => all.filter((g) => re.test(text(g)));
    assert.ok(about(/risotto ai funghi|boletus/).length >= 2);
    for (const g of about(/risotto ai funghi|boletus|portobello/)) assert.equal(g.evidence_level, 'dish', g.food_item);
    for (const g of all.filter((g) => g.food_item.toLowerCase() === 'risotto')) assert.equal(g.evidence_level, 'parent');
  });

  test('"spaghetti carbonara" is spaghetti with carbonara; the carbonara-style pasta item applies as its parent, at half weight', () => {
    const b = pair('spaghetti carbonara');
    assert.deepEqual(b.food.matched, ['spaghetti carbonara']);
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:spaghetti with carbonara']);
    assert.ok(b.food.dish!.parents.some((p) => p.id === 'cat:en:carbonara-style pasta'));
    const carbonara = items(b).filter((g) => /carbonara/.test(text(g)));
    assert.ok(carbonara.length >= 1, 'the pasta carbonara item');
    for (const g of carbonara) {
      assert.equal(g.evidence_level, 'parent');
      assert.equal(g.evidence_about.id, 'cat:en:carbonara-style pasta');
      assert.equal(g.applied_confidence, Math.round(g.confidence * PARENT_WEIGHT * 100) / 100);
    }
    // never the spaghetti item read as the dish (spaghetti is an ingredient of it, not a parent)
    assert.ok(!items(b).some((g) => g.food_item.toLowerCase() === 'spaghetti'));
  });

  test('"roast chicken" has its own items first, then the chicken items as a parent; another preparation does not apply', () => {
    const roast = pair('roast chicken');
    const chicken = pair('chicken');
    assert.ok(roast.drinks_total > 5, `roast chicken had 5 drinks: ${roast.drinks_total}`);
    assert.ok(roast.drinks_total <= chicken.drinks_total);
    const all = items(roast);
    const own = all.filter((g) => g.evidence_level === 'dish');
    const parent = all.filter((g) => g.evidence_level === 'parent');
    assert.ok(own.length >= 5 && parent.length > 0);
    for (const g of own) assert.match(text(g), /roast|brathähnchen/, g.food_item);
    assert.ok(parent.some((g) => g.evidence_about.id === 'cat:en:chickens'));
    for (const g of all) assert.doesNotMatch(g.food_item.toLowerCase(), /fried|grilled|jerk|barbecue|curried/, g.food_item);
    // the drinks with items about the dish itself come first
    assert.ok(roast.drinks.slice(0, 5).every((d) => d.evidence_level === 'dish'));
  });

  test('"lamb tagine" is a tagine made with lamb: tagine items, never a generic lamb item (no Calvados)', () => {
    const b = pair('lamb tagine');
    assert.equal(b.food.reading, 'dish');
    assert.deepEqual(b.food.dish!.with, ['lamb']);
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:tajine']);
    assert.ok(b.drinks.length > 0);
    assert.ok(!b.drinks.some((d) => d.canonical_name === 'Calvados'), 'Calvados came from a generic gigot excerpt');
    for (const g of items(b)) assert.match(text(g), /tajine|tagine/, g.food_item);
    // a tagine item that does not name lamb is about the tagine, a parent of the lamb tagine
    for (const g of items(b)) assert.equal(g.evidence_level, 'parent');
  });

  test('separate foods stay separate, and one-word foods answer as before (no parent evidence)', () => {
    const b = pair('cheese and oysters');
    assert.equal(b.food.reading, 'words');
    assert.deepEqual(b.food.matched, ['cheese', 'oysters']);
    const salmon = pair('salmon');
    assert.equal(salmon.food.dish, null);
    for (const g of items(salmon)) assert.equal(g.evidence_level, 'dish');
    // smoked salmon is a product of its own, not a dish: salmon items are still not about it (issue 23)
    for (const g of items(pair('smoked salmon'))) assert.match(text(g), /smoked|fumé|geräuchert|ahumado|affumicato/);
  });
});

describe('dishes people order, from the Open Food Facts categories taxonomy, each with its parent', () => {
  const v = engine.food().vocabulary;
  const parentOf = (id: string) => v.record.nodes.find((n) => n.id === id)?.parents ?? [];

  test('"pad thai" is a dish (was a 404 suggesting tahini, tea and tuna); no evidence yet, so a boundary', () => {
    const r = engine.pairFood({ q: 'pad thai' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const b = r.body as unknown as Body;
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:pad thai']);
    assert.ok(parentOf('cat:en:pad thai').length > 0);
    assert.ok(b.drinks.length > 0 || b.boundary !== null);
  });

  test('the dishes of the issue that the taxonomy has are recognised, each with a parent', () => {
    const found: Record<string, string> = {
      'pad thai': 'cat:en:pad thai',
      'spaghetti carbonara': 'cat:en:spaghetti with carbonara',
      'pasta carbonara': 'cat:en:carbonara-style pasta',
      tagine: 'cat:en:tajine',
      sushi: 'cat:en:sushis',
      paella: 'cat:en:paella',
      burger: 'cat:en:hamburgers',
      'chicken curry': 'cat:en:chicken curry',
    };
    for (const [q, id] of Object.entries(found)) {
      const entries = v.read(q).nodes.map((n) => v.ids[n]);
      assert.ok(entries.includes(id), `${q}: ${entries.join(', ')}`);
      assert.ok(parentOf(id).length > 0, `${id} has a parent`);
    }
  });

  test('the added entries cite their source and keep the taxonomy\'s parents', () => {
    const rec = v.record as typeof v.record & { supplements?: { id: string; source: string; retrieved_via: { url: string } }[] };
    const sup = rec.supplements?.find((s) => s.id === 'off-2022');
    assert.ok(sup && /Open Food Facts/.test(sup.source) && /robotoff/.test(sup.retrieved_via.url));
    const added = v.record.nodes.filter((n) => (n as { from?: string }).from === 'off-2022');
    assert.ok(added.length > 200);
    const ids = new Set(v.record.nodes.map((n) => n.id));
    for (const n of added) for (const p of n.parents) assert.ok(ids.has(p), `${n.id} → ${p}`);
    assert.deepEqual(parentOf('cat:en:spaghetti with carbonara'), ['cat:en:carbonara-style pasta']);
  });
});

describe('a drink typed as a food', () => {
  test('"barolo" is a 404 whose message points to /v1/pair (was drinks: [])', () => {
    const r = engine.pairFood({ q: 'barolo' });
    assert.equal(r.status, 404);
    const e = (r.body as unknown as { error: { code: string; message: string; see: string; drink: string } }).error;
    assert.equal(e.code, 'FOOD_NOT_RESOLVED');
    assert.match(e.message, /\/v1\/pair\?q=barolo/);
    assert.equal(e.see, '/v1/pair?q=barolo');
    assert.equal(e.drink, 'barolo');
  });

  test('a drink beside a food is set aside; the food is answered', () => {
    const r = engine.pairFood({ q: 'salmon with barolo' });
    assert.equal(r.status, 200);
    const b = r.body as unknown as Body & { food: { ignored_drinks: string[] } };
    assert.deepEqual(b.food.matched, ['salmon']);
    assert.deepEqual(b.food.ignored_drinks, ['barolo']);
  });
});
