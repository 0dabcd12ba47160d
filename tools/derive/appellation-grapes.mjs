// Derives the grape rules of EU wine PDOs from the appellation-to-grape lead table, and the grape
// records those rules need (issue 21).
//
//   node --import tsx tools/derive/appellation-grapes.mjs      (from the repository root)
//
// Input: ../shared/reference/appellation-grapes-leads.csv (never copied into the repo). Its rows were
// extracted from the European Commission's eAmbrosia single documents by the authors of two
// peer-reviewed datasets: Candiago et al. 2024 (Italy and France: principal / secondary varieties per
// wine type) and Candiago et al. 2022, Scientific Data 9:394 (19 other countries: varieties listed, no
// split). Only those dataset rows are used here; the table's 40 rows that quote stored copies of
// Gazzetta Ufficiale / Journal officiel texts are leads to read, not sources (the official texts we
// read are in data/appellation-grapes/official.json, which wins over this file for its appellations).
// Each rule set cites the eAmbrosia single document by file number, read through the dataset
// (`retrieved_via` kind dataset: the register keeps its class, the copy is marked; see the source notes).
// Roles: "principal" where the authors mark the variety principal for some wine type, otherwise
// "permitted"; a dataset row is never "required" (no text read says so); no shares (the datasets
// hold none).
//
// Outputs (written whole):
//   data/appellation-grapes/eambrosia-datasets.json  one rule set per PDO whose record we serve
//   data/grapes/vivc-appellation-grapes.json         grapes named by those rules that no record held,
//                                                    matched by exact prime name to a row of
//                                                    ../shared/reference/vivc-prime-names-full.csv
//   data/sources/appellation-grapes.json             the sources of both
// A name is first looked up in the variety crosswalk (data/grape-crosswalk.json, written by
// tools/derive/grape-crosswalk.mjs; issue 34, item 1): a row for the set's country, else for every country,
// gives the VIVC number (its served grape, else a new VIVC-backed record) or the reason to leave it unmapped.
// Otherwise grape names are matched, case, accents and spacing aside, to a served grape's name or alias or VIVC
// prime name first; then to a VIVC prime name. A name matching neither, or several VIVC numbers, is
// left out of the set's grapes, never guessed, and listed in its `unmapped` with the reason (the set is then
// `complete: false`). A new grape whose name is already the name of another entity is listed the same way
// (it would need an ambiguity declaration and a source for it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKnowledgeBase } from '../../src/engine/kb/load.ts';
import { exactForm, fold } from '../../src/engine/normalize.ts';
import { parseCsv } from './beer-styles.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REF = process.env.REFERENCE_DIR ? path.resolve(process.env.REFERENCE_DIR) : path.resolve(ROOT, '..', 'shared', 'reference');
const OUT_RULES = path.join(ROOT, 'data', 'appellation-grapes', 'eambrosia-datasets.json');
const OUT_GRAPES = path.join(ROOT, 'data', 'grapes', 'vivc-appellation-grapes.json');
const OUT_SOURCES = path.join(ROOT, 'data', 'sources', 'appellation-grapes.json');
// German umlauts are written both ways ("Mueller Thurgau", "Müller-Thurgau"): both sides compare with them folded away
const key = (s) => fold(exactForm(s.replace(/ue/g, 'ü').replace(/ae/g, 'ä').replace(/oe/g, 'ö').replace(/Ue/g, 'Ü')));
const writeWhole = (file, data) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(data, null, 1) + '\n');
  fs.renameSync(`${file}.tmp`, file);
};

