// Issue 32, items 3–5, second round: origin adjectives in German, the shared name "Wallis", the family
// name "Pils", short sub-region names typed alone ("Ave", "Lima") and smoked beers on a menu, each
// against the real knowledge base.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { kbAlias, kbEntity, ROOT, sharedEngine } from '../helper.ts';

function answer(q: string) {
  const e = sharedEngine();
  const r = e.resolver.resolve(q, 10);
  return { state: r.state, keys: r.candidates.map((c) => e.kb.entities[c.entity]!.key) };
}

describe('origin adjectives in category names (item 4)', () => {
  test('"Schottischer Whisky" is Scotch Whisky, resolved, in either case and inflected; the alias is German and cites a trade body', () => {
    for (const q of ['Schottischer Whisky', 'schottischer Whisky', 'schottischen Whisky']) {
      const a = answer(q);
      assert.equal(a.state, 'resolved', q);
      assert.equal(a.keys[0], 'spirit/scotch-whisky', q);
    }
    const al = kbAlias('spirit/scotch-whisky', 'Schottischer Whisky');
    assert.equal(al.lang, 'de');
    assert.equal(sharedEngine().kb.sources.get(al.source)!.authority, 'trade_body');
  });

  test('origin adjectives with no cited name here are never resolved to a wrong GI or category', () => {
    const right: Record<string, string> = {
      'irischer Whiskey': 'spirit/irish-whiskey',
      'japanischer Whisky': 'spirit/japanese-whisky',
      'kanadischer Whisky': 'spirit/canadian-whisky',
      'amerikanischer Whiskey': 'spirit/whisky-us',
      'Schottischer Single Malt': 'spirit/single-malt-scotch-whisky',
      'whisky japonais': 'spirit/japanese-whisky',
      'whisky escocés': 'spirit/scotch-whisky',
      'whisky giapponese': 'spirit/japanese-whisky',
      'rhum agricole martiniquais': 'spirit/rhum-agricole-martinique',
    };
    for (const [q, key] of Object.entries(right)) {
      const a = answer(q);
      assert.ok(a.state !== 'resolved' || a.keys[0] === key, `${q}: ${a.state} ${a.keys[0]}`);
    }
  });
});

describe('"Wallis" (item 2): Valais first, still ambiguous', () => {
  test('"Wallis" lists Valais (its German name) before Wales (its Afrikaans name); both remain', () => {
    for (const q of ['Wallis', 'wallis']) {
      const a = answer(q);
      assert.equal(a.state, 'ambiguous', q);
      assert.equal(a.keys[0], 'geo/valais', q);
      assert.ok(a.keys.includes('geo/wales'), q);
    }
    assert.equal(answer('Wales').keys[0], 'geo/wales');
    assert.equal(answer('Valais').keys[0], 'geo/valais');
  });

  test('the declaration names Valais first by the rule of tools/derive/cldr-names.mjs: German is official in CH, Afrikaans not in GB (CLDR territoryInfo)', () => {
    const decl = sharedEngine().kb.ambiguities.find((a) => a.term === 'Wallis')!;
    assert.equal(decl.first, 'geo/valais');
    assert.deepEqual([...decl.entities].sort(), ['geo/valais', 'geo/wales']);
    assert.equal(kbEntity('geo/valais').aliases.find((a) => a.name === 'Wallis')!.lang, 'de');
    assert.equal(kbEntity('geo/wales').aliases.find((a) => a.name === 'Wallis')!.lang, 'af');
    const info = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/cldr-core/supplemental/territoryInfo.json'), 'utf8')).supplemental.territoryInfo;
    assert.match(info.CH.languagePopulation.de._officialStatus, /official/);
    assert.doesNotMatch(info.GB.languagePopulation.af?._officialStatus ?? '', /official/);
  });

  test('every other CLDR declaration keeps the demand order (no "first")', () => {
    const cldr = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/ambiguities/cldr.json'), 'utf8')) as { term: string; first?: string }[];
    assert.deepEqual(cldr.filter((a) => a.first).map((a) => a.term), ['Wallis']);
  });
});

