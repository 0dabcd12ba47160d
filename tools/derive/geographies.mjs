// Derive wine-geography records (type "wine_geography") from the reference tables.
//
// Inputs (facts only, cited to their ORIGINAL publishers):
//   /work/shared/reference/us-avas.csv               -> source `ttb-27cfr9`   (27 CFR Part 9, Subpart C)
//   /work/shared/reference/eu-gi-register-sample.csv -> source `eu-eambrosia` (EU GI register)
//   /work/shared/reference/eu-gi-wines-eambrosia-2020.csv -> source `eu-eambrosia` (eAmbrosia export,
//        mid-2020: every wine GI; rows with status Registered only, amendment files `-AMnn` skipped)
// Outputs:
//   data/geographies/countries.json   country records (US + every country with a registered EU wine GI)
//                                      and one region record per US state that has an AVA in force
//   data/geographies/us-avas.json     one appellation per American Viticultural Area in force
//   data/geographies/eu-wine-gis.json one appellation per registered EU wine GI (product_type WINE)
//
// Read-only inputs: data/geographies/famous.json and regions.json (hand-curated; a GI they already
// hold, by file number or by name + country, is not derived again) and every other
// data/geographies/*.json file (their keys are reserved so that no key is produced twice).
//
// Optional grape facts come from GRAPES below; each entry names the page that was read.
// The level/country facts of the country records and the facts of the US-state records cite the
// sources of COUNTRY_CITATION and STATE_CITATION below (issue 24), not an AVA section or the file
// of one appellation; a country absent from COUNTRY_CITATION keeps the eAmbrosia file that first
// named it.
//
// Run from the repository root:  node tools/derive/geographies.mjs
import { readFileSync, writeFileSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv, slug as latinSlug } from './beer-styles.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REF = resolve(ROOT, '..', 'shared', 'reference');
const OUT_DIR = join(ROOT, 'data', 'geographies');

