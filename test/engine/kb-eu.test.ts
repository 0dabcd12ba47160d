// Pins a sample of the records derived from the eAmbrosia exports (EU wine GIs, spirit GIs and the
// register's spirit-drink categories) by tools/derive/geographies.mjs and tools/derive/spirits.mjs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKnowledgeBaseOrThrow } from '../../src/engine/kb/load.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const kb = loadKnowledgeBaseOrThrow(path.join(ROOT, 'data'));
const e = (key: string) => {
  const x = kb.byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
};
const byFile = (fileNumber: string) => kb.entities.filter((x) => x.facts.file_number?.value === fileNumber);

describe('EU wine GIs from eAmbrosia', () => {
  test('PDOs and PGIs in several countries keep file number, classification, date and country parent', () => {
    const pins: [string, string, string, string, string, string][] = [
      // key, file number, classification, country, parent, established
      ['geo/sancerre', 'PDO-FR-A0194', 'PDO', 'FR', 'geo/france', '1973-09-18'],
      ['geo/toro', 'PDO-ES-A0886', 'PDO', 'ES', 'geo/spain', '1989-10-07'],
      ['geo/toscano', 'PGI-IT-A1517', 'PGI', 'IT', 'geo/italy', '1999-02-19'],
      ['geo/santorini', 'PDO-GR-A1065', 'PDO', 'GR', 'geo/greece', '1981-06-11'],
      ['geo/melnik', 'PDO-BG-A1472', 'PDO', 'BG', 'geo/bulgaria', '2007-05-10'],
      ['geo/fyn', 'PGI-DK-A1248', 'PGI', 'DK', 'geo/denmark', '2011-12-21'],
      ['geo/english', 'PDO-GB-A1585', 'PDO', 'GB', 'geo/united-kingdom', '2011-12-29'],
      ['geo/vale-dos-vinhedos', 'PDO-BR-18033', 'PDO', 'BR', 'geo/brazil', '2007-05-10'],
    ];
    for (const [key, file, cls, cc, parent, date] of pins) {
      const x = e(key);
      assert.equal(x.type, 'wine_geography');
      assert.equal(x.facts.level?.value, 'appellation', key);
      assert.equal(x.facts.file_number?.value, file, key);
      assert.equal(x.facts.file_number?.source, 'eu-eambrosia');
      assert.equal(x.facts.file_number?.locator, `file ${file}`);
      assert.equal(x.facts.classification?.value, cls, key);
      assert.equal(x.facts.country?.value, cc, key);
      assert.equal(x.facts.parent?.value, parent, key);
      assert.equal(x.facts.established?.value, date, key);
      assert.ok(e(parent).children.includes(x.idx), `${parent} lists ${key} as a child`);
      assert.equal(e(parent).facts.level?.value, 'country');
      assert.equal(byFile(file).length, 1, `${file} is one entity`);
    }
  });

  test('every language form the register gives is a protected_name alias with its language', () => {
    const aa = e('geo/alto-adige');
    assert.equal(aa.name, 'Alto Adige');
    // the register's own names (other aliases, e.g. Japanese or Chinese names from other sources, may follow)
    const registered = aa.aliases.filter((a) => a.source === 'eu-eambrosia');
    assert.deepEqual(registered.map((a) => [a.name, a.lang, a.kind]), [
      ["dell'Alto Adige", 'it', 'protected_name'], ['Südtirol', 'de', 'protected_name'], ['Südtiroler', 'de', 'protected_name'],
    ]);
    assert.ok(registered.every((a) => a.locator === 'file PDO-IT-A0293 (protected names)'));
    assert.ok(aa.aliases.filter((a) => a.kind === 'protected_name').every((a) => a.source === 'eu-eambrosia'));
    // Greek and Cyrillic names are kept as registered; only the key is transliterated.
    assert.equal(e('geo/santorini').name, 'Σαντορίνη');
    assert.equal(e('geo/melnik').name, 'Мелник');
    assert.deepEqual(e('geo/toscano').aliases.filter((a) => a.kind === 'protected_name').map((a) => [a.name, a.lang]), [['Toscana', 'it']]);
  });

  test('hand-curated GIs are not derived twice; keys released from the sample are kept', () => {
    for (const file of ['PDO-FR-A1359', 'PDO-ES-A0117', 'PDO-IT-A1228', 'PDO-PT-A1545']) assert.equal(byFile(file).length, 1, file);
    assert.equal(byFile('PDO-FR-A1359')[0]!.key, 'geo/champagne');
    // Porto (PDO-PT-A1540) lives in famous.json without a file number: no second "Porto".
    assert.equal(kb.entities.filter((x) => x.name === 'Porto').length, 1);
    assert.equal(e('geo/gavi').facts.file_number?.value, 'PDO-IT-A1310');
    assert.equal(e('geo/portugal').facts.level?.value, 'country');
    assert.equal(e('geo/douro').facts.parent?.value, 'geo/regiao-demarcada-do-douro');
  });

  test('a name the register repeats under several files is one entity; a cross-border GI has no single country', () => {
    const dm = e('geo/dealu-mare');
    assert.equal(dm.facts.file_number?.value, 'PDO-RO-A1062');
    assert.match(dm.facts.file_number!.locator, /PDO-RO-A1067, PDO-RO-A1079, PDO-RO-A1336/);
    assert.equal(kb.entities.filter((x) => x.name === 'Dealu Mare').length, 1);
    const ml = e('geo/maasvallei-limburg');
    assert.equal(ml.facts.file_number?.value, 'PDO-BE+NL-02172');
    assert.equal(ml.facts.country, undefined);
    assert.equal(ml.facts.parent?.value, 'geo/belgium');
  });
});