describe('family names (item 3)', () => {
  test('"Pils" is ambiguous across the BJCP 2021 pilsner family (3B, 5D, X5), German Pils first', () => {
    for (const q of ['Pils', 'pils']) {
      const a = answer(q);
      assert.equal(a.state, 'ambiguous', q);
      assert.equal(a.keys[0], 'beer/5d-german-pils', q);
      for (const k of ['beer/3b-czech-premium-pale-lager', 'beer/x5-new-zealand-pilsner']) assert.ok(a.keys.includes(k), `${q}: ${k}`);
    }
    for (const k of ['beer/3b-czech-premium-pale-lager', 'beer/5d-german-pils', 'beer/x5-new-zealand-pilsner']) {
      assert.ok((kbEntity(k).facts.tags!.value as string[]).includes('pilsner-family'), k);
    }
    assert.equal(answer('German Pils').state, 'resolved');
  });

  test('"Pils", "Pilsner", "Dunkel", "Export", "IPA", "Bock", "Weizen", "Lager", "Stout" are never resolved to one member', () => {
    const members: Record<string, string[]> = {
      Pils: ['beer/5d-german-pils', 'beer/3b-czech-premium-pale-lager'],
      Pilsner: ['beer/5d-german-pils', 'beer/3b-czech-premium-pale-lager'],
      Dunkel: ['beer/8a-munich-dunkel', 'beer/10b-dunkles-weissbier'],
      Export: ['beer/5c-german-helles-exportbier', 'beer/14c-scottish-export'],
      IPA: ['beer/21a-american-ipa', 'beer/21c-hazy-ipa'],
      Bock: ['beer/4c-helles-bock', 'beer/6c-dunkles-bock'],
      Weizen: ['beer/10a-weissbier', 'beer/10c-weizenbock'],
      Lager: ['beer/1b-american-lager', 'beer/7a-vienna-lager'],
      Stout: ['beer/15b-irish-stout', 'beer/16a-sweet-stout'],
    };
    for (const [q, keys] of Object.entries(members)) {
      const a = answer(q);
      assert.equal(a.state, 'ambiguous', `${q} → ${a.keys[0]}`);
      for (const k of keys) assert.ok(a.keys.includes(k), `${q} lists ${k}`);
    }
  });
});

describe('short sub-region names typed alone (item 5)', () => {
  test('"Ave" and "Lima" (Vinho Verde sub-regions) are listed first but not resolved; so are "Peel" and "Robe"', () => {
    for (const [q, key] of [['Ave', 'geo/ave'], ['ave', 'geo/ave'], ['Lima', 'geo/lima'], ['Peel', 'geo/peel'], ['Robe', 'geo/robe']] as const) {
      const a = answer(q);
      assert.equal(a.state, 'ambiguous', q);
      assert.equal(a.keys[0], key, q);
    }
  });

  test('longer sub-region names, places people ask for, and short names of other levels stay resolved', () => {
    for (const [q, key] of [['Sousa', 'geo/sousa'], ['Coonawarra', 'geo/coonawarra'], ['Gavi', 'geo/gavi'], ['Monção e Melgaço', 'geo/moncao-e-melgaco'], ['Ohio', 'geo/ohio']] as const) {
      const a = answer(q);
      assert.equal(a.state, 'resolved', q);
      assert.equal(a.keys[0], key, q);
    }
  });
});

describe('smoked beers on a menu (item 3: Dutch and US menu words)', () => {
  interface Body { state: string; matches: { canonical_name: string }[]; reading: null | { base: { text: string }; modifiers: { text: string; class: string }[]; specialty: { canonical_name: string }[] } }
  const resolve = (q: string) => sharedEngine().resolveEntity({ q, limit: 6 }).body as unknown as Body;

  test('"Smoked Porter" is a smoked classic style (BJCP 2021 32A, or 32B), on a porter base; never resolved', () => {
    const r = resolve('Smoked Porter');
    assert.equal(r.state, 'ambiguous');
    assert.deepEqual(r.matches.slice(0, 2).map((m) => m.canonical_name).sort(), ['Classic Style Smoked Beer', 'Specialty Smoked Beer']);
    assert.equal(r.reading!.base.text, 'porter');
    assert.deepEqual(r.reading!.modifiers, [{ text: 'smoked', class: 'smoke' }]);
    assert.ok(r.matches.some((m) => /Porter/.test(m.canonical_name)), 'the base stays visible');
  });

  test('smoke with fruit is 32B Specialty Smoked Beer; a Rauchbier is smoked already (6B); "Smoke Porter" keeps its alias', () => {
    assert.equal(resolve('Smoked Porter with Cherries').matches[0]!.canonical_name, 'Specialty Smoked Beer');
    assert.equal(resolve('Smoked Rauchbier').matches[0]!.canonical_name, 'Rauchbier');
    const sp = resolve('Smoke Porter');
    assert.equal(sp.state, 'resolved');
    assert.equal(sp.matches[0]!.canonical_name, 'Classic Style Smoked Beer');
    assert.equal(resolve('Smoked Salmon').state, 'unresolved');
  });
});
