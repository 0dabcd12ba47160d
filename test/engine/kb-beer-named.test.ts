// BJCP 2021 named sub-styles (21B Specialty IPA's currently defined types) and 27 Historical Beer
// styles (data/beer-styles/bjcp-2021-named.json), with the other names the guideline text and the
// Brewers Association give them, each pinned to the source it was read in (issue 8 section 2, issue 9
// section 1: 21B's figures are per type).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedEngine } from '../helper.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const kb = () => sharedEngine().kb;
const e = (key: string) => {
  const x = kb().byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
};
type Rec = { key: string; name: string; review: string; aliases: { name: string; source: string; kind: string; lang: string }[]; facts: Record<string, { value: unknown; source: string; locator: string }> };
const fileRecords = (): Rec[] => JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'beer-styles', 'bjcp-2021-named.json'), 'utf8'));
const rec = (key: string) => {
  const r = fileRecords().find((x) => x.key === key);
  assert.ok(r, `${key} is in bjcp-2021-named.json`);
  return r!;
};

describe('BJCP 2021 21B Specialty IPA named types', () => {
  test('the seven currently defined types are served, each with parent 21B, category 21 and no style_id', () => {
    const types = ['belgian-ipa', 'black-ipa', 'brown-ipa', 'red-ipa', 'rye-ipa', 'white-ipa', 'brut-ipa'];
    for (const t of types) {
      const x = e(`beer/21b-${t}`);
      assert.equal(x.type, 'beer_style');
      assert.equal(x.facts.parent?.value, 'beer/21b-specialty-ipa', t);
      assert.equal(x.facts.category_id?.value, '21', t);
      assert.equal(x.facts.style_id, undefined, `${t} has no style_id`);
    }
    assert.equal(e('beer/21b-black-ipa').name, 'Black IPA');
  });

  test('each type carries its own vital statistics, cited to the BJCP text read in a reprint', () => {
    const black = e('beer/21b-black-ipa');
    assert.deepEqual(black.facts.og?.value, { min: 1.05, max: 1.085 });
    assert.deepEqual(black.facts.srm?.value, { min: 25, max: 40 });
    assert.equal(black.facts.srm?.source, 'bjcp-2021-named-styles');
    assert.match(black.facts.srm!.locator, /21B Specialty IPA: Black IPA, vital statistics/);
    const white = e('beer/21b-white-ipa');
    assert.deepEqual(white.facts.srm?.value, { min: 5, max: 6 });
    assert.deepEqual(white.facts.abv?.value, { min: 5.5, max: 7 });
    const brut = e('beer/21b-brut-ipa');
    assert.deepEqual(brut.facts.fg?.value, { min: 0.99, max: 1.004 });
    assert.deepEqual(brut.facts.ibu?.value, { min: 20, max: 30 });
    const belgian = e('beer/21b-belgian-ipa');
    assert.deepEqual(belgian.facts.ibu?.value, { min: 50, max: 100 });
    const src = kb().sources.get('bjcp-2021-named-styles')!;
    assert.equal(src.publisher, 'Beer Judge Certification Program');
    assert.equal(src.authority, 'style_guideline');
    assert.equal(src.retrieved_via?.kind, 'reprint');
    assert.match(src.retrieved_via!.url, /rwgrier\/beer-styles-site/);
  });

  test('the types are found by name', () => {
    const { resolver, kb: k } = sharedEngine();
    for (const [q, key] of [
      ['Black IPA', 'beer/21b-black-ipa'],
      ['Brut IPA', 'beer/21b-brut-ipa'],
      ['Rye IPA', 'beer/21b-rye-ipa'],
    ] as const) {
      const r = resolver.resolve(q, 5);
      assert.equal(r.state, 'resolved', q);
      assert.equal(k.entities[r.candidates[0]!.entity]!.key, key, q);
    }
  });

  test('a BA name and a BJCP-stated name, each with its own source', () => {
    const black = e('beer/21b-black-ipa').aliases.find((a) => a.name === 'American-Style Black Ale');
    assert.ok(black);
    assert.equal(black.source, 'ba-beer-style-guidelines-2023');
    assert.equal(black.kind, 'common_name');
    const session = e('beer/21b-specialty-ipa').aliases.find((a) => a.name === 'Session IPA');
    assert.ok(session);
    assert.equal(session.source, 'bjcp-2021-named-styles');
    assert.match(session.locator, /21B Specialty IPA, Comments/);
  });
});

