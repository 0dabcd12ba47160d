// Derives data/grapes/demand.json: grape varieties that the demand set (test/resolve/demand-queries.json)
// asks for by a name that is not itself a VIVC prime name, matched to their VIVC number through a
// synonym that a source we read states for that name (issue 8, part "Grapes").
//
//   node --import tsx scripts/derive-grapes-demand.ts
//
// Input: the curated entries below (names, synonyms and facts transcribed from the pages cited in
// data/sources/grapes-demand.json; no page text is stored). The VIVC number comes only from a row of
// ../shared/reference/vivc-prime-names.csv whose prime name equals the stated synonym exactly (case,
// accents, spacing and punctuation aside); the row is read at run time and never copied. An entry whose
// synonym has no such row, or several, stops the script. Names that already name or alias another
// entity, or are out-of-scope terms, stop the script too (no new shared names from this list).
import { readFileSync, writeFileSync, readdirSync, renameSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const PRIMES = resolve(repo, '..', 'shared', 'reference', 'vivc-prime-names.csv');
const OUT = join(repo, 'data', 'grapes', 'demand.json');
const passport = (id: string) => `https://www.vivc.de/index.php?r=passport%2Fview&id=${id}`;

type Alias = { name: string; lang: string; kind: string; source: string; locator: string };
type Fact = { value: string; source: string; locator: string };
type Entry = {
  key: string; name: string; demand: string; primeSynonym: string; synonymSource: string; synonymLocator: string;
  colour: Fact; country: Fact; aliases: Alias[]; nameSource: string;
};

const WP_FRAPPATO = 'https://glossary.wein.plus/frappato';
const WP_AIDANI = 'https://glossary.wein.plus/aidani-aspro';
const VITIS_AIDANI = 'http://vitis.agroknow.com/variety/65/GRC';

const ENTRIES: Entry[] = [
  {
    key: 'grape/frappato', name: 'Frappato', demand: 'Frappato',
    nameSource: 'winemag-wine-reviews-variety',
    primeSynonym: 'Frappato di Vittoria', synonymSource: 'wein-plus-frappato', synonymLocator: `${WP_FRAPPATO} (synonym list in the opening paragraph)`,
    colour: { value: 'noir', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (opening sentence: red grape variety)` },
    country: { value: 'ITALY', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (opening sentence: comes from the island of Sicily, Italy)` },
    aliases: [
      { name: 'Frappato Nero', lang: 'it', kind: 'synonym', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (synonym list in the opening paragraph)` },
    ],
  },
  {
    key: 'grape/aidani', name: 'Aidani', demand: 'Aidani',
    nameSource: 'winemag-wine-reviews-variety',
    primeSynonym: 'Aidani Aspro', synonymSource: 'vitis-agroknow-aidani-aspro', synonymLocator: `${VITIS_AIDANI} (page Aidani Aspro: also mentioned as Aspraidano, Aidani, Adani, Aidani aspro)`,
    colour: { value: 'blanc', source: 'wein-plus-aidani-aspro', locator: `${WP_AIDANI} (opening sentence: white grape variety)` },
    country: { value: 'GREECE', source: 'wein-plus-aidani-aspro', locator: `${WP_AIDANI} (opening sentence: comes from Greece)` },
    aliases: [
      { name: 'Aidani Lefko', lang: 'und', kind: 'synonym', source: 'vitis-agroknow-aidani-aspro', locator: `${VITIS_AIDANI} (opening sentence: Aidani lefko)` },
    ],
  },
];

// ---- name forms (as tools/derive/grapes.mjs) ----
const stripMarks = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '');
const primeKey = (s: string) => stripMarks(s).toUpperCase().replace(/[^A-Z0-9]+/g, '');
const exact = (s: string) => s.normalize('NFC').toLowerCase().replace(/['’‘`´ʼ]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const titleCase = (s: string) => s.toLowerCase().split(' ').map((w, i) => (i > 0 && ['di', 'de', 'da', 'del'].includes(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(' ');

// ---- VIVC prime names ----
const primes = readFileSync(PRIMES, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).slice(1).filter((l) => l.trim()).map((l) => {
  const i = l.indexOf(',');
  return { id: l.slice(0, i).trim(), name: l.slice(i + 1).trim().replace(/^"|"$/g, '').replace(/\s+/g, ' ') };
});

// ---- names already in the knowledge base ----
const dataDir = join(repo, 'data');
const names = new Map<string, Set<string>>();
const vivcIds = new Map<string, string>();
const add = (n: string, k: string) => { const x = exact(n); if (!names.has(x)) names.set(x, new Set()); names.get(x)!.add(k); };
for (const fam of ['grapes', 'geographies', 'spirits', 'beer-styles']) {
  const dir = join(dataDir, fam);
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    if (resolve(dir, f) === resolve(OUT)) continue;
    for (const r of JSON.parse(readFileSync(join(dir, f), 'utf8'))) {
      if (r.review === 'draft') continue;
      add(r.name, r.key);
      for (const a of r.aliases ?? []) add(a.name, r.key);
      if (r.facts?.vivc_id) vivcIds.set(String(r.facts.vivc_id.value), r.key);
    }
  }
}
for (const f of existsSync(join(dataDir, 'aliases')) ? readdirSync(join(dataDir, 'aliases')).filter((f) => f.endsWith('.json')) : []) {
  for (const a of JSON.parse(readFileSync(join(dataDir, 'aliases', f), 'utf8'))) for (const x of a.aliases ?? []) add(x.name, a.entity);
}
const outOfScope = new Set((JSON.parse(readFileSync(join(dataDir, 'out-of-scope.json'), 'utf8')) as { term: string }[]).map((o) => exact(o.term)));

// ---- build ----
const demand = JSON.parse(readFileSync(join(repo, 'test', 'resolve', 'demand-queries.json'), 'utf8')).queries as { q: string; family: string }[];
const records = ENTRIES.map((e) => {
  if (!demand.some((q) => q.family === 'grape' && q.q === e.demand)) throw new Error(`${e.name}: not a grape query of the demand set`);
  const rows = primes.filter((p) => primeKey(p.name) === primeKey(e.primeSynonym));
  if (rows.length !== 1) throw new Error(`${e.name}: ${rows.length} VIVC rows for ${e.primeSynonym}`);
  const p = rows[0];
  if (vivcIds.has(p.id)) throw new Error(`${e.name}: VIVC ${p.id} is already ${vivcIds.get(p.id)}`);
  const loc = passport(p.id);
  const aliases: Alias[] = [{ name: titleCase(p.name), lang: 'und', kind: 'synonym', source: 'vivc', locator: `${loc} (prime name)` }, ...e.aliases];
  for (const n of [e.name, ...aliases.map((a) => a.name)]) {
    const x = exact(n);
    const others = [...(names.get(x) ?? [])].filter((k) => k !== e.key);
    if (others.length || outOfScope.has(x)) throw new Error(`${n} (${e.key}) also names ${others.join(', ') || 'an out-of-scope term'}`);
  }
  return {
    key: e.key, type: 'grape', name: e.name, review: 'reviewed', aliases,
    facts: {
      vivc_id: { value: p.id, source: 'vivc', locator: loc },
      vivc_prime_name: { value: p.name, source: 'vivc', locator: loc },
      berry_colour: e.colour,
      country_of_origin: e.country,
    },
    notes: `Canonical name as printed in the review dataset's variety column and asked for in the demand set ("${e.demand}", source ${e.nameSource}); matched to VIVC ${p.id} "${p.name}" through the synonym ${e.primeSynonym} that source ${e.synonymSource} states for it (${e.synonymLocator}), which equals the prime name.`,
  };
});

writeFileSync(`${OUT}.tmp`, JSON.stringify(records, null, 1) + '\n');
renameSync(`${OUT}.tmp`, OUT);
console.log(`demand-set varieties: ${records.length} records -> ${OUT}`);