// ---------------------------------------------------------------- slugs
// Slug rule: lowercase, fold accents (NFKD, strip marks; ß->ss, æ->ae, ø->o, ł->l),
// non [a-z0-9] runs -> "-", trim hyphens. Names in Greek or Cyrillic script are first
// transliterated (ELOT 743-style Greek, Bulgarian Streamlined System); this only shapes the
// key, the record keeps the protected name exactly as registered.
const GREEK_DI = [['ου', 'ou'], ['αυ', 'av'], ['ευ', 'ev'], ['γγ', 'ng'], ['γκ', 'gk'], ['μπ', 'mp'], ['ντ', 'nt']];
const GREEK = { α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm',
  ν: 'n', ξ: 'x', ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o' };
const CYR = { а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l',
  м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'sht', ъ: 'a', ь: 'y', ю: 'yu', я: 'ya' };
function translit(s) {
  let t = s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
  for (const [g, l] of GREEK_DI) t = t.split(g).join(l);
  return [...t].map(c => GREEK[c] ?? CYR[c] ?? c).join('');
}
const isLatin = (s) => !/[^\p{Script=Latin}\p{Script=Common}\p{M}]/u.test(s);
const slug = (s) => latinSlug(translit(s));

// ---------------------------------------------------------------- names
// English short names for the ISO 3166-1 / USPS codes that occur in the tables.
const COUNTRY = { US: 'United States', FR: 'France', IT: 'Italy', ES: 'Spain', DE: 'Germany', AT: 'Austria',
  PT: 'Portugal', GR: 'Greece', HU: 'Hungary', RO: 'Romania', BG: 'Bulgaria', HR: 'Croatia', MT: 'Malta',
  LU: 'Luxembourg', SK: 'Slovakia', CN: 'China', CH: 'Switzerland', SI: 'Slovenia', CZ: 'Czechia', CY: 'Cyprus',
  BE: 'Belgium', NL: 'Netherlands', DK: 'Denmark', GB: 'United Kingdom', BR: 'Brazil' };
const US_STATE = { AR: 'Arkansas', AZ: 'Arizona', CA: 'California', CO: 'Colorado', CT: 'Connecticut',
  GA: 'Georgia', HI: 'Hawaii', IA: 'Iowa', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', KY: 'Kentucky',
  LA: 'Louisiana', MA: 'Massachusetts', MD: 'Maryland', MI: 'Michigan', MN: 'Minnesota', MO: 'Missouri',
  MS: 'Mississippi', NC: 'North Carolina', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York', OH: 'Ohio',
  OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island', TN: 'Tennessee', TX: 'Texas',
  VA: 'Virginia', WA: 'Washington', WI: 'Wisconsin', WV: 'West Virginia' };
// Language of protected names, by the GI's country. Anything not listed -> "und".
const LANG = { FR: 'fr', IT: 'it', ES: 'es', DE: 'de', AT: 'de', PT: 'pt', GR: 'el', HU: 'hu', RO: 'ro',
  BG: 'bg', HR: 'hr', SK: 'sk', LU: 'fr', CZ: 'cs', SI: 'sl', NL: 'nl', DK: 'da', CY: 'el', MT: 'mt', GB: 'en',
  BR: 'pt', US: 'en' };
// Protected names whose language is evidently not the country's main language.
const LANG_OVERRIDE = {
  'Beneških okolišev': 'sl', 'Tri Benečije': 'sl', 'Furlanija': 'sl', 'Furlanija Julijska krajina': 'sl',
  'Moscato di Momiano': 'it', 'Għawdex': 'mt', 'Tullum': 'und',
  // 2020 export: German names of South Tyrol / Trentino GIs, French of Valle d'Aosta, Catalan and
  // Galician names of Spanish GIs, the Latin name Histonium, a bilingual Italian/Slovene name.
  'Südtirol': 'de', 'Südtiroler': 'de', 'Kalterersee': 'de', 'Kalterer': 'de', 'Etschtaler': 'de',
  'Weinberg Dolomiten': 'de', "Vallée d'Aoste": 'fr', 'Catalunya': 'ca', 'Eivissa': 'ca', 'Illa de Menorca': 'ca',
  'Val do Miño-Ourense': 'gl', 'Histonium': 'la', 'Carso - Kras': 'und',
};
// Script decides first: Greek script is Greek, Cyrillic is Bulgarian (the only Cyrillic GIs are
// Bulgarian), Han is Chinese; otherwise the override table, then the country table.
const GREEK_RE = /\p{Script=Greek}/u, CYR_RE = /\p{Script=Cyrillic}/u, HAN_RE = /\p{Script=Han}/u;
function langOf(n, cc) {
  if (LANG_OVERRIDE[n]) return LANG_OVERRIDE[n];
  if (GREEK_RE.test(n)) return 'el';
  if (CYR_RE.test(n)) return cc === 'BG' ? 'bg' : 'und';
  if (cc === 'CN') return HAN_RE.test(n) ? 'zh' : 'zh-Latn';
  if ((cc === 'GR' || cc === 'CY') && isLatin(n)) return 'el-Latn';
  if (cc === 'BG' && isLatin(n)) return 'bg-Latn';
  return LANG[cc] ?? 'und';
}

// ---------------------------------------------------------------- grapes (optional)
// entity key -> { grapes: [grape keys], source, locator }. Filled only from pages actually read.
// Grape keys are slugs of names in the VIVC index's `name` column; a variety the regulation
// names but that has no row there (e.g. "Trebbiano di Soave") cannot be keyed and is left out,
// which the locator says.
const GRAPES = {
  'geo/barolo': { grapes: ['grape/nebbiolo'], source: 'hellotaste-barolo-disciplinare',
    locator: 'Art. 2 (base ampelografica): exclusively Nebbiolo' },
  'geo/gavi': { grapes: ['grape/cortese'], source: 'consorzio-gavi-disciplinare',
    locator: 'Article 2 (Ampelographic area): exclusively Cortese' },
  'geo/pouilly-fuisse': { grapes: ['grape/chardonnay'], source: 'bivb-pouilly-fuisse',
    locator: 'appellation page, header "White wines only - Chardonnay"' },
  'geo/soave-superiore': { grapes: ['grape/garganega', 'grape/chardonnay'], source: 'gu-soave-superiore-2019',
    locator: 'Allegato 1, Art. 2: Garganega min. 70%; Trebbiano di Soave (nostrano) and Chardonnay max. 30% (Trebbiano di Soave has no key in the grape index and is not listed; up to 5% other non-aromatic white varieties also allowed)' },
  'geo/soave': { grapes: ['grape/garganega', 'grape/chardonnay'], source: 'hellotaste-soave-disciplinare',
    locator: 'Articolo 2: Garganega min. 70%; Trebbiano di Soave (nostrano) and Chardonnay max. 30% (Trebbiano di Soave has no key in the grape index and is not listed; up to 5% other non-aromatic white varieties also allowed)' },
};

// ---------------------------------------------------------------- helpers
const fact = (value, source, locator) => ({ value, source, locator });

// ---------------------------------------------------------------- country and state citations
// A source that names the country as a wine-producing country, read for this purpose (issue 24).
// OIV: the oiv.int page of member states (47 members as of 6 November 2018), by its Italian names.
// China is no OIV member (only Yantai and Ningxia are observers): a news report of the OIV's figures.
const OIV_2018 = (name) => ({ source: 'nw-oiv-member-states-2018', locator: `Stati Membri (47 member states, 6 Nov 2018): ${name}` });
const COUNTRY_CITATION = {
  FR: OIV_2018('Francia'), IT: OIV_2018('Italia'), ES: OIV_2018('Spagna'), DE: OIV_2018('Germania'),
  AT: OIV_2018('Austria'), GR: OIV_2018('Grecia'), HU: OIV_2018('Ungheria'),
  RO: OIV_2018('Romania'), BG: OIV_2018('Bulgaria'), HR: OIV_2018('Croazia'), MT: OIV_2018('Malta'),
  LU: OIV_2018('Lussemburgo'), SK: OIV_2018('Slovacchia'), SI: OIV_2018('Slovenia'), CZ: OIV_2018('Repubblica Ceca'),
  CY: OIV_2018('Cipro'), BE: OIV_2018('Belgio'), NL: OIV_2018('Paesi Bassi'), BR: OIV_2018('Brasile'),
  CN: { source: 'ecns-oiv-china-vineyards-2015',
    locator: 'China has become world\'s second largest vineyard owner: OIV (29 April 2015): China\'s wine production in 2014',
    excerpt: 'The global wine production in 2014 stood at 279 million hectoliters, of which China contributed 11.1 million hectoliters, said Aurand on Monday', lang: 'en' },
  DK: { source: 'dk-fvst-faglige-nyheder-vin-2019',
    locator: 'Faglige nyheder om vin (8 April 2019): Denmark officially a wine-producing country since 2000; Fødevarestyrelsen the authority for Danish wine production',
    excerpt: 'Danmark blev officielt et vinproducerende land i 2000.', lang: 'da' },
  GB: { source: 'gov-uk-wine-trade-regulations',
    locator: 'Wine trade: regulations, "Wine laws in the United Kingdom": the FSA Wine Standards Branch enforces wine laws, UK vineyards must register',
    excerpt: 'The Food Standards Agency (FSA) enforces wine laws in the UK through its Wine Standards Branch, with which UK vineyards must register.', lang: 'en' },
};
// A US State is an American wine appellation of origin (TTB, under 27 CFR 4.25); the AVA sections of
// Part 9 define viticultural areas, not States.
const STATE_CITATION = (stateName) => ({ source: 'ttb-wine-appellations-of-origin',
  locator: `Wine Appellations of Origin, "Authorized Wine Appellations of Origin: United States Appellations" (the 50 States; definition under 27 CFR 4.25): state of ${stateName}`,
  excerpt: 'These are the approved U.S. viticultural areas identified in 27 CFR part 9, the 50 States, and U.S. counties.', lang: 'en' });
const cited = (value, c, withExcerpt = false) => ({ value, source: c.source, locator: c.locator,
  ...(withExcerpt && c.excerpt ? { source_excerpt: c.excerpt, language_code: c.lang } : {}) });
// A country record: level and country cite COUNTRY_CITATION, else the eAmbrosia file `loc`.
function countryRecord(cc, loc) {
  const c = COUNTRY_CITATION[cc] ?? { source: 'eu-eambrosia', locator: `${loc} (country ${cc})` };
  return { key: `geo/${slug(COUNTRY[cc])}`, type: 'wine_geography', name: COUNTRY[cc], review: 'reviewed', aliases: [],
    facts: { level: cited('country', c, true), country: cited(cc, c) } };
}
const split = (s, sep = '|') => s.split(sep).map(x => x.trim()).filter(Boolean);
const uniq = (a) => [...new Set(a)];

function rowVersion(id) {
  // UC Davis ids: "<name>" is the current boundary, "<name>_<yyyymmdd>[_a|_b]" (or a 6-digit
  // date) an earlier one. Newest = no suffix; otherwise the latest date suffix.
  const m = id.match(/_(\d{6,8})(?:_[a-z])?$/);
  if (!m) return '99999999';
  const d = m[1];
  return d.length === 8 ? d : (Number(d.slice(4)) > 50 ? '19' : '20') + d.slice(4) + d.slice(0, 4); // mmddyy
}

// Generic words that are no name of one place (kb validate rejects them as AVA aliases too).
const GENERIC_AKA = new Set(['delta', 'valley', 'coast', 'hills', 'mountain', 'mountains', 'river', 'lake', 'bench', 'highlands', 'mesa', 'ridge']);

// aka column: comma-separated names, with a few free-text cells handled explicitly.
function parseAka(name, aka) {
  if (!aka) return [];
  if (name === 'Mount Pisgah, Polk County, Oregon') return [aka.trim()];   // commas belong to the name
  // "refered by many newspaper articles as ..." (Diablo Grande, 9.156): names used by the press, not
  // given by the CFR section they would be cited to, so none is taken.
  if (/refered by/i.test(aka)) return [];
  return split(aka, ',')
    // "Kelseyfille Bench" (sic) is left out: a misspelling we cannot confirm against a page read.
    .filter(a => a !== 'Kelseyfille Bench')
    // a generic word ("Delta" for Mississippi Delta) names no one place
    .filter(a => !GENERIC_AKA.has(a.toLowerCase()));
}

// `within` cells carry a few broken splits; repair them before matching names.
function parseWithin(w) {
  const parts = split(w.replace(/\n/g, ''), '|').flatMap(p => split(p, ','));
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i], n = parts[i + 1];
    if (p === 'Upper Mississippi' && n === 'River Valley') { out.push('Upper Mississippi River Valley'); i++; }
    else if (p === 'Solano County' && n === 'Green Valley') { out.push('Solano County Green Valley'); i++; }
    else out.push(p);
  }
  return out;
}

