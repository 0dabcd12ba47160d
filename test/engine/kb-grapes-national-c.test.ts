// Grape varieties from national and regional variety lists, batch C (issue 8): Argentina (INV), Japan,
// Lebanon, Valle d'Aosta. Loaded from the real knowledge base; VIVC numbers are checked against the
// shared prime-name table.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { kbEntity, sharedEngine } from '../helper.ts';
import { pinnedGrapeTests, type GrapePin } from './grape-pins.ts';

const kb = () => sharedEngine().kb;
const e = kbEntity;

const INV30 = 'ar-inv-res-30-2024-variedades-calidad';
const INVT = 'ar-inv-informe-torrontes';
const JT = 'jp-japantimes-2016-japanese-wine-survey';
const JR = 'lb-jancisrobinson-wwc21-sept-merwah';
const QC = 'it-quattrocalici-vitigni-valle-aosta';
const INVMR = 'ar-inv-moscatel-rosado-2019';
const TDB = 'za-drinksbusiness-2016-fastest-growing-grapes';
const JP = 'il-jpost-wine-talk-keeping-it-local';
const OCC = 'oxford-companion-china-grape-varieties';
const WPL = 'weinplus-glossary-longyan';
const TXMG = 'us-tx-agrilife-hcmga-champanel';
const JKI = 'de-jki-eurovino-2025-piwi';
const LEBIO = 'at-lebio-felicia-zulassung';
const BMELV = 'de-bmelv-forschungsreport-reberger-calandro';
const LWGD = 'de-lwg-bayern-cabernet-dorio';
const LWGR = 'de-lwg-bayern-rondo';
// [key, canonical name, VIVC number, VIVC prime name, source of the name, berry colour the source states or '']
const PINS: GrapePin[] = [
  ['grape/torrontes-sanjuanino', 'Torrontés Sanjuanino', '17350', 'TORRONTES SANJUANINO', INV30, 'blanc'],
  ['grape/torrontes-mendocino', 'Torrontés Mendocino', '15161', 'TORRONTES MENDOCINO', INVT, ''],
  ['grape/muscat-bailey-a', 'Muscat Bailey A', '8189', 'MUSCAT BAILEY A', JT, ''],
  ['grape/merwah', 'Merwah', '5201', 'MERWAH', JR, ''],
  ['grape/premetta', 'Prëmetta', '9693', 'PREMETTA', QC, 'rouge', 'vivc-full-scrape'] /* the press page's 'noir' gave way to VIVC's ROUGE (issue 24 audit) */,
  ['grape/moscatel-rosado', 'Moscatel Rosado', '8040', 'MOSCATEL ROSADO', INVMR, 'rose'],
  ['grape/roobernet', 'Roobernet', '15831', 'ROOBERNET', TDB, ''],
  ['grape/dabouki', 'Dabouki', '3309', 'DABOUKI', JP, ''],
  ['grape/beichun', 'Beichun', '1086', 'BEICHUN', OCC, ''],
  ['grape/beihong', 'Beihong', '1089', 'BEIHONG', OCC, ''],
  ['grape/beimei', 'Beimei', '1087', 'BEIMEI', OCC, ''],
  ['grape/longyan', 'Longyan', '6896', 'LONGYAN', WPL, 'rouge', 'vivc-full-scrape'] /* the glossary's 'blanc' gave way to VIVC's ROUGE (issue 24 audit) */,
  ['grape/champanel', 'Champanel', '2440', 'CHAMPANEL', TXMG, ''],
  ['grape/calardis-musque', 'Calardis Musqué', '4549', 'CALARDIS MUSQUE', JKI, ''],
  ['grape/felicia', 'Felicia', '20348', 'FELICIA', LEBIO, 'blanc'],
  ['grape/reberger', 'Reberger', '19999', 'REBERGER', BMELV, 'noir'],
  ['grape/calandro', 'Calandro', '21797', 'CALANDRO', BMELV, 'noir'],
  ['grape/cabernet-dorio', 'Cabernet Dorio', '20003', 'CABERNET DORIO', LWGD, 'noir'],
  ['grape/rondo', 'Rondo', '14308', 'RONDO', LWGR, 'noir'],
];

describe('grape varieties from national and regional lists (batch C)', () => {
  pinnedGrapeTests(PINS);

  test('the INV texts were read in press reprints: the INV is cited, the copy named in retrieved_via', () => {
    for (const key of [INV30, INVT]) {
      const s = kb().sources.get(key);
      assert.equal(s?.authority, 'regulator', key);
      assert.equal(s?.retrieved_via?.kind, 'reprint', key);
      assert.notEqual(s?.url, s?.retrieved_via?.url, `${key}: the original publisher is cited, not the copy`);
    }
    for (const key of [JT, JR, QC, TDB, JP, OCC, WPL]) assert.equal(kb().sources.get(key)?.authority, 'wine_press', key);
    const inv = kb().sources.get(INVMR);
    assert.equal(inv?.authority, 'regulator');
    assert.equal(inv?.retrieved_via, undefined, 'the INV Moscatel Rosado page was read at argentina.gob.ar');
    assert.equal(kb().sources.get(OCC)?.retrieved_via?.kind, 'reprint', 'the Oxford Companion was read in the ckbk copy');
    assert.equal(kb().sources.get(TXMG)?.authority, 'educational_body');
    const bm = kb().sources.get(BMELV);
    assert.equal(bm?.retrieved_via?.kind, 'mirror', 'the BMELV report was read only in a yumpu copy');
    assert.equal(bm?.url, bm?.retrieved_via?.url, 'original address unknown: url stays the copy, named in retrieved_via');
  });

  test('the VIVC prime name is an und synonym alias cited to VIVC only where it differs (accents)', () => {
    for (const [key, alias] of [['grape/torrontes-sanjuanino', 'Torrontes Sanjuanino'], ['grape/torrontes-mendocino', 'Torrontes Mendocino'], ['grape/premetta', 'Premetta'], ['grape/calardis-musque', 'Calardis Musque']]) {
      const a = e(key!).aliases.find((x) => x.name === alias);
      assert.ok(a, `${key}: prime name ${alias} kept as an alias`);
      assert.equal(a!.lang, 'und');
      assert.equal(a!.kind, 'synonym');
      assert.equal(a!.source, 'vivc');
    }
    assert.deepEqual(e('grape/merwah').aliases, [], 'no alias where the name equals the prime name');
    assert.ok(!e('grape/longyan').aliases.some((a) => a.name === 'Ryugan'), 'Ryugan is not taken as a synonym (the glossary says they differ)');
  });

  test('the new names resolve to their record', () => {
    const eng = sharedEngine();
    for (const [key, name] of PINS) {
      const r = eng.resolver.resolve(name, 3);
      assert.equal(eng.kb.entities[r.candidates[0]!.entity]!.key, key, name);
    }
    for (const q of ['Torrontes Sanjuanino', 'Premetta']) {
      const r = eng.resolver.resolve(q, 3);
      assert.ok(r.candidates.length > 0, q);
    }
  });
});
