// A rejection case for each `kb validate` rule that had none (issue 24, item 7.9). The rules live in
// src/engine/kb/load.ts (schemas, references, names, evidence: what start-up checks), and in
// src/engine/kb/validate.ts (the reference tables of ../shared/reference/, the numbered audit checks,
// the food vocabulary). Rules that already have a rejection test elsewhere are not repeated:
//   test/engine/kb-validate.test.ts   EU file number not in the exports / protects another name / other
//                                     country / other class; a VIVC prime name (field only); alias
//                                     "und" for another language, unknown alias source, missing lang
//   test/engine/kb-audit.test.ts      audit 1 (excerpt language, short excerpt, food named), 1b, 2 (fact
//                                     and source title), 3 (no retrieved_via, copy as url, sensory copy
//                                     cap), 4, 5 (generic word, name not of the section), 6, 7, 9; berry
//                                     colour against the fuller VIVC table
//   test/engine/kb-load-evidence.test.ts  second pairing set, duplicate item, copy cap of pairing items
//   test/engine/kb-appellation-grapes.test.ts  rule set: not a served grape, not a wine geography,
//                                     dataset-only set "required" or with shares
//   test/cli/admin.test.ts            BJCP figures differ from the table; a range with min > max; a
//                                     fact without source (schema)
//   test/config.test.ts               a fact citing an unknown source
// Each case below changes one thing in a copy of data/ (copied once; the changed file is restored
// after the case), runs validateKnowledgeBase (what `admin kb validate` runs) and asserts the rule's
// own problem, by file, record, field and message. The unmodified copy has no problem, before and after.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateKnowledgeBase } from '../../src/engine/kb/validate.ts';
import type { Problem } from '../../src/engine/kb/load.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REF = process.env.REFERENCE_DIR ?? path.resolve(ROOT, '../shared/reference');
const REF_TABLES = ['vivc-grape-index.csv', 'bjcp-2021-beer-styles.csv', 'us-avas.csv', 'eu-gi-wines-eambrosia-2020.csv', 'eu-gi-spirits-eambrosia-2020.csv', 'eu-gi-aromatised-wines-eambrosia-2020.csv', 'eu-gi-register-sample.csv', 'vivc-prime-names.csv', 'vivc-prime-names-full.csv'];
const haveRef = REF_TABLES.every((f) => fs.existsSync(path.join(REF, f)));

interface Expect {
  file: string;
  record?: string | RegExp;
  field?: string | RegExp;
  message: RegExp;
}

interface Case {
  rule: string;
  /** the file changed, relative to data/ (created for the case when it does not exist) */
  file: string;
  /** changes the parsed file in place (what it returns is ignored) */
  edit?: (data: any) => unknown;
  /** the file's whole new content (JSON) */
  content?: () => unknown;
  /** the file's new text as is (not JSON) */
  raw?: string;
  /** the file is removed for the case */
  remove?: boolean;
  expect: Expect | Expect[];
  /** needs the reference tables */
  ref?: boolean;
}

const find = (recs: any[], pred: (r: any) => boolean, what: string) => {
  const r = recs.find(pred);
  assert.ok(r, `no record to change: ${what}`);
  return r;
};
const byKey = (key: string) => (recs: any[]) => find(recs, (r) => r.key === key, key);
const alias = (name: string, extra: Record<string, string> = {}) => ({ name, lang: 'fr', kind: 'synonym', source: 'vivc', locator: 'test', ...extra });

/** A file number of the 2020 eAmbrosia wine export that is not registered there nor in the later sample. */
function unregisteredFileNumber(): string {
  const sample = fs.readFileSync(path.join(REF, 'eu-gi-register-sample.csv'), 'utf8');
  for (const line of fs.readFileSync(path.join(REF, 'eu-gi-wines-eambrosia-2020.csv'), 'utf8').split(/\r?\n/)) {
    const m = /^((?:PDO|PGI)-[A-Z]{2}-[^,]+),.*,(Applied|Published),/.exec(line);
    if (m && !sample.includes(m[1]!)) return m[1]!;
  }
  assert.fail('no unregistered file number in the export');
}

/** Set by the EU duplicate case: the record that holds the file number first, and the one given it too. */
let expectedDuplicate: { holder: string; second: string; fn: string } | undefined;

