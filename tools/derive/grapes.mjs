// Derives data/grapes/vivc.json from the VIVC community index (reference table) plus
// the hand-curated, source-cited synonyms in tools/derive/grape-synonyms.json.
//
//   node tools/derive/grapes.mjs          (run from the repository root or anywhere)
//
// Plain Node ESM, no dependencies. The reference CSV is read from ../shared/reference
// relative to the repository root and is never copied into the repo; facts are cited to
// the original publisher (source key `vivc`, locator = VIVC passport URL).
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const CSV = resolve(repo, '..', 'shared', 'reference', 'vivc-grape-index.csv');
const SYN = join(here, 'grape-synonyms.json');
const OUT = join(repo, 'data', 'grapes', 'vivc.json');

const passport = (id) => `https://www.vivc.de/index.php?r=passport%2Fview&id=${id}`;
const COLOURS = new Set(['blanc', 'noir', 'gris', 'rose', 'rouge']);

// ---- Row corrections (documented; see the report of the session that wrote this file) ----
// The index README lists known-wrong rows. Fixes below are backed by pages read with the
// search tool; the sources are registered in data/sources/grapes.json.
const ROW_FIXES = {
  // 'Grewicz' is mapped to VIVC 13127 / VIURA in the index, which is wrong for Grewicz.
  // VIVC 13127 is Macabeo (Viura = its second main name): Wikipedia's Macabeo infobox gives
  // VIVC number 13127 and wein.plus lists Viura as a Macabeo synonym. The record is re-keyed
  // to Macabeo; the unconfirmed prime-name column is not used.
  '13127': {
    key: 'grape/macabeo', name: 'Macabeo', usePrime: false,
    country: { value: 'SPAIN', source: 'wein-plus-macabeo', locator: 'https://glossary.wein.plus/macabeo (opening sentence: originates from Spain)' },
    colour: { source: 'wein-plus-macabeo', locator: 'https://glossary.wein.plus/macabeo (white grape variety)' },
  },
  // Grüner Veltliner is given as ITALY in the index (known error). wein.plus states the
  // variety originates from Austria.
  '12930': {
    country: { value: 'AUSTRIA', source: 'wein-plus-gruner-veltliner', locator: 'https://glossary.wein.plus/falkensteiner (opening sentence: originates from Austria)' },
  },
};
// Rows kept as drafts (not served) because something in them could not be confirmed:
//  576 'Arene' / 9200 'Petit Roja': trade names look garbled relative to the prime names;
//  2863 Corvina / 2864 Corvinone: a stored German-Wikipedia copy gives VIVC 2863 for
//    Corvinone Veronese, contradicting the index (2863 = Corvina, 2864 = Corvinone);
//  13601 'Vitis vinifera': a species entry with unknown colour, not a variety.
const DRAFT_IDS = new Set(['576', '9200', '2863', '2864', '13601']);

// Terms deliberately given to a record although they also name another grape; each is
// backed by a source saying so and must be declared as ambiguous by the lead.
//  Auxerrois: Cahors name for Malbec (wein.plus Cot entry; JancisRobinson.com) and also
//    the name of the white variety grape/auxerrois (wein.plus: not a colour mutation of it).
//  Traminer: Savagnin Blanc is "also known as Traminer" (JancisRobinson.com; wein.plus),
//    while wein.plus notes that plain "Traminer" usually means Gewürztraminer.
const AMBIGUOUS_OK = {
  auxerrois: new Set(['grape/malbec']),
  traminer: new Set(['grape/savagnin', 'grape/gewurztraminer']),
};

