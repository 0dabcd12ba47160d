// Country and first-level subdivision names in every language, from Unicode CLDR.
//
// Country names: read from Node's ICU (Intl.DisplayNames, type region: the long form and style
// 'short', i.e. CLDR's "-alt-short"), for every locale of cldr-core's availableLocales.json ("full")
// at modern coverage (see COVERAGE below) that Intl supports with its own data. CLDR's "-alt-variant" forms (e.g. en CZ-alt-variant) are not
// exposed by Intl; they are read from the package cldr-localenames-full when it is installed (it is
// not a dependency today, so none are emitted).
// Subdivision names: read from the npm package cldr-subdivisions-full (subdivisions/<locale>/<locale>.json),
// only for the subdivisions tied by hand to a wine geography record in SUBDIVISION_TIES below.
// Retail short forms: en alt-short forms that are abbreviations ("UK") and the ISO 3166-1 alpha-3 codes
// of CLDR's supplemental codeMappings (cldr-core), kind "abbreviation", lang "und".
//
// Rules (also in the notes of the source record):
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
// - a name that another entity also carries is dropped unless declared in DECLARE (written to
//   data/ambiguities/cldr.json); see COLLISIONS in the console output of a run.
//
// Outputs (written whole, via a temp file + rename):
//   data/aliases/cldr-countries.json      aliases of the 53 country records
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
// record key -> CLDR subdivision code, and why the record is that place (the whole subdivision).
const US_STATES = {
  arkansas: 'usar', arizona: 'usaz', california: 'usca', colorado: 'usco', connecticut: 'usct', georgia: 'usga',
  hawaii: 'ushi', iowa: 'usia', idaho: 'usid', illinois: 'usil', indiana: 'usin', kentucky: 'usky', louisiana: 'usla',
  massachusetts: 'usma', maryland: 'usmd', michigan: 'usmi', minnesota: 'usmn', missouri: 'usmo', mississippi: 'usms',
  'north-carolina': 'usnc', 'new-jersey': 'usnj', 'new-mexico': 'usnm', 'new-york': 'usny', ohio: 'usoh', oklahoma: 'usok',
  oregon: 'usor', pennsylvania: 'uspa', 'rhode-island': 'usri', tennessee: 'ustn', texas: 'ustx', virginia: 'usva',
  washington: 'uswa', wisconsin: 'uswi', 'west-virginia': 'uswv',
};
const OEWM = "Österreich Wein Marketing, oesterreichwein.at/unser-wein/weinbaugebiete";
export const SUBDIVISION_TIES = {
  ...Object.fromEntries(Object.entries(US_STATES).map(([k, code]) => [`geo/${k}`, { code, why: 'state-level region record: facts.states is this one state, level region, cited to 27 CFR as the state (a state name is a US appellation of origin)' }])),
  'geo/england': { code: 'gbeng', why: "region record whose level fact cites the UK 'English' PDO specification, 'DEMARCATION: ENGLAND' (the demarcated area is England)" },
  'geo/scotland': { code: 'gbsct', why: 'region record for Scotland (level region, parent United Kingdom), cited to HMRC SPIR3260: Scotch whisky is distilled and matured only in Scotland; the CLDR subdivision is Scotland itself' },
  'geo/wales': { code: 'gbwls', why: 'region record for Wales (level region, parent United Kingdom), cited to the Welsh Government: vineyards throughout Wales; the CLDR subdivision is Wales itself' },
  'geo/valais': { code: 'chvs', why: 'region record for the canton: cited to the Valais cantonal wine ordinance (FAOLEX: territorial subdivision Valais)' },
  'geo/tasmania': { code: 'autas', why: 'state GI: Wine Australia, each state is a protected GI term' },
  'geo/victoria': { code: 'auvic', why: 'state GI: Wine Australia, each state is a protected GI term' },
  'geo/new-south-wales': { code: 'aunsw', why: 'state GI: Wine Australia, each state is a protected GI term' },
  'geo/south-australia': { code: 'ausa', why: 'state GI: Wine Australia, each state is a protected GI term' },
  'geo/western-australia': { code: 'auwa', why: 'state GI: Wine Australia, each state is a protected GI term' },
  'geo/western-cape': { code: 'zawc', why: 'Wine of Origin geographical unit named for the province (region record named for it)' },
  'geo/northern-cape': { code: 'zanc', why: 'Wine of Origin geographical unit named for the province (region record named for it)' },
  'geo/eastern-cape': { code: 'zaec', why: 'Wine of Origin geographical unit named for the province (region record named for it)' },
  'geo/kwazulu-natal': { code: 'zakzn', why: 'Wine of Origin geographical unit named for the province (region record named for it)' },
  'geo/limpopo': { code: 'zalp', why: 'Wine of Origin geographical unit named for the province (region record named for it)' },
  'geo/free-state': { code: 'zafs', why: 'Wine of Origin geographical unit named for the province (region record named for it)' },
  'geo/mendoza': { code: 'arm', why: 'the province record (tools/derive/new-world.mjs: Argentina, province -> region)' },
  'geo/ontario': { code: 'caon', why: 'the province record (tools/derive/new-world.mjs: Canada, province -> region)' },
  'geo/british-columbia': { code: 'cabc', why: 'the province record (tools/derive/new-world.mjs: Canada, province -> region); "British Columbia" is the main GI' },
  'geo/hokkaido': { code: 'jp01', why: 'GI whose cited geographical area is Hokkaido Prefecture (record locator)' },
  'geo/yamagata': { code: 'jp06', why: 'GI whose cited geographical area is Yamagata Prefecture (record locator)' },
  'geo/yamanashi': { code: 'jp19', why: 'GI whose cited geographical area is Yamanashi Prefecture (record locator)' },
  'geo/atacama': { code: 'clat', why: 'DO viticultural region covering the III Región Administrativa (record locator, Decree 464 Art. 1)' },
  'geo/coquimbo': { code: 'clco', why: 'DO viticultural region covering the IV Región Administrativa (record locator, Decree 464 Art. 1)' },
  'geo/toscano': { code: 'it52', why: "PGI Toscano/Toscana: production area the whole territory of the provinces Arezzo, Firenze, Grosseto, Livorno, Lucca, Massa-Carrara, Pisa, Pistoia, Prato and Siena (Fondazione Qualivita, qualigeo.eu/prodotto-qualigeo/toscano-igp), which are exactly the ten provinces CLDR's subdivisionContainment lists under it52" },
  'geo/sicilia': { code: 'it82', why: "PDO Sicilia: 'Zona di produzione: L'intero territorio amministrativo della Regione Sicilia' (disciplinare summary on disciplinare.it; AIS: 'comprende interamente la regione Sicilia')" },
  'geo/burgenland': { code: 'at1', why: `PDO named for the Land: 'Die Bundesländer Niederösterreich, Burgenland und Steiermark sind als eigene Weinbaugebiete definiert' (${OEWM})` },
  'geo/niederosterreich': { code: 'at3', why: `PDO named for the Land: the Bundesländer Niederösterreich, Burgenland and Steiermark are defined as Weinbaugebiete of their own (${OEWM})` },
  'geo/steiermark': { code: 'at6', why: `PDO named for the Land: the Bundesländer Niederösterreich, Burgenland and Steiermark are defined as Weinbaugebiete of their own (${OEWM})` },
  'geo/karnten': { code: 'at2', why: `Weinbaugebiet of the Bergland region, which consists of the Bundesländer Tirol, Vorarlberg, Salzburg, Oberösterreich and Kärnten, one Weinbaugebiet each (${OEWM}; wein-tirol.at/weinbauregionen)` },
  'geo/oberosterreich': { code: 'at4', why: `Weinbaugebiet of the Bergland region, which consists of the Bundesländer Tirol, Vorarlberg, Salzburg, Oberösterreich and Kärnten, one Weinbaugebiet each (${OEWM}; wein-tirol.at/weinbauregionen)` },
  'geo/salzburg': { code: 'at5', why: `Weinbaugebiet of the Bergland region, which consists of the Bundesländer Tirol, Vorarlberg, Salzburg, Oberösterreich and Kärnten, one Weinbaugebiet each (${OEWM}; wein-tirol.at/weinbauregionen)` },
  'geo/tirol': { code: 'at7', why: `Weinbaugebiet of the Bergland region, which consists of the Bundesländer Tirol, Vorarlberg, Salzburg, Oberösterreich and Kärnten, one Weinbaugebiet each (${OEWM}; wein-tirol.at/weinbauregionen)` },
  'geo/vorarlberg': { code: 'at8', why: `Weinbaugebiet of the Bergland region, which consists of the Bundesländer Tirol, Vorarlberg, Salzburg, Oberösterreich and Kärnten, one Weinbaugebiet each (${OEWM}; wein-tirol.at/weinbauregionen)` },
};
// Looked at and left out (the record is not shown to be the whole subdivision): see the report of
// 2026-11-26. Among them: geo/wien (at9), geo/piemonte (it21), geo/friuli (it36), other Italian
// regional PGIs/PDOs (Veneto, Puglia, Campania, Marche, Lazio, Umbria, Basilicata, Calabria, Abruzzo,
// Molise), Spanish, Greek, Dutch and Portuguese GIs named like a subdivision, New Zealand wine GIs
// named like a region, Hungarian PDOs named like a city or county, geo/kakheti, geo/stefan-voda.