const cases: Case[] = [
  // ---- reference tables (validate.ts) ------------------------------------------------------------
  {
    rule: 'VIVC index: the number is not a name of the record',
    file: 'grapes/vivc.json',
    ref: true,
    edit: (recs) => Object.assign(byKey('grape/aglianico')(recs), { name: 'Zzyzx Noir', aliases: [] }),
    expect: { file: 'grapes/vivc.json', record: 'grape/aglianico', field: 'facts.vivc_id', message: /^VIVC 121 is "Aglianico" in the reference index, which is not a name of this record$/ },
  },
  {
    rule: 'VIVC index: berry colour other than the index gives',
    file: 'grapes/vivc.json',
    ref: true,
    edit: (recs) => (byKey('grape/aglianico')(recs).facts.berry_colour.value = 'blanc'),
    expect: { file: 'grapes/vivc.json', record: 'grape/aglianico', field: 'facts.berry_colour', message: /^"blanc" but the reference index says "NOIR"$/ },
  },
  {
    rule: 'BJCP: style_id that is not a BJCP 2021 style',
    file: 'beer-styles/bjcp-2021.json',
    ref: true,
    edit: (recs) => (byKey('beer/1a-american-light-lager')(recs).facts.style_id.value = '99Z'),
    expect: { file: 'beer-styles/bjcp-2021.json', record: 'beer/1a-american-light-lager', field: 'facts.style_id', message: /^"99Z" is not a BJCP 2021 style id$/ },
  },
  {
    rule: 'BJCP: name other than the style id\'s',
    file: 'beer-styles/bjcp-2021.json',
    ref: true,
    edit: (recs) => (byKey('beer/1a-american-light-lager')(recs).name = 'Zzyzx Lager'),
    expect: { file: 'beer-styles/bjcp-2021.json', record: 'beer/1a-american-light-lager', field: 'name', message: /^BJCP 1A is "American Light Lager"$/ },
  },
  {
    rule: 'BJCP: a figure where BJCP gives none (28A Brett Beer)',
    file: 'beer-styles/bjcp-2021.json',
    ref: true,
    edit: (recs) => (byKey('beer/28a-brett-beer')(recs).facts.og = { value: { min: 1.04, max: 1.06 }, source: 'bjcp-2021', locator: 'style 28A' }),
    expect: { file: 'beer-styles/bjcp-2021.json', record: 'beer/28a-brett-beer', field: 'facts.og', message: /^BJCP gives no figure for this style$/ },
  },
  {
    rule: 'AVA: cfr_section that is no AVA section of 27 CFR Part 9',
    file: 'geographies/us-avas.json',
    ref: true,
    edit: (recs) => (byKey('geo/adelaida-district')(recs).facts.cfr_section.value = '27 CFR 9.9999'),
    expect: { file: 'geographies/us-avas.json', record: 'geo/adelaida-district', field: 'facts.cfr_section', message: /^"27 CFR 9\.9999" is not an AVA section in 27 CFR Part 9$/ },
  },
  {
    rule: 'AVA: name other than its section\'s',
    file: 'geographies/us-avas.json',
    ref: true,
    edit: (recs) => (byKey('geo/adelaida-district')(recs).name = 'Zzyzx District'),
    expect: { file: 'geographies/us-avas.json', record: 'geo/adelaida-district', field: 'name', message: /^27 CFR 9\.238 names adelaida district$/ },
  },
  {
    rule: 'EU: one file number held by two records',
    file: 'geographies/eu-wine-gis.json',
    ref: true,
    edit: (recs) => {
      const gis = recs.filter((r: any) => /^PDO-IT-A/.test(r.facts?.file_number?.value ?? '') && r.review !== 'draft');
      gis[1].facts.file_number.value = gis[0].facts.file_number.value;
      expectedDuplicate = { holder: gis[0].key, second: gis[1].key, fn: gis[0].facts.file_number.value };
    },
    expect: { file: 'geographies/eu-wine-gis.json', record: /./, field: 'facts.file_number', message: /is also the file of/ },
  },
  {
    rule: 'EU: a file number the export lists as not registered',
    file: 'geographies/eu-wine-gis.json',
    ref: true,
    edit: (recs) => (byKey('geo/irpinia')(recs).facts.file_number.value = unregisteredFileNumber()),
    expect: { file: 'geographies/eu-wine-gis.json', record: 'geo/irpinia', field: 'facts.file_number', message: /^"(PDO|PGI)-[A-Z]{2}-\S+" is not a registered GI in the eAmbrosia export$/ },
  },
  {
    rule: 'VIVC prime name: against the fuller table and against the older list (each its own message)',
    file: 'grapes/vivc.json',
    ref: true,
    edit: (recs) => (find(recs, (r) => r.facts?.vivc_id?.value === '2455', 'VIVC 2455').facts.vivc_prime_name.value = 'ZZYZX BLANC'),
    expect: [
      { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: 'facts.vivc_prime_name', message: /^"ZZYZX BLANC" but VIVC 2455 is "CHARDONNAY BLANC" \(vivc-prime-names-full\.csv\)$/ },
      { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: 'facts.vivc_prime_name', message: /^"ZZYZX BLANC" but VIVC 2455 is "CHARDONNAY BLANC"$/ },
    ],
  },

  // ---- audit rule 8 and the food vocabulary (validate.ts) ---------------------------------------------
  {
    rule: 'audit 8: an alias needs a locator (blank)',
    file: 'grapes/vivc.json',
    edit: (recs) => byKey('grape/chardonnay')(recs).aliases.push(alias('Zzyzx Blanc', { locator: '   ' })),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: /^aliases\[\d+\]\.locator$/, message: /^"Zzyzx Blanc" needs a locator$/ },
  },
  {
    // (rule 8's own "needs a BCP-47 language code" is never reached: the alias schema has the same pattern and refuses first)
    rule: 'audit 8: an alias language that is not a BCP-47 code ("French")',
    file: 'grapes/vivc.json',
    edit: (recs) => byKey('grape/chardonnay')(recs).aliases.push(alias('Zzyzx Blanc', { lang: 'French' })),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: /^\/aliases\/\d+\/lang$/, message: /match/ },
  },
  {
    rule: 'food vocabulary: does not fit its schema',
    file: 'food/vocabulary.json',
    edit: (v) => void (v.nodes = 'none'),
    expect: { file: 'food/vocabulary.json', message: /^food\/vocabulary\.json does not fit its schema at \/nodes$/ },
  },
  {
    rule: 'food vocabulary: missing',
    file: 'food/vocabulary.json',
    remove: true,
    expect: { file: 'food/vocabulary.json', message: /^missing: derive it with tools\/derive\/food-vocabulary\.mjs$/ },
  },

  // ---- files and versions (load.ts) ---------------------------------------------------------------------
  {
    rule: 'kb.json: version must be a label',
    file: 'kb.json',
    content: () => ({ version: 3 }),
    expect: { file: 'kb.json', field: 'version', message: /^must be \{"version": "<label>", "date"\?: "YYYY-MM-DD"\}$/ },
  },
  {
    rule: 'kb.json: unreadable',
    file: 'kb.json',
    raw: '{"version": ',
    expect: { file: 'kb.json', message: /^cannot read: / },
  },
  {
    rule: 'a family file that is not JSON',
    file: 'sources/zz-broken.json',
    raw: '[{"key": ',
    expect: { file: 'sources/zz-broken.json', message: /^not valid JSON: / },
  },
  {
    rule: 'a family file that is not an array',
    file: 'sources/zz-object.json',
    content: () => ({ key: 'zz-test' }),
    expect: { file: 'sources/zz-object.json', message: /^must be a JSON array of records$/ },
  },

  // ---- sources (load.ts) --------------------------------------------------------------------------------
  {
    rule: 'source schema: an authority outside the classes',
    file: 'sources/zz-bad-authority.json',
    content: () => [{ key: 'zz-test-blog', title: 'A blog', publisher: 'Someone', authority: 'blog', url: 'https://example.org/', licence: 'none' }],
    expect: { file: 'sources/zz-bad-authority.json', record: 'zz-test-blog', field: '/authority', message: /./ },
  },
  {
    rule: 'sources: a key registered twice',
    file: 'sources/zz-duplicate.json',
    content: () => {
      const core = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'sources', 'core.json'), 'utf8'));
      return [find(core, (s) => s.key === 'vivc', 'source vivc')];
    },
    expect: { file: 'sources/zz-duplicate.json', record: 'vivc', field: 'key', message: /^duplicate source key$/ },
  },

  // ---- entities (load.ts) -------------------------------------------------------------------------------
  {
    rule: 'entity: a type other than its folder\'s',
    file: 'spirits/zz-grape.json',
    content: () => [{ key: 'grape/zzyzx-test', type: 'grape', name: 'Zzyzx Test', review: 'reviewed', aliases: [], facts: {} }],
    expect: { file: 'spirits/zz-grape.json', record: 'grape/zzyzx-test', field: 'type', message: /^must be "spirit" in spirits\/$/ },
  },
  {
    rule: 'entity: a key of another family',
    file: 'grapes/zz-key.json',
    content: () => [{ key: 'geo/zzyzx-test', type: 'grape', name: 'Zzyzx Test', review: 'reviewed', aliases: [], facts: {} }],
    expect: { file: 'grapes/zz-key.json', record: 'geo/zzyzx-test', field: 'key', message: /^must start with "grape\/"$/ },
  },
  {
    rule: 'entity: a key used twice',
    file: 'grapes/zz-duplicate.json',
    content: () => {
      const grapes = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'grapes', 'vivc.json'), 'utf8'));
      return [byKey('grape/chardonnay')(grapes)];
    },
    expect: { file: 'grapes/zz-duplicate.json', record: 'grape/chardonnay', field: 'key', message: /^duplicate entity key$/ },
  },
  {
    rule: 'facts: a fact the family does not have',
    file: 'grapes/vivc.json',
    edit: (recs) => (byKey('grape/chardonnay')(recs).facts.min_abv = { value: 12, source: 'vivc', locator: 'test' }),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: 'facts.min_abv', message: /^not a fact of grape \(allowed: / },
  },
  {
    rule: 'facts: source_excerpt without language_code',
    file: 'grapes/vivc.json',
    edit: (recs) => (byKey('grape/chardonnay')(recs).facts.berry_colour.source_excerpt = 'BLANC'),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: 'facts.berry_colour', message: /^source_excerpt and language_code go together/ },
  },
  {
    rule: 'facts: a value of the wrong kind',
    file: 'grapes/vivc.json',
    edit: (recs) => (byKey('grape/chardonnay')(recs).facts.berry_colour.value = 3),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: 'facts.berry_colour', message: /^value must be a string$/ },
  },
  {
    rule: 'facts: a parent that is not a served entity',
    file: 'spirits/categories.json',
    edit: (recs) => (byKey('spirit/whisky-us')(recs).facts.parent.value = 'spirit/zzyzx-none'),
    expect: { file: 'spirits/categories.json', record: 'spirit/whisky-us', field: 'facts.parent', message: /^parent "spirit\/zzyzx-none" is not a served entity$/ },
  },
  {
    rule: 'facts: an entity as its own parent',
    file: 'spirits/categories.json',
    edit: (recs) => (byKey('spirit/whisky-us')(recs).facts.parent.value = 'spirit/whisky-us'),
    expect: { file: 'spirits/categories.json', record: 'spirit/whisky-us', field: 'facts.parent', message: /^an entity cannot be its own parent$/ },
  },
  {
    rule: 'facts: a wine style\'s appellation that is not a wine geography',
    file: 'wine-styles/fortified-and-other.json',
    edit: (recs) => (byKey('style/fino')(recs).facts.appellation.value = 'grape/chardonnay'),
    expect: { file: 'wine-styles/fortified-and-other.json', record: 'style/fino', field: 'facts.appellation', message: /^"grape\/chardonnay" is not a wine geography$/ },
  },
  {
    rule: 'facts: a wine style\'s parent that is not a wine style',
    file: 'wine-styles/fortified-and-other.json',
    edit: (recs) => (byKey('style/fino')(recs).facts.parent.value = 'geo/jerez-xeres-sherry'),
    expect: { file: 'wine-styles/fortified-and-other.json', record: 'style/fino', field: 'facts.parent', message: /^"geo\/jerez-xeres-sherry" is not a wine style$/ },
  },
  {
    rule: 'facts: a grapes list naming no served entity',
    file: 'geographies/eu-wine-gis.json',
    edit: (recs) => byKey('geo/gavi')(recs).facts.grapes.value.push('grape/zzyzx-none'),
    expect: { file: 'geographies/eu-wine-gis.json', record: 'geo/gavi', field: 'facts.grapes', message: /^"grape\/zzyzx-none" is not a served entity$/ },
  },
  {
    rule: 'facts: a grapes list naming something other than a grape',
    file: 'geographies/eu-wine-gis.json',
    edit: (recs) => byKey('geo/gavi')(recs).facts.grapes.value.push('geo/barolo'),
    expect: { file: 'geographies/eu-wine-gis.json', record: 'geo/gavi', field: 'facts.grapes', message: /^"geo\/barolo" is not a grape$/ },
  },
  {
    rule: 'wine style: category required',
    file: 'wine-styles/fortified-and-other.json',
    edit: (recs) => delete byKey('style/fino')(recs).facts.category,
    expect: { file: 'wine-styles/fortified-and-other.json', record: 'style/fino', field: 'facts.category', message: /^required, one of product_category, / },
  },
  {
    rule: 'wine style: definition required',
    file: 'wine-styles/fortified-and-other.json',
    edit: (recs) => delete byKey('style/fino')(recs).facts.definition,
    expect: { file: 'wine-styles/fortified-and-other.json', record: 'style/fino', field: 'facts.definition', message: /^required: the legal or official definition, cited$/ },
  },
  {
    rule: 'wine geography: level required',
    file: 'geographies/us-avas.json',
    edit: (recs) => delete byKey('geo/adelaida-district')(recs).facts.level,
    expect: { file: 'geographies/us-avas.json', record: 'geo/adelaida-district', field: 'facts.level', message: /^required, one of country, region, subregion, appellation$/ },
  },
  {
    rule: 'aliases/*.json: aliases for a key that is no entity',
    file: 'aliases/zz-test.json',
    content: () => [{ entity: 'grape/zzyzx-none', aliases: [alias('Zzyzx')] }],
    expect: { file: 'aliases/zz-test.json', record: 'grape/zzyzx-none', field: 'entity', message: /^"grape\/zzyzx-none" is not an entity$/ },
  },

  // ---- names (load.ts) ----------------------------------------------------------------------------------
  {
    rule: 'names: an ambiguity naming an entity that is not served',
    file: 'ambiguities/zz-test.json',
    content: () => [{ term: 'zzyzx', entities: ['grape/chardonnay', 'grape/zzyzx-none'], note: 'test' }],
    // the problem names the file the declaration is in
    expect: { file: 'ambiguities/zz-test.json', record: 'zzyzx', field: 'entities', message: /^"grape\/zzyzx-none" is not a served entity$/ },
  },
  {
    rule: 'names: an ambiguity whose "first" is not one of its entities',
    file: 'ambiguities/zz-test.json',
    content: () => [{ term: 'zzyzx', entities: ['grape/chardonnay', 'geo/valais'], first: 'geo/wales', note: 'test' }],
    expect: { file: 'ambiguities/zz-test.json', record: 'zzyzx', field: 'first', message: /^"geo\/wales" is not one of the term's entities$/ },
  },
  {
    rule: 'names: a name shared by two entities and not declared',
    file: 'spirits/categories.json',
    edit: (recs) => byKey('spirit/whisky-us')(recs).aliases.push(alias('Chardonnay', { lang: 'en' })),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay, spirit/whisky-us', field: 'name/aliases', message: /^"chardonnay" names 2 entities; declare it in ambiguities\.json with all of them$/ },
  },
  {
    rule: 'names: an alias repeating a name of the same entity',
    file: 'grapes/vivc.json',
    edit: (recs) => byKey('grape/chardonnay')(recs).aliases.push(alias('CHARDONNAY')),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: /^aliases\[\d+\]\.name$/, message: /^"CHARDONNAY" repeats a name of the same entity$/ },
  },
  {
    rule: 'names: a name with no letters or digits',
    file: 'grapes/vivc.json',
    edit: (recs) => byKey('grape/chardonnay')(recs).aliases.push(alias('–')),
    expect: { file: 'grapes/vivc.json', record: 'grape/chardonnay', field: /^aliases\[\d+\]$/, message: /^has no letters or digits$/ },
  },
  {
    rule: 'out of scope: a term that names an entity',
    file: 'out-of-scope.json',
    edit: (terms) => terms.push({ term: 'Chardonnay', category: 'test' }),
    expect: { file: 'out-of-scope.json', record: 'Chardonnay', field: 'term', message: /^also names grape\/chardonnay$/ },
  },
  {
    rule: 'out of scope: a source without a locator',
    file: 'out-of-scope.json',
    edit: (terms) => terms.push({ term: 'zzyzx drink', category: 'test', source: 'vivc' }),
    expect: { file: 'out-of-scope.json', record: 'zzyzx drink', field: 'source', message: /^source and locator go together$/ },
  },
  {
    rule: 'designations: the file must hold {terms: […]}',
    file: 'designations.json',
    content: () => ({ words: [] }),
    expect: { file: 'designations.json', field: 'terms', message: /^must be \{"terms": \[ … \]\}$/ },
  },
  {
    rule: 'designations: a designation word that is an entity name',
    file: 'designations.json',
    edit: (d) => d.terms.push({ ...d.terms[0], term: 'Chardonnay', kind: 'designation' }),
    expect: { file: 'designations.json', record: 'Chardonnay', field: 'term', message: /^also names grape\/chardonnay: a designation word is never an entity name$/ },
  },
  {
    rule: 'label terms: the file does not fit its schema',
    file: 'label-terms.json',
    edit: (d) => void (d.kinds = 'abv'),
    expect: { file: 'label-terms.json', field: '/kinds', message: /^does not fit the schema$/ },
  },
  {
    rule: 'place names: the file does not fit its schema',
    file: 'place-names.json',
    edit: (d) => void (d.names[0].code = 'xx'),
    expect: { file: 'place-names.json', field: '/names/0/code', message: /^does not fit the schema$/ },
  },
  {
    rule: 'demand prior: numbers must be non-negative',
    file: 'demand-prior.json',
    edit: (d) => void (d.entities['grape/chardonnay'] = -1),
    expect: { file: 'demand-prior.json', field: 'classes/entities', message: /^must map class names and entity keys to non-negative numbers$/ },
  },

  // ---- sensory and pairings (load.ts) ---------------------------------------------------------------------
  {
    rule: 'sensory: an expression for an entity that is not served',
    file: 'sensory/italy.json',
    edit: (recs) => (find(recs, (r) => r.expression_key === 'chianti_docg_red', 'chianti_docg_red').entity = 'geo/zzyzx-none'),
    expect: { file: 'sensory/italy.json', record: 'chianti_docg_red', field: 'entity', message: /^"geo\/zzyzx-none" is not a served entity$/ },
  },
  {
    rule: 'sensory: an expression key used twice',
    file: 'sensory/zz-duplicate.json',
    content: () => {
      const italy = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'sensory', 'italy.json'), 'utf8'));
      return [find(italy, (r) => r.expression_key === 'chianti_docg_red', 'chianti_docg_red')];
    },
    expect: { file: 'sensory/zz-duplicate.json', record: 'chianti_docg_red', field: 'expression_key', message: /^duplicate$/ },
  },
  {
    rule: 'sensory: a field with a value that no provenance entry supports',
    file: 'sensory/italy.json',
    edit: (recs) => {
      const r = find(recs, (x) => x.expression_key === 'chianti_docg_red', 'chianti_docg_red');
      for (const p of r.provenance) p.supports = p.supports.filter((f: string) => f !== 'tannin');
    },
    expect: { file: 'sensory/italy.json', record: 'chianti_docg_red', field: 'tannin', message: /^has a value but no provenance entry supports it$/ },
  },
  {
    rule: 'pairings: a set for an entity that is not served',
    file: 'pairings/porto.json',
    edit: (sets) => (find(sets, (s) => s.entity === 'geo/porto', 'geo/porto').entity = 'geo/zzyzx-none'),
    expect: { file: 'pairings/porto.json', record: 'geo/zzyzx-none', field: 'entity', message: /^"geo\/zzyzx-none" is not a served entity$/ },
  },
  {
    rule: 'pairings: an item citing an unknown source',
    file: 'pairings/porto.json',
    edit: (sets) => (find(sets, (s) => s.entity === 'geo/porto', 'geo/porto').items[0].source_key = 'zzyzx-none'),
    expect: { file: 'pairings/porto.json', record: 'geo/porto', field: 'items[0].source_key', message: /^unknown source "zzyzx-none"$/ },
  },
  {
    rule: 'pairings: an item resting on a source class that is no pairing evidence',
    file: 'pairings/porto.json',
    edit: (sets) => (find(sets, (s) => s.entity === 'geo/porto', 'geo/porto').items[0].source_key = 'vivc'),
    expect: { file: 'pairings/porto.json', record: 'geo/porto', field: 'items[0].source_key', message: /^a variety_catalogue source is not pairing evidence$/ },
  },
  {
    rule: 'pairings: confidence above the ceiling of the source\'s authority',
    file: 'pairings/porto.json',
    edit: (sets) => {
      const it = find(sets, (s) => s.entity === 'geo/porto', 'geo/porto').items[0];
      assert.equal(it.source_key, 'eu-colours-by-europe-porto', 'a wine_press source (ceiling 0.6)');
      it.confidence = 0.7;
    },
    expect: { file: 'pairings/porto.json', record: 'geo/porto', field: 'items[0].confidence', message: /^exceeds 0\.6, the ceiling for wine_press$/ },
  },

  // ---- appellation grape rules (load.ts) --------------------------------------------------------------------
  {
    rule: 'appellation grapes: a set for an appellation that is not served',
    file: 'appellation-grapes/official.json',
    edit: (sets) => (find(sets, (s) => s.appellation === 'geo/barbaresco', 'geo/barbaresco').appellation = 'geo/zzyzx-none'),
    expect: { file: 'appellation-grapes/official.json', record: 'geo/zzyzx-none', field: 'appellation', message: /^"geo\/zzyzx-none" is not a served entity$/ },
  },
  {
    rule: 'appellation grapes: one grape twice in one set',
    file: 'appellation-grapes/official.json',
    edit: (sets) => {
      const s = find(sets, (x) => x.appellation === 'geo/barbaresco', 'geo/barbaresco');
      s.grapes.push({ ...s.grapes[0] });
    },
    expect: { file: 'appellation-grapes/official.json', record: 'geo/barbaresco', field: /^grapes\[\d+\]\.grape$/, message: /^"grape\/nebbiolo" twice in one set$/ },
  },
  {
    rule: 'appellation grapes: min_share above max_share',
    file: 'appellation-grapes/official.json',
    edit: (sets) => (find(sets, (x) => x.appellation === 'geo/barbaresco', 'geo/barbaresco').grapes[0].max_share = 50),
    expect: { file: 'appellation-grapes/official.json', record: 'geo/barbaresco', field: 'grapes[0]', message: /^min_share exceeds max_share$/ },
  },
];


