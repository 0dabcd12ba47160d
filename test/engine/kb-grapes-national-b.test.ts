// Grape varieties from national wine bodies' variety lists, batch B (issue 8): the National Wine Agency
// of Georgia (wine.gov.ge), the Georgian Wine Association, the Consejo Regulador of the DOCa Rioja and of the DOP Cangas,
// the Slovak register of grapevine varieties (ÚKSÚP) and the Portuguese IVV notice amending the national list.
// Loaded from the real knowledge base; VIVC numbers are checked against the shared prime-name table.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { kbEntity, sharedEngine } from '../helper.ts';
import { pinnedGrapeTests, type GrapePin } from './grape-pins.ts';

const kb = () => sharedEngine().kb;
const e = kbEntity;

const IM = 'ge-nwa-imereti-region';
const GM = 'ge-nwa-variety-goruli-mtsvane';
const GWA = 'ge-gwa-grapevine-regions';
const RIOJA = 'es-rioja-consejo-new-varieties-2007';
const CANGAS = 'es-do-cangas-varieties';
const UKSUP = 'sk-uksup-registered-grape-varieties';
const IVV = 'pt-ivv-aviso-3999-2020-castas';
const DR = 'pt-dr-2005-i-b-p955-castas-annex';
const CVRVV = 'pt-cvrvv-regulamento-vinho-verde';
// [key, canonical name, VIVC number, VIVC prime name, source of the name, berry colour the source states or '']
const PINS: GrapePin[] = [
  ['grape/tsitska', 'Tsitska', '12693', 'TSITSKA', IM, ''],
  ['grape/krakhuna', 'Krakhuna', '6477', 'KRAKHUNA', IM, ''],
  ['grape/dondghlabi', 'Dondghlabi', '3643', 'DONDGHLABI', IM, ''],
  ['grape/bazaleturi', 'Bazaleturi', '1053', 'BAZALETURI', IM, ''],
  ['grape/kundza', 'Kundza', '6559', 'KUNDZA', IM, ''],
  ['grape/adanasuri', 'Adanasuri', '58', 'ADANASURI', IM, ''],
  ['grape/bzvanura', 'Bzvanura', '1920', 'BZVANURA', IM, ''],
  ['grape/aladasturi', 'Aladasturi', '211', 'ALADASTURI', IM, ''],
  ['grape/goruli-mtsvane', 'Goruli Mtsvane', '4911', 'GORULI MTSVANE', GM, 'blanc'],
  ['grape/budeshuri-tetri', 'Budeshuri Tetri', '1791', 'BUDESHURI TETRI', GM, ''],
  ['grape/mtsvane-kakhuri', 'Mtsvane Kakhuri', '8121', 'MTSVANE KAKHURI', GWA, 'blanc'],
  ['grape/khikhvi', 'Khikhvi', '6178', 'KHIKHVI', GWA, 'blanc'],
  ['grape/grdzelmtevana', 'Grdzelmtevana', '4958', 'GRDZELMTEVANA', GWA, 'blanc'],
  ['grape/ikaltos-tsiteli', 'Ikaltos Tsiteli', '5491', 'IKALTOS TSITELI', GWA, 'noir'],
  ['grape/albarin-blanco', 'Albarín Blanco', '22838', 'ALBARIN BLANCO', CANGAS, ''],
  ['grape/carrasquin', 'Carrasquín', '2123', 'CARRASQUIN', CANGAS, ''],
  ['grape/breslava', 'Breslava', '1671', 'BRESLAVA', UKSUP, ''],
  ['grape/noria', 'Noria', '22819', 'NORIA', UKSUP, ''],
  ['grape/trincadeira-das-pratas', 'Trincadeira das Pratas', '15688', 'TRINCADEIRA DAS PRATAS', IVV, ''],
  ['grape/batoca', 'Batoca', '1037', 'BATOCA', IVV, ''],
  ['grape/arinto-do-interior', 'Arinto do Interior', '17362', 'ARINTO DO INTERIOR', DR, 'blanc'],
  ['grape/folgasao', 'Folgasão', '4178', 'FOLGASAO', DR, 'blanc'],
  ['grape/marufo', 'Marufo', '8086', 'MARUFO', DR, 'noir'],
  ['grape/padeiro', 'Padeiro', '17360', 'PADEIRO', CVRVV, ''],
  ['grape/maturana-blanca', 'Maturana Blanca', '7518', 'MATURANA BLANCA', RIOJA, 'blanc'],
];

describe('grape varieties from national wine bodies (batch B)', () => {
  pinnedGrapeTests(PINS);

  test('the sources are registered with their authority; the Rioja release was read in a reprint', () => {
    for (const key of [IM, GM, 'ge-nwa-pdo-tibaani']) {
      const s = kb().sources.get(key);
      assert.ok(s, key);
      assert.equal(s!.authority, 'regulator', key);
      assert.match(s!.url, /^https:\/\/wine\.gov\.ge\//, key);
      assert.equal(s!.retrieved_via, undefined, `${key} was read at the agency's own site`);
    }
    assert.equal(kb().sources.get(GWA)?.authority, 'trade_body');
    assert.equal(kb().sources.get(CANGAS)?.authority, 'official_regional_wine_body');
    assert.equal(kb().sources.get(CVRVV)?.authority, 'official_regional_wine_body');
    const sk = kb().sources.get(UKSUP);
    assert.equal(sk?.authority, 'official_register');
    assert.equal(sk?.retrieved_via?.kind, 'mirror');
    assert.equal(kb().sources.get(IVV)?.retrieved_via?.kind, 'mirror');
    assert.equal(kb().sources.get(DR)?.retrieved_via?.kind, 'mirror');
    const r = kb().sources.get(RIOJA);
    assert.equal(r?.authority, 'official_regional_wine_body');
    assert.equal(r?.retrieved_via?.kind, 'reprint');
    assert.notEqual(r?.url, r?.retrieved_via?.url, 'the original publisher is cited, not the copy');
  });

  test('the VIVC prime name is an und synonym alias cited to VIVC only where it differs (accents)', () => {
    for (const [key, alias] of [['grape/albarin-blanco', 'Albarin Blanco'], ['grape/carrasquin', 'Carrasquin'], ['grape/folgasao', 'Folgasao']]) {
      const a = e(key!).aliases.find((x) => x.name === alias);
      assert.ok(a, `${key}: prime name ${alias} kept as an alias`);
      assert.equal(a!.lang, 'und');
      assert.equal(a!.kind, 'synonym');
      assert.equal(a!.source, 'vivc');
    }
    assert.deepEqual(e('grape/tsitska').aliases, [], 'no alias where the name equals the prime name');
  });

  test('the new names resolve to their record', () => {
    const eng = sharedEngine();
    for (const [key, name] of PINS) {
      const r = eng.resolver.resolve(name, 3);
      assert.equal(eng.kb.entities[r.candidates[0]!.entity]!.key, key, name);
    }
  });
});
