// Derives data/grape-crosswalk.json: the names national registers and single documents use for grape
// varieties, tied to VIVC variety numbers (issue 34, item 1). Each row cites the source that ties the
// name to the variety (the register's own list, a catalogue's synonym list) and the VIVC row whose number
// and prime name it gives.
//
//   REFERENCE_DIR=../shared/reference node --import tsx tools/derive/grape-crosswalk.mjs
//
// Inputs (never copied into the repo):
//   tools/derive/grapes-it-registro.json   the Italian Registro Nazionale delle Varietà di Vite (wine
//                                          varieties): register number, name, berry colour, the synonyms
//                                          the register states (source it-registro-nazionale-varieta-vite)
//   ../shared/reference/vivc-prime-names-full.csv   VIVC numbers, prime names, berry colours (source
//                                          vivc-full-scrape: VIVC read in a scrape)
//   HAND (below)                           rows read in a named source, each with its locator
//
// Rules. An Italian register entry is tied to a VIVC number when exactly one VIVC variety has as its prime
// name the entry's name or one of the synonyms the register gives it, with a berry colour that agrees
// with the register's (N. nera: noir/rouge; B. bianca: blanc; Rs. rosa: rose/rouge/gris; G. grigia:
// gris/rose); several numbers, or none, tie nothing. A name used in the register is then a row of the
// crosswalk (country IT): the entry of that name wins, unless the register also gives the name as a synonym
// of an entry tied to another number (then several_vivc_numbers); a name that is only a synonym of entries maps when
// all of them agree on one number, else it is a row without a number (reason several_vivc_numbers), which
// the derivation reads as "leave unmapped" (never guessed). Hand rows come after and win for their
// (name, country). A row's `country` null applies in every country.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exactForm, fold } from '../../src/engine/normalize.ts';
import { parseCsv } from './beer-styles.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REF = process.env.REFERENCE_DIR ? path.resolve(process.env.REFERENCE_DIR) : path.resolve(ROOT, '..', 'shared', 'reference');
const OUT = path.join(ROOT, 'data', 'grape-crosswalk.json');
const OUT_SOURCES = path.join(ROOT, 'data', 'sources', 'crosswalk.json');
/** The comparison key of a variety name: case, accents, spacing and punctuation aside (as the derivation compares). */
export const crosswalkKey = (s) => fold(exactForm(s.replace(/ue/g, 'ü').replace(/ae/g, 'ä').replace(/oe/g, 'ö').replace(/Ue/g, 'Ü')));

const SOURCES = [
  {
    key: 'wein-plus-prensal',
    title: 'wein.plus Wine Lexicon: Prensal (grape variety entry)',
    publisher: 'wein.plus (Wine Lexicon by Norbert F. J. Tischelmayer)',
    authority: 'wine_press',
    url: 'https://glossary.wein.plus/prensal',
    licence: 'names cited as facts (synonym lists); no prose copied',
    accessed: '2026-12-08',
    notes: 'English edition. The entry names Moll and Pensal Blanca among the synonyms of Prensal, a white variety of the Balearic Islands (DO Binissalem), and warns it is not to be confused with Xarello. It contradicts the same lexicon\'s Xarello entry, which lists Moll among Xarello\'s synonyms (source wein-plus-xarello).',
  },
  {
    key: 'vivc-welschriesling-synonyms',
    title: 'Vitis International Variety Catalogue (VIVC): WELSCHRIESLING, synonyms',
    publisher: 'Julius Kühn-Institut (JKI), Institute for Grapevine Breeding Geilweilerhof',
    authority: 'variety_catalogue',
    url: 'https://www.vivc.de/index.php?r=passport%2Fview&id=13217',
    licence: 'names cited as facts; no prose copied',
    accessed: '2026-12-08',
    notes: 'VIVC\'s page was not read: its synonym list was read as relayed by the English Wikipedia article "Welschriesling" (synonyms section citing Maul & Eibach, Vitis International Variety Catalogue), which names Riesling Italico, Riesling Italian, Olasz Rizling, Olaszrizling, Laški Rizling and Graševina among them; the VIVC number 13217 and prime name WELSCHRIESLING agree with vivc-prime-names-full.csv.',
    retrieved_via: { url: 'https://en.wikipedia.org/wiki/Welschriesling', kind: 'encyclopedia_copy', note: 'synonyms section, citing VIVC (Maul & Eibach 1999)' },
  },
  {
    key: 'wein-plus-portugais-bleu-fr',
    title: 'wein.plus Lexique du vin: Portugais Bleu (grape variety entry, French edition)',
    publisher: 'wein.plus (Wine Lexicon by Norbert F. J. Tischelmayer)',
    authority: 'wine_press',
    url: 'https://glosario.wein.plus/portugais-bleu-6',
    licence: 'names cited as facts (synonym lists); no prose copied',
    accessed: '2026-12-08',
    notes: 'The entry lists the synonyms of the red variety by country, among them Modrý Portugal and Portugalské Modré (Slovakia, Czech Republic), Portugalka (Slovenia), Kékoportó (Hungary), Português Azul (Portugal), Portugais Bleu (France) and Portugieser Blau (Austria); the variety is VIVC 9620 PORTUGIESER BLAU.',
  },
  {
    key: 'wein-plus-sivi-pinot',
    title: 'wein.plus Wine Lexicon: Sivi Pinot / Pinot Gris (grape variety entry)',
    publisher: 'wein.plus (Wine Lexicon by Norbert F. J. Tischelmayer)',
    authority: 'wine_press',
    url: 'https://glossary.wein.plus/sivi-pinot',
    licence: 'names cited as facts; no prose copied',
    accessed: '2026-12-08',
    notes: 'English edition. The entry (Pinot Gris) says the Hungarian name of the variety is Szürkebarát; the variety is VIVC 9275 PINOT GRIS.',
  },
];

