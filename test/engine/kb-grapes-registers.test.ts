// Grape varieties from national variety lists added in November 2026 (issue 8): the Italian
// Registro Nazionale delle Varietà di Vite and the US list of approved grape variety names
// (27 CFR 4.91); and the issue 9 audit fixes in the grape files. Loaded from the real knowledge base.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { referenceFile } from '../reference.ts';
import { ROOT, sharedEngine } from '../helper.ts';

const kb = () => sharedEngine().kb;
const e = (key: string) => {
  const x = kb().byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
};
const passport = (id: string) => `https://www.vivc.de/index.php?r=passport%2Fview&id=${id}`;

const PRIMES = referenceFile('vivc-prime-names.csv');
const primeById = PRIMES !== undefined
  ? new Map(fs.readFileSync(PRIMES, 'utf8').split(/\r?\n/).slice(1).filter(Boolean).map((l) => {
    const i = l.indexOf(',');
    return [l.slice(0, i), l.slice(i + 1).replace(/^"|"$/g, '').replace(/\s+/g, ' ')] as [string, string];
  }))
  : undefined;

// [key, canonical trade name, VIVC number, VIVC prime name, source of the name]
const REG = 'it-registro-nazionale-varieta-vite';
const TTB = 'us-ttb-approved-grape-variety-names';
const PINS: [string, string, string, string, string][] = [
  ['grape/foglia-tonda', 'Foglia Tonda', '4171', 'FOGLIA TONDA', REG],
  ['grape/canaiolo-rosa', 'Canaiolo Rosa', '2038', 'CANAIOLO ROSA', REG],
  ['grape/cividin', 'Cividin', '2690', 'CIVIDIN BIANCO', REG],
  ['grape/nieddera', 'Nieddera', '8545', 'NIEDDERA', REG],
  ['grape/lambrusco-viadanese', 'Lambrusco Viadanese', '6702', 'LAMBRUSCO VIADANESE', REG],
  ['grape/cove', 'Cove', '2808', 'COVE', REG],
  ['grape/albemarle', 'Albemarle', '241', 'ALBEMARLE', TTB],
  ['grape/carlos', 'Carlos', '2105', 'CARLOS', TTB],
  ['grape/munch', 'Münch', '8143', 'MUENCH', TTB],
  ['grape/joannes-seyve-12-428', 'Joannes Seyve 12-428', '5771', 'JOANNES SEYVE 12428', TTB],
  ['grape/emerald-riesling', 'Emerald Riesling', '3894', 'EMERALD RIESLING', TTB],
  ['grape/ravat-noir', 'Ravat noir', '9941', 'RAVAT NOIR', TTB],
];