describe('EU spirit GIs and the register categories', () => {
  test("a GI's parent is its register category, cited to the file", () => {
    const pins: [string, string, string, string][] = [
      ['spirit/ouzo', 'PGI-CY+GR-01828', 'spirit/distilled-anis', 'Distilled anis'],
      ['spirit/genievre', 'PGI-BE+NL+FR+DE-01962', 'spirit/juniper-flavoured-spirit-drinks', 'Juniper-flavoured spirit drinks'],
      ['spirit/marc-de-champagne', 'PGI-FR-02063', 'spirit/pomace-brandy', 'Grape marc spirit or grape marc'],
      ['spirit/korn', 'PGI-DE+AT+BE-01929', 'spirit/grain-spirit', 'Grain spirit'],
      ['spirit/scotch-whisky', 'PGI-GB-01854', 'spirit/whisky', 'whisky'],
    ];
    for (const [key, file, parent, category] of pins) {
      const x = e(key);
      assert.equal(x.facts.file_number?.value, file, key);
      assert.equal(x.facts.gi_type?.value, 'GI');
      assert.equal(x.facts.parent?.value, parent, key);
      assert.equal(x.facts.category?.value, category, key);
      assert.ok(e(parent).children.includes(x.idx), `${parent} lists ${key}`);
    }
    assert.equal(e('spirit/ouzo').facts.regulation?.value, 'Regulation (EU) 2019/787');
    assert.equal(e('spirit/ouzo').facts.established?.value, '2008-02-13');
    assert.deepEqual(e('spirit/genievre').aliases.map((a) => a.name), ['Jenever', 'Genever']);
  });

  test('third-country names: new ones derived, curated ones not duplicated', () => {
    const ron = e('spirit/ron-de-guatemala');
    assert.equal(ron.facts.country?.value, 'GT');
    assert.equal(ron.facts.file_number?.value, 'PGI-GT-01827');
    assert.equal(ron.facts.parent?.value, 'spirit/rum');
    for (const file of ['PGI-MX-01851', 'PGI-PE-01825', 'PGI-IE+GB-01897']) assert.equal(byFile(file).length, 0, `${file} stays with the curated record`);
    assert.equal(kb.entities.filter((x) => x.name === 'Tequila').length, 1);
    assert.equal(byFile('PGI-FR-02043')[0]?.key, 'spirit/cognac');
  });

  test('category entities carry the register label and the regulation', () => {
    const liq = e('spirit/liqueur');
    assert.equal(liq.facts.country?.value, 'EU');
    assert.equal(liq.facts.regulation?.value, 'Regulation (EU) 2019/787');
    assert.match(liq.facts.category!.locator, /^product category "32\. Liqueur", as given for file /);
    assert.deepEqual(e('spirit/akvavit').aliases.map((a) => a.name), ['Aquavit']);
    assert.equal(e('spirit/norsk-akevitt').facts.parent?.value, 'spirit/akvavit');
    const vermut = e('spirit/vermut-di-torino');
    assert.equal(vermut.facts.parent?.value, 'spirit/aromatised-wine');
    assert.equal(vermut.facts.regulation?.value, 'Regulation (EU) No 251/2014');
    assert.deepEqual(vermut.aliases.map((a) => a.name), ['Vermouth di Torino']);
  });
});
