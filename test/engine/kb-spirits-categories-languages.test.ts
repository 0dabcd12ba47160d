// Issue 32 items 1 and 4: the Scotch Whisky categories (single malt, blended malt, single grain, blended
// grain, blended) in Estonian, Polish, Greek and Czech, as the EU Combined Nomenclature explanatory notes
// name them (data/aliases/spirits-categories-languages.json). Real resolver behaviour on the shipped base.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine, kbAlias, ROOT } from '../helper.ts';

function resolve(q: string) {
  const e = sharedEngine();
  const r = e.resolver.resolve(q, 10);
  const keys = r.candidates.map((c) => e.kb.entities[c.entity]!.key);
  return { state: r.state, keys, top: keys[0] ?? null };
}

function resolvesTo(q: string, key: string) {
  const r = resolve(q);
  assert.equal(r.top, key, `${q}: top ${r.top} (${r.state})`);
  assert.equal(r.state, 'resolved', `${q}: ${r.state}`);
}

const CASES: [string, string, string][] = [
  ['Šoti ühelinnaseviski', 'spirit/single-malt-scotch-whisky', 'et'],
  ['Šoti segulinnaseviski', 'spirit/blended-malt-scotch-whisky', 'et'],
  ['Šoti üheteraviljaviski', 'spirit/single-grain-scotch-whisky', 'et'],
  ['Šoti seguteraviljaviski', 'spirit/blended-grain-scotch-whisky', 'et'],
  ['Szkocka whisky single malt', 'spirit/single-malt-scotch-whisky', 'pl'],
  ['Szkocka whisky blended malt', 'spirit/blended-malt-scotch-whisky', 'pl'],
  ['Szkocka whisky single grain', 'spirit/single-grain-scotch-whisky', 'pl'],
  ['Szkocka whisky blended grain', 'spirit/blended-grain-scotch-whisky', 'pl'],
  ['Σκωτσέζικο ουίσκι single malt', 'spirit/single-malt-scotch-whisky', 'el'],
  ['Míchaná Skotská whisky', 'spirit/blended-scotch-whisky', 'cs'],
];

// German category names (Austrian Codex B 23 contents, LVWO Weinsberg) and Italian (AIS Lombardia).
const CATEGORY_CASES: [string, string, string][] = [
  ['Tresterbrand', 'spirit/pomace-brandy', 'de'],
  ['Brand aus Apfelwein', 'spirit/cider-perry-spirit', 'de'],
  ['Brand aus Birnenwein', 'spirit/cider-perry-spirit', 'de'],
  ['Weindestillat', 'spirit/wine-spirit', 'de-AT'],
  ['Spirituose mit Wacholder', 'spirit/juniper-flavoured-spirit-drinks', 'de'],
  ['Enzian', 'spirit/gentian', 'de'],
  ['Spirituose mit Kümmel', 'spirit/caraway-flavoured-spirit-drinks', 'de'],
  ['Spirituose mit Anis', 'spirit/aniseed-flavoured-spirit-drinks', 'de'],
  ['Aromatisierter Wodka', 'spirit/flavoured-vodka', 'de'],
  ['Brand aus Obsttrester', 'spirit/fruit-marc-spirit', 'de'],
  ['Acquavite di cereali', 'spirit/grain-spirit', 'it'],
  ['Brandy di cereali', 'spirit/grain-spirit', 'it'],
  // Swiss Ordinance SR 817.022.12 (French, German, Italian)
  ['Acquavite di vino', 'spirit/wine-spirit', 'it'],
  ['Brand aus Apfel- oder Birnenwein', 'spirit/cider-perry-spirit', 'de-CH'],
  ['Acquavite di carvi', 'spirit/caraway-flavoured-spirit-drinks', 'it'],
  ['Destillierter Gin', 'spirit/distilled-gin', 'de'],
  ['Gin distillé', 'spirit/distilled-gin', 'fr'],
  ["Boissons spiritueuses à l'anis", 'spirit/aniseed-flavoured-spirit-drinks', 'fr'],
  ['Liquore', 'spirit/liqueur', 'it'],
  ['Crema di', 'spirit/creme-de', 'it'],
  ["Liqueur à base d'œufs", 'spirit/egg-liqueur', 'fr'],
  ['Liquore a base di uova', 'spirit/egg-liqueur', 'it'],
  ['Obsttresterbrand', 'spirit/fruit-marc-spirit', 'de-CH'],
  ['Drusenbrand', 'spirit/hefebrand', 'de-CH'],
  ['Boissons spiritueuses aromatisées aux baies de genévrier', 'spirit/juniper-flavoured-spirit-drinks', 'fr'],
  ['Bevande spiritose al ginepro', 'spirit/juniper-flavoured-spirit-drinks', 'it'],
];

describe('Scotch Whisky categories in other EU languages (CN explanatory notes)', () => {
  test('each name resolves to its category, not to Scotch Whisky or another category', () => {
    for (const [q, key] of CASES) resolvesTo(q, key);
  });

  test('written as a shopper would: lower case, no diacritics where the folding allows', () => {
    resolvesTo('szkocka whisky single malt', 'spirit/single-malt-scotch-whisky');
    resolvesTo('michana skotska whisky', 'spirit/blended-scotch-whisky');
  });

  test('every name carries its language, kind, source and locator', () => {
    for (const [q, key, lang] of CASES) {
      const a = kbAlias(key, q);
      assert.equal(a.lang, lang, q);
      assert.equal(a.kind, 'other_language', q);
      assert.ok(a.source && a.locator && a.locator.length > 20, q);
    }
  });

  test('the Estonian source is a copy and says so', () => {
    const sources = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/sources/spirits-categories-languages.json'), 'utf8'));
    const s = sources.find((x: { key: string }) => x.key === 'scl-eu-cn-2009-c302-et');
    assert.ok(s?.retrieved_via?.url, 'retrieved_via names the copy');
    assert.match(s.url, /eur-lex\.europa\.eu/);
  });

  test('German and Italian category names resolve to the category', () => {
    for (const [q, key] of CATEGORY_CASES) resolvesTo(q, key);
    for (const [q, key, lang] of CATEGORY_CASES) assert.equal(kbAlias(key, q).lang, lang, q);
  });

  test('typed without accents, the Swiss names still resolve', () => {
    resolvesTo("liqueur a base d'oeufs", 'spirit/egg-liqueur');
    resolvesTo('gin distille', 'spirit/distilled-gin');
  });

  test('the distilled gin names stay distinct from London gin', () => {
    const r = resolve('Destillierter Gin');
    assert.equal(r.top, 'spirit/distilled-gin');
    assert.notEqual(r.top, 'spirit/london-gin');
  });

  test('a category name does not take over a GI that contains it: Enzian is the category, Südtiroler Enzian stays a candidate and keeps its own name', () => {
    const r = resolve('Enzian');
    assert.equal(r.top, 'spirit/gentian');
    assert.ok(r.keys.includes('spirit/sudtiroler-enzian'), r.keys.join(', '));
    resolvesTo('Südtiroler Enzian', 'spirit/sudtiroler-enzian');
  });

  test('the names already held are unchanged', () => {
    resolvesTo('Single Malt Scotch Whisky', 'spirit/single-malt-scotch-whisky');
    resolvesTo('Blended Scotch Whisky', 'spirit/blended-scotch-whisky');
    resolvesTo('szkocka whisky', 'spirit/scotch-whisky');
    resolvesTo('Skotská whisky', 'spirit/scotch-whisky');
  });
});
