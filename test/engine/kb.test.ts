import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';
import { entityIdOf } from '../../src/engine/kb/load.ts';

const kb = () => sharedEngine().kb;
const e = (key: string) => {
  const x = kb().byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
};

describe('knowledge base: facts pinned to their sources', () => {
  test('VIVC passport ids agree with the reference cross-checks, cited to VIVC', () => {
    const pins: [string, string][] = [
      ['grape/cabernet-sauvignon', '1929'], ['grape/chardonnay', '2455'], ['grape/pinot-noir', '9279'],
      ['grape/syrah', '11748'], ['grape/riesling', '10077'], ['grape/sauvignon-blanc', '10790'],
      ['grape/merlot', '7657'], ['grape/nebbiolo', '8417'], ['grape/tempranillo', '12350'], ['grape/grenache', '4461'],
    ];
    for (const [key, id] of pins) {
      const f = e(key).facts.vivc_id!;
      assert.equal(f.value, id, key);
      assert.equal(f.source, 'vivc');
      assert.match(f.locator, new RegExp(`id=${id}$`));
    }
    assert.equal(e('grape/chardonnay').facts.vivc_prime_name?.value, 'CHARDONNAY BLANC');
  });

  test('BJCP 2021 ranges are the guideline figures, cited by style id', () => {
    const w = e('beer/10a-weissbier');
    assert.equal(w.facts.style_id?.value, '10A');
    assert.deepEqual(w.facts.og?.value, { min: 1.044, max: 1.053 });
    assert.deepEqual(w.facts.ibu?.value, { min: 8, max: 15 });
    assert.deepEqual(w.facts.abv?.value, { min: 4.3, max: 5.6 });
    assert.equal(w.facts.abv?.source, 'bjcp-2021');
    assert.equal(w.facts.abv?.locator, 'style 10A');
    assert.deepEqual(e('beer/21c-hazy-ipa').facts.ibu?.value, { min: 25, max: 60 });
    // the 110 BJCP 2021 styles carry a style_id; named types (21B's Black IPA…) and category 27 entries do not
    assert.equal(kb().entities.filter((x) => x.type === 'beer_style' && x.facts.style_id).length, 110);
  });

  test('AVA parent links follow 27 CFR Part 9', () => {
    for (const [child, parent, section] of [['geo/oakville', 'geo/napa-valley', '27 CFR 9.134'], ['geo/rutherford', 'geo/napa-valley', '27 CFR 9.133'], ['geo/napa-valley', 'geo/north-coast', '27 CFR 9.23']]) {
      const f = e(child!).facts.parent!;
      assert.equal(f.value, parent);
      assert.equal(f.source, 'ttb-27cfr9');
      assert.equal(f.locator, section);
      assert.ok(e(parent!).children.includes(e(child!).idx), `${parent} lists ${child} as a child`);
    }
  });

  test('a pairing item keeps its scope and its source', () => {
    const set = e('geo/vinho-verde').pairing!;
    const sardines = set.items.find((i) => i.pairing_key === 'grilled_sardines')!;
    assert.equal(sardines.style_scope, 'red');
    assert.equal(sardines.geography_scope, 'Vinho Verde');
    assert.equal(sardines.source_url, 'https://www.winesofportugal.com/en/discover/gastronomy/');
    assert.equal(kb().sources.get(sardines.source_key)?.authority, 'official_regional_wine_body');
    assert.ok(sardines.source_excerpt.length <= 300);
  });

  test('every served fact, alias, pairing item and sensory field has a registered source', () => {
    for (const x of kb().entities) {
      for (const f of Object.values(x.facts)) assert.ok(kb().sources.has(f.source) && f.locator, x.key);
      for (const a of x.aliases) assert.ok(kb().sources.has(a.source), `${x.key} alias ${a.name}`);
      for (const it of x.pairing?.items ?? []) assert.ok(kb().sources.has(it.source_key));
      for (const s of x.sensory) for (const p of s.provenance) assert.ok(kb().sources.has(p.source));
    }
  });

  test('entity ids are UUIDv5 of the permanent key, stable across loads', () => {
    assert.equal(e('grape/syrah').id, entityIdOf('grape/syrah'));
    assert.match(e('grape/syrah').id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // pinned: a change here breaks every client that stored the id
    assert.equal(entityIdOf('grape/syrah'), '31776627-0c7f-5316-9853-9850b8f434da');
  });
});
