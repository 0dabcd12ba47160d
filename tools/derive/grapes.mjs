// Derives data/grapes/vivc.json from the VIVC community index (reference table) plus
// the hand-curated, source-cited synonyms in tools/derive/grape-synonyms.json, and
// data/grapes/vivc-lists.json: varieties named in variety lists (a wine-review dataset's
// variety column, Italian DOC/DOCG production rules, the French official catalogue, an
// encyclopedia list, the Italian national register of vine varieties, the US list of approved
// grape variety names in 27 CFR 4.91) matched to their VIVC number in vivc-prime-names.csv
// (see part 2), plus a few curated additions (tools/derive/grapes-curated.json).
//
//   node tools/derive/grapes.mjs          (run from the repository root or anywhere)
//   node tools/derive/grapes.mjs --check  (derive in memory and compare with the committed files)
//
// --check writes nothing: it derives data/grapes/vivc.json, data/grapes/vivc-lists.json and
// data/ambiguities/grapes.json in memory, prints every difference from the files in data/ (records
// added, removed or changed, field by field) and exits 1 on any drift, 0 when they are identical
// (test/tools/derive-grapes.test.ts runs it). Without --check the three files are written.
//
// Plain Node ESM, no dependencies. The reference CSVs are read from ../shared/reference
// relative to the repository root (or from the folder in the REFERENCE_DIR environment variable)
// and are never copied into the repo; facts are cited to the original publisher (source key
// `vivc`, locator = VIVC passport URL).
import { readFileSync, writeFileSync, readdirSync, renameSync, existsSync } from 'node:fs';
import { dirname, join, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const REF = process.env.REFERENCE_DIR?.trim() ? resolve(process.env.REFERENCE_DIR.trim()) : resolve(repo, '..', 'shared', 'reference');
const CSV = join(REF, 'vivc-grape-index.csv');
const SYN = join(here, 'grape-synonyms.json');
const OUT = join(repo, 'data', 'grapes', 'vivc.json');
const CHECK = process.argv.includes('--check');

// Files are written whole to a temporary name, then renamed, so readers never see half a file.
// With --check, nothing is written: each output is kept in memory and compared at the end.
const serialize = (data) => JSON.stringify(data, null, 1) + '\n';
const outputs = []; // [file, data]
const writeAtomic = (file, data) => {
  outputs.push([file, data]);
  if (CHECK) return;
  writeFileSync(`${file}.tmp`, serialize(data)); renameSync(`${file}.tmp`, file);
};
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
//  13601 'Vitis vinifera': a species entry with unknown colour, not a variety.
// Corvina (2863) and Corvinone (2864) were drafts because a stored German-Wikipedia copy
// gave VIVC 2863 for Corvinone Veronese. vivc-prime-names.csv (VIVC numbers and prime
// names) settles it without ambiguity: 2863 = CORVINA VERONESE, 2864 = CORVINONE VERONESE,
// the same as the index; both are served again.
const DRAFT_IDS = new Set(['576', '13601']);
// 9200 'Petit Roja' is left out (issue 24): VIVC 9200 is grape/petit-rouge, kept in another file, and
// kb validate allows one entity per VIVC number.
const LEFT_OUT_IDS = new Set(['9200']);

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
  // a community encyclopedia read as itself is wine_press (data/README.md, Authority classes) but is
  // still cited last among press and reference works, where it stood as educational_body (rank 5)
  if (src.startsWith('wikipedia-') && authority.get(src) === 'wine_press') r = RANK.educational_body;
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
  if (LEFT_OUT_IDS.has(r.id)) continue;
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
  rec._cands.push({ name: s.name, lang: latinSafeLang(s.lang, s.name), kind: s.kind, source: s.source,
    locator: s.note ? `${s.locator}; ${s.note}` : s.locator });
}