describe('grape varieties from national variety lists', () => {
  test('pinned records: VIVC number and prime name cited to the VIVC passport, canonical name from the list', () => {
    for (const [key, name, id, prime, src] of PINS) {
      const g = e(key);
      assert.equal(g.type, 'grape', key);
      assert.equal(g.name, name, key);
      assert.equal(g.facts.vivc_id?.value, id, key);
      assert.equal(g.facts.vivc_id?.source, 'vivc', key);
      assert.equal(g.facts.vivc_id?.locator, passport(id), key);
      assert.equal(g.facts.vivc_prime_name?.value, prime, key);
      assert.match(g.notes ?? '', new RegExp(`source ${src}`), key);
      if (primeById) assert.equal(primeById.get(id), prime, `${key}: reference row for VIVC ${id}`);
    }
  });

  test('the VIVC prime name is an und synonym alias cited to VIVC when it differs from the name', () => {
    for (const [key, prime] of [['grape/cividin', 'Cividin Bianco'], ['grape/munch', 'Muench'], ['grape/joannes-seyve-12-428', 'Joannes Seyve 12428']]) {
      const a = e(key!).aliases.find((x) => x.name === prime);
      assert.ok(a, `${key}: prime name ${prime} kept as an alias`);
      assert.equal(a!.kind, 'synonym');
      assert.equal(a!.lang, 'und');
      assert.equal(a!.source, 'vivc');
    }
  });

  test('berry colour from the Italian register, cited with its registry number', () => {
    const c = e('grape/canaiolo-rosa').facts.berry_colour;
    assert.equal(c?.value, 'rose');
    assert.equal(c?.source, REG);
    assert.match(String(c?.locator), /registry no\. 314/);
    assert.equal(e('grape/foglia-tonda').facts.berry_colour?.value, 'noir');
    assert.equal(e('grape/albemarle').facts.berry_colour, undefined, 'the US list gives no colour');
  });

  test('the new list sources are registered with the copy they were read in', () => {
    for (const key of [REG, TTB]) {
      const s = kb().sources.get(key);
      assert.ok(s, key);
      assert.ok(s!.retrieved_via, `${key} was read in a copy`);
    }
    assert.equal(kb().sources.get(REG)!.authority, 'official_register');
    assert.equal(kb().sources.get(TTB)!.authority, 'regulator');
  });

  test('a register entry whose own synonym names another served grape is not matched by name', () => {
    // 'Lumassina' (synonym Buzzetto, an alias of Trebbiano) makes no record of its own from the register
    // (an appellation's rules may still name it by its VIVC prime name: data/grapes/vivc-appellation-grapes.json)
    assert.ok(!kb().entities.some((g) => g.type === 'grape' && g.facts.vivc_id?.value === '6993' && g.file === 'grapes/vivc-lists.json'));
    const lumassina = kb().entities.find((g) => g.facts.vivc_id?.value === '6993');
    if (lumassina) assert.ok(!lumassina.aliases.some((a) => a.name === 'Buzzetto'), 'the register synonym is not given to it');
  });

  test('names of places are not taken by new list grapes (Ontario stays the place)', () => {
    assert.ok(!kb().entities.some((g) => g.type === 'grape' && (g.name === 'Ontario' || g.aliases.some((a) => a.name === 'Ontario'))));
  });

  test('released keys of list-derived records keep their VIVC number', () => {
    for (const [key, id] of [['grape/nerello-mascalese', '8480'], ['grape/negro-amaro', '8456'], ['grape/canaiolo-nero', '2037'], ['grape/souvignier-gris', '22629']]) {
      assert.equal(e(key!).facts.vivc_id?.value, id, key);
    }
  });

  test('served grape varieties: at least 970 (target 1,000 not reached, see the README coverage section)', () => {
    const grapes = kb().entities.filter((x) => x.type === 'grape');
    assert.ok(grapes.length >= 970, `${grapes.length} grapes served`);
  });
});

describe('demand names backed by a source that states the synonym', () => {
  test('Gros Manseng: VIVC 7338 through the synonym Manseng Gros Blanc that wein.plus gives', () => {
    const g = e('grape/gros-manseng');
    assert.equal(g.name, 'Gros Manseng');
    assert.equal(g.facts.vivc_id?.value, '7338');
    assert.equal(g.facts.vivc_prime_name?.value, 'MANSENG GROS BLANC');
    if (primeById) assert.equal(primeById.get('7338'), 'MANSENG GROS BLANC');
    assert.equal(g.aliases.find((a) => a.name === 'Manseng Gros Blanc')?.source, 'vivc');
    assert.equal(g.facts.berry_colour?.value, 'blanc');
  });

  test('Zibibbo is an alias of Muscat of Alexandria; Turbiana and Trebbiano di Soave of Verdicchio', () => {
    assert.equal(e('grape/muscat-of-alexandria').aliases.find((a) => a.name === 'Zibibbo')?.source, 'wein-plus-muscat-d-alexandrie');
    const v = e('grape/verdicchio').aliases;
    for (const n of ['Turbiana', 'Trebbiano di Soave']) assert.equal(v.find((a) => a.name === n)?.source, 'it-registro-nazionale-varieta-vite', n);
    const eng = sharedEngine();
    for (const [q, key] of [['Gros Manseng', 'grape/gros-manseng'], ['Zibibbo', 'grape/muscat-of-alexandria'], ['Turbiana', 'grape/verdicchio']]) {
      const r = eng.resolver.resolve(q!, 3);
      assert.equal(eng.kb.entities[r.candidates[0]!.entity]!.key, key, q);
    }
  });
});