describe('BJCP 2021 27 Historical Beer', () => {
  test('the category and its nine currently defined styles are recorded, each style under the category', () => {
    const cat = rec('beer/27-historical-beer');
    assert.equal(cat.name, 'Historical Beer');
    assert.equal(cat.facts.category_id?.value, '27');
    assert.equal(cat.facts.style_id, undefined);
    const styles = fileRecords().filter((r) => r.facts.parent?.value === 'beer/27-historical-beer');
    assert.deepEqual(
      styles.map((s) => s.name),
      ['Kellerbier', 'Kentucky Common', 'Lichtenhainer', 'London Brown Ale', 'Piwo Grodziskie', 'Pre-Prohibition Lager', 'Pre-Prohibition Porter', 'Roggenbier', 'Sahti'],
    );
    for (const s of styles) assert.equal(s.facts.style_id, undefined, `${s.key} has no style_id`);
  });

  test('figures where the guideline gives them; Kellerbier has none ("same as base style")', () => {
    const sahti = rec('beer/27-sahti');
    assert.deepEqual(sahti.facts.og?.value, { min: 1.076, max: 1.12 });
    assert.deepEqual(sahti.facts.abv?.value, { min: 7, max: 11 });
    assert.equal(sahti.facts.abv?.source, 'bjcp-2021-named-styles');
    const grodziskie = rec('beer/27-piwo-grodziskie');
    assert.deepEqual(grodziskie.facts.ibu?.value, { min: 20, max: 35 });
    assert.deepEqual(rec('beer/27-roggenbier').facts.srm?.value, { min: 14, max: 19 });
    const keller = rec('beer/27-kellerbier');
    for (const f of ['og', 'fg', 'ibu', 'srm', 'abv']) assert.equal(keller.facts[f], undefined, `Kellerbier ${f}`);
  });

  test('other names: the guideline text\'s own, and the BA names', () => {
    const g = rec('beer/27-piwo-grodziskie').aliases;
    assert.equal(g.find((a) => a.name === 'Grätzer')?.source, 'bjcp-2021-named-styles');
    assert.equal(g.find((a) => a.name === 'Grätzer')?.lang, 'de');
    assert.equal(g.find((a) => a.name === 'Grodziskie')?.source, 'ba-beer-style-guidelines-2023');
    assert.equal(rec('beer/27-pre-prohibition-lager').aliases.find((a) => a.name === 'Classic American Pilsner')?.source, 'bjcp-2021-named-styles');
    assert.equal(rec('beer/27-sahti').aliases.find((a) => a.name === 'Finnish-Style Sahti')?.source, 'ba-beer-style-guidelines-2023');
  });

  test('the historical styles are served under the category entity, and found by name', () => {
    const cat = e('beer/27-historical-beer');
    const roggen = e('beer/27-roggenbier');
    assert.equal(roggen.facts.parent?.value, 'beer/27-historical-beer');
    assert.ok(cat.children.includes(roggen.idx));
    const { resolver, kb: k } = sharedEngine();
    for (const [q, key] of [
      ['Roggenbier', 'beer/27-roggenbier'],
      ['Grodziskie', 'beer/27-piwo-grodziskie'],
      ['Kentucky Common', 'beer/27-kentucky-common'],
    ] as const) {
      const r = resolver.resolve(q, 5);
      assert.equal(r.state, 'resolved', q);
      assert.equal(k.entities[r.candidates[0]!.entity]!.key, key, q);
    }
  });
});

