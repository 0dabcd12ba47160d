// Dishes of issue 33 (item 4) from the current Open Food Facts categories taxonomy (tools/derive/
// food-dishes-current.mjs): "fish and chips" is one dish under Meals with fish, not fish and crisps;
// "carbonara" alone names the carbonara-style pasta; the taxonomy's newer parents let evidence on a parent
// apply at PARENT_WEIGHT. Each test fails on the code and vocabulary before this change.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine, ROOT } from '../helper.ts';
import { PARENT_WEIGHT } from '../../src/engine/food.ts';

const engine = sharedEngine();
type Guidance = { food_item: string; dish: string | null; confidence: number; evidence_level: 'dish' | 'parent'; evidence_about: { id: string; name: string }; applied_confidence: number };
type Drink = { canonical_name: string; evidence_level: 'dish' | 'parent'; guidance: Guidance[] };
type Body = { food: { matched: string[]; entries: { id: string }[]; reading: string; dish: { entries: { id: string }[]; parents: { id: string }[] } | null }; drinks: Drink[]; drinks_total: number };

function pair(q: string): Body {
  const r = engine.pairFood({ q, limit: 50 });
  assert.equal(r.status, 200, `${q}: ${JSON.stringify(r.body)}`);
  return r.body as unknown as Body;
}
const items = (b: Body) => b.drinks.flatMap((d) => d.guidance.map((g) => ({ drink: d.canonical_name, ...g })));
const applied = (g: Guidance) => Math.round(g.confidence * PARENT_WEIGHT * 100) / 100;

describe('dishes of the current Open Food Facts taxonomy', () => {
  test('"fish and chips" is one dish (under Meals with fish), never fish and crisps read apart', () => {
    const b = pair('fish and chips');
    assert.equal(b.food.reading, 'whole');
    assert.deepEqual(b.food.matched, ['fish and chips']);
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:fish and chips']);
    assert.ok(b.food.dish!.parents.some((p) => p.id === 'cat:en:meals with fish'));
    const all = items(b);
    const own = all.filter((g) => g.evidence_level === 'dish');
    const parent = all.filter((g) => g.evidence_level === 'parent');
    // the items about the dish itself (they were placed on "fish" before), and the fish-dish items as its parent
    assert.ok(own.length >= 3, `${own.length} items about fish and chips`);
    for (const g of own) assert.match(`${g.food_item} ${g.dish ?? ''}`, /fish and chips/i, g.food_item);
    assert.ok(parent.length >= 1);
    for (const g of parent) {
      assert.equal(g.evidence_about.id, 'cat:en:meals with fish', g.food_item);
      assert.equal(g.applied_confidence, applied(g));
      assert.ok(g.applied_confidence < g.confidence);
    }
    // no item about fish alone ("grilled fish", "fish") or about crisps
    for (const g of all) assert.doesNotMatch(g.food_item.toLowerCase(), /^(?:grilled |fried |baked |raw )?fish$|crisps/, g.food_item);
    // the drinks about the dish itself rank before those that only have parent evidence
    const firstParent = b.drinks.findIndex((d) => d.evidence_level === 'parent');
    assert.ok(firstParent === -1 || b.drinks.slice(firstParent).every((d) => d.evidence_level === 'parent'));
  });

  test('"carbonara" alone is the carbonara-style pasta (was a 404); a word of two unrelated dishes names neither', () => {
    const b = pair('carbonara');
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:carbonara-style pasta']);
    assert.ok(b.food.dish, 'read as a dish');
    const all = items(b);
    assert.ok(all.length >= 1);
    for (const g of all) {
      assert.equal(g.evidence_level, 'dish');
      assert.match(`${g.food_item} ${g.dish ?? ''}`, /carbonara/i);
    }
    // "basque" is a word of Chicken Basque style and of Basque-style piperade: no dish is guessed
    assert.equal(engine.pairFood({ q: 'basque' }).status, 404);
  });

  test('the taxonomy\'s current parents apply: the pasta carbonara item is a parent of "tagliatelle carbonara", at half weight', () => {
    const b = pair('tagliatelle carbonara');
    assert.deepEqual(b.food.entries.map((e) => e.id), ['cat:en:tagliatelle with carbonara']);
    assert.ok(b.food.dish!.parents.some((p) => p.id === 'cat:en:carbonara-style pasta'));
    const carbonara = items(b).filter((g) => /carbonara/i.test(g.food_item));
    assert.ok(carbonara.length >= 1);
    for (const g of carbonara) {
      assert.equal(g.evidence_level, 'parent');
      assert.equal(g.evidence_about.id, 'cat:en:carbonara-style pasta');
      assert.equal(g.applied_confidence, applied(g));
    }
    // never the tagliatelle (the pasta) read as the dish
    assert.ok(!items(b).some((g) => /^tagliatelle$/i.test(g.food_item)));
  });

  test('what the supplement adds is in the taxonomy excerpt it cites, verbatim', () => {
    const v = engine.food().vocabulary;
    type Node = { id: string; names: Record<string, string[]>; parents: string[]; from?: string; names_added?: Record<string, string[]>; parents_added?: string[] };
    const rec = v.record as typeof v.record & { supplements?: { id: string; url: string; retrieved_via: { url: string } }[] };
    const sup = rec.supplements?.find((s) => s.id === 'off-current');
    assert.ok(sup, 'the off-current supplement');
    assert.match(sup.url, /github\.com\/openfoodfacts\/openfoodfacts-server\/blob\/[0-9a-f]{40}\/taxonomies\/food\/categories\.txt/);
    const excerpt = fs.readFileSync(path.join(ROOT, sup.retrieved_via.url), 'utf8');
    const lines = new Set(excerpt.split('\n').map((l) => l.trim()));
    const named = (lang: string, name: string) => [...lines].some((l) => l.startsWith(`${lang}: `) && l.slice(lang.length + 2).split(',').map((x) => x.trim()).includes(name));
    const nodes = v.record.nodes as Node[];
    const added = nodes.filter((n) => n.from === 'off-current');
    const enriched = nodes.filter((n) => n.names_added || n.parents_added);
    assert.deepEqual(added.map((n) => n.id), ['cat:en:fish and chips']);
    assert.ok(enriched.some((n) => n.id === 'cat:en:carbonara-style pasta'));
    for (const n of added) for (const [lang, list] of Object.entries(n.names)) for (const name of list) assert.ok(named(lang, name), `${n.id}: ${lang}: ${name}`);
    for (const n of enriched) for (const [lang, list] of Object.entries(n.names_added ?? {})) for (const name of list) assert.ok(named(lang, name), `${n.id}: ${lang}: ${name}`);
    const ids = new Set(nodes.map((n) => n.id));
    for (const n of [...added, ...enriched]) for (const p of n.parents) assert.ok(ids.has(p), `${n.id} → ${p}`);
  });
});
