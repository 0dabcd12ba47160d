// Wine-geography and grape names of the demand set that the knowledge base lacked (issue 8): the
// records of data/geographies/demand-gaps.json, the aliases of data/aliases/geo-demand.json and
// grapes-demand.json, and the 'Macedonia' ambiguity, each pinned to its parent, file number and source.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { kbAlias, kbEntity, sharedEngine } from '../helper.ts';

const kb = () => sharedEngine().kb;
const e = kbEntity;
const alias = kbAlias;
const answer = (q: string) => {
  const r = sharedEngine().resolver.resolve(q, 5);
  return { state: r.state, keys: r.candidates.map((c) => kb().entities[c.entity]!.key) };
};

describe('demand geographies: new records with their parents and sources', () => {
  test('England is a region of the United Kingdom, cited to the DEFRA English PDO specification read in a copy', () => {
    const en = e('geo/england');
    assert.equal(en.facts.level?.value, 'region');
    assert.equal(en.facts.parent?.value, 'geo/united-kingdom');
    assert.equal(en.facts.country?.value, 'GB');
    assert.equal(en.facts.parent?.source, 'wd-defra-english-pdo');
    const s = kb().sources.get('wd-defra-english-pdo')!;
    assert.equal(s.authority, 'regulator');
    assert.equal(s.retrieved_via?.kind, 'mirror');
    assert.match(s.retrieved_via!.url, /docslib\.org/);
    // the UK's English PDO keeps its eAmbrosia file number
    assert.equal(e('geo/english').facts.file_number?.value, 'PDO-GB-A1585');
  });

  test('Valais, Elim, Tasmania and Santa Barbara County sit under their official parents', () => {
    assert.equal(e('geo/valais').facts.parent?.value, 'geo/switzerland');
    assert.equal(kb().sources.get('wd-valais-ordonnance-vigne-vin')!.retrieved_via?.kind, 'dataset');
    const elim = e('geo/elim');
    assert.equal(elim.facts.parent?.value, 'geo/cape-south-coast');
    assert.equal(elim.facts.level?.value, 'appellation');
    assert.equal(elim.facts.parent?.source, 'wd-wosa-terroir-talk-agulhas');
    const tas = e('geo/tasmania');
    assert.equal(tas.facts.parent?.value, 'geo/australia');
    assert.equal(tas.facts.classification?.value, 'GI');
    assert.equal(tas.facts.classification?.source, 'nw-wineaustralia-gis');
    const sb = e('geo/santa-barbara-county');
    assert.equal(sb.facts.parent?.value, 'geo/california');
    assert.equal(sb.facts.classification, undefined, 'a county is not an AVA');
    assert.deepEqual(sb.facts.counties?.value, ['Santa Barbara']);
  });

  test('Douro Superior, Bourgogne Côte Chalonnaise and San Clemente under their official parents', () => {
    assert.deepEqual(
      [e('geo/douro-superior').facts.parent?.value, e('geo/regiao-demarcada-do-douro').facts.parent?.value],
      ['geo/regiao-demarcada-do-douro', 'geo/portugal'],
    );
    assert.equal(e('geo/douro-superior').facts.level?.source, 'wd-aevp-regiao-douro');
    const cc = e('geo/bourgogne-cote-chalonnaise');
    assert.equal(cc.facts.parent?.value, 'geo/bourgogne');
    assert.equal(e('geo/bourgogne').facts.file_number?.value, 'PDO-FR-A0650');
    assert.equal(alias('geo/bourgogne-cote-chalonnaise', 'Côte Chalonnaise').kind, 'protected_name');
    assert.equal(kb().sources.get('wd-inao-cdc-bourgogne-2017')!.retrieved_via?.kind, 'mirror');
    assert.equal(e('geo/san-clemente').facts.parent?.value, 'geo/chile');
    assert.equal(e('geo/malgas').facts.parent?.value, 'geo/south-africa');
    assert.equal(e('geo/malgas').facts.level?.source, 'wd-winecoza-sijnn-malgas');
    assert.equal(e('geo/san-clemente').facts.level?.source, 'wd-bcn-decreto-7-2015-chile');
    for (const [q, key] of [['Douro Superior', 'geo/douro-superior'], ['Côte Chalonnaise', 'geo/bourgogne-cote-chalonnaise'], ['San Clemente', 'geo/san-clemente'], ['Malgas', 'geo/malgas']]) {
      const a = answer(q);
      assert.equal(a.state, 'resolved', q);
      assert.equal(a.keys[0], key, q);
    }
  });

  test('Lithuania, Egypt and South Korea are wine countries with their ISO codes', () => {
    for (const [key, cc, src] of [
      ['geo/lithuania', 'LT', 'wd-vynozurnalas-lt-zone-a'],
      ['geo/egypt', 'EG', 'wd-egyptindependent-gianaclis'],
      ['geo/south-korea', 'KR', 'wd-mypaper-korean-wines-2016'],
    ]) {
      assert.equal(e(key).facts.level?.value, 'country', key);
      assert.equal(e(key).facts.country?.value, cc, key);
      assert.equal(e(key).facts.parent, undefined, key);
      assert.equal(e(key).facts.level?.source, src, key);
    }
  });

  test('the demand names resolve to these records', () => {
    for (const [q, key] of [
      ['England', 'geo/england'],
      ['Valais', 'geo/valais'],
      ['Elim', 'geo/elim'],
      ['Tasmania', 'geo/tasmania'],
      ['Lithuania', 'geo/lithuania'],
      ['Egypt', 'geo/egypt'],
      ['South Korea', 'geo/south-korea'],
    ]) {
      const a = answer(q);
      assert.equal(a.state, 'resolved', q);
      assert.equal(a.keys[0], key, q);
    }
  });
});

