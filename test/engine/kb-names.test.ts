// Names people type for beer styles and spirits (issue 8, section 2): other taxonomies' and former
// style names as aliases of the BJCP 2021 styles, and the Scotch Whisky / Japanese Whisky records,
// each pinned to the source it was read in.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { kbAlias, kbEntity, sharedEngine } from '../helper.ts';

const kb = () => sharedEngine().kb;
const e = kbEntity;
const alias = kbAlias;

describe('beer style names from other taxonomies', () => {
  test('Brewers Association names are aliases of the BJCP style they clearly name, cited to the BA guidelines read through a copy', () => {
    const pins: [string, string][] = [
      ['beer/18b-american-pale-ale', 'American-Style Pale Ale'],
      ['beer/5d-german-pils', 'German-Style Pilsener'],
      ['beer/15b-irish-stout', 'Classic Irish-Style Dry Stout'],
      ['beer/21c-hazy-ipa', 'Juicy or Hazy India Pale Ale'],
      ['beer/6a-marzen', 'German-Style Maerzen'],
      ['beer/4b-festbier', 'German-Style Oktoberfest/Wiesn'],
      ['beer/5b-kolsch', 'German-Style Koelsch'],
      ['beer/25b-saison', 'Classic French & Belgian-Style Saison'],
      ['beer/26d-belgian-dark-strong-ale', 'Belgian-Style Quadrupel'],
    ];
    for (const [key, name] of pins) {
      const a = alias(key, name);
      assert.equal(a.source, 'ba-beer-style-guidelines-2023', `${key} ${name}`);
      assert.equal(a.kind, 'common_name');
    }
    const src = kb().sources.get('ba-beer-style-guidelines-2023')!;
    assert.equal(src.publisher, 'Brewers Association');
    assert.equal(src.retrieved_via?.kind, 'reprint');
    assert.match(src.retrieved_via!.url, /rwgrier\/beer-styles-site/);
  });

  test('former BJCP names point at the 2021 style the BJCP gives as equivalent', () => {
    const pins: [string, string, string][] = [
      ['beer/15b-irish-stout', 'Dry Stout', 'bjcp-2008-guidelines'],
      ['beer/6a-marzen', 'Oktoberfest/Märzen', 'bjcp-2008-guidelines'],
      ['beer/5d-german-pils', 'German Pilsner (Pils)', 'bjcp-2008-guidelines'],
      ['beer/3b-czech-premium-pale-lager', 'Bohemian Pilsener', 'bjcp-2008-guidelines'],
      ['beer/11c-strong-bitter', 'Extra Special/Strong Bitter (English Pale Ale)', 'bjcp-2008-guidelines'],
      ['beer/13c-english-porter', 'Brown Porter', 'bjcp-2008-guidelines'],
      ['beer/7b-altbier', 'Düsseldorf Altbier', 'bjcp-2008-guidelines'],
      ['beer/26a-belgian-single', 'Trappist Single', 'bjcp-2015-appendix-a'],
    ];
    for (const [key, name, source] of pins) {
      const a = alias(key, name);
      assert.equal(a.source, source, `${key} ${name}`);
      assert.equal(a.kind, 'former_name');
    }
    assert.match(alias('beer/15b-irish-stout', 'Dry Stout').locator, /2008 style 13A/);
    assert.equal(kb().sources.get('bjcp-2008-guidelines')?.retrieved_via?.kind, 'dataset');
  });

  test('no BA or former name lands on a style that is only a relative of it', () => {
    // BA keeps British- and American-style imperial stouts apart and BJCP 20C covers both: neither is an alias.
    const names = e('beer/20c-imperial-stout').aliases.map((a) => a.name);
    assert.ok(!names.includes('British-Style Imperial Stout'));
    assert.ok(!names.includes('American-Style Imperial Stout'));
    // 'Flanders Oud Bruin or Oud Red Ale' straddles 23B and 23C.
    for (const key of ['beer/23b-flanders-red-ale', 'beer/23c-oud-bruin']) {
      assert.ok(!e(key).aliases.some((a) => a.name.startsWith('Belgian-Style Flanders')), key);
    }
  });
});

describe('spirit names people ask for', () => {
  test('Scotch Whisky categories are records under Scotch Whisky, cited to regulation 3(2)', () => {
    for (const key of [
      'spirit/single-malt-scotch-whisky', 'spirit/single-grain-scotch-whisky', 'spirit/blended-malt-scotch-whisky',
      'spirit/blended-grain-scotch-whisky', 'spirit/blended-scotch-whisky',
    ]) {
      const p = e(key).facts.parent!;
      assert.equal(p.value, 'spirit/scotch-whisky', key);
      assert.equal(p.source, 'uk-scotch-whisky-regulations-2009');
      assert.match(p.locator, /^regulation 3\(2\)/);
      assert.ok(e('spirit/scotch-whisky').children.includes(e(key).idx), `Scotch Whisky lists ${key}`);
    }
    assert.equal(e('spirit/single-malt-scotch-whisky').name, 'Single Malt Scotch Whisky');
  });

  test('the protected localities and regions of regulation 10 are records under Scotch Whisky', () => {
    const pins: [string, string, string][] = [
      ['spirit/campbeltown', 'Campbeltown', '10(5)(a)'], ['spirit/islay', 'Islay', '10(5)(b)'],
      ['spirit/highland', 'Highland', '10(6)(a)'], ['spirit/lowland', 'Lowland', '10(6)(b)'], ['spirit/speyside', 'Speyside', '10(6)(c)'],
    ];
    for (const [key, name, para] of pins) {
      const r = e(key);
      assert.equal(r.name, name);
      assert.equal(r.facts.parent?.value, 'spirit/scotch-whisky');
      assert.equal(r.facts.country?.value, 'GB');
      assert.ok(r.facts.regulation!.locator.includes(para), `${key} cites regulation ${para}`);
    }
    const src = kb().sources.get('uk-scotch-whisky-regulations-2009')!;
    assert.equal(src.authority, 'regulator');
    assert.match(src.url, /legislation\.gov\.uk\/uksi\/2009\/2890/);
    assert.equal(src.retrieved_via?.kind, 'reprint');
  });

  test('Japanese Whisky is a whisky record cited to the JSLMA labelling standard', () => {
    const j = e('spirit/japanese-whisky');
    assert.equal(j.facts.parent?.value, 'spirit/whisky');
    assert.equal(j.facts.country?.value, 'JP');
    assert.equal(j.facts.min_abv?.value, 40);
    assert.equal(j.facts.parent?.source, 'jslma-japanese-whisky-standard');
    assert.equal(alias('spirit/japanese-whisky', 'ジャパニーズウイスキー').lang, 'ja');
    assert.equal(kb().sources.get('jslma-japanese-whisky-standard')?.authority, 'trade_body');
  });

  test('Tennessee Whiskey is a straight Bourbon Whiskey of Tennessee, after NAFTA Annex 313', () => {
    const t = e('spirit/tennessee-whiskey');
    assert.equal(t.facts.parent?.value, 'spirit/bourbon');
    assert.equal(t.facts.parent?.source, 'nafta-annex-313');
    assert.equal(t.facts.country?.value, 'US');
    assert.equal(alias('spirit/tennessee-whiskey', 'Tennessee Whisky').source, 'ttb-us-eu-spirits-agreement');
    assert.equal(kb().sources.get('nafta-annex-313')?.retrieved_via?.kind, 'reprint');
  });
});