const matches = (p: Problem, e: Expect) =>
  p.file === e.file &&
  (e.record === undefined || (typeof e.record === 'string' ? p.record === e.record : e.record.test(p.record))) &&
  (e.field === undefined || (typeof e.field === 'string' ? p.field === e.field : e.field.test(p.field))) &&
  e.message.test(p.message);

describe('kb validate: one rejection per rule', { timeout: 600_000 }, () => {
  let dir = '';
  const validate = () => validateKnowledgeBase(dir, REF);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-rules-'));
    fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the unmodified copy of data/ has no problem', () => {
    assert.deepEqual(validate().problems, []);
  });

  for (const c of cases) {
    test(c.rule, { skip: c.ref && !haveRef ? 'reference tables not beside the repo' : false }, () => {
      const p = path.join(dir, c.file);
      const original = fs.existsSync(p) ? fs.readFileSync(p) : null;
      try {
        if (c.remove) fs.rmSync(p);
        else if (c.raw !== undefined) fs.writeFileSync(p, c.raw);
        else if (c.content) fs.writeFileSync(p, JSON.stringify(c.content()));
        else {
          const data = JSON.parse(original!.toString('utf8'));
          c.edit!(data);
          fs.writeFileSync(p, JSON.stringify(data));
        }
        const { problems } = validate();
        for (const e of [c.expect].flat()) {
          const hit = problems.some((x) => matches(x, e));
          assert.ok(hit, `expected ${e.file} [${String(e.record ?? '*')}] ${String(e.field ?? '*')}: ${e.message}; got ${JSON.stringify(problems.slice(0, 6), null, 1)}`);
        }
        if (c.rule.startsWith('EU: one file number')) {
          const d = expectedDuplicate!;
          assert.ok(problems.some((x) => x.record === d.second && x.message === `"${d.fn}" is also the file of ${d.holder}`), `the later record names the first holder: ${JSON.stringify(d)}`);
        }
      } finally {
        if (original) fs.writeFileSync(p, original);
        else fs.rmSync(p, { force: true });
      }
    });
  }

  test('every changed file was restored: the copy has no problem again', () => {
    assert.deepEqual(validate().problems, []);
  });
});
