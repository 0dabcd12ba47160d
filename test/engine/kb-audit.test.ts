// kb validate catches each class of fault found by the issue-9 evidence audit: an excerpt in another
// language than its item says, an English excerpt that names none of its food, the repealed spirits
// regulation cited as in force, a copy given as the original (no retrieved_via, or a copy host as url),
// a copy-based expression above the capped confidence, a VIVC number from an encyclopedia, a generic or
// uncited AVA alias, and figures served for BJCP 21B.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { excerptLanguage, foodStems, validateKnowledgeBase } from '../../src/engine/kb/validate.ts';
import { REF, referenceFile } from '../reference.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const haveAvas = referenceFile('us-avas.csv') !== undefined;
const haveVivcFull = referenceFile('vivc-prime-names-full.csv') !== undefined;
const haveVivcPrimes = referenceFile('vivc-prime-names.csv') !== undefined;

/** Problems that `mutate` (given the parsed content of `file` in a copy of data/) brings in. */
function problemsAfter(file: string, mutate: (recs: any[]) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-audit-'));
  try {
    fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
    const p = path.join(dir, file);
    const recs = JSON.parse(fs.readFileSync(p, 'utf8'));
    mutate(recs);
    fs.writeFileSync(p, JSON.stringify(recs));
    return validateKnowledgeBase(dir, REF).problems;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const find = (recs: any[], pred: (r: any) => boolean) => {
  const r = recs.find(pred);
  assert.ok(r, 'record to mutate');
  return r;
};
const has = (problems: { file: string; record: string; message: string }[], re: RegExp, record?: string) =>
  assert.ok(problems.some((p) => re.test(p.message) && (!record || p.record === record)), `${re} not reported: ${JSON.stringify(problems.slice(0, 4))}`);

describe('kb validate: audit checks', () => {
  test('excerpt language: function words decide, short or mixed text decides nothing', () => {
    assert.equal(excerptLanguage('Classicamente harmonizada com cordeiro, a Tinta Roriz também é fantástica com outras carnes vermelhas'), 'pt');
    assert.equal(excerptLanguage('Red wine is a local favourite with Portuguese national fish cod, and with octopus or squid in red wine sauce;'), 'en');
    assert.equal(excerptLanguage('Les vins du Beaujolais se marient avec la charcuterie et les volailles'), 'fr');
    assert.equal(excerptLanguage('Der Riesling passt zu Fisch und ist auch mit Spargel ein Genuss'), 'de');
    assert.equal(excerptLanguage('Aperitif Starter Fish dish Meat dish Cheese Dessert Fruit'), null);
    assert.deepEqual(foodStems('spicy dishes', null), ['spic']);
  });

  test('a Portuguese excerpt labelled "en", and an English one labelled "pt", are reported', () => {
    // (Tempranillo's Portuguese items joined its one set, in euw-european-wine.json)
    const pt = problemsAfter('pairings/euw-european-wine.json', (recs) => {
      find(recs, (s) => s.entity === 'grape/tempranillo').items.find((i: any) => i.language_code === 'pt').language_code = 'en';
    });
    has(pt, /"en" but the excerpt is written in "pt"/, 'grape/tempranillo');
    const en = problemsAfter('pairings/wines-of-portugal.json', (recs) => {
      find(recs, (s) => s.entity === 'geo/portugal').items[0].language_code = 'pt';
    });
    has(en, /"pt" but the excerpt is written in "en"/, 'geo/portugal');
  });

  test('an excerpt that shows no pairing (under 40 characters and not naming its drink) is reported; a short one naming it is not', () => {
    const short = problemsAfter('pairings/pinotage-association.json', (recs) => {
      const it = find(recs, (s) => s.entity === 'grape/pinotage').items.find((i: any) => i.pairing_key === 'venison');
      it.source_excerpt = 'venison, or a game pie.';
    });
    has(short, /23 characters that do not name Pinotage: an excerpt must show the pairing/, 'grape/pinotage');
    const named = problemsAfter('pairings/pinotage-association.json', (recs) => {
      const it = find(recs, (s) => s.entity === 'grape/pinotage').items.find((i: any) => i.pairing_key === 'venison');
      it.source_excerpt = 'Pinotage with venison.';
    });
    assert.ok(!named.some((p) => /do not name/.test(p.message)), JSON.stringify(named.slice(0, 3)));
  });

  test('a berry colour against VIVC stands only on a national register with the conflict noted (issue 24 audit)', { skip: !haveVivcFull && 'no fuller VIVC table beside the repo' }, () => {
    // a press or catalogue colour that differs from VIVC's is reported
    const press = problemsAfter('grapes/national-bodies-c.json', (recs) => {
      find(recs, (r) => r.key === 'grape/longyan').facts.berry_colour = { value: 'blanc', source: 'weinplus-glossary-longyan', locator: 'x' };
    });
    has(press, /"blanc" but VIVC 6896 gives ROUGE/, 'grape/longyan');
    // the Italian register's colour with the conflict noted stands; without the note it does not
    const unnoted = problemsAfter('grapes/vivc-lists.json', (recs) => {
      find(recs, (r) => r.key === 'grape/fumat').notes = '';
    });
    has(unnoted, /"noir" but VIVC 4289 gives ROUGE/, 'grape/fumat');
  });

  test('two grape records with one VIVC number are reported, a draft included', () => {
    const got = problemsAfter('grapes/vivc.json', (recs) => {
      const src = find(recs, (r) => r.key === 'grape/malvasia');
      recs.push({ ...src, key: 'grape/malvasia-copy-draft', name: 'Malvasia Copy', review: 'draft', aliases: [] });
    });
    has(got, /VIVC 7269 is also grape\/malvasia: one entity per VIVC number/, 'grape/malvasia-copy-draft');
  });

  test('an English excerpt that names none of the food of its item is reported', () => {
    const got = problemsAfter('pairings/pinotage-association.json', (recs) => {
      const it = find(recs, (s) => s.entity === 'grape/pinotage').items.find((i: any) => i.pairing_key === 'venison');
      it.food_item = 'roast goose';
    });
    has(got, /names none of the food of the item \("roast goose"\)/, 'grape/pinotage');
  });

  test('Regulation (EC) No 110/2008 as the regulation in force is reported (fact value, source title)', () => {
    const fact = problemsAfter('spirits/categories.json', (recs) => {
      find(recs, (r) => r.key === 'spirit/armagnac').facts.regulation.value = 'Regulation (EC) No 110/2008, Annex II, point 4';
    });
    has(fact, /110\/2008/, 'spirit/armagnac');
    const title = problemsAfter('sources/spirits.json', (recs) => {
      find(recs, (s) => s.key === 'wirspa').title = 'Rum under Regulation (EC) No 110/2008';
    });
    has(title, /110\/2008/, 'wirspa');
  });

  test('a source read on a copy host needs retrieved_via, and its url must be the original', () => {
    const noVia = problemsAfter('sources/geographies-famous.json', (recs) => {
      delete find(recs, (s) => s.key === 'inao-cdc-beaujolais').retrieved_via;
    });
    has(noVia, /read in a copy \(docslib\.org\) but has no retrieved_via/, 'inao-cdc-beaujolais');
    const copyUrl = problemsAfter('sources/geographies-famous.json', (recs) => {
      const s = find(recs, (x) => x.key === 'inao-cdc-beaujolais');
      s.url = 'https://docslib.org/doc/1327211/cahier-des-charges';
    });
    has(copyUrl, /docslib\.org is a copy: url names the original/, 'inao-cdc-beaujolais');
  });

  test('a sensory expression resting on a copy above the capped confidence is reported', () => {
    const got = problemsAfter('sources/sensory.json', (recs) => {
      find(recs, (s) => s.key === 'comite-champagne-campus').retrieved_via = { url: 'https://docslib.org/doc/1/x', kind: 'mirror' };
    });
    has(got, /exceeds 0\.8: source comite-champagne-campus was read in a copy/);
  });

  test('a VIVC number cited to anything but the vivc source is reported', () => {
    const got = problemsAfter('grapes/vivc.json', (recs) => {
      find(recs, (r) => r.facts?.vivc_id?.value === '2455').facts.vivc_id.source = 'wikipedia-grape-cinsaut';
    });
    has(got, /a VIVC number cites VIVC/);
  });

  test('AVA aliases: a generic word, or a name its CFR section does not give, is reported', { skip: !haveAvas && 'no AVA table beside the repo' }, () => {
    const generic = problemsAfter('geographies/us-avas.json', (recs) => {
      find(recs, (r) => r.key === 'geo/mississippi-delta').aliases.push({ name: 'Delta', lang: 'en', kind: 'synonym', source: 'ttb-27cfr9', locator: '27 CFR 9.96 (also known as)' });
    });
    has(generic, /"Delta" is a generic word/, 'geo/mississippi-delta');
    const uncited = problemsAfter('geographies/us-avas.json', (recs) => {
      find(recs, (r) => r.key === 'geo/diablo-grande').aliases.push({ name: 'Oak Flats Valley Ranch', lang: 'en', kind: 'synonym', source: 'ttb-27cfr9', locator: '27 CFR 9.156 (also known as)' });
    });
    has(uncited, /"Oak Flats Valley Ranch" is not a name of 27 CFR 9\.156/, 'geo/diablo-grande');
  });

  test('BJCP 21B Specialty IPA serving figures is reported', () => {
    const got = problemsAfter('beer-styles/bjcp-2021.json', (recs) => {
      find(recs, (r) => r.key === 'beer/21b-specialty-ipa').facts.og = { value: { min: 1.05, max: 1.085 }, source: 'bjcp-2021', locator: '21B' };
    });
    has(got, /21B Specialty IPA has no figures of its own/, 'beer/21b-specialty-ipa');
  });

  test('the audited files pass every audit check', () => {
    const mine = /^(pairings\/(beaujolais|champagne|german-wine-institute|pinotage-association|porto|wines-of-portugal)|sensory\/(champagne|germany|italy|wines-of-portugal)|sources\/(core|geographies|geographies-famous|new-world|pairings|places|spirits)|spirits\/|geographies\/us-avas)/;
    const rep = validateKnowledgeBase(path.join(ROOT, 'data'), REF);
    assert.deepEqual(rep.problems.filter((p) => mine.test(p.file)), []);
  });

  test('alias language codes: a non-Latin-script language on a name in Latin letters (Alicantina "ar")', () => {
    const problems = problemsAfter('grapes/vivc.json', (recs) => {
      const g = find(recs, (r) => r.key === 'grape/grenache');
      g.aliases.push({ name: 'Alicantina Test', lang: 'ar', kind: 'synonym', source: 'vivc', locator: 'test' });
      g.aliases.push({ name: 'Garnatxa Test', lang: 'el-Latn', kind: 'synonym', source: 'vivc', locator: 'test' });
    });
    has(problems, /"ar" but "Alicantina Test" is written in Latin letters/, 'grape/grenache');
    assert.ok(!problems.some((p) => /Garnatxa Test/.test(p.message)), 'a script subtag (el-Latn) is accepted');
  });

  test('a grape alias that is the VIVC prime name of another served grape (a synonym filed under the wrong grape)', { skip: !haveVivcPrimes && 'no VIVC prime-name table beside the repo' }, () => {
    const problems = problemsAfter('grapes/vivc.json', (recs) => {
      const g = find(recs, (r) => r.key === 'grape/gamay');
      g.aliases.push({ name: 'Blaufraenkisch', lang: 'de', kind: 'synonym', source: 'vivc', locator: 'test' });
    });
    has(problems, /"Blaufraenkisch" is the VIVC prime name of/, 'grape/gamay');
  });

  test('a grape alias that is the VIVC prime name of a variety with no record here, whatever its kind, is reported unless declared shared (issue 24 audit 5)', { skip: !haveVivcFull && 'no fuller VIVC table beside the repo' }, () => {
    // ANGELICA NERA (472) has no record (VERNACCIA NERA, 12999, the alias once on Grenache, has one since issue 32)
    const problems = problemsAfter('grapes/vivc.json', (recs) => {
      const g = find(recs, (r) => r.key === 'grape/grenache');
      g.aliases.push({ name: 'Angelica Nera', lang: 'it', kind: 'other_language', source: 'vivc', locator: 'test' });
    });
    has(problems, /"Angelica Nera" is the VIVC prime name of 472, not of VIVC/, 'grape/grenache');
    // declared shared on purpose: accepted
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-audit-'));
    try {
      fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
      const p = path.join(dir, 'grapes/vivc.json');
      const recs = JSON.parse(fs.readFileSync(p, 'utf8'));
      find(recs, (r) => r.key === 'grape/grenache').aliases.push({ name: 'Angelica Nera', lang: 'it', kind: 'other_language', source: 'vivc', locator: 'test' });
      fs.writeFileSync(p, JSON.stringify(recs));
      fs.writeFileSync(path.join(dir, 'ambiguities/zz-test.json'), JSON.stringify([{ term: 'Angelica Nera', entities: ['grape/grenache', 'grape/vernaccia-di-oristano'], note: 'test' }]));
      const rep = validateKnowledgeBase(dir, REF);
      assert.deepEqual(rep.problems, []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a US State that cites an AVA section of 27 CFR Part 9 is reported (issue 24 audit 1)', () => {
    const problems = problemsAfter('geographies/countries.json', (recs) => {
      const st = find(recs, (r) => r.key === 'geo/arizona');
      st.facts.country.locator = '27 CFR 9.97 (state of Arizona)';
    });
    has(problems, /is an AVA's section; a State is an appellation of origin under 27 CFR 4\.25/, 'geo/arizona');
  });

  test('a country proven by the register file of one of its wine appellations is reported; a spirit GI file is not (issue 24 audit 2)', () => {
    const problems = problemsAfter('geographies/countries.json', (recs) => {
      const fr = find(recs, (r) => r.key === 'geo/france');
      fr.facts.level = { value: 'country', source: 'eu-eambrosia', locator: 'file PDO-FR-A0987 (country FR)' };
    });
    has(problems, /one appellation's register file does not show France as a wine-producing country/, 'geo/france');
    const spirits = problemsAfter('geographies/more-countries.json', (recs) => {
      assert.match(find(recs, (r) => r.key === 'geo/sweden').facts.level.locator, /PGI-SE-01926/);
    });
    assert.ok(!spirits.some((x) => /wine-producing country/.test(x.message)), JSON.stringify(spirits.slice(0, 3)));
  });

  test('a copy keeps its original\'s class: a source saying its class was lowered for the copy, or ranking below its original at the same address, is reported (issue 24 audit 3)', () => {
    const said = problemsAfter('sources/new-world.json', (recs) => {
      const s = find(recs, (r) => r.key === 'nw-winevinewa-wa-gis');
      s.notes = `${s.notes ?? ''} Read in a copy, so not given the official register's authority.`;
    });
    has(said, /says its class was lowered for the copy/, 'nw-winevinewa-wa-gis');
    const below = problemsAfter('sources/new-world.json', (recs) => {
      const s = find(recs, (r) => r.key === 'nw-oiv-member-states-50-copy');
      const original = find(recs, (r) => r.key === 'nw-oiv-member-states-2018');
      s.url = original.url;
      s.authority = 'wine_press';
    });
    has(below, /wine_press, below regulator of nw-oiv-member-states-2018 at the same address/, 'nw-oiv-member-states-50-copy');
  });

  test('a source whose url is a repository copy (github.com) and has no retrieved_via is reported', () => {
    const problems = problemsAfter('sources/core.json', (recs) => {
      const s = find(recs, (r) => r.key === 'vivc');
      delete s.retrieved_via;
      s.notes = 'Read at https://github.com/djtrack16/wine_grapes';
    });
    has(problems, /read in a copy \(github\.com\) but has no retrieved_via/, 'vivc');
  });
});
