// Beer styles as brewers name them (issue 32, item 3): German, Dutch/Flemish, Czech and Japanese style
// names from brewers' bodies, the BJCP text and translations, and Japan's craft beer association
// (data/aliases/beer-brewers.json, data/sources/beer-brewers.json), and the family names declared
// shared across their members (data/ambiguities/beer-brewers.json). Asserted against the real
// knowledge base and resolver.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sharedEngine, kbAlias } from '../helper.ts';

const e = () => sharedEngine();
const keyOf = (idx: number) => e().kb.entities[idx]!.key;
const resolve = (q: string) => e().resolver.resolve(q, 5);

type AliasFile = { entity: string; aliases: { name: string; lang: string; kind: string; source: string; locator: string }[] }[];
const aliasFile = (): AliasFile => JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'aliases', 'beer-brewers.json'), 'utf8'));
const ambiguityFile = (): { term: string; entities: string[]; note: string }[] =>
  JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'ambiguities', 'beer-brewers.json'), 'utf8'));

describe('brewers\' style names resolve to the one BJCP 2021 style they name', () => {
  const cases: [string, string][] = [
    // German (brewers' bodies, the BJCP text, a BJCP name translation, encyclopedias)
    ['Kristallweizen', 'beer/10a-weissbier'],
    ['Hefeweissbier', 'beer/10a-weissbier'],
    ['Dunkles Weizen', 'beer/10b-dunkles-weissbier'],
    ['Zwickl', 'beer/27-kellerbier'],
    ['Zwickel', 'beer/27-kellerbier'],
    ['Kellerpils', 'beer/27-kellerbier'],
    ['Münchner Helles', 'beer/4a-munich-helles'],
    ['Münchner Dunkel', 'beer/8a-munich-dunkel'],
    ['Deutsches Pils', 'beer/5d-german-pils'],
    ['Heller Bock', 'beer/4c-helles-bock'],
    ['Dunkler Bock', 'beer/6c-dunkles-bock'],
    ['Wiener Lager', 'beer/7a-vienna-lager'],
    ['Export hell', 'beer/5c-german-helles-exportbier'],
    // Dutch / Flemish
    ['Oude Kriek', 'beer/23f-fruit-lambic'],
    ['Kriekenlambiek', 'beer/23f-fruit-lambic'],
    ['Geuze', 'beer/23e-gueuze'],
    ['Oude Geuze', 'beer/23e-gueuze'],
    ['Lambiek', 'beer/23d-lambic'],
    ['Tripel', 'beer/26c-belgian-tripel'],
    ['Dubbel', 'beer/26b-belgian-dubbel'],
    ['Vlaams roodbruin', 'beer/23b-flanders-red-ale'],
    ['Vlaams Bruin', 'beer/23c-oud-bruin'],
    ['Flemish Red', 'beer/23b-flanders-red-ale'],
    ['Flemish Sour Brown', 'beer/23c-oud-bruin'],
    // Czech (BJCP 2021 3B-3D comments)
    ['světlý ležák', 'beer/3b-czech-premium-pale-lager'],
    ['polotmavý ležák', 'beer/3c-czech-amber-lager'],
    ['tmavý ležák', 'beer/3d-czech-dark-lager'],
    ['tmavé speciální pivo', 'beer/3d-czech-dark-lager'],
    // Japanese (Craft Beer Association, Japan; a BJCP 2008 translation)
    ['ヘーフェヴァイツェン', 'beer/10a-weissbier'],
    ['クリスタルヴァイツェン', 'beer/10a-weissbier'],
    ['ジャーマンスタイル・ピルスナー', 'beer/5d-german-pils'],
    ['ボヘミアスタイル・ピルスナー', 'beer/3b-czech-premium-pale-lager'],
    ['ロッゲンビール', 'beer/27-roggenbier'],
    ['ミューニック・デュンケル', 'beer/8a-munich-dunkel'],
    ['デュンケルヴァイツェン', 'beer/10b-dunkles-weissbier'],
    ['ヴァイツェンボック', 'beer/10c-weizenbock'],
    ['ヴァイスビア', 'beer/10a-weissbier'],
    ['ランビック', 'beer/23d-lambic'],
    ['ベルジャン・トリペル', 'beer/26c-belgian-tripel'],
  ];
  for (const [q, key] of cases) {
    test(`${q} → ${key}`, () => {
      const r = resolve(q);
      assert.equal(r.state, 'resolved', `${q}: ${r.state}`);
      assert.equal(keyOf(r.candidates[0]!.entity), key, q);
    });
  }
  test('case does not matter: "OUDE KRIEK", "oude geuze", "Světlý Ležák"', () => {
    assert.equal(keyOf(resolve('OUDE KRIEK').candidates[0]!.entity), 'beer/23f-fruit-lambic');
    assert.equal(keyOf(resolve('oude geuze').candidates[0]!.entity), 'beer/23e-gueuze');
    assert.equal(keyOf(resolve('Světlý Ležák').candidates[0]!.entity), 'beer/3b-czech-premium-pale-lager');
  });
});

