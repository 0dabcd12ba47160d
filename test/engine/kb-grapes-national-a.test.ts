// Grape varieties from national variety lists and references, batch A (issue 8): Romania, Hungary,
// Slovenia and Serbia. Loaded from the real knowledge base; VIVC numbers are checked against the shared
// prime-name table.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { kbEntity, sharedEngine } from '../helper.ts';
import { passport, pinnedGrapeTests, type GrapePin } from './grape-pins.ts';

const kb = () => sharedEngine().kb;
const e = kbEntity;

const RO = 'premiumwinesofromania-traditional-grapes';
const HU = 'hungarianwines-eu-grape-dictionary';
const OX = 'oxford-companion-hungary-vine-varieties';
const SI = 'upr-culture-of-wine-in-slovenia';
const RS = 'serbianwineguide-wine-grape-varieties';
const SI2 = 'dnevnik-slovenian-autochthonous-varieties';
const GR = 'winesofgreece-xinomavro-naoussa-amynteo';
// [key, canonical name, VIVC number, VIVC prime name, source of the name, berry colour the source states or '']
const PINS: GrapePin[] = [
  ['grape/sarba', 'Şarbă', '10738', 'SARBA', RO, 'blanc'],
  ['grape/plavaie', 'Plăvaie', '9553', 'PLAVAIE', RO, ''],
  ['grape/negru-virtos', 'Negru Vîrtos', '8466', 'NEGRU VIRTOS', RO, ''],
  ['grape/batuta-neagra', 'Bătută Neagră', '1042', 'BATUTA NEAGRA', RO, ''],
  ['grape/budai-zold', 'Budai Zöld', '881', 'BUDAI ZOELD', HU, ''],
  ['grape/cserszegi-fuszeres', 'Cserszegi Fűszeres', '3277', 'CSERSZEGI FUESZERES', HU, ''],
  ['grape/keknyelu', 'Kéknyelű', '16421', 'KEKNYELUE', OX, 'blanc'],
  ['grape/kavka', 'Kavka', '6048', 'KAVKA', SI, ''],
  ['grape/kreaca', 'Kreaca', '6501', 'KREACA', RS, 'blanc'],
  ['grape/neoplanta', 'Neoplanta', '8476', 'NEOPLANTA', RS, 'blanc'],
  ['grape/zupljanka', 'Zupljanka', '13480', 'ZUPLJANKA', RS, 'blanc'],
  ['grape/klarnica', 'Klarnica', '6305', 'KLARNICA', SI2, ''],
  ['grape/zalagyongye', 'Zalagyöngye', '13374', 'ZALA GYOENGYE', 'winesofhungary-zalagyongye', 'blanc'],
  ['grape/csabagyongye', 'Csabagyöngye', '9166', 'CSABA GYOENGYE', 'winesofhungary-turan', ''],
  ['grape/gardonyi-geza', 'Gárdonyi Géza', '4417', 'GARDONYI GEZA', 'winesofhungary-turan', ''],
  ['grape/kunleany', 'Kunleány', '6560', 'KUNLEANY', 'winesofhungary-kunleany', 'blanc'],
  ['grape/afus-ali', 'Afus Ali', '122', 'AFUS ALI', 'winesofhungary-kunleany', ''],
  ['grape/arany-sarfeher', 'Arany Sárfehér', '5600', 'IZSAKI SARFEHER', 'winesofhungary-arany-sarfeher', 'blanc'],
  ['grape/ezerfurtu', 'Ezerfürtű', '4026', 'EZERFUERTUE', 'winesofhungary-ezerfurtu', 'blanc'],
  ['grape/csokaszolo', 'Csókaszőlő', '3279', 'CSOKA SZOELOE', 'jancisrobinson-csokaszolo', 'noir'],
  ['grape/savvatiano', 'Savvatiano', '10798', 'SAVVATIANO', 'winesofgreece-region-attika', ''],
  // the colour comes from the Oxford Companion entry, not from the Wines of Greece article
  ['grape/xinomavro', 'Xinomavro', '13284', 'XYNOMAVRO', GR, 'noir', 'oxford-companion-xinomavro'],
];