function main() {
  const countries = new Map(); // code -> record
  const records = { countries: [], avas: [], eu: [] };
  const keys = new Map();       // key -> record
  const addKey = (rec) => { if (keys.has(rec.key)) throw new Error(`key clash ${rec.key}`); keys.set(rec.key, rec); };

  // ============================ US AVAs ============================
  const avaRows = parseCsv(readFileSync(join(REF, 'us-avas.csv'), 'utf8'));
  const groups = new Map(); // cfr_index -> rows (one AVA per CFR section; its name may have changed)
  for (const r of avaRows) {
    if (r.removed.trim()) continue; // no longer in force
    const k = r.cfr_index.trim();
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  const avas = [];
  for (const [idx, rows] of groups) {
    rows.sort((a, b) => rowVersion(a.ava_id).localeCompare(rowVersion(b.ava_id)));
    const cur = rows[rows.length - 1];
    const name = cur.name.trim();
    const former = uniq(rows.map(r => r.name.trim()).filter(n => n !== name));
    const akas = uniq(rows.flatMap(r => parseAka(r.name.trim(), r.aka.trim())))
      .filter(a => a !== name && !former.includes(a));
    avas.push({ idx, cur, name, former, akas, formerRows: rows.filter(r => r.name.trim() !== name),
      created: rows.map(r => r.created.trim()).filter(d => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort()[0],
      states: uniq(split(cur.state)), counties: uniq(split(cur.county)), within: parseWithin(cur.within) });
  }
  const byName = new Map();
  for (const a of avas) { byName.set(a.name, a); for (const f of a.former) if (!byName.has(f)) byName.set(f, a); }

  // Parent rule: of the AVAs named in `within` that exist here (current or former names),
  // take the most specific one = the deepest in the containment chain (depth = 1 + the
  // deepest of its own containing AVAs). Ties: the one with fewer counties. No containing
  // AVA -> the state record if the AVA lies in one state, else the country record geo/us.
  const depthMemo = new Map();
  const depth = (a, seen = new Set()) => {
    if (depthMemo.has(a)) return depthMemo.get(a);
    if (seen.has(a)) return 0;
    seen.add(a);
    const ps = a.within.map(n => byName.get(n)).filter(p => p && p !== a);
    const d = ps.length ? 1 + Math.max(...ps.map(p => depth(p, seen))) : 0;
    depthMemo.set(a, d);
    return d;
  };
  const unresolvedWithin = new Set();
  for (const a of avas) {
    const ps = uniq(a.within.map(n => { const p = byName.get(n); if (!p) unresolvedWithin.add(n); return p; })
      .filter(p => p && p !== a && !p.within.map(n => byName.get(n)).includes(a)));
    ps.sort((x, y) => depth(y) - depth(x) || x.counties.length - y.counties.length);
    a.parentAva = ps[0] || null;
  }

  // keys
  for (const a of avas) a.key = `geo/${slug(a.name)}`;

  // US country + state records (exist because AVAs in them are listed in 27 CFR 9)
  const firstIdx = (arr) => arr.sort((x, y) => Number(x.idx.slice(2)) - Number(y.idx.slice(2)))[0];
  const usFirst = firstIdx([...avas]);
  const us = { key: 'geo/us', type: 'wine_geography', name: COUNTRY.US, review: 'reviewed', aliases: [],
    facts: { level: fact('country', 'ttb-27cfr9', `27 CFR Part 9, Subpart C (American viticultural areas; first section 27 CFR ${usFirst.idx})`),
      country: fact('US', 'ttb-27cfr9', '27 CFR Part 9, Subpart C') } };
  countries.set('US', us); addKey(us); records.countries.push(us);
  const stateKey = new Map();
  const allStates = uniq(avas.flatMap(a => a.states)).sort();
  for (const st of allStates) {
    if (!US_STATE[st]) throw new Error(`unknown state code ${st}`);
    const c = STATE_CITATION(US_STATE[st]);
    const rec = { key: `geo/${slug(US_STATE[st])}`, type: 'wine_geography', name: US_STATE[st], review: 'reviewed', aliases: [],
      facts: { level: cited('region', c, true), parent: cited('geo/us', c),
        country: cited('US', c), states: cited([st], c) } };
    stateKey.set(st, rec.key); addKey(rec); records.countries.push(rec);
  }

  for (const a of avas) {
    const loc = `27 CFR ${a.idx}`;
    const t = (v) => fact(v, 'ttb-27cfr9', loc);
    const parent = a.parentAva ? a.parentAva.key : (a.states.length === 1 ? stateKey.get(a.states[0]) : 'geo/us');
    const facts = { level: t('appellation'), parent: t(parent), country: t('US'), classification: t('AVA'),
      cfr_section: t(`27 CFR ${a.idx}`) };
    // established = the earliest creation date over the section's versions (the rows agree
    // except High Valley, 9.189, whose newest row carries 2023-07-05 and the older 2005-08-01).
    if (a.created) facts.established = t(a.created);
    if (a.states.length) facts.states = t(a.states);
    if (a.counties.length) facts.counties = t(a.counties);
    const aliases = [
      ...a.former.map(n => ({ name: n, lang: 'en', kind: 'former_name', source: 'ttb-27cfr9',
        locator: `${loc} (earlier version of the section named "${n}")` })),
      ...a.akas.map(n => ({ name: n, lang: 'en', kind: 'synonym', source: 'ttb-27cfr9', locator: `${loc} (also known as)` })),
    ];
    const rec = { key: a.key, type: 'wine_geography', name: a.name, review: 'reviewed', aliases, facts };
    addKey(rec); records.avas.push(rec);
  }

  // ============================ EU wine GIs ============================
  const euRows = parseCsv(readFileSync(join(REF, 'eu-gi-register-sample.csv'), 'utf8'))
    .filter(r => r.product_type.trim() === 'WINE');
  const skipped = euRows.filter(r => r.status.trim() !== 'registered');
  const reg = euRows.filter(r => r.status.trim() === 'registered');
  const merged = [];
  for (const r of reg) {
    const cc = r.countries.trim();
    const names = split(r.protected_names);
    const canonical = names[0];
    const loc = `file ${r.file_number.trim()}`;
    const e = (v) => fact(v, 'eu-eambrosia', loc);
    // country record
    if (!countries.has(cc)) {
      if (!COUNTRY[cc]) throw new Error(`unknown country ${cc}`);
      const c = countryRecord(cc, loc);
      countries.set(cc, c); addKey(c); records.countries.push(c);
    }
    const slugName = names.find(isLatin) ?? canonical;
    let key = `geo/${slug(slugName)}`;
    const existing = keys.get(key);
    if (existing && cc === 'US' && existing.facts.classification?.value === 'AVA' && existing.name === canonical) {
      // Same place as a US AVA (e.g. Willamette Valley, protected in the EU as a PGI):
      // keep one entity, add the EU register's identifiers to it.
      existing.facts.file_number = e(r.file_number.trim());
      if (r.legal_instrument.trim()) existing.facts.legal_reference = e(r.legal_instrument.trim());
      merged.push(`${canonical} (${r.file_number.trim()}) -> ${key}`);
      continue;
    }
    if (existing) key = `${key}-${cc.toLowerCase()}`;
    const facts = { level: e('appellation'), parent: e(countries.get(cc).key), country: e(cc),
      classification: e(r.gi_type.trim()), file_number: e(r.file_number.trim()) };
    if (r.legal_instrument.trim()) facts.legal_reference = e(r.legal_instrument.trim());
    if (/^\d{4}-\d{2}-\d{2}$/.test(r.eu_protection_date.trim())) facts.established = e(r.eu_protection_date.trim());
    const aliases = names.slice(1).map(n => ({ name: n,
      lang: langOf(n, cc),
      kind: 'protected_name', source: 'eu-eambrosia', locator: `${loc} (protected names)` }));
    const rec = { key, type: 'wine_geography', name: canonical, review: 'reviewed', aliases, facts };
    addKey(rec); records.eu.push(rec);
  }

  // ---- the full eAmbrosia export (mid-2020): every registered wine GI not in the sample above.
  // The sample is the later snapshot (it has 2021 registrations and later name changes, e.g.
  // PGI-IT-A0862 "Trevenezie", and the Cyrillic "Сакар" where the export has the Latin look-alike
  // "Cakap"), so a file number present in both keeps its sample-derived record and key.
  const norm = (x) => x.normalize('NFC').toLowerCase().replace(/[\s\-‐-―_]+/g, '');
  const curated = [];
  for (const f of ['famous.json', 'regions.json']) curated.push(...JSON.parse(readFileSync(join(OUT_DIR, f), 'utf8')));
  const curatedFile = new Map(curated.filter(c => c.facts.file_number).map(c => [c.facts.file_number.value, c.key]));
  const curatedName = new Map();
  for (const c of curated) for (const n of [c.name, ...c.aliases.map(a => a.name)])
    curatedName.set(`${c.facts.country?.value}:${norm(n)}`, c.key);
  // Keys held by every other geography file (read-only for this script) are reserved.
  const mine = new Set(['countries.json', 'us-avas.json', 'eu-wine-gis.json']);
  const reserved = new Map();
  for (const f of readdirSync(OUT_DIR).filter(f => f.endsWith('.json') && !mine.has(f)).sort())
    for (const r of JSON.parse(readFileSync(join(OUT_DIR, f), 'utf8'))) reserved.set(r.key, f);
  const countryKey = (cc) => countries.get(cc)?.key ?? (cc === 'PT' ? 'geo/portugal' : null);
  const sampleFiles = new Set(parseCsv(readFileSync(join(REF, 'eu-gi-register-sample.csv'), 'utf8')).map(r => r.file_number.trim()));
  const exportRows = parseCsv(readFileSync(join(REF, 'eu-gi-wines-eambrosia-2020.csv'), 'utf8'));
  const skipped2020 = { amendment: 0, notRegistered: 0, inSample: 0, curated: [], us: [], duplicate: [] };
  const dmy = (d) => { const m = d.trim().match(/^(\d{2})\/(\d{2})\/(\d{4})$/); return m ? `${m[3]}-${m[2]}-${m[1]}` : null; };
  const groups2020 = new Map(); // name + country + type -> rows (the register repeats a few names under several files)
  for (const r of exportRows) {
    const fn = r.filenumber.trim();
    if (/-AM\d+$/.test(fn)) { skipped2020.amendment++; continue; }
    if (r.status.trim() !== 'Registered') { skipped2020.notRegistered++; continue; }
    if (sampleFiles.has(fn)) { skipped2020.inSample++; continue; }
    const ccs = fn.split('-')[1].split('+');
    const gi = fn.startsWith('PDO-') ? 'PDO' : fn.startsWith('PGI-') ? 'PGI' : null;
    if (!gi) throw new Error(`unexpected file number ${fn}`);
    const names = split(r.name, ' / ');
    const cc = ccs[0];
    const hit = curatedFile.get(fn) ?? names.map(n => curatedName.get(`${cc}:${norm(n)}`)).find(Boolean);
    if (hit) { skipped2020.curated.push(`${names[0]} (${fn}) -> ${hit}`); continue; }
    if (cc === 'US') {
      // Napa Valley (PDO-US-17738) is the AVA geo/napa-valley; us-avas.json is kept byte-identical,
      // so the EU file number is not added to it here (reported instead).
      skipped2020.us.push(`${names[0]} (${fn})`); continue;
    }
    const g = `${norm(names[0])}|${ccs.join('+')}|${gi}`;
    if (!groups2020.has(g)) groups2020.set(g, { names, ccs, gi, rows: [] });
    groups2020.get(g).rows.push(r);
  }
  for (const { names, ccs, gi, rows } of groups2020.values()) {
    const r = rows[0];
    const fn = r.filenumber.trim();
    const cc = ccs[0];
    const others = rows.slice(1).map(x => x.filenumber.trim());
    if (others.length) skipped2020.duplicate.push(`${names[0]}: ${fn} kept, ${others.join(', ')} same name`);
    const loc = `file ${fn}`;
    const e = (v) => fact(v, 'eu-eambrosia', loc);
    for (const c of ccs) if (!countryKey(c)) {
      if (!COUNTRY[c]) throw new Error(`unknown country ${c}`);
      const rec = countryRecord(c, loc);
      countries.set(c, rec); addKey(rec); records.countries.push(rec);
    }
    const base = `geo/${slug(names.find(isLatin) ?? names[0])}`;
    const taken = (k) => keys.has(k) || reserved.has(k);
    const cands = [base, `${base}-${cc.toLowerCase()}`, `${base}-${gi.toLowerCase()}`, `${base}-${cc.toLowerCase()}-${gi.toLowerCase()}`];
    const key = cands.find(k => !taken(k));
    if (!key) throw new Error(`no free key for ${names[0]} ${fn}`);
    const facts = { level: e('appellation'), parent: e(countryKey(cc)) };
    if (ccs.length === 1) facts.country = e(cc);
    else facts.parent = fact(countryKey(cc), 'eu-eambrosia', `${loc} (cross-border GI of ${ccs.join(', ')}; parent = first country of the file number)`);
    facts.classification = e(gi);
    facts.file_number = others.length
      ? fact(fn, 'eu-eambrosia', `${loc} (the register also lists the same name under ${others.join(', ')})`) : e(fn);
    const li = r.legalinstrument.trim().replace(/\s+/g, ' ');
    if (li) facts.legal_reference = e(li);
    const d = dmy(r.dateregistration);
    if (d) facts.established = e(d);
    const aliases = names.slice(1).map(n => ({ name: n, lang: langOf(n, cc), kind: 'protected_name',
      source: 'eu-eambrosia', locator: `${loc} (protected names)` }));
    const rec = { key, type: 'wine_geography', name: names[0], review: 'reviewed', aliases, facts };
    addKey(rec); records.eu.push(rec);
  }

  // grapes (keys must be slugs of VIVC index names)
  const vivcKeys = new Set(parseCsv(readFileSync(join(REF, 'vivc-grape-index.csv'), 'utf8')).map(r => `grape/${latinSlug(r.name)}`));
  for (const [k, g] of Object.entries(GRAPES)) {
    for (const gk of g.grapes) if (!vivcKeys.has(gk)) throw new Error(`grape key ${gk} not in the VIVC index names`);
    const rec = keys.get(k);
    if (!rec) throw new Error(`grapes for unknown ${k}`);
    rec.facts.grapes = fact(g.grapes, g.source, g.locator);
  }

  mkdirSync(OUT_DIR, { recursive: true });
  const write = (f, arr) => { const t = join(OUT_DIR, `.${f}.tmp`); writeFileSync(t, JSON.stringify(arr, null, 2) + '\n'); renameSync(t, join(OUT_DIR, f)); };
  write('countries.json', records.countries);
  write('us-avas.json', records.avas);
  write('eu-wine-gis.json', records.eu);

  // ---- report
  const all = [...records.countries, ...records.avas, ...records.eu];
  const count = (f) => all.reduce((m, r) => (m[f(r)] = (m[f(r)] || 0) + 1, m), {});
  console.log('records', all.length, 'aliases', all.reduce((s, r) => s + r.aliases.length, 0));
  console.log('per level', count(r => r.facts.level.value));
  console.log('per country', count(r => r.facts.country?.value ?? 'multi'));
  console.log('merged', merged);
  console.log('skipped (not registered)', skipped.map(r => `${r.protected_names} ${r.file_number} ${r.status}`));
  console.log('unresolved within names', [...unresolvedWithin]);
  console.log('2020 export skipped:', { amendment: skipped2020.amendment, notRegistered: skipped2020.notRegistered, inSample: skipped2020.inSample });
  console.log('2020 export: held by famous.json/regions.json', skipped2020.curated);
  console.log('2020 export: US rows not derived', skipped2020.us);
  console.log('2020 export: same name under several files (one record)', skipped2020.duplicate);
  console.log('EU wine GI records', records.eu.length, 'countries', records.countries.filter(r => r.facts.level.value === 'country').length);
}

main();