describe('family names are ambiguous across their members, never one narrow member', () => {
  const families: [string, string, string[]][] = [
    ['Dunkel', 'beer/8a-munich-dunkel', ['beer/10b-dunkles-weissbier']],
    ['Dunkles', 'beer/8a-munich-dunkel', ['beer/10b-dunkles-weissbier']],
    ['Export', 'beer/5c-german-helles-exportbier', ['beer/14c-scottish-export', 'beer/16d-foreign-extra-stout']],
    ['Helles', 'beer/4a-munich-helles', ['beer/5c-german-helles-exportbier', 'beer/5a-german-leichtbier']],
    ['Weizen', 'beer/10a-weissbier', ['beer/10b-dunkles-weissbier', 'beer/10c-weizenbock']],
    ['ヴァイツェン', 'beer/10a-weissbier', ['beer/10b-dunkles-weissbier', 'beer/10c-weizenbock']],
    ['Kriek', 'beer/23f-fruit-lambic', ['beer/29a-fruit-beer']],
    ['Kriekenbier', 'beer/29a-fruit-beer', ['beer/23f-fruit-lambic']],
  ];
  for (const [q, first, others] of families) {
    test(`${q}: ambiguous, ${first} first, with ${others.join(', ')}`, () => {
      const r = resolve(q);
      assert.equal(r.state, 'ambiguous', q);
      const keys = r.candidates.map((c) => keyOf(c.entity));
      assert.equal(keys[0], first, `${q}: ${keys.join(', ')}`);
      for (const o of others) assert.ok(keys.includes(o), `${q} lists ${o}: ${keys.join(', ')}`);
    });
  }
  test('"Dunkles" is no longer answered Dunkles Bock first, nor "Export" Scottish Export first (issue 32)', () => {
    assert.notEqual(keyOf(resolve('Dunkles').candidates[0]!.entity), 'beer/6c-dunkles-bock');
    assert.notEqual(keyOf(resolve('Export').candidates[0]!.entity), 'beer/14c-scottish-export');
  });
  test('"Hell" carries the beer meaning: the pale lagers are among its candidates', () => {
    const keys = resolve('Hell').candidates.map((c) => keyOf(c.entity));
    assert.ok(keys.includes('beer/4a-munich-helles'), keys.join(', '));
    assert.ok(keys.includes('beer/5c-german-helles-exportbier'), keys.join(', '));
  });
  test('the longer names stay resolved: "Export Stout", "Scottish Export", "Dunkles Bock", "Helles Bock"', () => {
    for (const [q, key] of [
      ['Export Stout', 'beer/16d-foreign-extra-stout'],
      ['Scottish Export', 'beer/14c-scottish-export'],
      ['Dunkles Bock', 'beer/6c-dunkles-bock'],
      ['Helles Bock', 'beer/4c-helles-bock'],
    ] as const) {
      const r = resolve(q);
      assert.equal(r.state, 'resolved', q);
      assert.equal(keyOf(r.candidates[0]!.entity), key, q);
    }
  });
});

describe('every added name carries its language, kind, source and locator', () => {
  test('aliases name a served beer style, a registered source, a BCP-47 language and a locator', () => {
    const kb = e().kb;
    let n = 0;
    for (const rec of aliasFile()) {
      assert.equal(kb.byKey.get(rec.entity)?.type, 'beer_style', rec.entity);
      for (const a of rec.aliases) {
        n++;
        assert.ok(kb.sources.has(a.source), `${a.name}: source ${a.source} is registered`);
        assert.match(a.lang, /^(de|nl|cs|ja|fr|en)$/, a.name);
        assert.ok(a.locator.length > 10, `${a.name}: locator`);
        const served = kbAlias(rec.entity, a.name);
        assert.equal(served.source, a.source, a.name);
      }
    }
    assert.ok(n >= 70, `${n} names`);
  });
  test('the languages: German, Dutch, Czech and Japanese names are all present', () => {
    const langs = new Set(aliasFile().flatMap((r) => r.aliases.map((a) => a.lang)));
    for (const l of ['de', 'nl', 'cs', 'ja']) assert.ok(langs.has(l), l);
  });
  test('sources read in a copy say so (retrieved_via), and the Czech names cite the BJCP text', () => {
    const kb = e().kb;
    assert.ok(kb.sources.get('gfoe-deutsche-biere-sortenvielfalt')?.retrieved_via, 'GfÖ brochure read on a document-sharing site');
    assert.ok(kb.sources.get('wikipedia-de-zwickelbier')?.retrieved_via, 'Wikipedia read through a proxy');
    assert.equal(kb.sources.get('horal-traditional-lambic-beers')?.authority, 'trade_body');
    const cz = kbAlias('beer/3c-czech-amber-lager', 'polotmavý ležák');
    assert.equal(cz.source, 'bjcp-2021-styleview');
    assert.equal(cz.lang, 'cs');
    assert.equal(kbAlias('beer/10a-weissbier', 'ヘーフェヴァイツェン').lang, 'ja');
  });
  test('each declared family lists served entities and says why', () => {
    const kb = e().kb;
    for (const a of ambiguityFile()) {
      assert.ok(a.entities.length >= 2, a.term);
      for (const k of a.entities) assert.ok(kb.byKey.has(k), `${a.term}: ${k}`);
      assert.ok(a.note.length > 40, a.term);
    }
  });
});
