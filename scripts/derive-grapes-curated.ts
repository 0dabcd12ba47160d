// Derives data/grapes/curated.json (issue 8, part "Grapes"): grape varieties named in a list we read
// that the list-matching of tools/derive/grapes.mjs could not place, each matched by hand:
//  - kind 'synonym': a name the demand set (test/resolve/demand-queries.json) asks for that is not
//    itself a VIVC prime name, matched through a synonym that a source we read states for it;
//  - kind 'exact': a list name that equals one VIVC prime name exactly but that grapes.mjs left out,
//    either because the same name minus VIVC's colour word also matched a second number (it treats
//    both alike; here the exact equality wins and the colour-word candidate is named in the notes), or
//    because the hand transcription it reads (tools/derive/grapes-us-ttb.json) ran two entries of
//    27 CFR 4.91 together ("Campbell Early (Island Belle)Canada Muscat"); the section was re-read.
//
//   node --import tsx scripts/derive-grapes-curated.ts
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
const OUT = join(repo, 'data', 'grapes', 'curated.json');
const passport = (id: string) => `https://www.vivc.de/index.php?r=passport%2Fview&id=${id}`;

type Alias = { name: string; lang: string; kind: string; source: string; locator: string };
type Fact = { value: string; source: string; locator: string };
type Entry = {
  key: string; name: string; nameSource: string; nameLocator: string; demand?: string;
  match: { kind: 'synonym'; synonym: string; source: string; locator: string } | { kind: 'exact'; colourWordRow?: string; why?: string };
  colour?: Fact; country?: Fact; aliases: Alias[];
};

// keys: letters NFD does not decompose are spelled out first, as tools/derive/grapes.mjs does
const slugOf = (n: string) => n.replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
const WP_FRAPPATO = 'https://glossary.wein.plus/frappato';
const WP_AIDANI = 'https://glossary.wein.plus/aidani-aspro';
const VITIS_AIDANI = 'http://vitis.agroknow.com/variety/65/GRC';

