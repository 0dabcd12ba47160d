// Derives spirit GI records from the eAmbrosia register sample (rows with product_type SPIRIT).
// Input:  /work/shared/reference/eu-gi-register-sample.csv (outside the repo, never copied in)
// Output: data/spirits/eu-gi-register.json
// Cites the original publisher (source key `eu-eambrosia`), locator "file <file_number>".
// Run from the repo root:  node tools/derive/spirits.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = process.cwd();
const CSV = resolve(ROOT, '../shared/reference/eu-gi-register-sample.csv');
const OUT = resolve(ROOT, 'data/spirits/eu-gi-register.json');

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
function langOf(name, countries) {
  if (HAN.test(name)) return 'zh';
  if (CYR.test(name)) return 'ru';
  if (countries.includes('CN')) return 'und';
  const overrides = {
    'Herbes de Mallorca': 'ca', 'Vruchtenjenever': 'nl', 'Jenever met vruchten': 'nl', 'Fruchtgenever': 'de',
    'Genièvre aux fruits': 'fr', 'Hamburg’s Kümmel': 'en', 'Norwegian Aquavit': 'en', 'Norwegian Vodka': 'en',
    'Norsk Aquavit': 'no', 'Norsk Akvavit': 'no'
  };
  if (overrides[name]) return overrides[name];
  const byCountry = { PT: 'pt', HU: 'hu', DE: 'de', ES: 'es', IT: 'it', FR: 'fr', GB: 'en', GY: 'en', NO: 'no', RU: 'en' };
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

const rows = parseCsv(readFileSync(CSV, 'utf8')).filter(r => r.product_type === 'SPIRIT');
const seen = new Map();
for (const r of rows) { const n = r.protected_names.split('|')[0]; seen.set(n, (seen.get(n) ?? 0) + 1); }

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
  if (r.legal_instrument) facts.regulation = f(r.legal_instrument);
  const parent = parentOf(names);
  if (parent) facts.parent = { value: parent, source: 'eu-eambrosia', locator: `${loc}, registered name` };
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
records.sort((a, b) => a.key.localeCompare(b.key));
writeFileSync(OUT, JSON.stringify(records, null, 2) + '\n');
console.log(`wrote ${records.length} records (${records.filter(r => r.review !== 'draft').length} served) to ${OUT}`);