// ------------------------------------------------------------------ declared shared names
// exactForm -> note. A CLDR name that another entity also carries is declared only when listed here;
// otherwise it is dropped (and reported).
const DECLARE = {};

// names dropped on purpose (exactForm): ISO alpha-3 codes that are common words in the KB's languages
// or in drink names, and other-language names that are such words.
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
  // Chili (fr, Chile), Romani (ln, Romania), Moloko (kde, Morocco), Tunis (uz, Tunisia: the city),
  // Tunes (kab, Tunisia)
  'poo', 'end', 'hind', 'indie', 'indy', 'sin', 'chin', 'shine', 'kina', 'malt', 'malto', 'gris', 'chili', 'romani',
  'moloko', 'tunis', 'tunes',
  // Sire (kgp, Chile), tuns (shi-Latn, Tunisia), Helene (haw, Greece: a person's name), Bulgari (jv, Bulgaria:
  // a brand), Brasilia (fi, Brazil: the capital), Israeli (sw, Israel: the English adjective)
  'sire', 'tuns', 'helene', 'bulgari', 'brasilia', 'israeli',
]);
// a shared name kept for one entity only (exactForm -> key): the other side's forms are dropped
const PREFER = {
  // sw (CLDR subdivisions gbeng) gives it for England; luy, dav, ebu, guz, jmc, kam, mas, rof, rwk, saq,
  // teo, vun (territory GB) for the United Kingdom
  uingereza: 'geo/england',
};