// The curated synonyms' languages were inferred from the country a source lists a name under. A
// language written in another script cannot label a name written in Latin letters ("Alicantina" is
// not Arabic, "Krasilshik" is not Georgian): such a name's language is unknown (und). kb validate
// refuses the combination.
function latinSafeLang(lang, name) {
  const NON_LATIN = new Set(['ar', 'fa', 'he', 'el', 'ru', 'bg', 'uk', 'mk', 'ka', 'hy', 'zh', 'ja', 'ko', 'th']);
  return NON_LATIN.has(lang) && /[A-Za-z]/.test(name) ? 'und' : lang;
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
writeAtomic(OUT, records);

const served = records.filter((r) => r.review !== 'draft');
console.log(`records: ${records.length} (reviewed ${served.length}, draft ${records.length - served.length})`);
console.log(`aliases: ${records.reduce((n, r) => n + r.aliases.length, 0)} (served: ${served.reduce((n, r) => n + r.aliases.length, 0)})`);
console.log(`dropped as ambiguous/colliding: ${dropped.length}`);
if (process.argv.includes('--verbose')) for (const d of dropped) console.log('  drop', d);

// =====================================================================================
// Part 2: varieties named in variety lists, matched to VIVC numbers (data/grapes/vivc-lists.json)
// =====================================================================================
// Which varieties: every name in these lists (names as the sources print them; sources
// registered in data/sources/grapes-lists.json):
//  - winemag: distinct values of the `variety` column of the WineEnthusiast review dataset
//    (winemag-data-130k), i.e. names people use for the grape in a wine's name;
//  - it_doc: grape varieties named in the Italian DOC/DOCG production rules (disciplinari),
//    as transcribed per wine type in a third-party list;
//  - fr_catalogue: wine varieties (usage "raisins de cuve") of the French official catalogue
//    of vine varieties with their berry-colour letter (B, N, G, Rs, Rg), as exported in a
//    third-party agricultural lexicon;
//  - wikipedia: English Wikipedia "List of grape varieties" (red and white tables), names
//    lower-cased by the scrape we read; [name, table];
//  - it_registro: the Italian Registro Nazionale delle Varietà di Vite, wine varieties, with the
//    register's berry colour and synonyms (tools/derive/grapes-it-registro.json);
//  - us_ttb: 27 CFR 4.91, the US list of approved grape variety names, with the synonyms it
//    gives in parentheses (tools/derive/grapes-us-ttb.json); a name with no VIVC match may match
//    through one of those synonyms (exact prime-name equality only);
//  - fr_codes: wine varieties (categories Cuve/Mixte, status valid) of the French cépage code
//    list that are not in the catalogue export above; [code, name as listed, colour].
// How a name is matched to a VIVC number (vivc-prime-names.csv; VIVC is cited, locator =
// passport URL): the name, accents and case folded (German umlauts also as AE/OE/UE, as
// VIVC spells them; spaces, hyphens and apostrophes ignored), must equal a VIVC prime name,
// or equal it once VIVC's colour word (BLANC, NOIR, BIANCO, NERO, TINTO, WEISS, ...) is
// dropped. A match through a colour word is only taken when a list gives the berry colour
// of that name (French catalogue letter or the Wikipedia red/white table) and the colour
// agrees; several candidates, or none, means the name is left out (reported with --verbose).
// Names that already name a record in data/grapes, and matches to a VIVC number that a
// record already carries, add nothing here. Style, blend and generic names of the review
// dataset are excluded below.
// The canonical name is the name as a list prints it, in this order of preference: Italian
// DOC list, review dataset, Wikipedia (title-cased, as the scrape lower-cased it), French
// catalogue (title-cased without accents in the export). The record's notes say which.
// Other spellings from the lists become aliases cited to their list; the VIVC prime name is
// a fact and (title-cased) an alias of kind synonym, lang und.
// berry_colour comes from the French catalogue letter, else from VIVC's own pedigree table
// (vivc-varieties-pedigree-leads.csv, colour and country, lead trust: cited to VIVC); a list colour
// that the fuller VIVC table contradicts gives way to VIVC's unless its source is a national register
// or a regulator (see "berry colour against VIVC" below).
const LISTS = {"winemag": ["Abouriou", "Agiorgitiko", "Aglianico", "Aidani", "Airen", "Albana", "Albanello", "Albariño", "Albarossa", "Aleatico", "Alfrocheiro", "Alicante", "Alicante Bouschet", "Aligoté", "Alsace white blend", "Altesse", "Alvarelhão", "Alvarinho", "Alvarinho-Chardonnay", "Ansonica", "Antão Vaz", "Apple", "Aragonês", "Aragonez", "Argaman", "Arinto", "Arneis", "Asprinio", "Assyrtico", "Assyrtiko", "Athiri", "Austrian Red Blend", "Austrian white blend", "Auxerrois", "Avesso", "Azal", "Babic", "Babosa Negro", "Bacchus", "Baco Noir", "Baga-Touriga Nacional", "Barbera", "Barbera-Nebbiolo", "Bastardo", "Biancale", "Biancolella", "Biancu Gentile", "Bical", "Black Muscat", "Blanc du Bois", "Blatina", "Blauburger", "Blauburgunder", "Blauer Portugieser", "Blaufränkisch", "Bobal", "Bobal-Cabernet Sauvignon", "Bogazkere", "Bombino Bianco", "Bombino Nero", "Bonarda", "Bordeaux-style Red Blend", "Bordeaux-style White Blend", "Bovale", "Brachetto", "Braucol", "Bual", "Cabernet", "Cabernet Blend", "Cabernet Franc", "Cabernet Franc-Cabernet Sauvignon", "Cabernet Franc-Carmenère", "Cabernet Franc-Lemberge", "Cabernet Franc-Malbec", "Cabernet Franc-Merlot", "Cabernet Merlot", "Cabernet Moravia", "Cabernet Pfeffer", "Cabernet Sauvignon", "Cabernet Sauvignon Grenache", "Cabernet Sauvignon-Barbera", "Cabernet Sauvignon-Cabernet Franc", "Cabernet Sauvignon-Carmenère", "Cabernet Sauvignon-Malbec", "Cabernet Sauvignon-Merlot", "Cabernet Sauvignon-Merlot-Shiraz", "Cabernet Sauvignon-Sangiovese", "Cabernet Sauvignon-Shiraz", "Cabernet Sauvignon-Syrah", "Cabernet Sauvignon-Tempranillo", "Cabernet-Malbec", "Cabernet-Shiraz", "Cabernet-Syrah", "Çalkarasi", "Canaiolo", "Cannonau", "Caprettone", "Carcajolu", "Carignan", "Carignan-Grenache", "Carignan-Syrah", "Carignane", "Carignano", "Carineña", "Cariñena-Garnacha", "Carmenère", "Carmenère-Cabernet Sauvignon", "Carmenère-Syrah", "Carricante", "Casavecchia", "Castelão", "Catalanesca", "Catarratto", "Cayuga", "Centesimino", "Cerceal", "Cercial", "Cesanese", "Cesanese d'Affile", "Chambourcin", "Champagne Blend", "Chancellor", "Charbono", "Chardonel", "Chardonnay", "Chardonnay Weissburgunder", "Chardonnay-Albariño", "Chardonnay-Pinot Blanc", "Chardonnay-Pinot Gris", "Chardonnay-Riesling", "Chardonnay-Sauvignon", "Chardonnay-Sauvignon Blanc", "Chardonnay-Semillon", "Chardonnay-Viognier", "Chasselas", "Chelois", "Chenin Blanc", "Chenin Blanc-Chardonnay", "Chenin Blanc-Sauvignon Blanc", "Chenin Blanc-Viognier", "Chinuri", "Ciliegiolo", "Cinsault", "Clairette", "Claret", "Cococciola", "Coda di Volpe", "Códega do Larinho", "Colombard", "Colombard-Sauvignon Blanc", "Colombard-Ugni Blanc", "Colorino", "Cortese", "Corvina", "Corvina, Rondinella, Molinara", "Counoise", "Dafni", "Debit", "Diamond", "Dolcetto", "Doña Blanca", "Dornfelder", "Duras", "Durella", "Durif", "Edelzwicker", "Ekigaïna", "Elbling", "Emir", "Encruzado", "Erbaluce", "Espadeiro", "Falanghina", "Favorita", "Fer Servadou", "Fernão Pires", "Feteasca", "Feteasca Neagra", "Feteasca Regala", "Fiano", "Folle Blanche", "Forcallà", "Francisa", "Franconia", "Frankovka", "Frappato", "Freisa", "Friulano", "Früburgunder", "Fumé Blanc", "Furmint", "G-S-M", "Gaglioppo", "Gamay", "Gamay Noir", "Gamza", "Garganega", "Garnacha", "Garnacha Blanca", "Garnacha Blend", "Garnacha Tintorera", "Garnacha-Cabernet", "Garnacha-Cariñena", "Garnacha-Monastrell", "Garnacha-Syrah", "Garnacha-Tempranillo", "Gelber Muskateller", "Gelber Traminer", "Gewürztraminer", "Gewürztraminer-Riesling", "Glera", "Godello", "Gouveio", "Graciano", "Graševina", "Gragnano", "Grauburgunder", "Grecanico", "Grechetto", "Greco", "Greco Bianco", "Grenache", "Grenache Blanc", "Grenache Blend", "Grenache Gris", "Grenache Noir", "Grenache-Carignan", "Grenache-Mourvèdre", "Grenache-Shiraz", "Grenache-Syrah", "Grignolino", "Grillo", "Grolleau", "Groppello", "Gros and Petit Manseng", "Gros Manseng", "Gros Plant", "Grüner Veltliner", "Hárslevelü", "Hondarrabi Zuri", "Incrocio Manzoni", "Insolia", "Inzolia", "Irsai Oliver", "Jacquère", "Jacquez", "Jaen", "Jampal", "Johannisberg Riesling", "Kadarka", "Kalecik Karasi", "Kangoun", "Karalahna", "Karasakiz", "Kekfrankos", "Kerner", "Kinali Yapincak", "Kisi", "Kotsifali", "Kuntra", "Lagrein", "Lambrusco", "Lambrusco di Sorbara", "Lambrusco Grasparossa", "Lambrusco Salamino", "Lemberger", "Listán Negro", "Loin de l'Oeil", "Loureiro", "Loureiro-Arinto", "Macabeo", "Macabeo-Chardonnay", "Macabeo-Moscatel", "Madeira Blend", "Madeleine Angevine", "Magliocco", "Malagousia", "Malagouzia", "Malagouzia-Chardonnay", "Malbec", "Malbec Blend", "Malbec-Bonarda", "Malbec-Cabernet", "Malbec-Cabernet Franc", "Malbec-Cabernet Sauvignon", "Malbec-Carménère", "Malbec-Merlot", "Malbec-Petit Verdot", "Malbec-Syrah", "Malbec-Tannat", "Malbec-Tempranillo", "Malvar", "Malvasia", "Malvasia Bianca", "Malvasia di Candia", "Malvasia Fina", "Malvasia Istriana", "Malvasia Nera", "Malvasia-Viura", "Mandilaria", "Mansois", "Mantonico", "Manzoni", "Marawi", "Maria Gomes", "Maria Gomes-Bical", "Marquette", "Marsanne", "Marsanne-Roussanne", "Marsanne-Viognier", "Marselan", "Marzemino", "Mataro", "Maturana", "Mavrodaphne", "Mavrokalavryta", "Mavrotragano", "Mavroudi", "Mavrud", "Mazuelo", "Melnik", "Melon", "Mencía", "Meritage", "Merlot", "Merlot-Argaman", "Merlot-Cabernet", "Merlot-Cabernet Franc", "Merlot-Cabernet Sauvignon", "Merlot-Grenache", "Merlot-Malbec", "Merlot-Petite Verdot", "Merlot-Shiraz", "Merlot-Syrah", "Merlot-Tannat", "Merseguera-Sauvignon Blanc", "Meseguera", "Misket", "Mission", "Molinara", "Monastrell", "Monastrell-Petit Verdot", "Monastrell-Syrah", "Mondeuse", "Monica", "Montepulciano", "Morava", "Morillon", "Morio Muskat", "Moscadello", "Moscatel", "Moscatel de Alejandría", "Moscatel Graúdo", "Moscatel Roxo", "Moscato", "Moscato di Noto", "Moscato Giallo", "Moscato Rosa", "Moschofilero", "Moschofilero-Chardonnay", "Mourvèdre", "Mourvèdre-Syrah", "Mtsvane", "Müller-Thurgau", "Muscadel", "Muscadelle", "Muscadine", "Muscat", "Muscat Blanc", "Muscat Blanc à Petits Grains", "Muscat Canelli", "Muscat d'Alexandrie", "Muscat Hamburg", "Muscat of Alexandria", "Muscatel", "Muskat", "Muskat Ottonel", "Muskateller", "Narince", "Nascetta", "Nasco", "Nebbiolo", "Negrette", "Negroamaro", "Nerello Cappuccio", "Nerello Mascalese", "Nero d'Avola", "Nero di Troia", "Neuburger", "Nielluciu", "Norton", "Nosiola", "Nuragus", "Ojaleshi", "Okuzgozu", "Ondenc", "Orange Muscat", "Orangetraube", "Other", "Otskhanuri Sapere", "País", "Pallagrello", "Pallagrello Blanco", "Pallagrello Nero", "Palomino", "Pansa Blanca", "Papaskarasi", "Paralleda", "Parraleta", "Passerina", "Pecorino", "Pedro Ximénez", "Perricone", "Petit Courbu", "Petit Manseng", "Petit Meslier", "Petit Verdot", "Petite Sirah", "Petite Verdot", "Picapoll", "Picolit", "Picpoul", "Piedirosso", "Pigato", "Pignoletto", "Pignolo", "Pinot Auxerrois", "Pinot Bianco", "Pinot Blanc", "Pinot Blanc-Chardonnay", "Pinot Blanc-Pinot Noir", "Pinot Blanc-Viognier", "Pinot Grigio", "Pinot Grigio-Sauvignon Blanc", "Pinot Gris", "Pinot Gris-Gewürztraminer", "Pinot Meunier", "Pinot Nero", "Pinot Noir", "Pinot Noir-Gamay", "Pinot Noir-Syrah", "Pinot-Chardonnay", "Pinotage", "Pinotage-Merlot", "Piquepoul Blanc", "Plavac Mali", "Plyto", "Port", "Portuguese Red", "Portuguese Rosé", "Portuguese Sparkling", "Portuguese White", "Portuguiser", "Posip", "Poulsard", "Premsal", "Prié Blanc", "Prieto Picudo", "Primitivo", "Prosecco", "Provence red blend", "Provence white blend", "Prugnolo Gentile", "Prunelard", "Pugnitello", "Rabigato", "Raboso", "Ramisco", "Rara Neagra", "Rebo", "Rebula", "Red Blend", "Refosco", "Rhône-style Red Blend", "Rhône-style White Blend", "Ribolla Gialla", "Rieslaner", "Riesling", "Riesling-Chardonnay", "Rivaner", "Rkatsiteli", "Robola", "Roditis", "Roditis-Moschofilero", "Rolle", "Romorantin", "Rosado", "Rosato", "Roscetto", "Rosé", "Rosenmuskateller", "Roter Traminer", "Roter Veltliner", "Rotgipfler", "Roussanne", "Roussanne-Grenache Blanc", "Roussanne-Marsanne", "Roussanne-Viognier", "Roviello", "Ruché", "Rufete", "Ryzlink Rýnský", "Sacy", "Sagrantino", "Sämling", "Sangiovese", "Sangiovese Cabernet", "Sangiovese Grosso", "Sangiovese-Cabernet Sauvignon", "Sangiovese-Syrah", "Saperavi", "Saperavi-Merlot", "Sauvignon", "Sauvignon Blanc", "Sauvignon Blanc-Assyrtiko", "Sauvignon Blanc-Chardonnay", "Sauvignon Blanc-Chenin Blanc", "Sauvignon Blanc-Sauvignon Gris", "Sauvignon Blanc-Semillon", "Sauvignon Blanc-Verdejo", "Sauvignon Gris", "Sauvignon Musqué", "Sauvignon-Sémillon", "Sauvignonasse", "Savagnin", "Savatiano", "Scheurebe", "Schiava", "Schwartzriesling", "Sciaccerellu", "Sémillon", "Semillon-Chardonnay", "Semillon-Sauvignon Blanc", "Sercial", "Seyval Blanc", "Sherry", "Shiraz", "Shiraz-Cabernet", "Shiraz-Cabernet Sauvignon", "Shiraz-Grenache", "Shiraz-Malbec", "Shiraz-Mourvèdre", "Shiraz-Roussanne", "Shiraz-Tempranillo", "Shiraz-Viognier", "Sideritis", "Siegerrebe", "Silvaner", "Silvaner-Traminer", "Siria", "Sirica", "Sousão", "Souzao", "Sparkling Blend", "Spätburgunder", "St. Laurent", "St. Vincent", "Susumaniello", "Sylvaner", "Symphony", "Syrah", "Syrah-Bonarda", "Syrah-Cabernet", "Syrah-Cabernet Franc", "Syrah-Cabernet Sauvignon", "Syrah-Carignan", "Syrah-Grenache", "Syrah-Grenache-Viognier", "Syrah-Malbec", "Syrah-Merlot", "Syrah-Mourvèdre", "Syrah-Petit Verdot", "Syrah-Petite Sirah", "Syrah-Tempranillo", "Syrah-Viognier", "Tămâioasă Românească", "Tamianka", "Tamjanika", "Tannat", "Tannat-Cabernet", "Tannat-Cabernet Franc", "Tannat-Merlot", "Tannat-Syrah", "Tempranillo", "Tempranillo Blanco", "Tempranillo Blend", "Tempranillo-Cabernet Sauvignon", "Tempranillo-Garnacha", "Tempranillo-Malbec", "Tempranillo-Merlot", "Tempranillo-Shiraz", "Tempranillo-Syrah", "Tempranillo-Tannat", "Teran", "Teroldego", "Teroldego Rotaliano", "Terrantez", "Thrapsathiri", "Timorasso", "Tinta Amarela", "Tinta Barroca", "Tinta Cao", "Tinta de Toro", "Tinta del Pais", "Tinta del Toro", "Tinta Fina", "Tinta Francisca", "Tinta Madeira", "Tinta Miúda", "Tinta Negra Mole", "Tinta Roriz", "Tintilia", "Tinto del Pais", "Tinto Fino", "Tinto Velasco", "Tocai", "Tocai Friulano", "Tokaji", "Tokay", "Tokay Pinot Gris", "Torbato", "Torontel", "Torrontés", "Touriga", "Touriga Franca", "Touriga Nacional", "Touriga Nacional Blend", "Touriga Nacional-Cabernet Sauvignon", "Trajadura", "Traminer", "Traminette", "Trebbiano", "Trebbiano di Lugana", "Trebbiano Spoletino", "Treixadura", "Trepat", "Trincadeira", "Trollinger", "Trousseau", "Trousseau Gris", "Tsapournakos", "Tsolikouri", "Turbiana", "Ugni Blanc", "Ugni Blanc-Colombard", "Uva di Troia", "Uvalino", "Valdiguié", "Valvin Muscat", "Veltliner", "Verdeca", "Verdejo", "Verdejo-Sauvignon Blanc", "Verdejo-Viura", "Verdelho", "Verdicchio", "Verdil", "Verdosilla", "Verduzzo", "Verduzzo Friulano", "Vermentino", "Vermentino Nero", "Vernaccia", "Vespaiolo", "Vespolina", "Vidadillo", "Vidal", "Vidal Blanc", "Vignoles", "Vilana", "Vinhão", "Viognier", "Viognier-Chardonnay", "Viognier-Gewürztraminer", "Viognier-Grenache Blanc", "Viognier-Marsanne", "Viognier-Roussanne", "Viognier-Valdiguié", "Viosinho", "Vital", "Vitovska", "Viura", "Viura-Chardonnay", "Viura-Verdejo", "Vranac", "Vranec", "Weissburgunder", "Welschriesling", "White Blend", "White Port", "White Riesling", "Xarel-lo", "Xinisteri", "Xinomavro", "Xynisteri", "Yapincak", "Zelen", "Zibibbo", "Zierfandler-Rotgipfler", "Zinfandel", "Zlahtina", "Zweigelt", "Zierfandler", "Žilavka", "Pallagrello Bianco", "Feteascǎ Regalǎ", "Cabernet Franc-Lemberger", "Black Monukka"], "it_doc": ["Trebbiano Abruzzese", "Trebbiano Toscano", "Cococciola", "Malvasia", "Montonico bianco", "Passerina", "Moscato bianco", "Pecorino", "Riesling Italico", "Sauvignon", "Gewürztraminer", "Montepulciano", "Chardonnay", "Pinot nero", "Aglianico", "Aglianico del Vulture", "Nebbiolo", "Barbera", "Freisa", "Bonarda", "Ansonica", "Catarratto bianco lucido", "Catarratto bianco comune", "Müller-Thurgau", "Cabernet Sauvignon", "Calabrese", "Grecanico dorato", "Grillo", "Merlot", "Nerello Mascalese", "Sangiovese", "Frappato", "Perricone", "Syrah", "Aleatico", "Negro Amaro", "Malvasia nera di Lecce", "Cagnulari", "Torbato", "Vermentino", "Pinot bianco", "Pinot grigio", "Cabernet Franc", "Lagrein", "Schiava", "Kerner", "Portoghese", "Malvasia nera", "Moscato giallo", "Moscato rosa", "Sylvaner verde", "Veltliner", "Schiava grigia", "Corvina", "Corvinone", "Rondinella", "Ciliegiolo", "Grechetto", "Malvasia bianca lunga", "Trebbiano Romagnolo", "Garganega", "Carmènere", "Sémillon", "Asprinio", "Tocai Friulano", "Raboso Piave", "Cavrara", "Corbina", "Refosco dal peduncolo rosso", "Turchetta", "Marzemina bianca", "Dolcetto", "Grignolino", "Canaiolo nero", "Molinara", "Uva di Troia", "Biancame", "Verduzzo Friulano", "Verduzzo Trevigiano", "Cortese", "Greco", "Verdello", "Greco Bianco", "Guardavalle", "Malvasia bianca", "Gaglioppo", "Greco Nero", "Nocera", "Castiglione", "Vespolina", "Uva rara", "Croatina", "Malvasia bianca di Candia", "Fortana", "Schiava gentile", "Marzemino", "Brachetto", "Vespaiola", "Fiano", "Malvasia nera di Brindisi", "Susumaniello", "Malvasia di Sardegna", "Monica", "Gamba rossa", "Falanghina", "Piedirosso", "Bovale", "Bovale grande", "Erbaluce", "Barsaglina", "Vermentino nero", "Malvasia del Lazio", "Cannonau", "Biancolella", "Trebbiano di Soave", "Carignano", "Canaiolo bianco", "Malvasia del Chianti", "Glera", "Malvasia Istriana", "Terrano", "Vitouska", "Casavecchia", "Nero di Troia", "Pampanuto", "Bombino bianco", "Bombino nero", "Cesanese comune", "Nero buono", "Incrocio Terzi n.1", "Nero d’Avola", "Cesanese di Affile", "Primitivo", "Bosco", "Albarola", "Malvasia di Candia aromatica", "Ortrugo", "Impigno", "Bianco d’Alessano", "Verdeca", "Ottavianello", "Notardomenico", "Lambrusco Maestri", "Bellone", "Nuragus", "Durella", "Viognier", "Zibibbo", "Nasco", "Riesling", "Tocai rosso", "Manzoni bianco", "Pignoletto", "Gamay del Trasimeno", "Trebbiano giallo", "Verdiso", "Boschera", "Ancellotta", "Mostosa", "Spergola", "Lambrusco Barghi", "Lambrusco Marani", "Lambrusco Salamino", "Lambrusco Grasparossa", "Lambrusco Montericco", "Malbo gentile", "Grechetto rosso", "Pinella", "Raboso Veronese", "Maceratino", "Vernaccia nera", "Picolit", "Verdicchio", "Marsanne", "Santa Maria", "Melara", "Bervedino", "Favorita", "Timorasso", "Malvasia di Schierano", "Malvasia nera lunga", "Pelaverga", "Chatus", "Quagliano", "Ribolla gialla", "Inzolia", "Sciascinoso", "Damaschino", "Carricante", "Minnella bianca", "Nerello Cappuccio", "Coda di Volpe", "Riesling Renano", "Traminer aromatico", "Pignolo", "Schioppettino", "Tazzelenghe", "Franconia", "Girò", "Bianchetta Genovese", "Scimiscià", "Malvasia nera di Basilicata", "Forastera", "Guarnaccia", "Lacrima", "Schiava grossa", "Magliocco canino", "Arneis", "Nascetta", "Rossese bianco", "Malbech", "Malvasia di Lipari", "Corinto nero", "Malvasia di Casorzo", "Alicante", "Malvasia bianca di Basilicata", "Montù", "Roussanne", "Sagrantino", "Bianchetta Trevigiana", "Recantina", "Tintilia", "Albarossa", "Doux d’Henry", "Avanà", "Avarengo", "Neretto di Bairo", "Albana", "Groppello di Mocasina", "Groppello di Revò", "Groppello di Santo Stefano", "Pigato", "Rossese", "Ruchè", "Semidano", "Moscato di Scanzo", "Marsigliana nera", "Mondeuse", "Trebbiano Spoletino", "Moscato di Terracina", "Pecorello", "Teroldego", "Rebo", "Pinot Meunier", "Pugnitello", "Casetta", "Prié blanc", "Petit Rouge", "Fumin", "Gamaret", "Gamay", "Mayolet", "Vien de Nus", "Petite Arvine", "Vuillermin", "Neretta Cuneese", "Pelaverga piccolo", "Vernaccia di Oristano", "Vernaccia di San Gimignano", "Nosiola"], "wikipedia": [["abbuoto", "red"], ["abouriou", "red"], ["abrusco", "red"], ["acitana", "red"], ["acolon", "red"], ["adakarası", "red"], ["agh shani", "red"], ["agiorgitiko", "red"], ["aglianico", "red"], ["aglianicone", "red"], ["albaranzeuli nero", "red"], ["albarossa", "red"], ["aleatico", "red"], ["aleksandrouli", "red"], ["alfrocheiro preto", "red"], ["alicante bouschet", "red"], ["alicante ganzin", "red"], ["alvarelhão", "red"], ["ancellotta", "red"], ["aramon", "red"], ["argaman", "red"], ["argant", "red"], ["arrouya noir", "red"], ["aspiran", "red"], ["aubun", "red"], ["avanà", "red"], ["avarengo", "red"], ["azal tinto", "red"], ["băbească neagră", "red"], ["babić", "red"], ["bachet noir", "red"], ["baco noir", "red"], ["baga", "red"], ["barbarossa", "red"], ["barbaroux", "red"], ["barbera", "red"], ["barbera del sannio", "red"], ["barbera sarda", "red"], ["barsaglina", "red"], ["beaunoir", "red"], ["bellone", "red"], ["béquignol noir", "red"], ["black muscat", "red"], ["blatina", "red"], ["blauburger", "red"], ["blauer portugieser", "red"], ["blaufränkisch", "red"], ["bobal", "red"], ["boğazkere", "red"], ["bombino nero", "red"], ["bonamico", "red"], ["bonarda piemontese", "red"], ["bonda", "red"], ["bondola", "red"], ["bouchalès", "red"], ["bouteillan noir", "red"], ["bovale", "red"], ["bracciola nera", "red"], ["brachetto", "red"], ["braquet", "red"], ["brugnola", "red"], ["brun argenté", "red"], ["brun fourca", "red"], ["bubbierasco", "red"], ["busuioacă de bohotin", "red"], ["cabernet dorsa", "red"], ["cabernet franc", "red"], ["cabernet gernischt", "red"], ["cabernet mitos", "red"], ["cabernet sauvignon", "red"], ["caiño tinto", "red"], ["calabrese montenuovo", "red"], ["caladoc", "red"], ["calitor", "red"], ["Çalkarası", "red"], ["camaraou noir", "red"], ["canaiolo", "red"], ["canari noir", "red"], ["carignan", "red"], ["carménère", "red"], ["cascade", "red"], ["castelão", "red"], ["castets", "red"], ["catanese nero", "red"], ["catawba", "red"], ["cesanese comune", "red"], ["césar", "red"], ["chancellor", "red"], ["chatus (wine grape)", "red"], ["chelois", "red"], ["cienna", "red"], ["ciliegiolo", "red"], ["cinsaut", "red"], ["clinton", "red"], ["colombana nera", "red"], ["colorino", "red"], ["complexa", "red"], ["cornalin d'aoste", "red"], ["cornifesto", "red"], ["corot noir", "red"], ["corvina", "red"], ["corvinone", "red"], ["couderc noir", "red"], ["counoise", "red"], ["criolla grande", "red"], ["croatina", "red"], ["cygne blanc", "red"], ["dameron", "red"], ["de chaunac", "red"], ["delaware", "red"], ["diolinoir", "red"], ["dobričić", "red"], ["dolcetto", "red"], ["domina", "red"], ["dornfelder", "red"], ["douce noir", "red"], ["douce noire grise", "red"], ["drnekuša", "red"], ["dunkelfelder", "red"], ["duras", "red"], ["dureza", "red"], ["durif", "red"], ["ederena", "red"], ["emperor", "red"], ["enfariné noir", "red"], ["espadeiro", "red"], ["Étraire de la dui", "red"], ["fer", "red"], ["fetească neagră", "red"], ["flora", "red"], ["flot rouge", "red"], ["forcallat tinta", "red"], ["fortana", "red"], ["frappato", "red"], ["freisa", "red"], ["frontenac", "red"], ["frühroter veltliner", "red"], ["fuella", "red"], ["fumin", "red"], ["gaglioppo", "red"], ["gamaret", "red"], ["gamay", "red"], ["gamay beaujolais", "red"], ["garanoir", "red"], ["garró", "red"], ["girò", "red"], ["gouget noir", "red"], ["graciano", "red"], ["grand noir de la calmette", "red"], ["grenache", "red"], ["grignolino", "red"], ["grisa nera", "red"], ["grolleau", "red"], ["groppello", "red"], ["gros verdot", "red"], ["gueuche noir", "red"], ["helfensteiner", "red"], ["heroldrebe", "red"], ["hondarribi beltza", "red"], ["hron", "red"], ["incrocio manzoni 2.14", "red"], ["incrocio manzoni 2.15", "red"], ["isabella", "red"], ["ives noir", "red"], ["jaén tinto", "red"], ["joubertin", "red"], ["juan garcía", "red"], ["kadarka", "red"], ["kalecik karası", "red"], ["kotsifali", "red"], ["krasnostop zolotovsky", "red"], ["kratosija", "red"], ["lacrima", "red"], ["lagrein", "red"], ["lambrusco", "red"], ["landal noir", "red"], ["landot noir", "red"], ["léon millot", "red"], ["liatiko", "red"], ["limnio", "red"], ["listán negro", "red"], ["madrasa", "red"], ["magarach ruby", "red"], ["magliocco canino", "red"], ["magliocco dolce", "red"], ["malbec", "red"], ["mammolo", "red"], ["mandilaria", "red"], ["manseng noir", "red"], ["manto negro", "red"], ["maratheftiko", "red"], ["marechal foch", "red"], ["marechal joffre", "red"], ["marselan", "red"], ["marzemino", "red"], ["mauzac noir", "red"], ["mavro", "red"], ["mavrodafni", "red"], ["mavrud", "red"], ["mencia", "red"], ["merille", "red"], ["merlot", "red"], ["milgranet", "red"], ["mission", "red"], ["molinara", "red"], ["mondeuse noire", "red"], ["monica", "red"], ["montepulciano", "red"], ["montepulciano d'abruzzo", "red"], ["montù", "red"], ["moreto", "red"], ["moristel", "red"], ["mornen noir", "red"], ["morrastel bouschet", "red"], ["mourisco tinto", "red"], ["mourvèdre", "red"], ["mtevandidi", "red"], ["mujuretuli", "red"], ["mureto", "red"], ["muscardin", "red"], ["muscat bleu", "red"], ["nebbiolo", "red"], ["negoska", "red"], ["negrara", "red"], ["négrette", "red"], ["negroamaro", "red"], ["nerello", "red"], ["nero d'avola", "red"], ["nielluccio", "red"], ["nocera", "red"], ["noiret", "red"], ["norton", "red"], ["oeillade noire", "red"], ["Öküzgözü", "red"], ["pais", "red"], ["pallagrello nero", "red"], ["pamid", "red"], ["papazkarası", "red"], ["parraleta", "red"], ["pascale di cagliari", "red"], ["pelaverga", "red"], ["peloursin", "red"], ["perricone", "red"], ["persan", "red"], ["petit bouschet", "red"], ["petit rouge", "red"], ["petit verdot", "red"], ["piccola nera", "red"], ["piedirosso", "red"], ["pignolo", "red"], ["pineau d'aunis", "red"], ["pinot meunier", "red"], ["pinot noir", "red"], ["pinot noir précoce", "red"], ["pinotage", "red"], ["pione", "red"], ["piquepoul", "red"], ["plantet", "red"], ["plassa", "red"], ["plavac mali", "red"], ["pollera nera", "red"], ["portan", "red"], ["poulsard", "red"], ["prieto picudo", "red"], ["prokupac", "red"], ["prunesta", "red"], ["raboso", "red"], ["ramisco", "red"], ["refosco", "red"], ["refosco dal peduncolo rosso", "red"], ["rimava", "red"], ["roesler", "red"], ["romé", "red"], ["romeiko", "red"], ["rondinella", "red"], ["rosette", "red"], ["rossignola", "red"], ["rossola nera", "red"], ["rossolino nero", "red"], ["rotberger", "red"], ["rouge du pays", "red"], ["royalty", "red"], ["ruby cabernet", "red"], ["ruché", "red"], ["rufete", "red"], ["sagrantino", "red"], ["salvador", "red"], ["san giuseppe nero", "red"], ["sangiovese", "red"], ["saperavi", "red"], ["schioppettino", "red"], ["schönburger", "red"], ["sciacarello", "red"], ["sciascinoso", "red"], ["ségalin", "red"], ["servanin", "red"], ["severny", "red"], ["seyval noir", "red"], ["siroka melniska", "red"], ["sjriak", "red"], ["sousao", "red"], ["sousão", "red"], ["souson", "red"], ["sousón", "red"], ["souzão", "red"], ["st. laurent", "red"], ["stanušina crna", "red"], ["sumoll", "red"], ["susac crni", "red"], ["susumaniello", "red"], ["swenson red", "red"], ["syrah", "red"], ["taferielt", "red"], ["tannat", "red"], ["tarrango", "red"], ["tazzelenghe", "red"], ["teinturier", "red"], ["tempranillo", "red"], ["téoulier", "red"], ["termarina rossa", "red"], ["teroldego", "red"], ["terrano", "red"], ["terret noir", "red"], ["tibouren", "red"], ["tinta amarela", "red"], ["tinta barroca", "red"], ["tinta cão", "red"], ["tinta carvalha", "red"], ["tinta francisca", "red"], ["tinta miuda", "red"], ["tinta negra mole", "red"], ["touriga francesa", "red"], ["touriga nacional", "red"], ["trepat", "red"], ["tressot", "red"], ["trevisana nera", "red"], ["triomphe d'alsace", "red"], ["trollinger", "red"], ["trousseau", "red"], ["tsardana", "red"], ["uva di troia", "red"], ["uva rara", "red"], ["uva tosca", "red"], ["uvalino", "red"], ["valdiguié", "red"], ["valentino nero", "red"], ["vermentino nero", "red"], ["vespolina", "red"], ["vien de nus", "red"], ["vitis rotundifolia", "red"], ["vranac", "red"], ["vuillermin", "red"], ["wildbacher", "red"], ["xinomavro", "red"], ["Žametovka", "red"], ["zarya severa", "red"], ["zinfandel", "red"], ["zweigelt", "red"], ["addoraca", "white"], ["aidini", "white"], ["airén", "white"], ["alarije", "white"], ["albalonga", "white"], ["albana", "white"], ["albanella", "white"], ["albanello bianco", "white"], ["albaranzeuli bianco", "white"], ["albarello", "white"], ["albariño", "white"], ["albarola", "white"], ["albillo", "white"], ["aligoté", "white"], ["alionza", "white"], ["altesse", "white"], ["amigne", "white"], ["ansonica", "white"], ["antão vaz", "white"], ["arbane", "white"], ["arbois", "white"], ["arilla", "white"], ["arinto", "white"], ["arneis", "white"], ["arnsburger", "white"], ["arrufiac", "white"], ["arvesiniadu", "white"], ["asprinio bianco", "white"], ["assyrtiko", "white"], ["athiri", "white"], ["aubin blanc", "white"], ["aubin vert", "white"], ["aurore", "white"], ["auxerrois blanc", "white"], ["avesso", "white"], ["azal branco", "white"], ["bacchus", "white"], ["baco blanc", "white"], ["balzac blanc", "white"], ["baratuciat", "white"], ["barbera bianca", "white"], ["bariadorgia", "white"], ["baroque", "white"], ["bayan shirey", "white"], ["beba", "white"], ["besgano bianco", "white"], ["bia blanc", "white"], ["bianca", "white"], ["biancame", "white"], ["bianchetta trevigiana", "white"], ["bianco d'alessano", "white"], ["biancolella", "white"], ["biancone di portoferraio", "white"], ["bical", "white"], ["bigolona", "white"], ["blatterle", "white"], ["boal", "white"], ["bogdanuša", "white"], ["bombino bianco", "white"], ["borba blanca", "white"], ["bosco", "white"], ["bourboulenc", "white"], ["bouvier", "white"], ["breidecker", "white"], ["bronner", "white"], ["brustiano bianco", "white"], ["brustiano faux", "white"], ["bukettraube", "white"], ["burger", "white"], ["cabernet blanc", "white"], ["caíño blanco", "white"], ["camaralet", "white"], ["caprettone", "white"], ["carricante", "white"], ["cascarolo bianco", "white"], ["cassady", "white"], ["catarratto", "white"], ["cayetana", "white"], ["cayuga white", "white"], ["cereza", "white"], ["chambourcin", "white"], ["chardonel", "white"], ["chardonnay", "white"], ["chasan", "white"], ["chasselas", "white"], ["chenel", "white"], ["chenin blanc", "white"], ["chinuri", "white"], ["clairette blanche", "white"], ["claverie", "white"], ["cococciola", "white"], ["coda di pecora", "white"], ["coda di volpe", "white"], ["colombard", "white"], ["completer", "white"], ["cortese", "white"], ["courbu", "white"], ["crouchen", "white"], ["cserszegi fűszeres", "white"], ["debina", "white"], ["debit", "white"], ["diamond", "white"], ["dimiat", "white"], ["dinka", "white"], ["doña blanca", "white"], ["donzelinho branco", "white"], ["doradillo", "white"], ["drupeggio", "white"], ["durella", "white"], ["ehrenbreitsteiner", "white"], ["ehrenfelser", "white"], ["elbling", "white"], ["emir", "white"], ["encruzado", "white"], ["erbaluce", "white"], ["escanyavella", "white"], ["ezerjó", "white"], ["f", "white"], ["faberrebe", "white"], ["falanghina", "white"], ["favorita", "white"], ["fernão pires", "white"], ["fetească albă", "white"], ["fetească regală", "white"], ["fiano", "white"], ["findling", "white"], ["flora", "white"], ["folle blanche", "white"], ["forastera", "white"], ["forastera (spanish grape)", "white"], ["freisamer", "white"], ["furmint", "white"], ["gamay blanc gloriod", "white"], ["garganega", "white"], ["garrido fino", "white"], ["gewürztraminer", "white"], ["giró blanc", "white"], ["glera", "white"], ["godello", "white"], ["goldburger", "white"], ["goldriesling", "white"], ["gouais blanc", "white"], ["graisse", "white"], ["grasă de cotnari", "white"], ["grechetto", "white"], ["greco", "white"], ["green hungarian", "white"], ["grenache blanc", "white"], ["grillo", "white"], ["gringet", "white"], ["grk bijeli", "white"], ["gros manseng", "white"], ["grüner veltliner", "white"], ["gutenborner", "white"], ["hárslevelű", "white"], ["hebén", "white"], ["hibernal", "white"], ["hondarrabi zuri", "white"], ["humagne blanche", "white"], ["huxelrebe", "white"], ["incrocio manzoni 1.50", "white"], ["irsai olivér", "white"], ["jacquère", "white"], ["juhfark", "white"], ["juwel", "white"], ["kabar", "white"], ["kanzler", "white"], ["kéknyelű", "white"], ["kerner", "white"], ["knipperlé", "white"], ["koshu", "white"], ["kövérszőlő", "white"], ["krstač", "white"], ["l'acadie blanc", "white"], ["la crescent", "white"], ["la crosse", "white"], ["lagarino bianco", "white"], ["lagorthi", "white"], ["lauzet", "white"], ["len de l'el", "white"], ["listán de huelva", "white"], ["loureira", "white"], ["luglienga", "white"], ["macabeo", "white"], ["maceratino", "white"], ["madeleine angevine", "white"], ["malagousia", "white"], ["malvar", "white"], ["malvasia", "white"], ["mantonico bianco", "white"], ["manzoni bianco", "white"], ["maraština", "white"], ["marawi", "white"], ["marsanne", "white"], ["marzemina bianca", "white"], ["mauzac", "white"], ["melody", "white"], ["melon de bourgogne", "white"], ["merlot blanc", "white"], ["merseguera", "white"], ["meslier-saint-françois", "white"], ["minella bianca", "white"], ["misket cherven", "white"], ["molette", "white"], ["mondeuse blanche", "white"], ["montepila", "white"], ["montonico bianco", "white"], ["montù", "white"], ["morio muscat", "white"], ["moscato giallo", "white"], ["moschofilero", "white"], ["mtsvane", "white"], ["müller-thurgau", "white"], ["muscadelle", "white"], ["muscat", "white"], ["muscat blanc à petits grains", "white"], ["muscat of alexandria", "white"], ["muscat ottonel", "white"], ["muscat d'eisenstadt", "white"], ["muscat rose à petits grains", "white"], ["muscat rouge à petits grains", "white"], ["narince", "white"], ["nasco", "white"], ["neuburger", "white"], ["neyret", "white"], ["noah", "white"], ["nobling", "white"], ["nosiola", "white"], ["nuragus", "white"], ["ondenc", "white"], ["optima", "white"], ["orléans", "white"], ["ortega", "white"], ["ortrugo", "white"], ["österreichisch-weiß", "white"], ["pallagrello bianco", "white"], ["palomino", "white"], ["pampanuto", "white"], ["pardillo", "white"], ["parellada", "white"], ["pascal blanc", "white"], ["passerina", "white"], ["pearl of csaba", "white"], ["pecorino", "white"], ["pedro giménez", "white"], ["pedro ximénez", "white"], ["perle", "white"], ["petit manseng", "white"], ["petit meslier", "white"], ["petite arvine", "white"], ["peurion", "white"], ["picardan", "white"], ["picolit", "white"], ["pigato", "white"], ["pinot blanc", "white"], ["pinot gris", "white"], ["piquepoul", "white"], ["plavay", "white"], ["pošip", "white"], ["prié blanc", "white"], ["prosecco", "white"], ["rabo de ovelha", "white"], ["räuschling", "white"], ["ravat blanc", "white"], ["regner", "white"], ["reichensteiner", "white"], ["retagliado bianco", "white"], ["rèze", "white"], ["rhoditis", "white"], ["ribolla gialla", "white"], ["rieslaner", "white"], ["riesling", "white"], ["rkatsiteli", "white"], ["robola", "white"], ["romorantin", "white"], ["rossese bianco", "white"], ["roter veltliner", "white"], ["rotgipfler", "white"], ["roublot", "white"], ["roupeiro", "white"], ["roussanne", "white"], ["rovello bianco", "white"], ["sacy", "white"], ["saint-pierre doré", "white"], ["sarfeher", "white"], ["sauvignon blanc", "white"], ["sauvignon gris", "white"], ["sauvignon vert", "white"], ["savagnin", "white"], ["savagnin rose", "white"], ["savatiano", "white"], ["scheurebe", "white"], ["sémillon", "white"], ["sercial", "white"], ["seyval blanc", "white"], ["siegerrebe", "white"], ["silvaner", "white"], ["smederevka", "white"], ["souvignier gris", "white"], ["st. pepin", "white"], ["sumoll", "white"], ["tamarez", "white"], ["taminga", "white"], ["tamjanika", "white"], ["tempranillo blanco", "white"], ["terrantez", "white"], ["terret blanc", "white"], ["terret gris", "white"], ["thrapsathiri", "white"], ["timorasso", "white"], ["torrontés", "white"], ["tourbat", "white"], ["traminette", "white"], ["trebbiano", "white"], ["treixadura", "white"], ["trousseau gris", "white"], ["tsolikouri", "white"], ["valvin muscat", "white"], ["vega", "white"], ["verdea", "white"], ["verdeca", "white"], ["verdejo", "white"], ["verdelho", "white"], ["verdello", "white"], ["verdesse", "white"], ["verdicchio", "white"], ["verdiso", "white"], ["verduzzo", "white"], ["verduzzo trevigiano", "white"], ["vermentino", "white"], ["vernaccia", "white"], ["vernaccia di oristano", "white"], ["versoaln", "white"], ["vespaiola", "white"], ["vidal blanc", "white"], ["vigiriega", "white"], ["vignoles", "white"], ["vilana", "white"], ["viognier", "white"], ["viosinho", "white"], ["vital", "white"], ["vitovska", "white"], ["vugava", "white"], ["weldra", "white"], ["welschriesling", "white"], ["swish beverages", "white"], ["würzer", "white"], ["xarel·lo", "white"], ["xynisteri", "white"], ["zalema", "white"], ["zéta", "white"], ["zierfandler", "white"], ["Žilavka", "white"]], "fr_catalogue": [["Arrouya", "N"], ["Prunelard", "N"], ["Tempranillo", "N"], ["Corbeau", "N"], ["Mornen", "N"], ["Pascal", "B"], ["Agiorgitiko", "N"], ["Muscat A Petits Grains Rouge", "Rg"], ["Select", "B"], ["Noual", "B"], ["Seyval", "B"], ["Precoce De Malingre", "B"], ["Beclan", "N"], ["Sciaccarello", "N"], ["Roussanne", "B"], ["Meunier", "N"], ["Jurancon Blanc", "B"], ["Hibou Noir", "N"], ["Duras", "N"], ["Cot", "N"], ["Petite Sainte-Marie", "B"], ["Carignan Gris", "G"], ["Courbu Noir", "N"], ["Ganson", "N"], ["Ugni Blanc", "B"], ["Chardonnay", "B"], ["Orbois", "B"], ["Rivairenc", "N"], ["Len De L'El", "B"], ["Arinarnoa", "N"], ["Aligote", "B"], ["Portugais Bleu", "N"], ["Oberlin", "N"], ["Aleatico", "N"], ["Arriloba", "B"], ["Molette", "B"], ["Aubun", "N"], ["Negret De Banhars", "N"], ["Carcajolo", "N"], ["Persan", "N"], ["Zinfandel", "N"], ["Viognier", "B"], ["Semillon", "B"], ["Grenache Blanc", "B"], ["Lledoner Pelut", "N"], ["Cabernet Franc", "N"], ["Roussette D'Ayze", "B"], ["Chasan", "B"], ["Portan", "N"], ["Pinot Blanc", "B"], ["Gibert", "N"], ["Colombaud", "B"], ["Petit Courbu", "B"], ["Biancu Gentile", "B"], ["Aramon Blanc", "B"], ["Cabestrel", "N"], ["Raisaine", "B"], ["Raffiat De Moncade", "B"], ["Bourboulenc", "B"], ["Franc Noir De La Haute Saone", "N"], ["Rivairenc", "B"], ["Noir Fleurien", "N"], ["Gouget", "N"], ["Liliorila", "B"], ["Mauzac", "B"], ["Beaugaray", "N"], ["Colombard", "B"], ["Durif", "N"], ["Cabernet-Sauvignon", "N"], ["Alicante Henri Bouschet", "N"], ["Mouyssagues", "N"], ["Varousset", "N"], ["Grand Noir De La Calmette", "N"], ["Onchette", "N"], ["Peloursin", "N"], ["Baco Blanc", "B"], ["Marsanne", "B"], ["Chouchillon", "B"], ["Aubin Vert", "B"], ["Brun Argente", "N"], ["Muscat D'Alexandrie", "B"], ["Trousseau", "N"], ["Sylvaner", "B"], ["Muscat De Hambourg", "N"], ["Grolleau Gris", "G"], ["Assyrtiko", "B"], ["Jurancon Noir", "N"], ["Abouriou", "N"], ["Gringet", "B"], ["Petit Verdot", "N"], ["Saint-Macaire", "N"], ["Piquepoul Blanc", "B"], ["Saperavi", "N"], ["Couderc Noir", "N"], ["Gascon", "N"], ["Bouysselet", "B"], ["Florental", "N"], ["Verdesse", "B"], ["Courbu", "B"], ["Merlot", "N"], ["Muscardin", "N"], ["Syrah", "N"], ["Poulsard", "N"], ["Trousseau Gris", "G"], ["Muscadelle", "B"], ["Ekigaina", "N"], ["Terret Noir", "N"], ["Chenanson", "N"], ["Sauvignon", "B"], ["Cinsaut", "N"], ["Carcajolo Blanc", "B"], ["Romorantin", "B"], ["Manseng Noir", "N"], ["Merlot Blanc", "B"], ["Bia Blanc", "B"], ["Fer", "N"], ["Grolleau", "N"], ["Barbera", "N"], ["Mondeuse", "N"], ["Knipperle", "B"], ["Savagnin Blanc", "B"], ["Picardan", "B"], ["Rubilande", "Rs"], ["Bouquettraube", "B"], ["Mavrud", "N"], ["Codivarta", "B"], ["Merille", "N"], ["Mayorquin", "B"], ["Muresconu", "N"], ["Mourvaison", "N"], ["Altesse", "B"], ["Goron", "N"], ["Calitor", "N"], ["Lauzet", "B"], ["Riesling", "B"], ["Dureza", "N"], ["Macabeu", "B"], ["Abondant", "B"], ["Arbane", "B"], ["Marechal Foch", "N"], ["Floreal", "B"], ["Verdejo Blanco", "B"], ["Muscat Cendre", "B"], ["Servanin", "N"], ["Mollard", "N"], ["Milgranet", "N"], ["Parellada", "B"], ["Clairette Rose", "Rs"], ["Precoce Bousquet", "B"], ["Valerien", "B"], ["Grenache", "N"], ["Garonnet", "N"], ["Etraire De La Dui", "N"], ["Folignan", "B"], ["Goldriesling", "B"], ["Claverie", "B"], ["Touriga Nacional", "N"], ["Gros Vert", "B"], ["Vidoc", "N"], ["Brachet", "N"], ["Pardotte", "N"], ["Leon Millot", "N"], ["Terret Gris", "G"], ["Alphonse Lavallee", "N"], ["Cardinal", "Rg"], ["Melon", "B"], ["Egiodola", "N"], ["Gewurztraminer", "Rs"], ["Grassen", "N"], ["Xarello", "B"], ["Chambourcin", "N"], ["Tinta Barroca", "N"], ["Pineau D'Aunis", "N"], ["Aubin", "B"], ["Artaban", "N"], ["Dolcetto", "N"], ["Gramon", "N"], ["Caladoc", "N"], ["Lival", "N"], ["Monbadon", "B"], ["Monerac", "N"], ["Gamay De Bouze", "N"], ["Grenache Gris", "G"], ["Xinomavro", "N"], ["Picarlat", "N"], ["Carignan", "N"], ["Valdiguie", "N"], ["Arrufiac", "B"], ["Carmenere", "N"], ["Sacy", "B"], ["Saint-Côme", "B"], ["Chenin", "B"], ["Tressot", "N"], ["Plant De Brunel", "N"], ["Chasselas Rose", "Rs"], ["Danlas", "B"], ["Gamay", "N"], ["Elbling", "B"], ["Sereneze", "N"], ["Verdelho", "B"], ["Sauvignon Gris", "G"], ["Muller-Thurgau", "B"], ["Mondeuse Grise", "G"], ["Colobel", "N"], ["Ferradou", "N"], ["Alvarinho", "B"], ["Pagadebiti", "B"], ["Moschofilero", "Rs"], ["Folle Blanche", "B"], ["Camaralet De Lasseube", "B"], ["Gamay De Chaudenay", "N"], ["Meslier Saint Francois", "B"], ["Pinotage", "N"], ["Genouillet", "N"], ["Clairette", "B"], ["Piquepoul Gris", "G"], ["Brun Fourca", "N"], ["Rayon D'Or", "B"], ["Velteliner Rouge Precoce", "Rs"], ["Graisse", "B"], ["Granita", "N"], ["Villard Blanc", "B"], ["Baroque", "B"], ["Mauzac Rose", "Rs"], ["Mondeuse Blanche", "B"], ["Gaminot", "N"], ["Muscat A Petits Grains Blancs", "B"], ["Robin Noir", "N"], ["Kadarka", "N"], ["Clarin", "B"], ["Nielluccio", "N"], ["Riminese", "B"], ["Teoulier", "N"], ["Cesar", "N"], ["Furmint Blanc", "B"], ["Segalin", "N"], ["Muscat A Petits Grains Rose", "Rs"], ["Pinot Gris", "G"], ["Plant Droit", "N"], ["Rivairenc Gris", "G"], ["Roublot", "B"], ["Ribol", "N"], ["Aramon Gris", "G"], ["Blanc Dame", "B"], ["Counoise", "N"], ["Seinoir", "N"], ["Aranel", "B"], ["Montils", "B"], ["Tardif", "N"], ["Tannat", "N"], ["Pinot Noir", "N"], ["Jacquere", "B"], ["Mourvedre", "N"], ["Terret Blanc", "B"], ["Servant", "B"], ["Roditis", "Rs"], ["Couston", "N"], ["Morrastel", "N"], ["Bequignol", "N"], ["Feunate", "N"], ["Humagne Rouge", "Rg"], ["Semebat", "N"], ["Nebbiolo", "N"], ["Bachet", "N"], ["Castets", "N"], ["Bouchales", "N"], ["Tourbat", "B"], ["Carignan Blanc", "B"], ["Rose Du Var", "Rs"], ["Negrette", "N"], ["Calabrese", "N"], ["Joubertin", "N"], ["Ondenc", "B"], ["Feteasca Neagra", "N"], ["Villard Noir", "N"], ["Mecle", "N"], ["Piquepoul Noir", "N"], ["Gamaret Noir", "N"], ["Saint-Pierre Dore", "B"], ["Mancin", "N"], ["Reze", "B"], ["Verdanel", "B"], ["Gros Manseng Blanc", "B"], ["Aramon", "N"], ["Landal", "N"], ["Bouillet", "N"], ["Marselan", "N"], ["Voltis", "B"], ["Ravat Blanc", "B"], ["Fuella Nera", "N"], ["Listan", "B"], ["Chasselas", "B"], ["Plantet", "N"], ["Auxerrois", "B"], ["Barbaroux", "Rs"], ["Tibouren", "N"], ["Petit Meslier", "B"], ["Vermentino", "B"], ["Gamay Freaux", "N"], ["Chardonnay Rose", "Rs"], ["Savagnin Rose", "Rs"], ["Petit Manseng", "B"], ["Crouchen", "B"], ["Muscat Ottonel", "B"], ["Arvine", "B"], ["Perdea", "B"], ["Genovese", "B"], ["Chatus", "N"]], "fr_codes": [["1458", "MUSCATEDDU", "Rouge"], ["1104", "MONARCH", "Noir"], ["1102", "CABERNET CORTIS", "Noir"], ["1008", "FIANO", "Blanc"], ["1026", "GLERA", "Blanc"], ["1042", "CARRICANTE", "Blanc"], ["3110", "MONTEPULCIANO", "Noir"], ["1017", "SOLARIS", "Blanc"], ["1015", "MUSCARIS", "Blanc"], ["1014", "JOHANNITER", "Blanc"], ["1016", "PRIOR", "Noir"], ["1018", "SOUVIGNIER GRIS", "Gris"], ["3203", "ROSSULA BIANCA", "Blanc"], ["3201", "CUALTACCIU", "Blanc"], ["3202", "NEGRET POUNJUT", "Noir"], ["2155", "ENFARINE N", "Noir"], ["3002", "AIREN B", "Blanc"], ["2153", "TORRONTES Riojano", "Blanc"], ["2237", "HIBOU N", "Noir"], ["3205", "OEILLADE NOIRE", "Noir"], ["1034", "PETITE SAINTE MARIE", "Blanc"], ["5004", "BRONNER", "Blanc"], ["5130", "SAUVIGNAC", "Blanc"], ["5133", "FLEURTAI", "Blanc"], ["5012", "Soreli", "Blanc"], ["5135", "SIRANO", "Rouge"], ["5140", "LILARO", "Rouge"], ["5143", "SELENOR", "Blanc"], ["5138", "OPALOR", "Blanc"], ["5018", "CALARDIS BLANC", "Blanc"], ["5139", "COLIRIS", "Rouge"], ["5006", "Cabernet Blanc", "Blanc"], ["5008", "PINOTIN", "Noir"], ["5009", "SAPHIRA", "Blanc"], ["5005", "DIVICO N", "Noir"], ["6406", "VIDAL BLANC B", "Blanc"], ["813", "CHICHAUD", "Noir"], ["814", "DOUSSET", "Noir"], ["1616", "FELEN", "Blanc"], ["1416", "MURISCU", "Noir"], ["2514", "VINTAGHJU N", "Noir"], ["2513", "BRUSTIANU B", "Blanc"], ["2512", "UVA BIANCONA B", "Blanc"], ["1558", "ROUSSELI RS", "Rose"], ["1454", "MELON ROUGE", "Rouge"], ["1453", "MUSCAT A PETITS GRAINS B", "Blanc"], ["2477", "MUSCATS A PETITS GRAINS ROSE.RS", "Rose"], ["1457", "MUSCATS A PETITS GRAINS ROUGE RG", "Rouge"], ["2463", "FURMINT B", "Blanc"], ["1663", "GROS MANSENG B", "Blanc"], ["2087", "CAMARALET B", "Blanc"], ["3038", "VERDEJO B", "Blanc"], ["3037", "VERDELHO B", "Blanc"], ["3057", "AGIORGITIKO", "Noir"], ["3001", "ASSYRTIKO", "Blanc"], ["3061", "RODITIS", "Gris"], ["3059", "MOSCHOFILERO", "Rose"], ["3082", "GAMARET N", "Noir"], ["2063", "CARCAJOLO NOIR N", "Noir"], ["2045", "BIA B", "Blanc"], ["2408", "RIVAIRENC BLANC B", "Blanc"], ["1241", "GRAND NOIR DE  LA CALMETTE N", "Noir"], ["2173", "FRANC NOIR DE HAUTE-SAONE  N", "Noir"], ["1020", "ALICANTE HENRI BOUSCHET", "Noir"], ["1021", "ROBIN NOIR", "Noir"], ["1022", "REZE", "Blanc"], ["1009", "MAVRUD", "Noir"], ["3036", "Xinomavro", "Noir"], ["3108", "CALABRESE N", "Noir"], ["1277", "PRIMITIVO N", "Noir"], ["1111", "CABERNET SAUVIGNON N", "Noir"], ["1381", "MESLIER SAINT-FRANCOIS B", "Blanc"], ["2423", "SAINT PIERRE DORE B", "Blanc"], ["2421", "SAINT MACAIRE N", "Noir"], ["2420", "SAINT COME B", "Blanc"], ["2313", "MULLER THURGAU B", "Blanc"], ["1125", "CALITOR NOIR N", "Noir"], ["2351", "PELOURSIN N", "Noir"], ["2365", "PICARLAT", "Noir"], ["6227", "MARECHAL FOCH N", "Noir"], ["6233", "LEON MILLOT N", "Noir"]]};

const PRIME_CSV = join(REF, 'vivc-prime-names.csv');
const PEDIGREE_CSV = join(REF, 'vivc-varieties-pedigree-leads.csv');
const OUT2 = join(repo, 'data', 'grapes', 'vivc-lists.json');
const LIST_SOURCE = {
  winemag: { source: 'winemag-wine-reviews-variety', kind: 'common_name', lang: 'und', where: 'variety column, distinct value' },
  it_doc: { source: 'it-disciplinari-doc-varieties', kind: 'trade_name', lang: 'it', where: 'varieties named for the DOC/DOCG wines' },
  fr_catalogue: { source: 'fr-catalogue-officiel-vigne', kind: 'trade_name', lang: 'fr', where: 'variety list (usage raisins de cuve)' },
  wikipedia: { source: 'wikipedia-list-of-grape-varieties', kind: 'common_name', lang: 'und', where: 'red/white variety tables' },
  fr_codes: { source: 'fr-cepage-codes', kind: 'trade_name', lang: 'fr', where: 'cépage code list, wine variety' },
  us_ttb: { source: 'us-ttb-approved-grape-variety-names', kind: 'trade_name', lang: 'en', where: '27 CFR 4.91 list of approved names' },
  it_registro: { source: 'it-registro-nazionale-varieta-vite', kind: 'trade_name', lang: 'it', where: 'Registro Nazionale delle Varietà di Vite, varietà da vino' },
};
// it_registro comes last so that records named before it was added keep their name and key.
const NAME_ORDER = ['it_doc', 'winemag', 'wikipedia', 'fr_catalogue', 'fr_codes', 'it_registro', 'us_ttb'];
// Lists added in November 2026 (see grapes-it-registro.json, grapes-us-ttb.json). A name from one of
// them that already names or aliases a non-grape entity (a place, a spirit, a beer style) or is an
// out-of-scope term does not make a new record (no new shared names are declared for them).
const NEW_LISTS = new Set(['it_registro', 'us_ttb']);
// VIVC numbers that make no record here although list names now match them (issue 24 audit item 5).
// Until commit ab4d0a7 their names were aliases of other grapes (synonyms in grape-synonyms.json cited
// to wein.plus, Vernaccia Nera also to garnachagrenache.com: Guarnaccia and Vernaccia Nera on
// grape/grenache, Rossola Nera on grape/mourvedre, Morellone on grape/primitivo), and a list name that
// already names a grape makes no record, so these four were never released. Issue 24 item 5 dropped
// those aliases because each is the VIVC prime name of another variety (the numbers below; kb validate
// rule 9), but data/grapes/vivc-lists.json was kept without records for them: creating them is a change
// of released data that no commit made, so they stay out until one does (remove an entry here and
// re-run to add its record). Note that the Italian register itself gives Guarnaccia as a synonym of its
// entry 10 Alicante (whose synonyms include Grenache and Cannonau) besides its own entry 106 Guarnaccia
// (grapes-it-registro.json).
const HELD_BACK = new Map([
  ['5097', 'GUARNACCIA (was an alias of grape/grenache)'],
  ['12999', 'VERNACCIA NERA (was an alias of grape/grenache)'],
  ['22910', 'MORELLONE (was an alias of grape/primitivo)'],
  ['23034', 'ROSSOLA NERA (was an alias of grape/mourvedre)'],
]);
// Review-dataset values that are styles, blends, wine names or generic family names, not a variety.
const NOT_A_VARIETY = new Set(['claret', 'port', 'sherry', 'apple', 'other', 'tokaji', 'tokay', 'meritage', 'edelzwicker',
  'prosecco', 'madeira blend', 'white port', 'rose', 'rosé', 'rosado', 'rosato', 'cabernet', 'alicante', 'moscato', 'muscat', 'muskat',
  'muskateller', 'malvasia', 'lambrusco', 'trebbiano', 'vernaccia', 'greco', 'bonarda', 'sauvignon', 'misket', 'feteasca',
  'veltliner', 'tocai', 'teran', 'refosco', 'white blend', 'red blend', 'f', 'swish beverages', 'muscat blanc', 'moscatel', 'muscatel', 'muscadel']);
const COLOUR_WORDS = {
  noir: ['NOIR', 'NOIRS', 'NOIRE', 'NERO', 'NERA', 'TINTO', 'TINTA', 'PRETO', 'PRETA', 'BLAU', 'CRNI', 'CRNA', 'MAVRO', 'NEGRO', 'NEGRA', 'NEAGRA'],
  blanc: ['BLANC', 'BLANCS', 'BLANCHE', 'BIANCO', 'BIANCA', 'BLANCO', 'BLANCA', 'BRANCO', 'BRANCA', 'WEISS', 'BIJELI', 'BELI', 'ASPRO', 'ALBA'],
  gris: ['GRIS', 'GRISE', 'GRIGIO', 'GRIGIA', 'GRAU'],
  rose: ['ROSE', 'ROSES', 'ROSA', 'ROSADO', 'ROXO'],
  rouge: ['ROUGE', 'ROUGES', 'ROSSO', 'ROSSA', 'ROT'],
};
const WORD_CLASS = new Map(Object.entries(COLOUR_WORDS).flatMap(([c, ws]) => ws.map((w) => [w, c])));
const FR_COLOUR = { B: 'blanc', N: 'noir', G: 'gris', Rs: 'rose', Rg: 'rouge' };
const WIKI_COLOUR = { red: 'noir', white: 'blanc' };
const CODES_COLOUR = { Blanc: 'blanc', Noir: 'noir', Gris: 'gris', Rose: 'rose', Rouge: 'rouge' };
const stripCode = (s) => s.replace(/[\s.]+(B|N|G|RS|RG)\.?$/i, '').replace(/\s+/g, ' ').trim();

// keys of new records: letters that NFD does not decompose are spelled out first (ß -> ss, ı -> i)
const slug2 = (s) => slug(s.replace(/ß/g, 'ss').replace(/ı/g, 'i').replace(/[łŁ]/g, 'l').replace(/[øØ]/g, 'o').replace(/[æÆ]/g, 'ae').replace(/[đĐ]/g, 'd'));
const deUmlaut = (s) => s.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/Ä/g, 'AE').replace(/Ö/g, 'OE').replace(/Ü/g, 'UE').replace(/ß/g, 'ss');
const key2 = (s) => stripMarks(s).toUpperCase().replace(/[^A-Z0-9]+/g, ''); // spaces, hyphens, apostrophes ignored
const matchKeys = (name) => [...new Set([key2(deUmlaut(name)), key2(name)])];
// the KB's own name comparison (case, punctuation, apostrophes; accents kept): src/engine/normalize.ts exactForm
const exact = (s) => s.normalize('NFC').toLowerCase().replace(/['’‘`´ʼ]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

// ---- VIVC prime names and pedigree leads ----
const primes = readFileSync(PRIME_CSV, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).slice(1).filter((l) => l.trim()).map((l) => {
  const i = l.indexOf(',');
  return { id: l.slice(0, i).trim(), name: l.slice(i + 1).trim().replace(/^"|"$/g, '').replace(/\s+/g, ' ') };
});
// Numbers the older list lacks (it stops near 9,500), from the fuller table (issue 21): a copy of a
// third-party scrape of VIVC, cited as VIVC through the source vivc-full-scrape (retrieved_via).
const FULL_CSV = join(REF, 'vivc-prime-names-full.csv');
// The fuller table's berry colour (third column, upper case: BLANC, NOIR, ROSE, ROUGE, GRIS) of every
// number it holds, the older list's numbers included; see "berry colour against VIVC" below.
const fullColourById = new Map();
{
  const known = new Set(primes.map((p) => p.id));
  for (const l of readFileSync(FULL_CSV, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).slice(1)) {
    const m = /^(\d+),("(?:[^"]|"")*"|[^,]*),([^,]*)/.exec(l);
    if (m && m[3].trim()) fullColourById.set(m[1], m[3].trim());
    if (!m || known.has(m[1])) continue;
    primes.push({ id: m[1], name: m[2].replace(/^"|"$/g, '').replace(/""/g, '"').replace(/\s+/g, ' ').trim(), full: true });
  }
}
const primeById = new Map(primes.map((p) => [p.id, p]));
const byPrimeKey = new Map();
// the older list first; a name it already holds is matched as before (the fuller table's further
// numbers for the same name never turn a released match into "several candidates")
const olderKeys = new Set();
for (const pass of [false, true]) {
  const added = new Set();
  for (const p of primes) {
    if (!!p.full !== pass) continue;
    const words = p.name.split(' ');
    const last = words[words.length - 1];
    const entries = [[key2(p.name), null]];
    if (words.length > 1 && WORD_CLASS.has(last)) entries.push([key2(words.slice(0, -1).join(' ')), WORD_CLASS.get(last)]);
    for (const [k, colour] of entries) {
      if (pass && olderKeys.has(k)) continue;
      if (!byPrimeKey.has(k)) byPrimeKey.set(k, []);
      byPrimeKey.get(k).push({ ...p, colour, word: colour ? last : null });
      added.add(k);
    }
  }
  if (!pass) for (const k of added) olderKeys.add(k);
}
const pedigree = new Map();
{
  const pl = readFileSync(PEDIGREE_CSV, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim());
  const h = pl.shift().split(',');
  for (const l of pl) {
    const c = l.split(',');
    const row = Object.fromEntries(h.map((k, i) => [k, (c[i] ?? '').trim()]));
    if (row.vivc_number) pedigree.set(row.vivc_number, row);
  }
}

// ---- names already in the knowledge base (all families), for collisions ----
const dataDir = join(repo, 'data');
const mine = new Set([OUT, OUT2].map((f) => resolve(f)));
const kbNames = new Map(); // exact form -> Set(keys)
const kbGrapeIds = new Map(); // vivc id -> grape key
const addName = (n, k) => { const x = exact(n); if (!x) return; if (!kbNames.has(x)) kbNames.set(x, new Set()); kbNames.get(x).add(k); };
const allKeys = new Set();
for (const fam of ['grapes', 'geographies', 'spirits', 'beer-styles']) {
  const dir = join(dataDir, fam);
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    if (mine.has(resolve(join(dir, f)))) continue;
    for (const r of JSON.parse(readFileSync(join(dir, f), 'utf8'))) {
      allKeys.add(r.key);
      if (r.review === 'draft') continue;
      addName(r.name, r.key);
      for (const a of r.aliases || []) addName(a.name, r.key);
      if (r.type === 'grape' && r.facts?.vivc_id) kbGrapeIds.set(String(r.facts.vivc_id.value), r.key);
    }
  }
}
for (const r of records) { // part 1 output
  allKeys.add(r.key);
  if (r.review === 'draft') continue;
  addName(r.name, r.key);
  for (const a of r.aliases) addName(a.name, r.key);
  kbGrapeIds.set(String(r.facts.vivc_id.value), r.key);
}
const aliasDir = join(dataDir, 'aliases');
if (existsSync(aliasDir)) for (const f of readdirSync(aliasDir).filter((f) => f.endsWith('.json'))) {
  for (const a of JSON.parse(readFileSync(join(aliasDir, f), 'utf8'))) for (const x of a.aliases || []) addName(x.name, a.entity);
}
const outOfScopeFile = join(dataDir, 'out-of-scope.json');
const outOfScope = new Set(existsSync(outOfScopeFile) ? JSON.parse(readFileSync(outOfScopeFile, 'utf8')).map((o) => exact(o.term)) : []);

