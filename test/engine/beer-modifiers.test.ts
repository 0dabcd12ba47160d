// beer-modifiers.ts: menu descriptions read as a base style plus modifiers (issue 32, item 3), against
// the real knowledge base (data/beer-modifiers.json, BJCP 2021 specialty styles).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

interface Body {
  state: string;
  matches: { canonical_name: string; entity_type: string }[];
  reading: null | { kind: string; base: { text: string; state: string; matches: { canonical_name: string }[] }; modifiers: { text: string; class: string }[]; specialty: { canonical_name: string }[]; provenance: { source_key: string; locator: string } };
}
const resolve = (q: string) => sharedEngine().resolveEntity({ q, limit: 5 }).body as unknown as Body;

test('"Bourbon Barrel Aged Stout" is a 33B Specialty Wood-Aged Beer on a stout base (ambiguous: "stout" is a family)', () => {
  const r = resolve('Bourbon Barrel Aged Stout');
  assert.equal(r.matches[0]!.canonical_name, 'Specialty Wood-Aged Beer');
  assert.equal(r.state, 'ambiguous');
  assert.equal(r.reading!.kind, 'specialty_style');
  assert.equal(r.reading!.base.text, 'stout');
  assert.deepEqual(r.reading!.modifiers.map((m) => m.class).sort(), ['alcohol', 'wood']);
  assert.equal(r.reading!.provenance.source_key, 'bjcp-2021-specialty-text');
  assert.ok(r.matches.every((m) => m.entity_type === 'beer_style'), 'never Bourbon whisky');
});

test('"DIPA with Tangerines" is a fruited double IPA: 29A Fruit Beer, resolved, base Double IPA visible', () => {
  const r = resolve('DIPA with Tangerines');
  assert.equal(r.state, 'resolved');
  assert.equal(r.matches[0]!.canonical_name, 'Fruit Beer');
  assert.equal(r.reading!.base.matches[0]!.canonical_name, 'Double IPA');
  assert.ok(r.matches.some((m) => m.canonical_name === 'Double IPA'), 'the base stays among the matches');
  assert.deepEqual(r.reading!.modifiers, [{ text: 'tangerines', class: 'fruit' }]);
});

test('"Wild Ale with Peaches" is 28C Wild Specialty Beer; "Cinnamon Golden Ale" 30A; "Raspberry Wheat" and "Coffee Porter" fruit and spice beers on a family base', () => {
  assert.equal(resolve('Wild Ale with Peaches').matches[0]!.canonical_name, 'Wild Specialty Beer');
  const cinnamon = resolve('Cinnamon Golden Ale');
  assert.equal(cinnamon.matches[0]!.canonical_name, 'Spice, Herb, or Vegetable Beer');
  assert.deepEqual(cinnamon.reading!.modifiers, [{ text: 'cinnamon', class: 'spice' }]);
  const raspberry = resolve('Raspberry Wheat');
  assert.equal(raspberry.matches[0]!.canonical_name, 'Fruit Beer');
  assert.equal(raspberry.state, 'ambiguous');
  const coffee = resolve('Coffee Porter');
  assert.equal(coffee.matches[0]!.canonical_name, 'Spice, Herb, or Vegetable Beer');
  assert.equal(coffee.state, 'ambiguous');
});

test('"Barrel-Aged Imperial Stout": a barrel whose previous use is not named is 33A or 33B, never resolved; the base is Imperial Stout', () => {
  const r = resolve('Barrel-Aged Imperial Stout');
  assert.equal(r.state, 'ambiguous');
  assert.deepEqual(r.reading!.specialty.map((s) => s.canonical_name).sort(), ['Specialty Wood-Aged Beer', 'Wood-Aged Beer']);
  assert.equal(r.reading!.base.matches[0]!.canonical_name, 'Imperial Stout');
  assert.equal(r.reading!.base.state, 'resolved');
});

test('fruit on Lambic is 23F Fruit Lambic (BJCP 28C, 29A comments); fruit on a sour classic style is 29A', () => {
  assert.equal(resolve('Raspberry Lambic').matches[0]!.canonical_name, 'Fruit Lambic');
  assert.equal(resolve('Cherry Berliner Weisse').matches[0]!.canonical_name, 'Fruit Beer');
});

test('a name that equals the query is never read as modifiers ("Fruit Beer", "Pumpkin Ale", "Oatmeal Stout")', () => {
  for (const q of ['Fruit Beer', 'Pumpkin Ale', 'Oatmeal Stout']) {
    const r = resolve(q);
    assert.equal(r.reading, null, q);
    assert.equal(r.state, 'resolved', q);
  }
});

test('a query with no beer base gets no reading ("Peach Brandy", "Cherry")', () => {
  for (const q of ['Peach Brandy', 'Cherry']) assert.equal(resolve(q).reading, null, q);
});

test('"Flemish Sour Brown" is Oud Bruin: the base is sour already (its BJCP tags), so the base itself is the answer', () => {
  const r = resolve('Flemish Sour Brown');
  assert.equal(r.matches[0]!.canonical_name, 'Oud Bruin');
  assert.equal(r.reading!.kind, 'base_style_has_modifiers');
  assert.deepEqual(r.reading!.modifiers, [{ text: 'sour', class: 'wild' }]);
});