// ------------------------------------------------------------------ helpers
// the KB's own name comparison (src/engine/normalize.ts exactForm)
const fold = (s) => s.replace(/[ßæøłœđþðı]/g, (c) => ({ ß: 'ss', æ: 'ae', ø: 'o', ł: 'l', œ: 'oe', đ: 'd', þ: 'th', ð: 'd', ı: 'i' })[c]).normalize('NFKD').replace(/\p{M}+/gu, '');
const exact = (s) => s.normalize('NFC').toLowerCase().replace(/['’‘`´ʼ]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
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
const stats = { skippedLocales: [], dropped: { own: 0, iso: 0, short: 0, word: 0, collision: 0 } };
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

// subdivision names (cldr-subdivisions-full)
const subDir = join(dirname(require.resolve('cldr-subdivisions-full/package.json')), 'subdivisions');
const subLocales = readdirSync(subDir).sort();
const subNames = new Map(); // locale -> {code: name}
for (const l of subLocales) {
  const d = JSON.parse(readFileSync(join(subDir, l, `${l.replace(/-/g, '_')}.json`), 'utf8')).subdivisions;
  subNames.set(l, d.localeDisplayNames.subdivisions);
}
const subTerritory = (code) => code.slice(0, 2).toUpperCase();
for (const [key, { code }] of Object.entries(SUBDIVISION_TIES)) {
  if (!records.has(key)) throw new Error(`SUBDIVISION_TIES: ${key} is not a record`);
  if (!subNames.get('en')[code]) throw new Error(`SUBDIVISION_TIES: ${code} has no CLDR name`);
  for (const locale of subLocales) {
    const n = subNames.get(locale)[code];
    if (!n) continue;
    const parent = crossParent(locale);
    if (parent && subNames.get(parent)?.[code] === n) continue;
    addCand(key, n, { locale, lang: langOf(locale), kind: 'other_language', locator: `CLDR ${CLDR_MAJOR} subdivisions, ${code}, locale ${locale}` });
  }
}

// ------------------------------------------------------------------ choose, filter, check collisions
const chosen = new Map(); // key -> [{k, alias}]
for (const [key, m] of candidates) {
  const r = records.get(key);
  const territory = SUBDIVISION_TIES[key] && r.facts.level.value !== 'country' ? subTerritory(SUBDIVISION_TIES[key].code) : r.facts.country.value;
  const mine = new Set([r.name, ...r.aliases.map((a) => a.name)].map(exact));
  const iso2 = exact(r.facts.country?.value ?? '');
  for (const [k, { name, cands }] of m) {
    if (mine.has(k)) { stats.dropped.own++; continue; }
    if (k === iso2 || k === exact(territory)) { stats.dropped.iso++; continue; }
    const c = pick(cands, territory);
    if (!c.keepShort && tooShort(name)) { stats.dropped.short++; continue; }
    if (DROP.has(k)) { stats.dropped.word++; continue; }
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
// collisions: with other entities' names, and among the new aliases themselves
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
  const elsewhere = declaredElsewhere.get(k);
  const coveredElsewhere = elsewhere && [...all].every((x) => elsewhere.has(x));
  const declare = !elsewhere && DECLARE[k];
  const prefer = PREFER[k] && keys.has(PREFER[k]) && !(owners.get(k)?.size) ? PREFER[k] : null;
  const entries = [...keys].flatMap((key) => chosen.get(key).filter((x) => x.k === k).map((x) => ({ key, ...x })));
  collisions.push({ k, all: [...all], names: entries.map((e) => `${e.alias.name} [${e.key}: ${e.alias.lang}, ${e.locales.join(' ')}]`), action: coveredElsewhere ? 'declared elsewhere' : declare ? 'declared' : prefer ? `kept for ${prefer} only` : 'dropped' });
  if (declare) ambiguities.push({ term: entries[0].alias.name, entities: [...all].sort(), note: declare });
  else if (!coveredElsewhere) {
    for (const key of keys) {
      if (key === prefer) continue;
      chosen.set(key, chosen.get(key).filter((x) => x.k !== k));
      stats.dropped.collision++;
    }
  }
}

// ------------------------------------------------------------------ write
const order = (keys) => keys.filter((k) => chosen.get(k)?.length);
const countryKeys = order(countryRecords.map((r) => r.key));
const subKeys = order(Object.keys(SUBDIVISION_TIES));
const block = (keys) => keys.map((entity) => ({ entity, aliases: chosen.get(entity).map((x) => x.alias) }));
writeWhole(OUT.countries, block(countryKeys));
writeWhole(OUT.subdivisions, block(subKeys));
writeWhole(OUT.ambiguities, ambiguities.sort((a, b) => a.term.localeCompare(b.term)));
writeWhole(OUT.source, [{
  key: SOURCE,
  title: `Unicode Common Locale Data Repository (CLDR) ${CLDR_MAJOR}`,
  publisher: 'Unicode, Inc.',
  authority: 'official_register',
  url: 'https://cldr.unicode.org/',
  licence: 'Unicode License v3',
  accessed: '2026-11-26',
  notes: `Country names were read from Node's ICU ${ICU} (CLDR ${CLDR}) with Intl.DisplayNames (region names, long and short style) for every locale of cldr-core ${CORE} availableLocales ${COVERAGE === 'all' ? '' : `at ${COVERAGE} coverage (coverageLevels.json) `}that ICU holds data for; ISO 3166-1 alpha-3 codes from CLDR supplemental codeMappings (cldr-core ${CORE}); subdivision names from the cldr-subdivisions-full ${SUBS} npm package. Derived by tools/derive/cldr-names.mjs: one alias per distinct name, given under an official language of the territory where one writes it, else the language with most speakers (CLDR territoryInfo).`,
}]);

// ------------------------------------------------------------------ report
const count = (keys) => keys.reduce((n, k) => n + chosen.get(k).length, 0);
const byLang = (keys) => {
  const m = {};
  for (const k of keys) for (const { alias } of chosen.get(k)) m[alias.lang] = (m[alias.lang] ?? 0) + 1;
  return Object.entries(m).sort((a, b) => b[1] - a[1]);
};
console.log(`locales: ${locales.length} used, ${stats.skippedLocales.length} skipped (no data of their own): ${stats.skippedLocales.join(' ')}`);
console.log(`countries: ${count(countryKeys)} aliases on ${countryKeys.length} records`);
console.log(`subdivisions: ${count(subKeys)} aliases on ${subKeys.length} records (${Object.keys(SUBDIVISION_TIES).length} ties)`);
console.log(`dropped: ${JSON.stringify(stats.dropped)}`);
console.log(`by language (countries): ${byLang(countryKeys).map(([l, n]) => `${l} ${n}`).join(', ')}`);
console.log(`by language (subdivisions): ${byLang(subKeys).map(([l, n]) => `${l} ${n}`).join(', ')}`);
console.log(`COLLISIONS (${collisions.length}):`);
for (const c of collisions) console.log(`  ${c.action}: "${c.k}" ${c.all.join(', ')} <- ${c.names.join(' | ')}`);