// ---- helpers ----
const stripMarks = (s) => s.normalize('NFD').replace(/\p{M}+/gu, '');
const slug = (s) => stripMarks(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
const norm = (s) => stripMarks(s).toLowerCase().replace(/[’'`´.·\-_/]+/g, ' ').replace(/\s+/g, ' ').trim();
const LOWER_WORDS = new Set(['a', 'de', 'di', 'du', 'des', 'del', 'dal', 'la', 'le', 'da', 'do', 'dos']);
const titleCase = (s) => s.trim().replace(/\s+/g, ' ').split(' ').map((w, i) =>
  w.split(/([-'])/).map((p) => {
    if (p === '-' || p === "'") return p;
    const l = p.toLowerCase();
    if (i > 0 && LOWER_WORDS.has(l)) return l;
    return l.charAt(0).toUpperCase() + l.slice(1);
  }).join('')).join(' ');
const PRIME_LANG = { SPAIN: 'es', PORTUGAL: 'pt', ITALY: 'it', FRANCE: 'fr', GERMANY: 'de', AUSTRIA: 'de' };

// source authority ranking (used to pick which source an alias is cited to when several agree)
const sourcesDir = join(repo, 'data', 'sources');
const authority = new Map();
for (const f of readdirSync(sourcesDir).filter((f) => f.endsWith('.json'))) {
  for (const s of JSON.parse(readFileSync(join(sourcesDir, f), 'utf8'))) authority.set(s.key, s.authority);
}
const RANK = { regulator: 0, official_register: 0, official_regional_wine_body: 1, trade_body: 2, variety_catalogue: 3, wine_press: 4, educational_body: 5, style_guideline: 6 };
const rankOf = (src) => {
  if (!authority.has(src)) throw new Error(`unknown source key ${src}`);
  let r = RANK[authority.get(src)] ?? 9;
  if (src.startsWith('wein-plus-')) r += 0.5; // prefer edited reference works over the lexicon
  return r;
};

// ---- read the index ----
const lines = readFileSync(CSV, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim());
const header = lines.shift().split(',');
const col = (n) => header.indexOf(n);
const rows = lines.map((l) => {
  const c = l.split(',');
  if (c.length !== header.length) throw new Error(`unexpected column count: ${l}`);
  return {
    name: c[col('name')].trim(), prime: c[col('vivc_prime_name_if_different')].trim(), id: c[col('vivc_id')].trim(),
    country: c[col('country')].trim(), group: c[col('group')].trim(), colour: c[col('berry_colour')].trim(),
  };
});

const records = [];
const byKey = new Map();
for (const r of rows) {
  const fix = ROW_FIXES[r.id] || {};
  const key = fix.key || `grape/${slug(r.name)}`;
  if (byKey.has(key)) throw new Error(`duplicate key ${key}`);
  const loc = passport(r.id);
  const facts = { vivc_id: { value: r.id, source: 'vivc', locator: loc } };
  const usePrime = fix.usePrime !== false && r.prime;
  if (usePrime) facts.vivc_prime_name = { value: r.prime.replace(/\s+/g, ' '), source: 'vivc', locator: loc };
  const colour = r.colour.toLowerCase();
  if (COLOURS.has(colour)) facts.berry_colour = fix.colour ? { value: colour, ...fix.colour } : { value: colour, source: 'vivc', locator: loc };
  if (fix.country) facts.country_of_origin = { ...fix.country };
  else if (r.country) facts.country_of_origin = { value: r.country, source: 'vivc', locator: loc };
  if (r.group) facts.species_group = { value: r.group, source: 'vivc', locator: loc };
  const rec = { key, type: 'grape', name: fix.name || r.name, review: DRAFT_IDS.has(r.id) ? 'draft' : 'reviewed', aliases: [], facts };
  rec._cands = [];
  if (usePrime) {
    rec._cands.push({ name: titleCase(r.prime), lang: PRIME_LANG[fix.country?.value || r.country] && r.group === 'Vinifera' ? PRIME_LANG[fix.country?.value || r.country] : 'und',
      kind: 'synonym', source: 'vivc', locator: `${loc} (prime name)` });
  }
  records.push(rec); byKey.set(key, rec);
}

// ---- merge curated synonyms ----
const syn = JSON.parse(readFileSync(SYN, 'utf8'));
for (const s of syn) {
  const rec = byKey.get(s.key);
  if (!rec) throw new Error(`synonym for unknown record ${s.key}: ${s.name}`);
  rankOf(s.source);
  rec._cands.push({ name: s.name, lang: s.lang, kind: s.kind, source: s.source,
    locator: s.note ? `${s.locator}; ${s.note}` : s.locator });
}

// ---- resolve: dedupe, drop self-names, drop cross-record collisions ----
const nameOwner = new Map(records.map((r) => [norm(r.name), r.key]));
const holders = new Map(); // norm alias -> Set(record keys)
for (const rec of records) {
  const seen = new Map();
  for (const c of rec._cands) {
    const n = norm(c.name);
    if (!n || n === norm(rec.name)) continue;
    const prev = seen.get(n);
    // prefer a current-name citation over a former (expired) one, then the higher authority
    const score = (x) => (x.kind === 'former_name' ? 100 : 0) + rankOf(x.source);
    if (!prev || score(c) < score(prev)) seen.set(n, c);
  }
  rec._uniq = seen;
  for (const n of seen.keys()) { if (!holders.has(n)) holders.set(n, new Set()); holders.get(n).add(rec.key); }
}
const dropped = [];
for (const rec of records) {
  for (const [n, c] of rec._uniq) {
    const allowed = AMBIGUOUS_OK[n]?.has(rec.key);
    const other = nameOwner.get(n);
    if (other && other !== rec.key && !allowed) { dropped.push(`${c.name} @${rec.key} (name of ${other})`); continue; }
    if (holders.get(n).size > 1 && !allowed) { dropped.push(`${c.name} @${rec.key} (also on ${[...holders.get(n)].filter((k) => k !== rec.key).join(', ')})`); continue; }
    rec.aliases.push({ name: c.name, lang: c.lang, kind: c.kind, source: c.source, locator: c.locator });
  }
  rec.aliases.sort((a, b) => rankOf(a.source) - rankOf(b.source) || a.name.localeCompare(b.name));
  delete rec._cands; delete rec._uniq;
}

records.sort((a, b) => a.key.localeCompare(b.key));
writeFileSync(OUT, JSON.stringify(records, null, 1) + '\n');

const served = records.filter((r) => r.review !== 'draft');
console.log(`records: ${records.length} (reviewed ${served.length}, draft ${records.length - served.length})`);
console.log(`aliases: ${records.reduce((n, r) => n + r.aliases.length, 0)} (served: ${served.reduce((n, r) => n + r.aliases.length, 0)})`);
console.log(`dropped as ambiguous/colliding: ${dropped.length}`);
if (process.argv.includes('--verbose')) for (const d of dropped) console.log('  drop', d);