const ENTRIES: Entry[] = [
  {
    key: 'grape/frappato', name: 'Frappato', demand: 'Frappato',
    nameSource: 'winemag-wine-reviews-variety', nameLocator: '"Frappato" (variety column, distinct value)',
    match: { kind: 'synonym', synonym: 'Frappato di Vittoria', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (synonym list in the opening paragraph)` },
    colour: { value: 'noir', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (opening sentence: red grape variety)` },
    country: { value: 'ITALY', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (opening sentence: comes from the island of Sicily, Italy)` },
    aliases: [
      { name: 'Frappato Nero', lang: 'it', kind: 'synonym', source: 'wein-plus-frappato', locator: `${WP_FRAPPATO} (synonym list in the opening paragraph)` },
    ],
  },
  {
    key: 'grape/aidani', name: 'Aidani', demand: 'Aidani',
    nameSource: 'winemag-wine-reviews-variety', nameLocator: '"Aidani" (variety column, distinct value)',
    match: { kind: 'synonym', synonym: 'Aidani Aspro', source: 'vitis-agroknow-aidani-aspro', locator: `${VITIS_AIDANI} (page Aidani Aspro: also mentioned as Aspraidano, Aidani, Adani, Aidani aspro)` },
    colour: { value: 'blanc', source: 'wein-plus-aidani-aspro', locator: `${WP_AIDANI} (opening sentence: white grape variety)` },
    country: { value: 'GREECE', source: 'wein-plus-aidani-aspro', locator: `${WP_AIDANI} (opening sentence: comes from Greece)` },
    aliases: [
      { name: 'Aidani Lefko', lang: 'und', kind: 'synonym', source: 'vitis-agroknow-aidani-aspro', locator: `${VITIS_AIDANI} (opening sentence: Aidani lefko)` },
    ],
  },
  {
    // Portugal's Castelão: the review dataset, the Wikipedia red table and the Italian register (no. 971
    // "Castelao") all print it; CASTELAO is a VIVC prime name, and CASTELAO PRETO (2323) only matches once
    // its colour word is dropped.
    key: 'grape/castelao', name: 'Castelão',
    nameSource: 'winemag-wine-reviews-variety', nameLocator: '"Castelão" (variety column, distinct value)',
    match: { kind: 'exact', colourWordRow: 'CASTELAO PRETO' },
    colour: { value: 'noir', source: 'wikipedia-list-of-grape-varieties', locator: '"castelão" (red variety table)' },
    aliases: [],
  },
  // National and regional variety lists read in this round (names equal to a VIVC prime name; the lists
  // give no berry colour usable here: the Austrian and Czech groupings are by wine colour, not berry colour).
  ...([
    ['Jubiläumsrebe', 'at-rebsortenverordnung-2018', '§ 1 Z 1 (Weißweinrebsorten)'],
    ['Cabernet Jura', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Attila', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Fanny', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Kocsis Irma', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Königin der Weingärten', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Medina', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Palatina', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Pannonia', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Perlette', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Phönix', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Pinot Nova', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Terez', 'at-stmk-rebsortenklassifizierung', '§ 1 Z 2 (Zugelassene Rebsorten)'],
    ['Aurelius', 'cz-vyhlaska-88-2017-odrudy', 'příloha č. 2, I. Bílé moštové odrůdy, no. 1'],
    ['Děvín', 'cz-vyhlaska-88-2017-odrudy', 'příloha č. 2, I. Bílé moštové odrůdy, no. 3'],
    ['André', 'rp-darmstadt-rebsortenklassifizierung-hessen', 'Anlage: Rebsortenliste mit Synonymen, first page; the copy runs the table columns together, so no colour is taken'],
    ['Fontanara', 'rp-darmstadt-rebsortenklassifizierung-hessen', 'Anlage: Rebsortenliste mit Synonymen, second page'],
    ['Cabernet Cubin', 'swisswine-grapes', 'list page 7: Rouge, 3 ha'],
    ['Galotta', 'swisswine-grapes-jp-copy', 'list page 3: Rouge, Indigène, 51 ha'],
  ] as const).map(([n, src, where]): Entry => ({
    key: `grape/${slugOf(n)}`, name: n, nameSource: src, nameLocator: `"${n}" (${where})`,
    match: { kind: 'exact' }, aliases: [],
  })),
  {
    key: 'grape/diolle', name: 'Diolle', nameSource: 'swisswine-grapes', nameLocator: '"Diolle" (list page 9: Blanc, Indigène, < 2 ha)',
    match: { kind: 'exact' }, aliases: [],
    colour: { value: 'blanc', source: 'swisswine-grapes', locator: 'https://deutschschweiz.swisswine.ch/en/grapes?page=9 ("Diolle": Blanc)' },
  },
  // 27 CFR 4.91 names that the transcription ran into the preceding entry (no berry colour in the section).
  ...([['Canada Muscat', 'Campbell Early (Island Belle)'], ['Dearing', 'Cynthiana (Norton)'], ['Summit', 'Sultanina (Thomspon Seedless)']] as const).map(([n, prev]): Entry => ({
    key: `grape/${slugOf(n)}`, name: n,
    nameSource: 'us-ttb-approved-grape-variety-names', nameLocator: `"${n}" (27 CFR 4.91 list of approved names)`,
    match: { kind: 'exact', why: `; tools/derive/grapes-us-ttb.json had run it into the entry before ("${prev}${n}"), so the list matching never saw it` },
    aliases: [],
  })),
];

// ---- name forms (as tools/derive/grapes.mjs) ----
const stripMarks = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '');
const primeKey = (s: string) => stripMarks(s).toUpperCase().replace(/[^A-Z0-9]+/g, '');
const exact = (s: string) => s.normalize('NFC').toLowerCase().replace(/['’‘`´ʼ]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const titleCase = (s: string) => s.toLowerCase().split(' ').map((w, i) => (i > 0 && ['di', 'de', 'da', 'del', 'der', 'von', 'du', 'des', 'la', 'le'].includes(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(' ');

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
  if (e.demand && !demand.some((q) => q.family === 'grape' && q.q === e.demand)) throw new Error(`${e.name}: not a grape query of the demand set`);
  const target = e.match.kind === 'synonym' ? e.match.synonym : e.name;
  // VIVC writes German umlauts as AE/OE/UE (JUBILAEUMSREBE): both spellings of the name are tried.
  const deUmlaut = (x: string) => x.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/Ä/g, 'AE').replace(/Ö/g, 'OE').replace(/Ü/g, 'UE').replace(/ß/g, 'ss');
  const keys = new Set([primeKey(target), primeKey(deUmlaut(target))]);
  const rows = primes.filter((p) => keys.has(primeKey(p.name)));
  if (rows.length !== 1) throw new Error(`${e.name}: ${rows.length} VIVC rows for ${target}`);
  const p = rows[0];
  if (vivcIds.has(p.id)) throw new Error(`${e.name}: VIVC ${p.id} is already ${vivcIds.get(p.id)}`);
  let other = '';
  if (e.match.kind === 'exact' && e.match.colourWordRow) {
    const m = e.match;
    const alt = primes.filter((x) => x.name === m.colourWordRow);
    if (alt.length !== 1 || alt[0].id === p.id) throw new Error(`${e.name}: colour-word row ${m.colourWordRow} not found once`);
    other = ` (the name also equals ${alt[0].name}, VIVC ${alt[0].id}, once VIVC's colour word is dropped; the exact prime name is taken)`;
  } else if (e.match.kind === 'exact' && e.match.why) other = e.match.why;
  const loc = passport(p.id);
  const primeAlias: Alias = { name: titleCase(p.name), lang: 'und', kind: 'synonym', source: 'vivc', locator: `${loc} (prime name)` };
  const aliases: Alias[] = [...(exact(primeAlias.name) === exact(e.name) ? [] : [primeAlias]), ...e.aliases];
  for (const n of [e.name, ...aliases.map((a) => a.name)]) {
    const x = exact(n);
    const others = [...(names.get(x) ?? [])].filter((k) => k !== e.key);
    if (others.length || outOfScope.has(x)) throw new Error(`${n} (${e.key}) also names ${others.join(', ') || 'an out-of-scope term'}`);
  }
  const facts: Record<string, Fact> = {
    vivc_id: { value: p.id, source: 'vivc', locator: loc },
    vivc_prime_name: { value: p.name, source: 'vivc', locator: loc },
  };
  if (e.colour) facts.berry_colour = e.colour;
  if (e.country) facts.country_of_origin = e.country;
  const how = e.match.kind === 'synonym'
    ? `through the synonym ${e.match.synonym} that source ${e.match.source} states for it (${e.match.locator}), which equals the prime name`
    : `exactly (case, accents and spacing aside)${other}`;
  const asked = e.demand ? ` and asked for in the demand set ("${e.demand}")` : '';
  return {
    key: e.key, type: 'grape', name: e.name, review: 'reviewed', aliases, facts,
    notes: `Canonical name as printed in the list of source ${e.nameSource} (${e.nameLocator})${asked}; matched to VIVC ${p.id} "${p.name}" ${how}.`,
  };
});

writeFileSync(`${OUT}.tmp`, JSON.stringify(records, null, 1) + '\n');
renameSync(`${OUT}.tmp`, OUT);
console.log(`curated grape matches: ${records.length} records -> ${OUT}`);