describe('grape varieties from national variety lists (batch A)', () => {
  pinnedGrapeTests(PINS);

  test('a prime name spelt differently from the trade name is an und alias cited to the passport', () => {
    const g = e('grape/keknyelu');
    const a = g.aliases.find((x) => x.name === 'Keknyelue');
    assert.ok(a, 'Keknyelue alias');
    assert.equal(a!.lang, 'und');
    assert.equal(a!.source, 'vivc');
    assert.ok(a!.locator.startsWith(passport('16421')));
    assert.equal(e('grape/kreaca').aliases.filter((a) => a.source === 'vivc').length, 0, 'no VIVC alias where the prime name equals the trade name');
    const x = e('grape/xinomavro');
    // the VIVC spelling (names in other scripts from other sources may follow)
    assert.deepEqual(x.aliases.filter((a) => a.lang === 'und').map((a) => [a.name, a.lang, a.source]), [['Xynomavro', 'und', 'vivc']]);
    assert.match(x.notes ?? '', /source tastings-drinkipedia-naoussa /, 'the spelling that links the trade name to VIVC is cited');
  });

  test('the sources are registered; the Oxford Companion entry read in a copy names the original publisher', () => {
    for (const key of [RO, HU, OX, SI, RS, SI2, GR, 'tastings-drinkipedia-naoussa', 'oxford-companion-xinomavro']) assert.ok(kb().sources.get(key), key);
    assert.equal(kb().sources.get(GR)?.authority, 'official_regional_wine_body');
    assert.equal(kb().sources.get('winesofgreece-region-attika')?.authority, 'official_regional_wine_body');
    assert.equal(kb().sources.get('winesofhungary-turan')?.retrieved_via, undefined, 'read at winesofhungary.hu itself');
    for (const key of ['winesofhungary-zalagyongye', 'winesofhungary-kunleany']) {
      const w = kb().sources.get(key);
      assert.equal(w?.retrieved_via?.kind, 'mirror', key);
      assert.match(w!.retrieved_via!.url, /^https:\/\/winawegierskie\.com\//, key);
      assert.equal(w!.url, 'https://winesofhungary.hu/', `${key}: the publisher's site, not the copy`);
    }
    assert.equal(kb().sources.get(SI)?.authority, 'educational_body');
    const o = kb().sources.get(OX);
    assert.equal(o?.retrieved_via?.kind, 'reprint');
    assert.notEqual(o?.url, o?.retrieved_via?.url, 'the original publisher is cited, not the copy');
  });

  test('Arany Sárfehér: VIVC matched through the former name its page states, kept apart from Sárfehér', () => {
    const g = e('grape/arany-sarfeher');
    assert.deepEqual(g.aliases.map((a) => [a.name, a.lang, a.kind, a.source]),
      [['Izsáki Sárfehér', 'hu', 'former_name', 'winesofhungary-arany-sarfeher']]);
    assert.notEqual(e('grape/sarfeher').facts.vivc_id?.value, '5600');
    const eng = sharedEngine();
    assert.equal(eng.kb.entities[eng.resolver.resolve('Sárfehér', 3).candidates[0]!.entity]!.key, 'grape/sarfeher');
    assert.equal(eng.kb.entities[eng.resolver.resolve('Izsáki Arany Sárfehér', 3).candidates[0]!.entity]!.key, 'geo/izsaki-arany-sarfeher');
  });

  test('a place name stays with the place: Zala is the wine district, not Zalagyöngye', () => {
    const eng = sharedEngine();
    const r = eng.resolver.resolve('Zala', 3);
    assert.notEqual(eng.kb.entities[r.candidates[0]!.entity]!.key, 'grape/zalagyongye');
  });

  test('the new names resolve to their record, with and without accents', () => {
    const eng = sharedEngine();
    for (const [key, name] of [...PINS, ['grape/xinomavro', 'Xynomavro']] as [string, string][]) {
      for (const q of [name, name.normalize('NFKD').replace(/\p{M}/gu, '')]) {
        const r = eng.resolver.resolve(q, 3);
        assert.ok(r.candidates[0], q);
        assert.equal(eng.kb.entities[r.candidates[0]!.entity]!.key, key, q);
      }
    }
  });
});