// Hand rows: [name, country, vivc number | null, source, locator, note, reason?]
const HAND = [
  ['Riesling Italico', 'IT', '13217', 'it-registro-nazionale-varieta-vite', 'Registro Nazionale, varietà da vino, entry 209 Riesling Italico B. (synonyms Welschriesling, Riesling)', 'The register gives Welschriesling as a synonym of its entry Riesling Italico; VIVC 13217 has the prime name WELSCHRIESLING (white).'],
  ['Riesling Italico', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Riesling Italico is a VIVC synonym of Welschriesling (outside Italy too: Croatian single documents use it).'],
  ['Riesling Italian', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Riesling Italian is a VIVC synonym of Welschriesling.'],
  ['Olasz Rizling', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Olasz Rizling (Hungarian) is a VIVC synonym of Welschriesling.'],
  ['Olaszrizling', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Olaszrizling (Hungarian) is a VIVC synonym of Welschriesling.'],
  ['Laški Rizling', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Laški Rizling (Slovenian) is a VIVC synonym of Welschriesling.'],
  ['Graševina', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Graševina (Croatian) is a VIVC synonym of Welschriesling.'],
  // Alicante by country: in Italy the register's entry 10 Alicante N. is Grenache (Garnacha Tinta); in
  // Spain Garnacha Tintorera is Alicante Henri Bouschet.
  ['Vernaccia Di S. Giminiano', 'IT', '12998', 'it-registro-nazionale-varieta-vite', 'Registro Nazionale, varietà da vino, entry 261 Vernaccia di S. Gimignano B.', 'The dataset misspells the register\'s Vernaccia di S. Gimignano (San Gimignano; "Giminiano"); VIVC 12998 has the prime name VERNACCIA DI SAN GIMIGNANO (white).'],
  ['Alicante', 'IT', '4461', 'it-registro-nazionale-varieta-vite', 'Registro Nazionale, varietà da vino, entry 10 Alicante N. (synonyms Cannonau, Tocai Rosso, Cannonao, Garnacha Tinta, Granaccia, Grenache, Guarnaccia, Gamay)', 'The register gives Garnacha Tinta (VIVC 4461 prime name GARNACHA TINTA) and Grenache among the synonyms of its entry Alicante. It also lists Guarnaccia, which VIVC keeps as a variety of its own (5097) and the register as its own entry 106: that synonym does not make entry 10 another variety. VIVC also holds an Italian accession with the prime name ALICANTE (42205) that the register does not name.'],
  ['Garnacha Tintorera', 'ES', '304', 'do-alicante-alicante-bouschet', 'https://vinosalicantedop.org/alicante-bouschet-garnacha-tintorera/?lang=en (entry text)', 'The Consejo Regulador of DO Alicante gives Garnacha Tintorera as the Spanish name of Alicante Bouschet (VIVC 304, prime name ALICANTE HENRI BOUSCHET); the same citation backs the alias on grape/alicante-bouschet.'],
  // Malvasia: the bare name stands for several varieties in the Italian register (white and black).
  ['Malvasia', 'IT', null, 'it-registro-nazionale-varieta-vite', 'Registro Nazionale, varietà da vino: entry 128 Malvasia N.; "Malvasia" is also a synonym of entries 129 Malvasia Bianca B., 131 Malvasia Bianca di Candia B., 132 Malvasia Bianca Lunga B., 140 Malvasia Nera di Brindisi N., 141 Malvasia Nera di Lecce N.', 'A bare "Malvasia" in an Italian single document names no single variety: the register uses it for its own black entry 128 and as a synonym of white and black entries, and VIVC has the prime name MALVASIA three times (15674 white, Spain; 22968 white, Portugal; 26671 black, Italy). It is left unmapped (it was mapped to Malvasia Istriana, a white, VIVC 7269).', 'several_vivc_numbers'],
  ['Malvasia Nera', 'IT', '7271', 'vivc', 'https://www.vivc.de/index.php?r=passport%2Fview&id=7271 (prime name MALVASIA NERA)', 'Malvasia nera is VIVC 7271 (black), the number the served record grape/malvasia-nera was released with (exact prime name in the older VIVC list). The fuller VIVC table also has 41789 with the same prime name, and the Italian register has no entry "Malvasia Nera" but four black Malvasias (139 di Basilicata, 140 di Brindisi, 141 di Lecce, 363 Nera Lunga): a text naming one of those is mapped by that name.'],
  ['Ryzlink Vlašský', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Ryzlink vlašský (Czech) is a VIVC synonym of Welschriesling.'],
  ['Rizling Vlašský', null, '13217', 'vivc-welschriesling-synonyms', 'VIVC 13217 WELSCHRIESLING, synonyms (read via the English Wikipedia article)', 'Rizling vlašský (Slovak) is a VIVC synonym of Welschriesling.'],
  ['Fetească Neagrăn', null, '4120', 'vivc-full-scrape', 'https://www.vivc.de/index.php?r=passport%2Fview&id=4120 (prime name FETEASCA NEAGRA)', 'The dataset writes Fetească neagră with a stray final "n"; VIVC 4120 has the prime name FETEASCA NEAGRA (black, Romania).'],
  ['Roter Vetliner', null, '12931', 'vivc-full-scrape', 'https://www.vivc.de/index.php?r=passport%2Fview&id=12931 (prime name VELTLINER ROT)', 'The dataset misspells Roter Veltliner; VIVC 12931 has the prime name VELTLINER ROT (the German colour word placed after the name).'],
  // spellings and transliterations of a VIVC prime name (same country of origin in VIVC; the name read as
  // the same word): [name, VIVC number, what differs]
  ...[
    ['Tinta Barocca', '12462', 'Tinta Barroca, with one r (VIVC 12462 TINTA BARROCA, black, Portugal)'],
    ['Băbeasacă Neagră', '843', 'Băbească neagră with a stray "a" (VIVC 843 BABEASCA NEAGRA, black, Romania)'],
    ['Doux D\'Henry', '3677', 'Doux d\'Henri written with a y (VIVC 3677 DOUX D\'HENRI, black, Italy)'],
    ['Minnella Bianca', '7837', 'Minella bianca written with a double n (VIVC 7837 MINELLA BIANCA, white, Italy)'],
    ['Cjanorie', '2644', 'the Friulian spelling (cj for ci) of VIVC 2644 CIANORIE (black, Italy)'],
    ['Xinisteri', '704', 'a transliteration of the Greek name (i for y) of VIVC 704 XYNISTERI (white, Cyprus)'],
    ['Maratheftiko', '7374', 'a transliteration of the Greek name (k for c) of VIVC 7374 MARATHEFTICO (black, Cyprus)'],
    ['Spourtiko', '16121', 'a transliteration of the Greek name (k for c) of VIVC 16121 SPOURTICO (white, Cyprus)'],
    ['Bíbor Kadarka', '1339', 'written in two words; VIVC 1339 BIBORKADARKA (black, Hungary)'],
    ['Zengö', '13423', 'VIVC 13423 ZENGOE (white, Hungary), which writes ö as oe'],
    ['Hölder', '5410', 'VIVC 5410 HOELDER (white, Germany), which writes ö as oe'],
    ['Kövidinka', '13727', 'VIVC 13727 KOEVIDINKA (pink, Hungary), which writes ö as oe'],
    ['Crâmpoşie Selecţionată', '3238', 'the Romanian spelling with â (VIVC writes i, as before the 1993 reform) of VIVC 3238 CRIMPOSIE SELECTIONATA (white, Romania)'],
  ].map(([name, num, what]) => [name, null, num, 'vivc-full-scrape', `https://www.vivc.de/index.php?r=passport%2Fview&id=${num} (prime name)`, `The dataset's name is ${what}.`]),
  ...[['Modrý Portugal', 'CZ'], ['Modrý Portugal', 'SK'], ['Portugalka', 'SI'], ['Kékoportó', 'HU'], ['Português Azul', 'PT'], ['Portugais Bleu', 'FR']].map(([name, c]) =>
    [name, c, '9620', 'wein-plus-portugais-bleu-fr', 'https://glosario.wein.plus/portugais-bleu-6 (synonyms by country in the entry\'s opening paragraph)', `${name} is listed for this country among the synonyms of Portugais Bleu (Blauer Portugieser), VIVC 9620 PORTUGIESER BLAU (black).`]),
  ['Szürkebarát', 'HU', '9275', 'wein-plus-sivi-pinot', 'https://glossary.wein.plus/sivi-pinot (the paragraph on the Hungarian name)', 'Szürkebarát ("grey monk") is the Hungarian name of Pinot Gris, VIVC 9275 PINOT GRIS (grey).'],
  // Auxerrois: VIVC's prime name AUXERROIS (792, white) is the name the 2022 dataset uses (OIV prime names)
  // outside France, where "Auxerrois" is also Cahors's name for Côt (Malbec): France stays unsettled
  ...['DE', 'CZ', 'BE', 'GB', 'NL', 'LU'].map((c) => ['Auxerrois', c, '792', 'vivc-full-scrape', 'https://www.vivc.de/index.php?r=passport%2Fview&id=792 (prime name AUXERROIS)', 'Outside France the dataset\'s "Auxerrois" (an OIV/VIVC prime name, as the dataset\'s authors state they use) is VIVC 792 AUXERROIS, white; two served grape records carry the name (Auxerrois and, as Cahors\'s name, Malbec), so only the VIVC number settles it.']),
  ['Guarnaccia', 'IT', null, 'it-registro-nazionale-varieta-vite', 'Registro Nazionale, varietà da vino: entry 106 Guarnaccia B. (white), and a synonym of entry 10 Alicante N. (black)', 'The register uses the name for a white variety of its own and as a synonym of its black Alicante (Grenache): Ischia\'s red lists it as principal. Left unmapped (it was mapped to the white, VIVC 5097).', 'several_vivc_numbers'],
  ['Moll', 'ES', '9113', 'wein-plus-prensal', 'https://glossary.wein.plus/prensal (synonyms list in the entry\'s opening paragraph)', 'Moll is Prensal (Pensal Blanca), a white variety of Mallorca (DO Binissalem), not Xarel·lo; VIVC 9113 has the prime name PENSAL BLANCA (white, Spain).'],
  ['Prensal', 'ES', '9113', 'wein-plus-prensal', 'https://glossary.wein.plus/prensal (synonyms list in the entry\'s opening paragraph)', 'Prensal (Premsal) is VIVC 9113 PENSAL BLANCA, whose prime name the entry lists among its synonyms.'],
  ['Mondet', 'PT', null, 'vivc-full-scrape', 'vivc-prime-names-full.csv: no prime name MONDET', 'Douro and Porto list Mondet; the only tie to Durif (VIVC 3738) is a synonym in wein.plus\'s Durif entry, which names no country, and no Portuguese catalogue row read ties the Portuguese name to a VIVC number. Left unmapped until one is read (it was mapped to Durif).', 'no_vivc_match'],
];

const COLOURS = { n: ['NOIR', 'ROUGE'], b: ['BLANC'], r: ['ROSE', 'ROUGE', 'GRIS'], g: ['GRIS', 'ROSE'] };
// German names put the colour word first ("Weißer Elbling", "Gruner Veltliner"), VIVC's prime names last
const GERMAN_COLOUR = { 'weißer': 'WEISS', 'weisser': 'WEISS', 'blauer': 'BLAU', 'roter': 'ROT', 'grüner': 'GRUEN', 'gruener': 'GRUEN', 'gruner': 'GRUEN', 'grauer': 'GRAU', 'brauner': 'BRAUN', 'frühroter': 'FRUEHROT' };
/** "Weißer Elbling" → "Elbling WEISS" (the VIVC order), or null. */
const colourAfter = (name) => {
  const m = /^(\p{L}+) (.+)$/u.exec(name);
  const colour = m && GERMAN_COLOUR[m[1].toLowerCase()];
  return colour ? `${m[2]} ${colour}` : null;
};

export function buildCrosswalk(ref = REF) {
  const vivcRows = parseCsv(fs.readFileSync(path.join(ref, 'vivc-prime-names-full.csv'), 'utf8'));
  const vivcByKey = new Map();
  const vivcByNumber = new Map();
  for (const r of vivcRows) {
    // VIVC writes ü, ö, ä as UE, OE, AE (GEWUERZTRAMINER): the lower-cased prime name is read that way too
    const name = r.prime_name.replace(/\s+/g, ' ');
    for (const k of new Set([crosswalkKey(name), crosswalkKey(name.toLowerCase())])) {
      if (!vivcByKey.has(k)) vivcByKey.set(k, []);
      vivcByKey.get(k).push(r);
    }
    vivcByNumber.set(r.vivc_number, r);
  }
  const registro = JSON.parse(fs.readFileSync(path.join(ROOT, 'tools', 'derive', 'grapes-it-registro.json'), 'utf8')).rows;
  // the copy writes an accent as a trailing apostrophe (Avana' = Avanà): the key folds accents anyway
  const clean = (s) => s.replace(/\*?;$/, '').replace(/'$/, '').trim();
  const entryVivc = new Map(); // register number → VIVC row | null
  for (const [num, name, colour, syns] of registro) {
    const want = COLOURS[colour];
    const found = new Map();
    // the register abbreviates San/Santo as "S." (Vernaccia di S. Gimignano); VIVC writes it out
    // a German name of the register is also read in VIVC's order (Gruner Veltliner: VELTLINER GRUEN)
    for (const n of [name, ...syns].map(clean).flatMap((x) => (/\bS\. ?/.test(x) ? [x, x.replace(/\bS\. ?/g, 'San ')] : [x])).flatMap((x) => (colourAfter(x) ? [x, colourAfter(x)] : [x]))) {
      for (const r of vivcByKey.get(crosswalkKey(n)) ?? []) if (!want || !r.berry_colour || want.includes(r.berry_colour)) found.set(r.vivc_number, r);
    }
    entryVivc.set(num, found.size === 1 ? [...found.values()][0] : null);
  }
  const byName = new Map(); // key → {name, own: entry | null, syn: entries[]}
  for (const e of registro) {
    const [num, name, , syns] = e;
    const k = crosswalkKey(clean(name));
    if (!byName.has(k)) byName.set(k, { name: clean(name), own: null, syn: [] });
    byName.get(k).own = e;
    for (const s of syns.map(clean)) {
      const sk = crosswalkKey(s);
      if (!sk) continue;
      if (!byName.has(sk)) byName.set(sk, { name: s, own: null, syn: [] });
      if (sk !== k) byName.get(sk).syn.push(e);
    }
  }
  const rows = new Map(); // `${key}|${country}` → row
  const cite = (r) => ({ vivc_number: r.vivc_number, vivc_prime_name: r.prime_name.replace(/\s+/g, ' ').trim(), vivc_berry_colour: r.berry_colour || null });
  const colourName = { n: 'N.', b: 'B.', r: 'Rs.', g: 'G.' };
  for (const [k, { name, own, syn }] of byName) {
    let row;
    // an entry's own name that the register also gives as a synonym of an entry tied to another VIVC number
    // names several varieties in the register (Bonarda: entry 35, and a synonym of 71 Croatina)
    const ownNumber = own ? entryVivc.get(own[0])?.vivc_number : undefined;
    const others = ownNumber ? syn.filter((e) => entryVivc.get(e[0]) && entryVivc.get(e[0]).vivc_number !== ownNumber) : [];
    if (own && others.length) {
      rows.set(`${k}|IT`, { name, country: 'IT', vivc_number: null, reason: 'several_vivc_numbers', source: 'it-registro-nazionale-varieta-vite',
        locator: `Registro Nazionale, varietà da vino: entry ${own[0]} ${own[1]}, and a synonym of ${others.map((e) => `entry ${e[0]} ${e[1]}`).join(', ')}`, basis: 'register_name_and_synonym' });
      continue;
    }
    if (own) {
      const v = entryVivc.get(own[0]);
      if (!v) continue; // no VIVC number for the register's own entry: the derivation's other rules apply
      // a name equal to the VIVC prime name adds nothing to the prime-name match
      row = { name, country: 'IT', ...cite(v), source: 'it-registro-nazionale-varieta-vite',
        locator: `Registro Nazionale, varietà da vino, entry ${own[0]} ${own[1]} ${colourName[own[2]] ?? ''}${own[3].length ? ` (synonyms ${own[3].map(clean).join(', ')})` : ''}`.trim(),
        basis: crosswalkKey(v.prime_name.replace(/\s+/g, ' ')) === k ? 'register_name_is_prime_name' : 'register_synonym_is_prime_name' };
    } else {
      const nums = new Set(syn.map((e) => entryVivc.get(e[0])?.vivc_number ?? `none:${e[0]}`));
      const locator = `Registro Nazionale, varietà da vino: a synonym of ${syn.map((e) => `entry ${e[0]} ${e[1]}`).join(', ')}`;
      if (nums.size === 1 && ![...nums][0].startsWith('none:')) {
        const v = vivcByNumber.get([...nums][0]);
        row = { name, country: 'IT', ...cite(v), source: 'it-registro-nazionale-varieta-vite', locator, basis: 'register_synonym_of_entry' };
      } else if (nums.size > 1) {
        row = { name, country: 'IT', vivc_number: null, reason: 'several_vivc_numbers', source: 'it-registro-nazionale-varieta-vite', locator, basis: 'register_synonym_of_entry' };
      } else continue;
    }
    rows.set(`${k}|IT`, row);
  }
  // a German name of the single documents read in VIVC's order (ELBLING WEISS) that is exactly one VIVC
  // prime name is a row (any country)
  const leadNames = new Set(parseCsv(fs.readFileSync(path.join(ref, 'appellation-grapes-leads.csv'), 'utf8')).map((r) => r.grape));
  for (const name of [...leadNames].sort()) {
    const reordered = colourAfter(name);
    if (!reordered) continue;
    const hits = vivcByKey.get(crosswalkKey(reordered)) ?? [];
    if (hits.length !== 1) continue;
    rows.set(`${crosswalkKey(name)}|null`, { name, country: null, ...cite(hits[0]), source: 'vivc-full-scrape',
      locator: `https://www.vivc.de/index.php?r=passport%2Fview&id=${hits[0].vivc_number} (prime name ${cite(hits[0]).vivc_prime_name})`, basis: 'prime_name_colour_word_after' });
  }
  for (const [name, country, num, source, locator, note, reason] of HAND) {
    const v = num ? vivcByNumber.get(num) : null;
    if (num && !v) throw new Error(`crosswalk hand row ${name}: VIVC ${num} is not in vivc-prime-names-full.csv`);
    rows.set(`${crosswalkKey(name)}|${country}`, { name, country, ...(v ? cite(v) : { vivc_number: null, reason }), source, locator, basis: 'hand', note });
  }
  return [...rows.values()].sort((a, b) => (a.name === b.name ? String(a.country).localeCompare(String(b.country)) : a.name.localeCompare(b.name)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = buildCrosswalk();
  const write = (file, data) => { fs.writeFileSync(`${file}.tmp`, JSON.stringify(data, null, 1) + '\n'); fs.renameSync(`${file}.tmp`, file); };
  write(OUT, rows);
  write(OUT_SOURCES, SOURCES);
  console.log(`crosswalk: ${rows.length} rows (${rows.filter((r) => r.vivc_number).length} with a VIVC number, ${rows.filter((r) => !r.vivc_number).length} left unmapped on purpose)`);
}