describe('issue 9 audit fixes in the grape files', () => {
  test('Nagyburgundi Kék is no longer an alias of Gamay', () => {
    assert.ok(!e('grape/gamay').aliases.some((a) => a.name === 'Nagyburgundi Kék'));
  });

  test('Grenache aliases carry no language code the source does not support', () => {
    const al = e('grape/grenache').aliases;
    assert.equal(al.find((a) => a.name === 'Alicantina')?.lang, 'und');
    assert.equal(al.find((a) => a.name === 'Garnacha')?.lang, 'es');
  });

  test('Baga, Touriga Nacional and Touriga Franca cite VIVC for their number', () => {
    for (const [key, id, prime] of [['grape/baga', '885', 'BAGA'], ['grape/touriga-nacional', '12594', 'TOURIGA NACIONAL'], ['grape/touriga-franca', '12593', 'TOURIGA FRANCA']]) {
      const g = e(key!);
      assert.equal(g.facts.vivc_id?.value, id, key);
      assert.equal(g.facts.vivc_id?.source, 'vivc', key);
      assert.equal(g.facts.vivc_id?.locator, passport(id!), key);
      assert.equal(g.facts.vivc_prime_name?.value, prime, key);
      if (primeById) assert.equal(primeById.get(id!), prime, key);
    }
  });

  test('grape sources read in a mirror carry retrieved_via', () => {
    for (const key of ['wikipedia-grape-carignan', 'wikipedia-grape-dolcetto', 'wikipedia-de-grape-petit-verdot', 'wikipedia-de-grape-corvina',
      'wikipedia-de-grape-torrontes-riojano', 'wikipedia-ru-grape-montepulciano', 'wikipedia-grape-macabeo', 'wikipedia-de-grape-baga',
      'wikipedia-de-grape-touriga-franca', 'wikipedia-list-of-grape-varieties', 'ttb-27cfr4']) {
      assert.ok(kb().sources.get(key)?.retrieved_via, key);
    }
  });
});

