// Derives spirit GI records and the register's spirit-drink category entities.
// Inputs (outside the repo, never copied in; all cite the original publisher, source `eu-eambrosia`):
//   /work/shared/reference/eu-gi-register-sample.csv        rows with product_type SPIRIT (the later
//        snapshot: its records were released first and keep their keys and names)
//   /work/shared/reference/eu-gi-spirits-eambrosia-2020.csv  eAmbrosia export, mid-2020: every spirit GI,
//        with its product category ("<number>. <name>"); status Registered only, `-AMnn` files skipped
//   /work/shared/reference/eu-gi-aromatised-wines-eambrosia-2020.csv  the 5 aromatised-wine GIs
// Read-only: data/spirits/categories.json (hand-curated). A GI it already holds (same file number, or
// a registered name equal to one of its names) is not derived again; its categories are reused as parents.
// Outputs: data/spirits/eu-gi-register.json (GIs), data/spirits/eu-categories.json (category entities).
// Locators: "file <file_number>".
// Run from the repo root:  node tools/derive/spirits.mjs
import { readFileSync, writeFileSync, renameSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = process.cwd();
const REF = resolve(ROOT, '../shared/reference');
const CSV = resolve(REF, 'eu-gi-register-sample.csv');
const OUT = resolve(ROOT, 'data/spirits/eu-gi-register.json');
const OUT_CAT = resolve(ROOT, 'data/spirits/eu-categories.json');
const SPIRITS_DIR = resolve(ROOT, 'data/spirits');

function parseCsv(text) {
  const rows = []; let row = []; let field = ''; let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') q = false;
      else field += c;
    } else if (c === '"') q = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = ''; if (row.length > 1 || row[0] !== '') rows.push(row); row = [];
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  const [head, ...body] = rows;
  return body.map(r => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

const slug = s => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[’']/g, '')
  .toLowerCase().replace(/\([^)]*\)/g, ' ').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

const HAN = /[\u3400-\u9fff]/; const CYR = /[\u0400-\u04ff]/;
// Alias language: by script first (zh for Han, ru for Cyrillic), then by the form of the name
// and the register country. Romanised Chinese names are tagged `und`.
const GREEK = /\p{Script=Greek}/u;
function langOf(name, countries) {
  if (HAN.test(name)) return 'zh';
  if (CYR.test(name)) return countries.includes('BG') ? 'bg' : 'ru';
  if (GREEK.test(name)) return 'el';
  if (countries.includes('CN')) return 'und';
  const overrides = {
    'Herbes de Mallorca': 'ca', 'Vruchtenjenever': 'nl', 'Jenever met vruchten': 'nl', 'Fruchtgenever': 'de',
    'Genièvre aux fruits': 'fr', 'Hamburg’s Kümmel': 'en', 'Norwegian Aquavit': 'en', 'Norwegian Vodka': 'en',
    'Norsk Aquavit': 'no', 'Norsk Akvavit': 'no',
    // 2020 export (aliases only; canonical names carry no language tag)
    'Graanjenever': 'nl', 'Graangenever': 'nl', 'Jenever': 'nl', 'Genever': 'nl', 'Hasselt': 'nl',
    'Pèket-Pèkèt de Wallonie': 'und', 'Kornbrand': 'de', 'Finsk Vodka': 'sv', 'Vodka of Finland': 'en',
    'Suomalainen Hedelmälikööri': 'fi', 'Finsk Bärlikör': 'sv', 'Finsk Fruktlikör': 'sv',
    'Finnish berry liqueur': 'en', 'Finnish fruit liqueur': 'en', 'Genepì delle Alpi': 'it',
    'Uisce Beatha Eireannach': 'ga', 'Irish Whisky': 'en', 'Irish Poitín': 'ga',
    'Williams dell\'Alto Adige': 'it', 'Marille dell\'Alto Adige': 'it', 'Kirsch dell\'Alto Adige': 'it',
    'Zwetschgeler dell\'Alto Adige': 'it', 'Obstler dell\'Alto Adige': 'it', 'Gravensteiner dell\'Alto Adige': 'it',
    'Golden Delicious dell\'Alto Adige': 'it', 'Genziana dell\'Alto Adige': 'it', 'Grappa dell\'Alto Adige': 'it',
    'Original Lithuanian vodka': 'en', 'Vilnius Gin': 'en', 'oude genever': 'nl', 'jonge genever': 'nl',
    'Wódka ziołowa z Niziny Północnopodlaskiej aromatyzowana ekstraktem z trawy żubrowej': 'pl',
    'Polish Vodka': 'en', 'Swedish Vodka': 'en', 'Svensk Akvavit': 'sv', 'Swedish Aquavit': 'en', 'Swedish Punch': 'en',
    'Vermouth di Torino': 'it'
  };
  if (countries.includes('GR') || countries.includes('CY')) return / of /.test(name) ? 'en' : 'el-Latn';
  if (countries.includes('BG')) return 'bg-Latn';
  if (overrides[name]) return overrides[name];
  const byCountry = { PT: 'pt', HU: 'hu', DE: 'de', ES: 'es', IT: 'it', FR: 'fr', GB: 'en', GY: 'en', NO: 'no', RU: 'en',
    AT: 'de', BE: 'nl', NL: 'nl', FI: 'fi', SE: 'sv', LT: 'lt', PL: 'pl', IE: 'en', CZ: 'cs', HR: 'hr', SI: 'sl' };
  return byCountry[countries[0]] ?? 'und';
}

// Legal category parent, set only where the registered name itself states the category.
function parentOf(names) {
  const all = names.join(' | ');
  if (/\bWhisky\b/i.test(all)) return 'spirit/whisky';
  if (/\bRum\b/.test(all)) return 'spirit/rum';
  if (/\bVodka\b/i.test(all)) return 'spirit/vodka';
  return null;
}

// ---------------------------------------------------------------- inputs
const norm = (x) => x.normalize('NFC').toLowerCase().replace(/[\s\-‐-―_]+/g, '');
const readRef = (f) => parseCsv(readFileSync(resolve(REF, f), 'utf8'));
// ' / ' separates alternative names, except inside brackets ("Slivenska perla (A / B)").
function splitNames(s) {
  const out = []; let depth = 0, cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (depth === 0 && s.startsWith(' / ', i)) { out.push(cur); cur = ''; i += 2; continue; }
    cur += c;
  }
  out.push(cur);
  return out.map(x => x.replace(/\s+/g, ' ').trim()).filter(Boolean);
}
const dmy = (d) => { const m = d.trim().match(/^(\d{2})\/(\d{2})\/(\d{4})$/); return m ? `${m[3]}-${m[2]}-${m[1]}` : null; };
const isoOf = (fn) => fn.split('-')[1].split('+'); // file numbers carry the ISO codes (GB for the UK)

// Hand-curated spirit records (read-only): their file numbers and names are not derived again.
const curated = JSON.parse(readFileSync(resolve(SPIRITS_DIR, 'categories.json'), 'utf8'));
const curatedKeys = new Set(curated.map(c => c.key));
const curatedFile = new Map(curated.filter(c => c.facts.file_number).map(c => [c.facts.file_number.value, c.key]));
const curatedName = new Map();
for (const c of curated) for (const n of [c.name, ...c.aliases.map(a => a.name)]) curatedName.set(norm(n), c.key);
// Keys of every other spirit file are reserved.
const mine = new Set(['eu-gi-register.json', 'eu-categories.json']);
const reserved = new Set();
for (const f of readdirSync(SPIRITS_DIR).filter(f => f.endsWith('.json') && !mine.has(f)).sort())
  for (const r of JSON.parse(readFileSync(resolve(SPIRITS_DIR, f), 'utf8'))) reserved.add(r.key);

// ---------------------------------------------------------------- categories
// Product categories as the register labels them ("<number>. <name>"). Categories that
// categories.json already holds are reused; the others become entities here. A second name
// joined by "or" is an alias; "bitter" (from "Bitter-tasting spirit drinks or bitter") is left
// out: as a bare word it would capture beer queries.
const CAT = {
  'spirit:1': { label: 'Rum', key: 'spirit/rum' },
  'spirit:2': { label: 'Whisky or Whiskey', key: 'spirit/whisky' },
  'spirit:3': { label: 'Grain spirit', key: 'spirit/grain-spirit', name: 'Grain spirit' },
  'spirit:4': { label: 'Wine spirit', key: 'spirit/wine-spirit' },
  'spirit:5': { label: 'Brandy or Weinbrand', key: 'spirit/brandy' },
  'spirit:6': { label: 'Grape marc spirit or grape marc', key: 'spirit/pomace-brandy' },
  'spirit:9': { label: 'Fruit spirit', key: 'spirit/fruit-spirit', name: 'Fruit spirit' },
  'spirit:10': { label: 'Cider spirit and perry spirit', key: 'spirit/cider-perry-spirit' },
  'spirit:15': { label: 'Vodka', key: 'spirit/vodka' },
  'spirit:17': { label: 'Geist (with the name of the fruit or the raw material used)', key: 'spirit/geist', name: 'Geist' },
  'spirit:18': { label: 'Gentian', key: 'spirit/gentian', name: 'Gentian' },
  'spirit:19': { label: 'Juniper-flavoured spirit drinks', key: 'spirit/juniper-flavoured-spirit-drinks', name: 'Juniper-flavoured spirit drinks' },
  'spirit:23': { label: 'Caraway-flavoured spirit drinks', key: 'spirit/caraway-flavoured-spirit-drinks', name: 'Caraway-flavoured spirit drinks' },
  'spirit:24': { label: 'Akvavit or aquavit', key: 'spirit/akvavit', name: 'Akvavit', aliases: [['Aquavit', 'en']] },
  'spirit:25': { label: 'Aniseed-flavoured spirit drinks', key: 'spirit/aniseed-flavoured-spirit-drinks', name: 'Aniseed-flavoured spirit drinks' },
  'spirit:29': { label: 'Distilled anis', key: 'spirit/distilled-anis', name: 'Distilled anis' },
  'spirit:30': { label: 'Bitter-tasting spirit drinks or bitter', key: 'spirit/bitter-tasting-spirit-drinks', name: 'Bitter-tasting spirit drinks' },
  'spirit:31': { label: 'Flavoured vodka', key: 'spirit/flavoured-vodka', name: 'Flavoured vodka' },
  'spirit:32': { label: 'Liqueur', key: 'spirit/liqueur', name: 'Liqueur' },
  'spirit:34': { label: 'Crème de cassis', key: 'spirit/creme-de-cassis', name: 'Crème de cassis' },
  'spirit:37a': { label: 'Sloe-aromatised spirit drink or Pacharán', key: 'spirit/sloe-aromatised-spirit-drink', name: 'Sloe-aromatised spirit drink', aliases: [['Pacharán', 'es']] },
  'spirit:39': { label: 'Maraschino, Marrasquino or Maraskino', key: 'spirit/maraschino', name: 'Maraschino', aliases: [['Marrasquino', 'und'], ['Maraskino', 'und']] },
  'spirit:40': { label: 'Nocino', key: 'spirit/nocino', name: 'Nocino' },
  'spirit:47': { label: 'Other spirit drinks', key: 'spirit/other-spirit-drinks', name: 'Other spirit drinks' },
  'aromatised:1': { label: 'Aromatised wine', key: 'spirit/aromatised-wine', name: 'Aromatised wine' },
  'aromatised:2': { label: 'Aromatised wine-based drink', key: 'spirit/aromatised-wine-based-drink', name: 'Aromatised wine-based drink' },
};
function parseCats(family, text) {
  return text.split(/, (?=\d+[a-z]?\. )/).map(t => {
    const m = t.trim().match(/^(\d+[a-z]?)\. (.+)$/);
    if (!m) throw new Error(`product category "${text}"`);
    const c = CAT[`${family}:${m[1]}`];
    if (!c || c.label !== m[2]) throw new Error(`unmapped product category "${t}"`);
    if (!c.name && !curatedKeys.has(c.key)) throw new Error(`${c.key} is not in categories.json`);
    return { num: m[1], ...c };
  });
}
const catUse = new Map(); // category key -> first file that names it

// ---------------------------------------------------------------- the 2020 export
const FAMILY = { 'Spirit drink': 'spirit', 'Aromatised wine': 'aromatised' };
const REGULATION = { spirit: 'Regulation (EU) 2019/787', aromatised: 'Regulation (EU) No 251/2014' };
const skipped = { amendment: [], notRegistered: [], curated: [] };
const reg2020 = new Map();
for (const r of [...readRef('eu-gi-spirits-eambrosia-2020.csv'), ...readRef('eu-gi-aromatised-wines-eambrosia-2020.csv')]) {
  const fn = r.filenumber.trim();
  if (/-AM\d+$/.test(fn)) { skipped.amendment.push(fn); continue; }
  if (r.status.trim() !== 'Registered') { skipped.notRegistered.push(`${fn} ${r.status.trim()}`); continue; }
  const family = FAMILY[r.producttype.trim()];
  if (!family) throw new Error(`product type ${r.producttype}`);
  reg2020.set(fn, { r, family, cats: parseCats(family, r.productcategory.trim()) });
}
// The register's legal instrument: "Article 37 of Regulation (EU) No 2019/787" (or of No 251/2014 for
// aromatised wines) means protection under that regulation; an Official Journal reference (names
// registered by a later act or an international agreement) is kept as given.
// Regulation (EC) No 110/2008 was repealed by (EU) 2019/787: an instrument naming it is never written
// as the regulation in force (kb validate rejects it too).
function regulationFact(fn, family, instrument) {
  const li = instrument.trim().replace(/\s+/g, ' ');
  if (/\b110\/2008\b/.test(li)) throw new Error(`file ${fn}: legal instrument "${li}" names the repealed Regulation (EC) No 110/2008; cite Regulation (EU) 2019/787`);
  const m = li.match(/^Article \d+ of Regulation (?:\(EU\) )?(?:No )?(\d{4}\/\d+|\d+\/\d{4})$/);
  const value = m ? (m[1] === '2019/787' ? REGULATION.spirit : m[1] === '251/2014' ? REGULATION.aromatised : null) : null;
  if (value) return { value, source: 'eu-eambrosia', locator: `file ${fn} (legal instrument: ${li})` };
  return li ? { value: li, source: 'eu-eambrosia', locator: `file ${fn} (legal instrument)` } : null;
}
function addCategoryFacts(facts, fn, x) {
  const loc = `file ${fn} (product category "${x.r.productcategory.trim()}")`;
  facts.category = { value: x.cats.map(c => c.label).join(', '), source: 'eu-eambrosia', locator: loc };
  facts.parent = { value: x.cats[0].key, source: 'eu-eambrosia', locator: loc };
  // Each category cites one file that names it: the first one whose legal instrument is the
  // regulation article (so that the category's regulation fact can cite it), else the first one.
  const articleForm = (y) => regulationFact('', y.family, y.r.legalinstrument)?.value === REGULATION[y.family];
  for (const c of x.cats) {
    const had = catUse.get(c.key);
    if (!had || (!articleForm(had.x) && articleForm(x))) catUse.set(c.key, { fn, c, family: x.family, x });
  }
  const d = dmy(x.r.dateregistration);
  if (d) facts.established = { value: d, source: 'eu-eambrosia', locator: `file ${fn} (date of registration)` };
}

// ---------------------------------------------------------------- sample records (released first)
const rows = parseCsv(readFileSync(CSV, 'utf8')).filter(r => r.product_type === 'SPIRIT');
const seen = new Map();
for (const r of rows) { const n = r.protected_names.split('|')[0]; seen.set(n, (seen.get(n) ?? 0) + 1); }
const sampleFiles = new Set(rows.map(r => r.file_number));

const records = rows.map(r => {
  const names = r.protected_names.split('|').map(s => s.trim()).filter(Boolean);
  const countries = r.countries.split('|').filter(Boolean);
  // canonical name: first Latin-script name
  const name = names.find(n => !HAN.test(n) && !CYR.test(n)) ?? names[0];
  let key = 'spirit/' + slug(name);
  if (seen.get(names[0]) > 1) key += '-' + r.file_number.split('-').pop(); // same name, two files
  const loc = `file ${r.file_number}`;
  const f = value => ({ value, source: 'eu-eambrosia', locator: loc });
  const facts = { gi_type: f(r.gi_type), file_number: f(r.file_number) };
  if (countries.length === 1) facts.country = f(countries[0]);
  const reg = r.legal_instrument ? regulationFact(r.file_number, 'spirit', r.legal_instrument) : null;
  if (reg) facts.regulation = reg;
  const x = r.status === 'registered' ? reg2020.get(r.file_number) : null;
  if (x) addCategoryFacts(facts, r.file_number, x);
  else {
    const parent = parentOf(names);
    if (parent) facts.parent = { value: parent, source: 'eu-eambrosia', locator: `${loc}, registered name` };
  }
  const aliases = names.filter(n => n !== name).map(n => ({
    name: n, lang: langOf(n, countries), kind: 'protected_name', source: 'eu-eambrosia', locator: loc
  }));
  return {
    key, type: 'spirit', name,
    // applications not yet registered are kept as drafts (not served)
    review: r.status === 'registered' ? 'reviewed' : 'draft',
    aliases, facts
  };
});

// ---------------------------------------------------------------- 2020 export records
const taken = new Set([...records.map(r => r.key), ...reserved, ...Object.values(CAT).map(c => c.key)]);
for (const [fn, x] of reg2020) {
  if (sampleFiles.has(fn)) continue;
  let names = splitNames(x.r.name);
  const hit = curatedFile.get(fn) ?? names.map(n => curatedName.get(norm(n))).find(Boolean);
  if (hit) { skipped.curated.push(`${names[0]} (${fn}) -> ${hit}`); continue; }
  const ccs = isoOf(fn);
  const name = names.find(n => !HAN.test(n) && !CYR.test(n) && !GREEK.test(n)) ?? names[0];
  // "Münsterländer Korn / Kornbrand": the second form shares the first word of the name.
  const words = name.split(' ');
  const expand = (n) => (!n.includes(' ') && words.length > 1 && n.startsWith(words[words.length - 1]) && n !== words[words.length - 1])
    ? `${words.slice(0, -1).join(' ')} ${n}` : n;
  const loc = `file ${fn}`;
  const aliases = names.filter(n => n !== name).map(n => {
    const full = expand(n);
    return { name: full, lang: langOf(n, ccs), kind: 'protected_name', source: 'eu-eambrosia',
      locator: full === n ? loc : `${loc} (registered as "${x.r.name.trim()}", read as "${full}")` };
  });
  let key = 'spirit/' + slug(name);
  if (taken.has(key)) key += '-' + ccs.join('-').toLowerCase();
  if (taken.has(key)) throw new Error(`no free key for ${name} ${fn}`);
  taken.add(key);
  const f = value => ({ value, source: 'eu-eambrosia', locator: loc });
  const facts = { gi_type: f('GI'), file_number: f(fn) };
  if (ccs.length === 1) facts.country = f(ccs[0]);
  const reg = regulationFact(fn, x.family, x.r.legalinstrument);
  if (reg) facts.regulation = reg;
  addCategoryFacts(facts, fn, x);
  records.push({ key, type: 'spirit', name, review: 'reviewed', aliases, facts });
}

// ---------------------------------------------------------------- category entities
const categories = [];
for (const [key, { fn, c, family, x }] of [...catUse].sort((a, b) => a[0].localeCompare(b[0]))) {
  if (!c.name) continue; // held by categories.json
  const loc = `product category "${c.num}. ${c.label}", as given for file ${fn}`;
  const f = value => ({ value, source: 'eu-eambrosia', locator: loc });
  const facts = { category: f(c.name.toLowerCase()), country: f('EU') };
  const li = x.r.legalinstrument.trim();
  if (regulationFact(fn, family, li)?.value === REGULATION[family])
    facts.regulation = { value: REGULATION[family], source: 'eu-eambrosia', locator: `${loc} (legal instrument: ${li})` };
  categories.push({ key, type: 'spirit', name: c.name, review: 'reviewed',
    aliases: (c.aliases ?? []).map(([n, lang]) => ({ name: n, lang, kind: 'synonym', source: 'eu-eambrosia', locator: loc })),
    facts });
}
// Curated additions for register entities that other texts describe (sources read in the session).
const HMRC3260 = 'https://www.gov.uk/hmrc-internal-manuals/spirits-production/spir3260';
const EXTRA = {
  'spirit/scotch-whisky': {
    facts: {
      category: { value: 'whisky', source: 'hmrc-spirits-manual', locator: `${HMRC3260} (Scotch Whisky Regulations 2009, reg. 3)` },
      base_material: { value: 'water and malted barley, to which only whole grains of other cereals may be added', source: 'hmrc-spirits-manual', locator: `${HMRC3260}, definition (a)` },
      distillation: { value: 'distilled at a distillery in Scotland at an alcoholic strength of less than 94.8% vol', source: 'hmrc-spirits-manual', locator: `${HMRC3260}, definition (a)-(b)` },
      ageing: { value: 'matured only in Scotland, only in oak casks of not more than 700 litres, for not less than 3 years', source: 'hmrc-spirits-manual', locator: `${HMRC3260}, definition (c)-(f)` },
      min_abv: { value: 40, source: 'hmrc-spirits-manual', locator: `${HMRC3260}, definition (i)` }
    },
    aliases: [
      { name: 'Scotch', lang: 'en', kind: 'common_name', source: 'ttb-industry-circulars', locator: 'https://ttb.gov/images/industry_circulars/archives/1975/75-13.html (Industry Circular 75-13: \'"Scotch," "Irish," and "Canadian" whiskies\')' },
      { name: 'Scotch whiskey', lang: 'en', kind: 'synonym', source: 'ttb-27cfr5-2008', locator: 'former 27 CFR 5.22(b)(7); https://online.flipbuilder.com/otqq/hqay/files/basic-html/page90.html' }
    ]
  }
};
for (const r of records) {
  const x = EXTRA[r.key]; if (!x) continue;
  Object.assign(r.facts, x.facts); r.aliases.push(...x.aliases);
}

const keys = new Set();
for (const r of records) { if (keys.has(r.key)) throw new Error('duplicate key ' + r.key); keys.add(r.key); }
for (const r of categories) { if (keys.has(r.key)) throw new Error('duplicate key ' + r.key); keys.add(r.key); }
records.sort((a, b) => a.key.localeCompare(b.key));
const write = (file, arr) => { const t = `${file}.tmp`; writeFileSync(t, JSON.stringify(arr, null, 2) + '\n'); renameSync(t, file); };
write(OUT, records);
write(OUT_CAT, categories);
console.log(`wrote ${records.length} records (${records.filter(r => r.review !== 'draft').length} served) to ${OUT}`);
console.log(`wrote ${categories.length} category records to ${OUT_CAT}`);
console.log('categories used', [...catUse.keys()].sort().join(' '));
console.log('skipped: amendment files', skipped.amendment.length, '; not registered', skipped.notRegistered.length);
console.log('skipped: held by categories.json', skipped.curated);