describe('Brewers Association names and shared beer terms (issue 8, second round)', () => {
  test('each new BA name is an alias of the BJCP style it describes, cited to the BA guidelines', () => {
    for (const [key, name] of [
      ['beer/1a-american-light-lager', 'Contemporary American-Style Light Lager'],
      ['beer/1b-american-lager', 'Contemporary American-Style Lager'],
      ['beer/21c-hazy-ipa', 'Juicy or Hazy Imperial or Double India Pale Ale'],
      ['beer/28b-mixed-fermentation-sour-beer', 'Mixed-Culture Brett Beer'],
      ['beer/32a-classic-style-smoked-beer', 'Bamberg-Style Weiss Rauchbier'],
      ['beer/22b-american-strong-ale', 'Double Hoppy Red Ale'],
    ] as const) {
      const a = e(key).aliases.find((x) => x.name === name);
      assert.ok(a, `${name} on ${key}`);
      assert.equal(a.source, 'ba-beer-style-guidelines-2023', name);
      assert.equal(a.kind, 'common_name', name);
      assert.equal(a.lang, 'en', name);
      assert.match(a.locator, /^2023 guidelines, \d+ /, name);
    }
  });

  test('the BA names resolve to their BJCP style', () => {
    const { resolver, kb: k } = sharedEngine();
    for (const [q, key] of [
      ['Contemporary American-Style Lager', 'beer/1b-american-lager'],
      ['Contemporary American-Style Light Lager', 'beer/1a-american-light-lager'],
      ['Juicy or Hazy Imperial or Double India Pale Ale', 'beer/21c-hazy-ipa'],
      ['Mixed-Culture Brett Beer', 'beer/28b-mixed-fermentation-sour-beer'],
      ['Bamberg-Style Weiss Rauchbier', 'beer/32a-classic-style-smoked-beer'],
      ['Double Hoppy Red Ale', 'beer/22b-american-strong-ale'],
    ] as const) {
      const r = resolver.resolve(q, 5);
      assert.equal(r.state, 'resolved', q);
      assert.equal(k.entities[r.candidates[0]!.entity]!.key, key, q);
    }
    // the Märzen-based Bamberg style keeps its own record
    const rauch = resolver.resolve('Rauchbier', 5);
    assert.equal(k.entities[rauch.candidates[0]!.entity]!.key, 'beer/6b-rauchbier');
  });

  test('a name that BJCP or the BA gives to several styles is answered ambiguous', () => {
    const { resolver, kb: k } = sharedEngine();
    for (const [q, keys] of [
      ['Winter Warmer', ['beer/17a-british-strong-ale', 'beer/30c-winter-seasonal-beer']],
      ['English Pale Ale', ['beer/11a-ordinary-bitter', 'beer/11b-best-bitter', 'beer/11c-strong-bitter']],
      ['Belgian-Style Flanders Oud Bruin or Oud Red Ale', ['beer/23b-flanders-red-ale', 'beer/23c-oud-bruin']],
    ] as const) {
      const r = resolver.resolve(q, 10);
      assert.equal(r.state, 'ambiguous', q);
      assert.deepEqual(r.candidates.map((c) => k.entities[c.entity]!.key).sort(), [...keys].sort(), q);
    }
    // the specific names stay resolved
    for (const [q, key] of [
      ['English Winter Warmer', 'beer/17a-british-strong-ale'],
      ['Traditional Bock', 'beer/6c-dunkles-bock'],
      ['Flanders Red Ale', 'beer/23b-flanders-red-ale'],
    ] as const) {
      const r = resolver.resolve(q, 5);
      assert.equal(r.state, 'resolved', q);
      assert.equal(k.entities[r.candidates[0]!.entity]!.key, key, q);
    }
    // a bare 'Bock' (the BJCP 2008 category of four styles) stays ambiguous, the standard-strength bocks first
    const bock = resolver.resolve('Bock', 10);
    assert.equal(bock.state, 'ambiguous');
    assert.deepEqual(bock.candidates.slice(0, 2).map((c) => k.entities[c.entity]!.key).sort(), ['beer/4c-helles-bock', 'beer/6c-dunkles-bock']);
    const decl = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'ambiguities', 'beer-spirits.json'), 'utf8')) as { term: string; note: string }[];
    assert.match(decl.find((d) => d.term === 'English Pale Ale')!.note, /BJCP 2015 Appendix A/);
    assert.match(decl.find((d) => d.term === 'Winter Warmer')!.note, /17A British Strong Ale/);
  });
});