describe('demand names as aliases of existing records', () => {
  test('Greek PGIs answer the English names Wines of Greece gives them; file numbers unchanged', () => {
    const cg = alias('geo/sterea-ellada', 'Central Greece');
    assert.equal(cg.source, 'wd-winesofgreece-pgi');
    assert.equal(e('geo/sterea-ellada').facts.file_number?.value, 'PGI-GR-A1609');
    assert.equal(alias('geo/ileia', 'Ilia').source, 'wd-newwinesofgreece-pgi-district');
    assert.equal(e('geo/ileia').facts.file_number?.value, 'PGI-GR-A0140');
    assert.equal(alias('geo/ioannina', 'Ioannina').source, 'wd-newwinesofgreece-pgi-district');
    assert.equal(alias('geo/zitsa', 'Zitsa').source, 'wd-winemakers-north-greece-read-the-wine');
    assert.equal(alias('geo/sterea-ellada', 'Sterea Ellada').source, 'wd-winesofgreece-pgi-sterea-ellada');
    assert.equal(e('geo/zitsa').facts.file_number?.value, 'PDO-GR-A1532');
    for (const [q, key] of [['Central Greece', 'geo/sterea-ellada'], ['Ilia', 'geo/ileia'], ['Ioannina', 'geo/ioannina'], ['Zitsa', 'geo/zitsa'], ['Sterea Ellada', 'geo/sterea-ellada'], ['Crete', 'geo/kriti']]) {
      const a = answer(q);
      assert.equal(a.state, 'resolved', q);
      assert.equal(a.keys[0], key, q);
    }
  });

  test("'Macedonia' names the country and the Greek PGI, so it is answered ambiguous, never resolved", () => {
    assert.equal(alias('geo/north-macedonia', 'Macedonia').kind, 'former_name');
    assert.equal(alias('geo/makedonia', 'Macedonia').source, 'wd-winesofgreece-pgi');
    assert.equal(e('geo/makedonia').facts.file_number?.value, 'PGI-GR-A1616');
    const a = answer('Macedonia');
    assert.equal(a.state, 'ambiguous');
    assert.ok(a.keys.includes('geo/north-macedonia'));
    assert.ok(a.keys.includes('geo/makedonia'));
  });

  test("'Sauvignon' is Sauvignon Blanc (Italian register no. 221); 'Moscato' is declared ambiguous between the three varieties the register gives it to", () => {
    const s = alias('grape/sauvignon-blanc', 'Sauvignon');
    assert.equal(s.source, 'it-registro-nazionale-varieta-vite');
    assert.match(s.locator, /221/);
    assert.equal(e('grape/sauvignon-blanc').facts.vivc_id?.value, '10790');
    const a = answer('Sauvignon');
    assert.equal(a.state, 'resolved');
    assert.equal(a.keys[0], 'grape/sauvignon-blanc');
    const m = answer('Moscato');
    assert.equal(m.state, 'ambiguous');
    assert.deepEqual([...m.keys].sort(), ['grape/moscato-giallo', 'grape/muscat', 'grape/muscat-of-alexandria']);
    assert.ok(alias('grape/muscat-of-alexandria', 'Zibibbo'));
  });
});