// Hand-matched varieties (data/grapes/curated.json, scripts/derive-grapes-curated.ts): names the demand set
// asks for that are not VIVC prime names, matched through a synonym a cited source states; and a list name
// equal to a prime name that the list matching left out because of a colour-word twin.
describe('hand-matched grape varieties (demand set, exact prime name)', () => {
  const DEMAND: [string, string, string, string, string, string][] = [
    // [key, canonical name, VIVC number, VIVC prime name, prime-name alias, source stating the synonym]
    ['grape/frappato', 'Frappato', '4225', 'FRAPPATO DI VITTORIA', 'Frappato di Vittoria', 'wein-plus-frappato'],
    ['grape/aidani', 'Aidani', '147', 'AIDANI ASPRO', 'Aidani Aspro', 'vitis-agroknow-aidani-aspro'],
  ];

  test('VIVC number and prime name cited to the passport; the prime name is an und alias; the synonym source is named', () => {
    for (const [key, name, id, prime, alias, src] of DEMAND) {
      const g = e(key);
      assert.equal(g.name, name, key);
      assert.equal(g.facts.vivc_id?.value, id, key);
      assert.equal(g.facts.vivc_id?.source, 'vivc', key);
      assert.equal(g.facts.vivc_id?.locator, passport(id), key);
      assert.equal(g.facts.vivc_prime_name?.value, prime, key);
      const a = g.aliases.find((x) => x.name === alias);
      assert.ok(a, `${key}: alias ${alias}`);
      assert.equal(a!.source, 'vivc', key);
      assert.equal(a!.lang, 'und', key);
      assert.match(g.notes ?? '', new RegExp(`source ${src} states`), key);
      assert.ok(kb().sources.get(src), `${key}: source ${src} registered`);
      if (primeById) assert.equal(primeById.get(id), prime, `${key}: reference row for VIVC ${id}`);
    }
  });

  test('berry colour and origin come from the cited lexicon entry', () => {
    assert.equal(e('grape/frappato').facts.berry_colour?.value, 'noir');
    assert.equal(e('grape/frappato').facts.berry_colour?.source, 'wein-plus-frappato');
    assert.equal(e('grape/aidani').facts.berry_colour?.value, 'blanc');
    assert.equal(e('grape/aidani').facts.country_of_origin?.value, 'GREECE');
  });

  test('names the lexicon flags as other varieties are not aliases (Nerello, Aidani Mavro)', () => {
    assert.ok(!e('grape/frappato').aliases.some((a) => /^Nerello/.test(a.name)));
    assert.ok(!e('grape/aidani').aliases.some((a) => /Mavro/.test(a.name)));
  });

  test('Castelão is VIVC 2324 CASTELAO (exact prime name), not the colour-word twin 2323 CASTELAO PRETO', () => {
    const g = e('grape/castelao');
    assert.equal(g.name, 'Castelão');
    assert.equal(g.facts.vivc_id?.value, '2324');
    assert.equal(g.facts.vivc_prime_name?.value, 'CASTELAO');
    assert.equal(g.facts.berry_colour?.value, 'noir');
    assert.ok(g.aliases.some((a) => a.name === 'Castelao' && a.source === 'vivc'));
    assert.match(g.notes ?? '', /CASTELAO PRETO, VIVC 2323/);
    if (primeById) {
      assert.equal(primeById.get('2324'), 'CASTELAO');
      assert.equal(primeById.get('2323'), 'CASTELAO PRETO');
    }
  });

  test('national and regional lists read this round: Austria, Styria, Czech Republic, 27 CFR 4.91 re-read', () => {
    const CUR: [string, string, string, string, string | null, string][] = [
      ['grape/jubilaumsrebe', 'Jubiläumsrebe', '5844', 'JUBILAEUMSREBE', 'Jubilaeumsrebe', 'at-rebsortenverordnung-2018'],
      ['grape/phonix', 'Phönix', '9224', 'PHOENIX', 'Phoenix', 'at-stmk-rebsortenklassifizierung'],
      ['grape/konigin-der-weingarten', 'Königin der Weingärten', '6350', 'KOENIGIN DER WEINGAERTEN', 'Koenigin der Weingaerten', 'at-stmk-rebsortenklassifizierung'],
      ['grape/cabernet-jura', 'Cabernet Jura', '22328', 'CABERNET JURA', null, 'at-stmk-rebsortenklassifizierung'],
      ['grape/devin', 'Děvín', '3537', 'DEVIN', 'Devin', 'cz-vyhlaska-88-2017-odrudy'],
      ['grape/aurelius', 'Aurelius', '781', 'AURELIUS', null, 'cz-vyhlaska-88-2017-odrudy'],
      ['grape/canada-muscat', 'Canada Muscat', '2034', 'CANADA MUSCAT', null, 'us-ttb-approved-grape-variety-names'],
      ['grape/summit', 'Summit', '12071', 'SUMMIT', null, 'us-ttb-approved-grape-variety-names'],
    ];
    for (const [key, name, id, prime, alias, src] of CUR) {
      const g = e(key);
      assert.equal(g.name, name, key);
      assert.equal(g.facts.vivc_id?.value, id, key);
      assert.equal(g.facts.vivc_id?.locator, passport(id), key);
      assert.equal(g.facts.vivc_prime_name?.value, prime, key);
      assert.match(g.notes ?? '', new RegExp(`source ${src} `), key);
      if (alias) assert.ok(g.aliases.some((a) => a.name === alias && a.source === 'vivc' && a.lang === 'und'), `${key}: prime-name alias ${alias}`);
      else assert.equal(g.aliases.length, 0, `${key}: the name is the prime name`);
      if (primeById) assert.equal(primeById.get(id), prime, `${key}: reference row for VIVC ${id}`);
    }
    // sources read in a legal-database copy carry retrieved_via; the RIS page was read directly
    assert.ok(kb().sources.get('at-stmk-rebsortenklassifizierung')?.retrieved_via);
    assert.ok(kb().sources.get('cz-vyhlaska-88-2017-odrudy')?.retrieved_via);
    assert.equal(kb().sources.get('at-rebsortenverordnung-2018')?.retrieved_via, undefined);
  });

  test('Nero, on the Styrian list, is no grape name (a bare Italian colour word)', () => {
    assert.ok(!kb().entities.some((x) => x.type === 'grape' && x.name === 'Nero'));
  });

  test('the demand queries resolve to them', () => {
    const eng = sharedEngine();
    for (const [q, key] of [['Frappato', 'grape/frappato'], ['Aidani', 'grape/aidani'], ['Frappato di Vittoria', 'grape/frappato'], ['Castelão', 'grape/castelao']]) {
      const r = eng.resolver.resolve(q!, 3);
      assert.equal(eng.kb.entities[r.candidates[0]!.entity]!.key, key, q);
    }
  });
});