const SOURCES = [
  {
    key: 'eambrosia-single-docs-candiago-2024',
    title: 'EU wine PDO single documents (eAmbrosia), grape varieties of the Italian and French PDOs, as extracted by Candiago et al. 2024, "Quality wines in Italy and France"',
    publisher: 'European Commission (eAmbrosia register); extraction by S. Candiago et al.',
    authority: 'official_register',
    url: 'https://ec.europa.eu/agriculture/eambrosia/geographical-indications-register/',
    licence: 'register documents reused with acknowledgement (Commission Decision 2011/833/EU); the dataset is CC BY 4.0 (figshare 25393261)',
    accessed: '2026-11-26',
    notes: 'Grape rules read through the authors\' extraction of each PDO\'s single document, not in the document itself: the register\'s class is kept and the copy marked (retrieved_via, kind dataset; the extraction is a peer-reviewed academic dataset), so a rule set resting on it never says "required" or a share. Principal/secondary per wine type as the authors recorded them; Italian "secondary" lists are the region\'s whole list of suitable varieties; OIV prime names, not local names; a 2021-22 snapshot (later amendments missing). Lead table: ../shared/reference/appellation-grapes-leads.csv.',
    retrieved_via: { url: 'https://github.com/plotly/Figure-Friday/blob/d21de6d5/2024/week-46/PDO_wine_data_IT_FR.csv', kind: 'dataset', note: 'Candiago et al. 2024, figshare 25393261 (CC BY 4.0), as copied to plotly/Figure-Friday commit d21de6d5' },
  },
  {
    key: 'eambrosia-single-docs-candiago-2022',
    title: 'EU wine PDO single documents (eAmbrosia), grape varieties of PDOs of 19 member states, as extracted by Candiago et al. 2022, Scientific Data 9:394',
    publisher: 'European Commission (eAmbrosia register); extraction by S. Candiago et al.',
    authority: 'official_register',
    url: 'https://ec.europa.eu/agriculture/eambrosia/geographical-indications-register/',
    licence: 'register documents reused with acknowledgement (Commission Decision 2011/833/EU); the dataset is CC BY 4.0 or CC0 (figshare collection 5877659; downstream copies disagree)',
    accessed: '2026-11-26',
    notes: 'Grape rules read through the authors\' extraction (data as of 2021-11-04), not in the single documents themselves: the register\'s class is kept and the copy marked (retrieved_via, kind dataset); varieties listed with no principal/secondary split, so every one is "permitted"; OIV prime names. Lead table: ../shared/reference/appellation-grapes-leads.csv.',
    retrieved_via: { url: 'https://github.com/NicolasBelissent/geospatial_a_la_francaise/blob/e0c4a1ac/PDO_EU_id.csv', kind: 'dataset', note: 'Candiago et al. 2022 (Scientific Data 9:394, figshare collection 5877659), as copied to NicolasBelissent/geospatial_a_la_francaise commit e0c4a1ac' },
  },
  {
    key: 'vivc-full-scrape',
    title: 'Vitis International Variety Catalogue (VIVC): passport numbers, prime names, berry colour and country of origin',
    publisher: 'Julius Kühn-Institut (JKI), Institute for Grapevine Breeding Geilweilerhof',
    authority: 'variety_catalogue',
    url: 'https://www.vivc.de/',
    licence: 'identifiers, prime names, berry colour and country of origin cited as facts; no prose copied (VIVC states no data licence)',
    accessed: '2026-11-26',
    notes: 'Read in a copy of a third-party scrape of VIVC (VIVC crawled by country of origin), not on vivc.de: ../shared/reference/vivc-prime-names-full.csv. It agrees with an older VIVC prime-name list on 8,640 of 8,642 shared numbers and with a raw VIVC passport export on every row checked.',
    retrieved_via: { url: 'https://github.com/djtrack16/wine_grapes/tree/d7ab08270c4b0537793bd6aa1229a5f4a761da47/docs/grape', kind: 'scrape', note: 'djtrack16/wine_grapes commit d7ab082 (2026-01-13), docs/grape/<n>/index.html and docs/grapes.json' },
  },
];
const SOURCE_OF = (publisher) => (publisher.includes('2024') ? SOURCES[0].key : SOURCES[1].key);

const leads = parseCsv(fs.readFileSync(path.join(REF, 'appellation-grapes-leads.csv'), 'utf8')).filter((r) => r.source_publisher.startsWith('European Commission eAmbrosia'));
const vivcRows = parseCsv(fs.readFileSync(path.join(REF, 'vivc-prime-names-full.csv'), 'utf8'));

// the knowledge base without this script's own outputs, so a run is repeatable
const { kb } = loadKnowledgeBase(path.join(ROOT, 'data'));
const own = new Set([OUT_GRAPES, OUT_RULES].map((f) => path.relative(path.join(ROOT, 'data'), f)));
const entities = kb.entities.filter((e) => !own.has(e.file));

