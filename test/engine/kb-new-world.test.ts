// New World official regions, wine countries and English exonyms (issue 8): a pinned sample of
// parents, levels, classifications and sources, loaded from the real knowledge base.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadKnowledgeBaseOrThrow } from '../../src/engine/kb/load.ts';
import { ROOT } from '../helper.ts';

const kb = loadKnowledgeBaseOrThrow(path.join(ROOT, 'data'));
const e = (key: string) => {
  const x = kb.byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
};
const parentOf = (key: string) => e(key).facts.parent?.value;
const chain = (key: string) => {
  const out: string[] = [];
  for (let k: unknown = key; typeof k === 'string'; k = parentOf(k)) out.push(k);
  return out;
};

describe('New World wine geographies', () => {
  test('wine countries are level country with their ISO code', () => {
    for (const [key, cc] of [['geo/australia', 'AU'], ['geo/new-zealand', 'NZ'], ['geo/south-africa', 'ZA'], ['geo/argentina', 'AR'], ['geo/chile', 'CL'], ['geo/canada', 'CA']]) {
      assert.equal(e(key).facts.level?.value, 'country', key);
      assert.equal(e(key).facts.country?.value, cc, key);
      assert.equal(e(key).facts.parent, undefined, key);
    }
  });

  test('Marlborough is a New Zealand GI under New Zealand, cited to IPONZ for the GI', () => {
    const m = e('geo/marlborough');
    assert.equal(m.name, 'Marlborough');
    assert.equal(m.facts.parent?.value, 'geo/new-zealand');
    assert.equal(m.facts.classification?.value, 'GI');
    assert.equal(m.facts.classification?.source, 'nw-iponz-criteria');
    assert.equal(e('geo/bannockburn').facts.parent?.value, 'geo/central-otago');
    assert.equal(e('geo/new-zealand').facts.level?.source, 'nw-iponz-register');
  });

  test('a South African ward sits in its district, region and geographical unit', () => {
    assert.deepEqual(chain('geo/jonkershoek-valley'), ['geo/jonkershoek-valley', 'geo/stellenbosch', 'geo/coastal-region', 'geo/western-cape', 'geo/south-africa']);
    assert.equal(e('geo/jonkershoek-valley').facts.parent?.source, 'nw-winemag-stellenbosch-wards');
    assert.equal(e('geo/stellenbosch').facts.level?.value, 'appellation');
    assert.equal(e('geo/coastal-region').facts.level?.value, 'subregion');
  });

  test('Australian GIs follow the register hierarchy: subregion -> region -> zone -> state -> country', () => {
    assert.deepEqual(chain('geo/high-eden'), ['geo/high-eden', 'geo/eden-valley', 'geo/barossa', 'geo/south-australia', 'geo/australia']);
    assert.deepEqual(chain('geo/barossa-valley').slice(1), ['geo/barossa', 'geo/south-australia', 'geo/australia']);
    const gs = e('geo/great-southern');
    assert.equal(gs.facts.parent?.value, 'geo/south-west-australia');
    assert.equal(gs.facts.established?.value, '1996-10-30');
    assert.equal(gs.facts.established?.source, 'nw-wineaustralia-gi-great-southern');
    assert.equal(e('geo/margaret-river').facts.classification?.source, 'nw-wineaustralia-gis');
  });

  test('Mendoza, Chile and Canada records carry their parents and legal references', () => {
    assert.equal(e('geo/mendoza').facts.parent?.value, 'geo/argentina');
    assert.equal(e('geo/lujan-de-cuyo').facts.parent?.value, 'geo/mendoza');
    assert.equal(e('geo/chile').facts.legal_reference?.source, 'nw-bcn-decreto-464');
    assert.equal(e('geo/niagara-peninsula').facts.parent?.value, 'geo/ontario');
    assert.equal(e('geo/ontario').facts.parent?.value, 'geo/canada');
  });

  test('copies are marked: a third-party list of the Australian register carries retrieved_via and keeps the class of the register (data/README.md: a copy keeps the class of its original)', () => {
    const s = kb.sources.get('nw-winevinewa-wa-gis');
    assert.ok(s);
    assert.equal(s!.retrieved_via?.kind, 'third_party_list');
    assert.equal(s!.authority, 'official_register');
    assert.equal(kb.sources.get('nw-wineaustralia-gis')?.authority, 'official_register');
  });

  test('Japan, Georgia, Moldova and Chile: official GIs under their countries', () => {
    const y = e('geo/yamanashi');
    assert.equal(y.facts.parent?.value, 'geo/japan');
    assert.equal(y.facts.established?.value, '2013-07-16');
    assert.equal(y.facts.established?.source, 'nw-nta-liquor-gis');
    assert.ok(y.aliases.some((a) => a.name === '山梨' && a.lang === 'ja'));
    const t = e('geo/tibaani');
    assert.equal(t.facts.parent?.value, 'geo/georgia-country');
    assert.equal(t.facts.classification?.value, 'PDO');
    assert.equal(t.facts.established?.value, '2007-12-10');
    assert.equal(e('geo/georgia-country').facts.country?.value, 'GE');
    const amb = kb.ambiguities.find((a) => a.term === 'Georgia');
    assert.ok(amb, 'Georgia is declared ambiguous');
    assert.deepEqual([...amb!.entities].sort(), ['geo/georgia', 'geo/georgia-country']);
    assert.equal(e('geo/codru').facts.parent?.value, 'geo/moldova');
    assert.deepEqual(chain('geo/valle-de-colchagua'), ['geo/valle-de-colchagua', 'geo/rapel-valley', 'geo/valle-central', 'geo/chile']);
    assert.equal(e('geo/valle-de-casablanca').facts.parent?.value, 'geo/aconcagua');
    assert.deepEqual(chain('geo/constantia'), ['geo/constantia', 'geo/cape-town', 'geo/coastal-region', 'geo/western-cape', 'geo/south-africa']);
  });

  test('exonym: Piedmont is an English alias of the Piemonte PDO, cited to the official English OJ text', () => {
    const a = e('geo/piemonte').aliases.find((x) => x.name === 'Piedmont');
    assert.ok(a);
    assert.equal(a!.source, 'nw-oj-c-2020-91-07-piemonte');
    assert.equal(kb.sources.get('nw-oj-c-2020-91-07-piemonte')?.authority, 'regulator');
  });

  test('exonym: Burgundy is an English alias of Bourgogne, cited to the BIVB', () => {
    const b = e('geo/bourgogne');
    const a = b.aliases.find((x) => x.name === 'Burgundy');
    assert.ok(a);
    assert.equal(a!.source, 'nw-bivb-press-burgundy');
    assert.equal(a!.lang, 'en');
  });

  test('wine countries from the demand set: OIV member states and national wine texts, level country with ISO code', () => {
    for (const [key, cc] of [['geo/israel', 'IL'], ['geo/lebanon', 'LB'], ['geo/turkey', 'TR'], ['geo/morocco', 'MA'], ['geo/switzerland', 'CH'], ['geo/north-macedonia', 'MK'], ['geo/bosnia-and-herzegovina', 'BA'], ['geo/ukraine', 'UA'], ['geo/tunisia', 'TN'], ['geo/albania', 'AL']]) {
      assert.equal(e(key).facts.level?.value, 'country', key);
      assert.equal(e(key).facts.country?.value, cc, key);
      assert.equal(e(key).facts.parent, undefined, key);
    }
    assert.equal(e('geo/israel').facts.level?.source, 'nw-oiv-member-states-2018');
    assert.ok(e('geo/turkey').aliases.some((a) => a.name === 'Türkiye'));
    // Ukraine rests on a copy of the OIV page: marked, and keeping the original's class
    const copy = kb.sources.get(e('geo/ukraine').facts.level!.source);
    assert.equal(copy?.retrieved_via?.kind, 'mirror');
    assert.equal(copy?.authority, kb.sources.get('nw-oiv-member-states-2018')?.authority);
    assert.equal(e('geo/albania').facts.legal_reference?.source, 'nw-albania-law-8443-copy');
  });

  test('regions by their common name: Vallée du Rhône (Rhône Valley) and Provence under France, from official French texts', () => {
    const r = e('geo/vallee-du-rhone');
    assert.equal(r.facts.level?.value, 'region');
    assert.equal(r.facts.parent?.value, 'geo/france');
    assert.equal(kb.sources.get(r.facts.level!.source)?.authority, 'regulator');
    assert.ok(r.aliases.some((a) => a.name === 'Rhône Valley' && a.lang === 'en'));
    const p = e('geo/provence');
    assert.equal(p.facts.parent?.value, 'geo/france');
    assert.equal(kb.sources.get(p.facts.level!.source)?.retrieved_via?.kind, 'mirror');
  });

  test('English names: Tuscany, Loire Valley, Colchagua Valley and Mendoza Province on the official records', () => {
    for (const [key, name, src] of [['geo/toscano', 'Tuscany', 'nw-qualigeo-toscano-pgi'], ['geo/val-de-loire', 'Loire Valley', 'nw-interloire-en'], ['geo/valle-de-colchagua', 'Colchagua Valley', 'nw-winesofchile-colchagua'], ['geo/mendoza', 'Mendoza Province', 'nw-wikipedia-mendoza-wine']]) {
      const a = e(key).aliases.find((x) => x.name === name);
      assert.ok(a, `${key} has ${name}`);
      assert.equal(a!.source, src);
      assert.equal(a!.lang, 'en');
    }
    assert.equal(kb.sources.get('nw-interloire-en')?.authority, 'official_regional_wine_body');
  });
});