// ---- candidate names from the lists ----
const candidates = []; // {list, name, display, colour}
const tidy = (s) => s.replace(/\s*\([^)]*\)\s*/g, ' ').replace(/\s+/g, ' ').trim();
// Title case for names a list prints in one case: particles after the first word stay lower case
// (de, la, du, di, of, d', l', ...), as the lists that keep case print them (e.g. 'Pineau d'Aunis').
const PARTICLES = new Set(['de', 'di', 'du', 'des', 'del', 'della', 'dal', 'la', 'le', 'da', 'do', 'dos', 'das', 'of', 'and', 'y', 'e', 'a', 'à', 'au', 'aux', 'et', 'von', 'van']);
const titleCase2 = (s) => s.trim().replace(/\s+/g, ' ').split(' ').map((w, i) => {
  const l = w.toLowerCase();
  if (i > 0 && PARTICLES.has(l)) return l;
  const m = /^([dl])['’](.+)$/i.exec(l);
  if (m) return `${i > 0 ? m[1] : m[1].toUpperCase()}'${m[2].charAt(0).toUpperCase()}${m[2].slice(1)}`;
  return l.split(/([-'])/).map((x) => (x === '-' || x === "'" ? x : x.charAt(0).toUpperCase() + x.slice(1))).join('');
}).join(' ');
for (const n of LISTS.winemag) candidates.push({ list: 'winemag', name: n.trim(), display: n.trim(), colour: null });
for (const n of LISTS.it_doc) candidates.push({ list: 'it_doc', name: n.trim(), display: n.trim(), colour: null });
for (const [n, table] of LISTS.wikipedia) candidates.push({ list: 'wikipedia', name: tidy(n), display: titleCase2(tidy(n)), colour: WIKI_COLOUR[table] ?? null });
for (const [n, letter] of LISTS.fr_catalogue) candidates.push({ list: 'fr_catalogue', name: n.trim(), display: titleCase2(n.trim()), colour: FR_COLOUR[letter] ?? null, letter });
// it_registro: the Italian national register of vine varieties (wine varieties), read in a
// third-party export and transcribed to tools/derive/grapes-it-registro.json: [registry number,
// name as printed, colour letter, synonyms the register states]. The copy writes an accented final
// vowel as a trailing apostrophe (Avana', Ruche'); the apostrophe is dropped from the name.
const IT_REGISTRO = JSON.parse(readFileSync(join(here, 'grapes-it-registro.json'), 'utf8')).rows;
const IT_COLOUR = { n: 'noir', b: 'blanc', r: 'rose', g: 'gris' };
const IT_SYN_COUNT = new Map();
for (const [, , , syns] of IT_REGISTRO) for (const x of new Set(syns.map(exact))) IT_SYN_COUNT.set(x, (IT_SYN_COUNT.get(x) ?? 0) + 1);
for (const [rnv, n, c, syns] of IT_REGISTRO) {
  const name = n.replace(/'$/, '').trim();
  candidates.push({ list: 'it_registro', name, listed: n, display: name, colour: IT_COLOUR[c] ?? null, rnv, syns, colourWord: c });
}
// us_ttb: 27 CFR 4.91, the US list of approved grape variety names for American wines, as printed
// in the eCFR text, with the synonyms the section shows in parentheses ([name, [synonyms]]). No
// berry colour is given. A name with no VIVC match may match through one of its stated synonyms.
for (const [n, syns] of JSON.parse(readFileSync(join(here, 'grapes-us-ttb.json'), 'utf8')).rows) {
  candidates.push({ list: 'us_ttb', name: n.trim(), display: n.trim(), colour: null, syns: syns.filter((x) => x !== 'Thomspon Seedless') }); // a misprint in the section
}
for (const [code, n, colour] of LISTS.fr_codes) candidates.push({ list: 'fr_codes', name: stripCode(n), listed: n, display: titleCase2(stripCode(n)), colour: CODES_COLOUR[colour] ?? null, code, colourWord: colour });
// colour evidence per name across lists (French letter first, then Wikipedia table)
// A name that one list gives with two colours (e.g. 'piquepoul' in both Wikipedia tables) gives none.
const colourOf = new Map();
const colourRank = { fr_catalogue: 0, fr_codes: 1, it_registro: 1.5, wikipedia: 2 };
const conflicted = new Set();
for (const c of [...candidates].sort((a, b) => (colourRank[a.list] ?? 9) - (colourRank[b.list] ?? 9))) {
  if (!c.colour) continue;
  for (const k of matchKeys(c.name)) {
    const prev = colourOf.get(k);
    if (!prev) colourOf.set(k, { colour: c.colour, list: c.list });
    else if (prev.list === c.list && prev.colour !== c.colour) conflicted.add(k);
  }
}
for (const k of conflicted) colourOf.delete(k);
for (const c of candidates) if (c.colour && matchKeys(c.name).some((k) => conflicted.has(k))) c.colour = null;

const report = { noMatch: [], several: [], existing: [], excluded: [], nameTaken: [], heldBack: [], aliasDropped: [], synonymConflict: [] };
const grapeIdOf = new Map([...kbGrapeIds].map(([id, k]) => [k, id]));
const found = new Map(); // vivc id -> {prime, hits: [...]}
for (const c of candidates) {
  if (NOT_A_VARIETY.has(exact(c.name)) || /\bblend\b/i.test(c.name) || (c.list === 'winemag' && /[a-z]-[A-Z]|, /.test(c.name) && !/^(Müller|Xarel|G-S-M)/.test(c.name))) { report.excluded.push(`${c.list}: ${c.name}`); continue; }
  if (NEW_LISTS.has(c.list)) {
    const x = exact(c.display);
    const other = [...(kbNames.get(x) ?? [])].filter((k) => !k.startsWith('grape/'));
    if (other.length || outOfScope.has(x)) { report.nameTaken.push(`${c.list}: ${c.name} (name of ${other.join(', ') || 'an out-of-scope term'})`); continue; }
  }
  const keys = matchKeys(c.name);
  const evidence = c.colour ? { colour: c.colour, list: c.list } : keys.map((k) => colourOf.get(k)).find(Boolean) ?? null;
  let cands = [...new Map(keys.flatMap((k) => byPrimeKey.get(k) ?? []).map((p) => [p.id, p])).values()];
  if (evidence) cands = cands.filter((p) => !p.colour || p.colour === evidence.colour);
  else cands = cands.filter((p) => !p.colour);
  if (cands.length === 0 && c.list === 'us_ttb' && c.syns?.length) {
    // a synonym the list itself states (exact prime-name equality only, no colour-word matching)
    const viaSyn = [...new Map(c.syns.flatMap((x) => matchKeys(x).flatMap((k) => byPrimeKey.get(k) ?? [])).filter((p) => !p.colour).map((p) => [p.id, p])).values()];
    if (viaSyn.length === 1) { cands = viaSyn; c.viaSynonym = true; }
  }
  if (cands.length === 0) { report.noMatch.push(`${c.list}: ${c.name}`); continue; }
  if (cands.length > 1) { report.several.push(`${c.list}: ${c.name} -> ${cands.map((p) => `${p.id} ${p.name}`).join(' | ')}`); continue; }
  const p = cands[0];
  // A register entry whose own stated synonyms name a grape already in the knowledge base under
  // another VIVC number (e.g. Italian 'Grechetto Rosso', synonym Sangiovese) is not matched by name.
  // Synonyms the register gives to several of its entries (Malvasia, Moscato, Muscat, Greco,
  // Lambrusco, Schiava, ...) are family names, not identities, and are not used for this check.
  if (c.list === 'it_registro') {
    const clash = (c.syns || []).filter((s) => IT_SYN_COUNT.get(exact(s)) === 1).flatMap((s) => [...(kbNames.get(exact(s)) ?? [])].filter((k) => k.startsWith('grape/') && grapeIdOf.get(k) && grapeIdOf.get(k) !== p.id).map((k) => `${s} = ${k}`));
    if (clash.length) { report.synonymConflict.push(`${c.list}: ${c.name} -> ${p.id} ${p.name} (register synonym ${clash.join(', ')})`); continue; }
  }
  if (kbGrapeIds.has(p.id)) { report.existing.push(`${c.list}: ${c.name} -> ${p.id} ${p.name} (${kbGrapeIds.get(p.id)})`); continue; }
  const taken = kbNames.get(exact(c.display));
  if (taken && [...taken].some((k) => k.startsWith('grape/'))) { report.nameTaken.push(`${c.list}: ${c.name} -> ${p.id} ${p.name} (name of ${[...taken].join(', ')})`); continue; }
  if (HELD_BACK.has(p.id)) { report.heldBack.push(`${c.list}: ${c.name} -> ${p.id} ${HELD_BACK.get(p.id)}`); continue; }
  if (!found.has(p.id)) found.set(p.id, { prime: p, hits: [] });
  found.get(p.id).hits.push({ ...c, via: p.word ? { word: p.word, evidence } : null });
}

// ---- build records ----
const records2 = [];
const usedKeys = new Set(allKeys);
for (const [id, { prime, hits }] of found) {
  hits.sort((a, b) => NAME_ORDER.indexOf(a.list) - NAME_ORDER.indexOf(b.list));
  const head = hits[0];
  const name = head.display;
  let key = `grape/${slug2(name)}`;
  if (usedKeys.has(key)) key = `${key}-${id}`;
  if (usedKeys.has(key)) throw new Error(`key clash ${key}`);
  usedKeys.add(key);
  const loc = passport(id);
  const vivcSource = prime.full ? 'vivc-full-scrape' : 'vivc';
  const facts = {
    vivc_id: { value: id, source: vivcSource, locator: loc },
    vivc_prime_name: { value: prime.name, source: vivcSource, locator: loc },
  };
  const fr = hits.find((h) => h.list === 'fr_catalogue');
  const codes = hits.find((h) => h.list === 'fr_codes');
  const reg = hits.find((h) => h.list === 'it_registro' && h.colour);
  const ped = pedigree.get(id);
  const pedColour = ped && COLOURS.has((ped.berry_color || '').toLowerCase()) && key2(ped.prime_name) === key2(prime.name) ? ped.berry_color.toLowerCase() : null;
  if (fr) facts.berry_colour = { value: fr.colour, source: LIST_SOURCE.fr_catalogue.source, locator: `"${fr.name} ${fr.letter}" (berry-colour letter ${fr.letter})` };
  else if (codes && codes.colour) facts.berry_colour = { value: codes.colour, source: LIST_SOURCE.fr_codes.source, locator: `code ${codes.code} "${codes.listed}" (colour ${codes.colourWord})` };
  else if (reg) facts.berry_colour = { value: reg.colour, source: LIST_SOURCE.it_registro.source, locator: `registry no. ${reg.rnv} "${reg.listed}" (berry colour ${{ n: 'nera', b: 'bianca', r: 'rosa', g: 'grigia' }[reg.colourWord]})` };
  else if (pedColour) facts.berry_colour = { value: pedColour, source: 'vivc', locator: `${loc} (berry colour; VIVC pedigree table)` };
  if (ped && ped.country && key2(ped.prime_name) === key2(prime.name)) facts.country_of_origin = { value: ped.country.toUpperCase(), source: 'vivc', locator: `${loc} (country of origin; VIVC pedigree table)` };
  const cands = [];
  const primeTitle = titleCase2(prime.name);
  cands.push({ name: primeTitle, lang: 'und', kind: 'synonym', source: 'vivc', locator: `${loc} (prime name)` });
  for (const h of hits) {
    const ls = LIST_SOURCE[h.list];
    if (h.list === 'us_ttb') for (const x of h.syns) cands.push({ name: x, lang: 'en', kind: 'synonym', source: ls.source, locator: `"${h.name} (${h.syns.join(', ')})" (${ls.where}, synonym in parentheses)` });
    cands.push({ name: h.display, lang: ls.lang, kind: ls.kind, source: ls.source, locator: h.list === 'fr_codes' ? `code ${h.code} "${h.listed}" (${ls.where})` : h.list === 'it_registro' ? `registry no. ${h.rnv} "${h.listed}" (${ls.where})` : `"${h.name}" (${ls.where})` });
  }
  const how = head.viaSynonym
    ? `through the synonym the list gives in parentheses (${head.syns.join(', ')}), which equals the prime name`
    : head.via
    ? `by dropping the colour word ${head.via.word} that VIVC appends (berry colour ${head.via.evidence.colour} given by the ${{ fr_catalogue: 'French catalogue', fr_codes: 'French cépage code list', it_registro: 'Italian variety register', wikipedia: 'Wikipedia list' }[head.via.evidence.list]})`
    : 'exactly (case, accents and spacing aside)';
  const nameNote = head.list === 'wikipedia'
    ? 'name title-cased from the Wikipedia list, which the scrape we read had lower-cased'
    : head.list === 'fr_catalogue' ? 'name as in the French catalogue export (title case there, particles such as de/la lower-cased here; accents dropped by the export)'
    : head.list === 'us_ttb' ? 'name as printed in the US list of approved grape variety names (27 CFR 4.91)'
    : head.list === 'it_registro' ? `name as printed in the Italian variety register copy (registry no. ${head.rnv}${head.listed !== head.name ? '; the trailing apostrophe that stands for an accent there is dropped' : ''})`
    : head.list === 'fr_codes' ? 'name title-cased from the French cépage code list (upper case there), colour letter dropped' : `name as printed in the ${head.list === 'it_doc' ? 'Italian DOC/DOCG production-rule list' : 'review dataset\'s variety column'}`;
  const rec = {
    key, type: 'grape', name, review: 'reviewed', aliases: [], facts,
    notes: `Canonical ${nameNote} ("${head.name}", source ${LIST_SOURCE[head.list].source}); matched to VIVC ${id} "${prime.name}" ${how}.`,
  };
  rec._cands = cands;
  records2.push(rec);
}

// ---- curated additions (tools/derive/grapes-curated.json) ----
// records: a trade name whose synonym, as stated by a source we read, equals a VIVC prime name
// exactly (e.g. wein.plus gives Manseng Gros Blanc as a synonym of Gros Manseng); aliases: names a
// source we read gives for a list-derived record (matched by its VIVC number).
const CURATED = JSON.parse(readFileSync(join(here, 'grapes-curated.json'), 'utf8'));
for (const c of CURATED.records) {
  const ps = byPrimeKey.get(key2(c.prime_synonym))?.filter((p) => !p.colour && key2(p.name) === key2(c.prime_synonym)) ?? [];
  if (ps.length !== 1) { report.noMatch.push(`curated: ${c.name} (${c.prime_synonym}: ${ps.length} prime names)`); continue; }
  const p = ps[0];
  if (kbGrapeIds.has(p.id) || found.has(p.id)) { report.existing.push(`curated: ${c.name} -> ${p.id} ${p.name}`); continue; }
  const key = `grape/${slug2(c.name)}`;
  if (usedKeys.has(key)) throw new Error(`key clash ${key}`);
  usedKeys.add(key);
  const loc = passport(p.id);
  const facts = { vivc_id: { value: p.id, source: 'vivc', locator: loc }, vivc_prime_name: { value: p.name, source: 'vivc', locator: loc } };
  if (c.berry_colour) facts.berry_colour = { value: c.berry_colour, source: c.source, locator: c.colour_locator };
  if (c.country) facts.country_of_origin = { value: c.country, source: c.source, locator: c.country_locator };
  const rec = { key, type: 'grape', name: c.name, review: 'reviewed', aliases: [], facts,
    notes: `Canonical name as the source ${c.source} gives it; matched to VIVC ${p.id} "${p.name}" through the synonym ${c.prime_synonym} that this source states, which equals the prime name.` };
  rec._cands = [{ name: titleCase2(p.name), lang: 'und', kind: 'synonym', source: 'vivc', locator: `${loc} (prime name)` },
    ...c.aliases.map(([n, lang]) => ({ name: n, lang, kind: 'synonym', source: c.source, locator: c.locator }))];
  records2.push(rec);
}
for (const a of CURATED.aliases) {
  const rec = records2.find((r) => r.facts.vivc_id.value === a.vivc);
  if (!rec) throw new Error(`curated aliases for VIVC ${a.vivc}: no list-derived record`);
  for (const [n, lang] of a.names) rec._cands.push({ name: n, lang, kind: 'synonym', source: a.source, locator: a.locator });
}

// ---- berry colour against VIVC (issue 24 audit item 4, commit e4b5e9e) ----
// Where the fuller VIVC table (vivc-prime-names-full.csv, cited as vivc-full-scrape) gives a berry
// colour other than the one taken above, VIVC's colour is taken, unless the colour's source is more
// authoritative than VIVC (a national register or a regulator): that colour is kept and the conflict
// is written in the record's notes. kb validate enforces the same rule. The list colours it changed:
// the French catalogue's Goron (N; VIVC 4908 ROUGE), the French cépage codes' Coliris, Lilaro,
// Muscateddu, Sirano (Rouge; VIVC NOIR) and Souvignier Gris (Gris; VIVC 22629 ROSE), both sources of
// class variety_catalogue; kept from the Italian national register (official_register): Fumat,
// Mayolet, Palava, Piccola Nera, Rosonadu, Rossone.
const KEPT_COLOUR_NOTE = {
  'it-registro-nazionale-varieta-vite': 'the berry colour kept is the Italian national register\'s, the more authoritative source for a variety registered in Italy',
};
for (const rec of records2) {
  const id = rec.facts.vivc_id.value;
  const mineColour = rec.facts.berry_colour;
  const theirs = fullColourById.get(id);
  if (!mineColour || !theirs || mineColour.value === theirs.toLowerCase()) continue;
  const cls = authority.get(mineColour.source);
  if (cls === 'official_register' || cls === 'regulator') {
    if (!KEPT_COLOUR_NOTE[mineColour.source]) throw new Error(`${rec.key}: berry colour of ${mineColour.source} against VIVC ${id} ${theirs}: write the note for this source in KEPT_COLOUR_NOTE`);
    rec.notes += ` VIVC ${id} gives ${theirs.toUpperCase()}: ${KEPT_COLOUR_NOTE[mineColour.source]} (issue 24 audit).`;
  } else if (COLOURS.has(theirs.toLowerCase())) {
    rec.facts.berry_colour = { value: theirs.toLowerCase(), source: 'vivc-full-scrape', locator: `VIVC ${id}, berry colour ${theirs.toUpperCase()} (vivc-prime-names-full)` };
    rec.notes += ` Berry colour from VIVC: ${mineColour.source} gave "${mineColour.value}", a source no more authoritative than VIVC on colour (issue 24 audit).`;
  }
}

// ---- aliases: dedupe within a record, drop any that another entity already uses ----
const holders2 = new Map();
for (const rec of records2) {
  const seen = new Map();
  for (const c of rec._cands) {
    const n = exact(c.name);
    if (!n || n === exact(rec.name) || seen.has(n)) continue;
    seen.set(n, c);
  }
  rec._uniq = seen;
  for (const n of [exact(rec.name), ...seen.keys()]) { if (!holders2.has(n)) holders2.set(n, new Set()); holders2.get(n).add(rec.key); }
}
const ambiguities = [];
for (const rec of records2) {
  for (const [n, c] of rec._uniq) {
    const others = [...(kbNames.get(n) ?? []), ...[...holders2.get(n)].filter((k) => k !== rec.key)];
    if (others.length || outOfScope.has(n)) { report.aliasDropped.push(`${c.name} @${rec.key} (also ${others.join(', ') || 'out of scope'})`); continue; }
    rec.aliases.push({ name: c.name, lang: c.lang, kind: c.kind, source: c.source, locator: c.locator });
  }
  delete rec._cands; delete rec._uniq;
  const n = exact(rec.name);
  const others = [...(kbNames.get(n) ?? [])];
  if (outOfScope.has(n)) throw new Error(`${rec.name} is an out-of-scope term`);
  if (others.length) ambiguities.push({ term: rec.name, entities: [rec.key, ...others].sort(), note: `"${rec.name}" is the grape variety (VIVC ${rec.facts.vivc_id.value}) and also names ${others.join(', ')}; the grape keeps its name as printed in its source list.` });
}
records2.sort((a, b) => a.key.localeCompare(b.key));
writeAtomic(OUT2, records2);
const AMB = join(dataDir, 'ambiguities', 'grapes.json');
writeAtomic(AMB, ambiguities.sort((a, b) => a.term.localeCompare(b.term)));

const total = served.length + records2.length;
console.log(`list varieties: ${records2.length} new records (${records2.filter((r) => r.facts.berry_colour).length} with berry colour); served grapes from the derived files: ${total}`);
console.log(`left out: no VIVC match ${report.noMatch.length}, several candidates ${report.several.length}, excluded as style/blend ${report.excluded.length}, already a record ${report.existing.length}, name already used by a grape ${report.nameTaken.length}, held back (issue 24 item 5) ${report.heldBack.length}; aliases dropped ${report.aliasDropped.length}; ambiguities declared ${ambiguities.length}`);
if (process.argv.includes('--verbose')) for (const [k, v] of Object.entries(report)) for (const x of v) console.log(`  ${k}: ${x}`);
if (process.argv.includes('--report')) writeFileSync(process.argv[process.argv.indexOf('--report') + 1], JSON.stringify(report, null, 1));

// ---- --check: compare what was derived with the committed files ----
if (CHECK) {
  const show = (v) => { const s = v === undefined ? '(none)' : JSON.stringify(v); return s.length > 300 ? `${s.slice(0, 300)}…` : s; };
  // the fields in which two values differ, as paths (facts.berry_colour.value, aliases[2].name, …)
  const fieldDiffs = (a, b, at = '') => {
    if (JSON.stringify(a) === JSON.stringify(b)) return [];
    if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
      const ks = Array.isArray(a) ? [...Array(Math.max(a.length, b.length)).keys()] : [...new Set([...Object.keys(a), ...Object.keys(b)])];
      return ks.flatMap((k) => fieldDiffs(a[k], b[k], Array.isArray(a) ? `${at}[${k}]` : at ? `${at}.${k}` : k));
    }
    return [`${at || '(whole)'}: ${show(a)} -> ${show(b)}`];
  };
  let drift = 0;
  for (const [file, data] of outputs) {
    const rel = relative(repo, file);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (committed === serialize(data)) continue;
    drift++;
    if (committed === null) { console.log(`DRIFT ${rel}: not in the repository (the script would create it)`); continue; }
    let old;
    try { old = JSON.parse(committed); } catch { console.log(`DRIFT ${rel}: the committed file is not JSON`); continue; }
    const id = (r) => r?.key ?? r?.term ?? JSON.stringify(r);
    if (!Array.isArray(old)) { console.log(`DRIFT ${rel}: the committed file is not an array`); continue; }
    const before = new Map(old.map((r) => [id(r), r]));
    const after = new Map(data.map((r) => [id(r), r]));
    const lines = [];
    for (const [k] of after) if (!before.has(k)) lines.push(`  + ${k} (added by the script)`);
    for (const [k] of before) if (!after.has(k)) lines.push(`  - ${k} (removed by the script)`);
    for (const [k, r] of after) if (before.has(k)) for (const d of fieldDiffs(before.get(k), r)) lines.push(`  ~ ${k} ${d}`);
    if (!lines.length) lines.push('  same records and fields; the order or the formatting differs');
    console.log(`DRIFT ${rel}: committed -> derived\n${lines.join('\n')}`);
  }
  if (drift) {
    console.log(`--check: ${drift} of ${outputs.length} derived files differ from the committed ones; run node tools/derive/grapes.mjs to write them, or port the hand edits into the script`);
    process.exitCode = 1;
  } else console.log(`--check: ${outputs.map(([f]) => relative(repo, f)).join(', ')} are as the script derives them`);
}