const grapeByName = new Map(); // folded name → grape keys
const anyName = new Map(); // folded name → entity keys (all families)
for (const e of entities) {
  const names = [e.name, ...e.aliases.map((a) => a.name)];
  if (e.type === 'grape' && typeof e.facts.vivc_prime_name?.value === 'string') names.push(e.facts.vivc_prime_name.value);
  for (const n of names) {
    const k = key(n);
    if (!anyName.has(k)) anyName.set(k, new Set());
    anyName.get(k).add(e.key);
    if (e.type === 'grape') {
      if (!grapeByName.has(k)) grapeByName.set(k, new Set());
      grapeByName.get(k).add(e.key);
    }
  }
}
// this script's previous output: the grapes it has served (their keys stay)
const previous = new Map(fs.existsSync(OUT_GRAPES) ? JSON.parse(fs.readFileSync(OUT_GRAPES, 'utf8')).map((r) => [r.key, r]) : []);
const grapeByVivc = new Map();
for (const e of entities) if (e.type === 'grape' && typeof e.facts.vivc_id?.value === 'string') grapeByVivc.set(e.facts.vivc_id.value, e.key);
const vivcByName = new Map();
for (const r of vivcRows) {
  const k = key(r.prime_name.replace(/\s+/g, ' '));
  if (!vivcByName.has(k)) vivcByName.set(k, []);
  vivcByName.get(k).push(r);
}
const geoByFile = new Map();
for (const e of entities) if (e.type === 'wine_geography' && typeof e.facts.file_number?.value === 'string') geoByFile.set(e.facts.file_number.value, e.key);
// records kept without a file number (data/geographies/famous.json: Beaujolais, Alsace, Douro…): the PDO of
// the same name in the same country, when exactly one appellation record has that name there
const isoOf = new Map(entities.filter((e) => e.facts.level?.value === 'country').map((e) => [key(e.name), e.facts.country?.value]));
const geoByNameCountry = new Map();
for (const e of entities) {
  if (e.type !== 'wine_geography' || e.facts.level?.value !== 'appellation' || e.facts.file_number) continue;
  const k = `${key(e.name)}|${e.facts.country?.value}`;
  geoByNameCountry.set(k, geoByNameCountry.has(k) ? null : e.key);
}

const COLOUR = { BLANC: 'blanc', NOIR: 'noir', GRIS: 'gris', ROSE: 'rose', ROUGE: 'rouge' };
const slug = (s) => fold(exactForm(s)).replace(/ /g, '-');
const titleCase = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim().replace(/(^|[\s\-'(])(\p{L})/gu, (m, a, b) => a + b.toUpperCase());
const newGrapes = new Map(); // key → record
const stats = { rows: leads.length, noAppellation: 0, matchedExisting: 0, matchedNew: 0, unmatched: new Map(), ambiguousName: 0, nameTaken: 0 };

/** A grape record from a row of the fuller VIVC table, every fact cited to VIVC through the scrape. */
function vivcGrape(key, name, row, notes) {
  const loc = `https://www.vivc.de/index.php?r=passport%2Fview&id=${row.vivc_number}`;
  const cite = (value) => ({ value, source: 'vivc-full-scrape', locator: loc });
  const facts = { vivc_id: cite(row.vivc_number), vivc_prime_name: cite(row.prime_name.replace(/\s+/g, ' ').trim()) };
  if (COLOUR[row.berry_colour]) facts.berry_colour = cite(COLOUR[row.berry_colour]);
  if (row.country_of_origin) facts.country_of_origin = cite(row.country_of_origin);
  return { key, type: 'grape', name, review: 'reviewed', aliases: [], facts, notes };
}

// the variety crosswalk (data/grape-crosswalk.json, tools/derive/grape-crosswalk.mjs; issue 34, item 1):
// a row for the name in the set's country, else one for every country, settles the name before any
// name or prime-name match; a row without a VIVC number leaves the name unmapped with its reason
const crosswalk = new Map();
for (const row of JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'grape-crosswalk.json'), 'utf8'))) crosswalk.set(`${key(row.name)}|${row.country ?? ''}`, row);
const vivcByNumber = new Map(vivcRows.map((r) => [r.vivc_number, r]));
stats.crosswalk = 0;
stats.crosswalkConflicts = new Map();

/** The grape a crosswalk row names: the served record of its VIVC number, else a new VIVC-backed record. */
function grapeOfRow(name, row) {
  if (!row.vivc_number) { stats.unmatched.set(name, (stats.unmatched.get(name) ?? 0) + 1); return { reason: row.reason }; }
  stats.crosswalk++;
  const existing = grapeByVivc.get(row.vivc_number) ?? [...newGrapes.values()].find((g) => g.facts.vivc_id.value === row.vivc_number)?.key;
  if (existing) { stats.matchedExisting++; return { key: existing }; }
  const vrow = vivcByNumber.get(row.vivc_number);
  const gkey = `grape/${slug(vrow.prime_name.replace(/\s+/g, ' '))}`;
  const before = previous.get(gkey);
  if ((entities.some((e) => e.key === gkey) || anyName.has(key(vrow.prime_name.replace(/\s+/g, ' ')))) && before?.facts?.vivc_id?.value !== row.vivc_number) { stats.nameTaken++; return { reason: 'name_of_another_entity' }; }
  newGrapes.set(gkey, vivcGrape(gkey, titleCase(vrow.prime_name), vrow,
    `Named in the grape rules of an EU wine PDO (eAmbrosia single document, as extracted by Candiago et al.) as "${name}"; tied to VIVC ${row.vivc_number} "${vrow.prime_name.replace(/\s+/g, ' ').trim()}" by the variety crosswalk (data/grape-crosswalk.json, source ${row.source}).`));
  stats.matchedNew++;
  return { key: gkey };
}

/**
 * The grape key a lead name stands for, creating a VIVC-backed record when none exists; else why not
 * ({ reason }: the name is then listed in its set's `unmapped`, never dropped silently; issue 34, item 2).
 */
function grapeFor(name, country) {
  const k = key(name);
  const cw = crosswalk.get(`${k}|${country ?? ''}`) ?? crosswalk.get(`${k}|`);
  // a row read off a register's synonym list does not overrule a served grape the name already names with
  // another VIVC number (the register's "Zibibbo, synonym Duraca" against VIVC's DURACA): the conflict is
  // reported and the name keeps its match; a hand row (read and cited one by one) always wins
  const named = grapeByName.get(k);
  const namedVivc = named?.size === 1 ? entities.find((e) => e.key === [...named][0])?.facts.vivc_id?.value : undefined;
  if (cw && cw.basis !== 'hand' && namedVivc && cw.vivc_number && namedVivc !== cw.vivc_number) {
    stats.crosswalkConflicts.set(`${name} (${country ?? 'any'}): crosswalk VIVC ${cw.vivc_number}, grape ${[...named][0]} VIVC ${namedVivc}`, true);
  } else if (cw) return grapeOfRow(name, cw);
  const have = grapeByName.get(k);
  if (have?.size === 1) { stats.matchedExisting++; return { key: [...have][0] }; }
  if (have && have.size > 1) { stats.ambiguousName++; return { reason: 'several_grapes' }; }
  const rows = vivcByName.get(k);
  if (!rows || rows.length !== 1) { stats.unmatched.set(name, (stats.unmatched.get(name) ?? 0) + 1); return { reason: rows ? 'several_vivc_numbers' : 'no_vivc_match' }; }
  const row = rows[0];
  const existing = grapeByVivc.get(row.vivc_number);
  if (existing) { stats.matchedExisting++; return { key: existing }; }
  const gkey = `grape/${slug(name)}`;
  // a grape this script served before keeps its id, even when a name added since collides with it (ids are
  // forever; the collision is a declared ambiguity, data/ambiguities/)
  const before = previous.get(gkey);
  const kept = before?.facts?.vivc_id?.value === row.vivc_number;
  if (anyName.has(k) && !kept) { stats.nameTaken++; return { reason: 'name_of_another_entity' }; }
  if (!newGrapes.has(gkey)) {
    if (entities.some((e) => e.key === gkey)) { stats.nameTaken++; return { reason: 'name_of_another_entity' }; }
    newGrapes.set(gkey, vivcGrape(gkey, /^[\p{Lu}\s\-']+$/u.test(name) ? titleCase(name) : name, row,
      `Named in the grape rules of an EU wine PDO (eAmbrosia single document, as extracted by Candiago et al.); matched to VIVC ${row.vivc_number} "${row.prime_name.trim()}" by exact prime name (case, accents and spacing aside).`));
  }
  stats.matchedNew++;
  return { key: gkey };
}

// grapes that the rule sets read in official texts name by a key no record holds yet: each key is the
// slug of a VIVC prime name (data/appellation-grapes/*.json other than this script's output)
const ruleDir = path.join(ROOT, 'data', 'appellation-grapes');
const vivcBySlug = new Map();
for (const r of vivcRows) {
  const k = slug(r.prime_name.replace(/\s+/g, ' '));
  if (!vivcBySlug.has(k)) vivcBySlug.set(k, []);
  vivcBySlug.get(k).push(r);
}
for (const f of fs.readdirSync(ruleDir).filter((x) => x.endsWith('.json') && path.join(ruleDir, x) !== OUT_RULES).sort()) {
  for (const set of JSON.parse(fs.readFileSync(path.join(ruleDir, f), 'utf8'))) {
    for (const g of set.grapes) {
      if (entities.some((e) => e.key === g.grape) || newGrapes.has(g.grape)) continue;
      const rows = vivcBySlug.get(g.grape.slice('grape/'.length));
      if (rows?.length !== 1) { console.log(`no single VIVC row for ${g.grape} (${set.appellation}, ${f})`); continue; }
      const row = rows[0];
      newGrapes.set(g.grape, vivcGrape(g.grape, titleCase(row.prime_name), row,
        `Named in the grape rules of ${set.appellation} (data/appellation-grapes/${f}, source ${set.source}); VIVC ${row.vivc_number} "${row.prime_name.trim()}".`));
    }
  }
}

// one rule set per PDO: a grape named principal for some wine type is principal, else permitted; a name
// that maps to no grape is listed in the set's `unmapped` with the reason, and the set is `complete: false`
const sets = new Map(); // geo key → {source, file, grapes: Map, unmapped: Map, rows: []}
for (const r of leads) {
  const geo = geoByFile.get(r.file_number) ?? geoByFile.get(r.file_number.split('-AM')[0]) ?? geoByNameCountry.get(`${key(r.appellation)}|${isoOf.get(key(r.country))}`) ?? undefined;
  if (!geo) { stats.noAppellation++; continue; }
  if (!sets.has(geo)) sets.set(geo, { source: SOURCE_OF(r.source_publisher), file: r.file_number, grapes: new Map(), unmapped: new Map(), rows: [] });
  const set = sets.get(geo);
  const g = grapeFor(r.grape, isoOf.get(key(r.country)));
  set.rows.push({ r, g });
  if (!g.key) {
    if (!set.unmapped.has(r.grape)) set.unmapped.set(r.grape, { name: r.grape, reason: g.reason });
    continue;
  }
  const principal = /principal \(([^)]*)\)/.exec(r.role);
  const cur = set.grapes.get(g.key);
  if (principal) set.grapes.set(g.key, { grape: g.key, role: 'principal', min_share: null, max_share: null, scope: principal[1] });
  else if (!cur) set.grapes.set(g.key, { grape: g.key, role: 'permitted', min_share: null, max_share: null, scope: null });
}
// the derivation fails when a name of a served PDO's rows is neither mapped nor listed (issue 34, item 2)
for (const [geo, set] of sets) {
  for (const { r, g } of set.rows) {
    if (g.key ? !set.grapes.has(g.key) : !set.unmapped.has(r.grape)) throw new Error(`${geo}: "${r.grape}" (file ${r.file_number}) was dropped without being listed`);
  }
}
const rules = [...sets].sort(([a], [b]) => (a < b ? -1 : 1)).map(([appellation, s]) => ({
  appellation,
  source: s.source,
  locator: `eAmbrosia single document of file ${s.file}: grape varieties (as extracted in the dataset)`,
  scope: null,
  complete: s.unmapped.size === 0,
  ...(s.unmapped.size ? { unmapped: [...s.unmapped.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) } : {}),
  grapes: [...s.grapes.values()].sort((a, b) => (a.role === b.role ? (a.grape < b.grape ? -1 : 1) : a.role === 'principal' ? -1 : 1)),
}));
const partial = rules.filter((r) => !r.complete).length;
console.log(`sets: ${rules.length - partial} complete, ${partial} partial (complete: false, with their unmapped names), ${rules.filter((r) => !r.grapes.length).length} with no mapped name`);
writeWhole(OUT_RULES, rules);
writeWhole(OUT_GRAPES, [...newGrapes.values()].sort((a, b) => (a.key < b.key ? -1 : 1)));
writeWhole(OUT_SOURCES, SOURCES);
const unmatched = [...stats.unmatched].sort((a, b) => b[1] - a[1]);
console.log(`${stats.rows} dataset rows; ${rules.length} appellations with rules; ${newGrapes.size} new grapes`);
const servedRows = stats.rows - stats.noAppellation;
const mappedRows = stats.matchedExisting + stats.matchedNew;
console.log(`rows of served PDOs: ${servedRows}; mapped ${mappedRows} (${(100 * mappedRows / servedRows).toFixed(1)}%), ${stats.crosswalk} of them through the crosswalk`);
console.log(`rows: ${stats.matchedExisting} to served grapes, ${stats.matchedNew} to new VIVC-backed grapes, ${stats.noAppellation} of PDOs we do not serve, ${stats.ambiguousName} names of several grapes, ${stats.nameTaken} names another entity holds, ${unmatched.reduce((n, [, c]) => n + c, 0)} unmatched (${unmatched.length} names)`);
if (stats.crosswalkConflicts.size) console.log(`crosswalk rows not applied (a served grape already has the name with another VIVC number): ${[...stats.crosswalkConflicts.keys()].join('; ')}`);
console.log(`most frequent unmatched: ${unmatched.slice(0, 25).map(([n, c]) => `${n} (${c})`).join(', ')}`);
