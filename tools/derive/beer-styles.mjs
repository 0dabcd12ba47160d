// Derive data/beer-styles/bjcp-2021.json from the BJCP 2021 reference table.
//
// Input : /work/shared/reference/bjcp-2021-beer-styles.csv (figures and names from the
//         Beer Judge Certification Program, 2021 Style Guidelines; cited as source `bjcp-2021`).
// Output: data/beer-styles/bjcp-2021.json (entity records, type "beer_style").
//
// Aliases are NOT derived from the CSV. They come from the ALIASES table below, each one a
// name that the BJCP 2021 guideline text itself gives for the style (mostly in the style's
// "Comments" field: "Also known as ...", "Sometimes called ..."). The text was read in the
// ascholer/bjcp-styleview transcription of the 2021 guidelines (source key
// `bjcp-2021-styleview`, registered in data/sources/beer.json). Bare style ids are never
// aliased, and names the guidelines attach to more than one style (e.g. "Barley Wine",
// "Golden Ale", "Oktoberfest", "Export") are left out on purpose. ALIASES_REPRINT holds names read
// later in another transcription (rwgrier/beer-styles-site, source `bjcp-2021-style-entries`).
//
// Known-wrong rows (issue 9): NO_FIGURES lists styles whose table figures are not derived (21B: the
// row holds Black IPA's figures; 21B itself has none). VARIANT_LOCATORS/NOTES say which variant a
// row's figures describe where the guideline gives several (25B Saison: standard strength, pale).
//
// Run from the repository root:  node tools/derive/beer-styles.mjs
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REF = resolve(ROOT, '..', 'shared', 'reference');
const OUT = join(ROOT, 'data', 'beer-styles', 'bjcp-2021.json');

// ---------- tiny CSV reader (RFC 4180 quotes) ----------
export function parseCsv(text) {
  const rows = [];
  let row = [], field = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"') { if (text[i + 1] === '"') { field += '"'; i++; } else q = false; }
      else field += c;
    } else if (c === '"') q = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  const [head, ...body] = rows;
  return body.map(r => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

export function slug(s) {
  return s
    .replace(/ß/g, 'ss').replace(/[Ææ]/g, 'ae').replace(/[Øø]/g, 'o').replace(/[Łł]/g, 'l')
    .normalize('NFKD').replace(/\p{M}+/gu, '')
    .toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

// ---------- aliases shown by the BJCP 2021 text (style id -> aliases) ----------
// field = the guideline field where the name stands (locator).
const A = (name, lang, kind, field = 'Comments') => ({ name, lang, kind, field });
const ALIASES = {
  '3A': [A('světlé výčepní pivo', 'cs', 'other_language')],
  '3B': [A('Czech Pilsner', 'en', 'common_name'), A('Bohemian Pilsner', 'en', 'common_name'),
         A('pivo Plzeňského typu', 'cs', 'other_language')],
  '3C': [A('polotmavé pivo', 'cs', 'other_language')],
  '4A': [A('Helles Lagerbier', 'de', 'synonym')],
  '4B': [A('Wiesn', 'de', 'common_name'), A('Helles Märzen', 'de', 'synonym')],
  '4C': [A('Maibock', 'de', 'synonym')],
  '5A': [A('Diat Pils', 'de', 'common_name')],
  '5C': [A('Dortmunder Export', 'de', 'synonym'), A('Dortmunder', 'de', 'common_name'), A('Dort', 'und', 'common_name')],
  '5D': [A('Pils', 'de', 'common_name')],
  '8B': [A('black Pils', 'en', 'common_name')],
  '10A': [A('Hefeweizen', 'de', 'common_name'), A('Weizenbier', 'de', 'synonym')],
  '10B': [A('Dunkelweizen', 'de', 'common_name')],
  '11A': [A('Bitter', 'en', 'common_name')],
  '11C': [A('ESB', 'en', 'common_name')],
  '12A': [A('Golden Bitter', 'en', 'synonym'), A('Summer Ale', 'en', 'synonym'), A('British Blonde Ale', 'en', 'synonym')],
  '16A': [A('Milk Stout', 'en', 'common_name', 'History'), A('Cream Stout', 'en', 'common_name', 'History')],
  '16D': [A('Foreign Stout', 'en', 'synonym'), A('Export Stout', 'en', 'synonym'), A('Foreign Export Stout', 'en', 'synonym')],
  '17C': [A('Strong Scotch Ale', 'en', 'synonym')],
  '19B': [A('Steam Beer', 'en', 'former_name', 'History')],
  '20A': [A('Robust Porter', 'en', 'synonym')],
  '20B': [A('West Coast Stout', 'en', 'former_name', 'History')],
  '20C': [A('Russian Imperial Stout', 'en', 'synonym'), A('RIS', 'en', 'abbreviation')],
  '21A': [A('West Coast IPA', 'en', 'common_name')],
  '21C': [A('New England IPA', 'en', 'synonym'), A('NEIPA', 'en', 'abbreviation')],
  '22A': [A('Imperial IPA', 'en', 'synonym')],
  '24B': [A('Spéciale Belge Ale', 'und', 'synonym'), A('Belgian Special Ale', 'en', 'synonym')],
  '25B': [A('Farmhouse Ale', 'en', 'common_name')],
  '26A': [A("Monk's Beer", 'en', 'common_name'), A("Brother's Beer", 'en', 'common_name')],
  '26D': [A('Belgian Quad', 'en', 'common_name')],
  '30A': [A('SHV Beer', 'en', 'abbreviation', 'style 30D, Aroma ("Same as SHV Beer", i.e. 30A)')],
};

// Aliases read in the BJCP 2021 text as carried by the rwgrier/beer-styles-site reprint (source
// `bjcp-2021-style-entries`, data/sources/beer.json): names the style entry itself gives, or things
// the entry says it includes (field = where the name or inclusion stands).
const B = (name, lang, kind, field) => ({ name, lang, kind, field });
const ALIASES_REPRINT = {
  '22B': [B('Double Red Ale', 'en', 'common_name', 'Comments ("including modern Double Red Ales")')],
  '17A': [B('English Winter Warmer', 'en', 'common_name', 'Comments (17A "can include ... English winter warmers")')],
  '30A': [B('Spice Beer', 'en', 'common_name', 'introduction ("Often called Spice Beer")')],
  '30B': [B('Pumpkin Ale', 'en', 'common_name', 'introduction (Autumn Seasonal Beers "may include pumpkins, gourds, or other squashes"), Characteristic Ingredients (squash-type vegetables, "most frequently pumpkin") and Commercial Examples (Schlafly Pumpkin Ale, Rogue Pumpkin Patch Ale, Dogfish Head Punkin Ale)')],
  '2A': [B('Mexican Lager', 'en', 'common_name', 'Entry Instructions (regional variations of 2A, e.g. "Mexican lager, Dutch lager")'),
         B('Dutch Lager', 'en', 'common_name', 'Entry Instructions (regional variations of 2A, e.g. "Mexican lager, Dutch lager")')],
  '31B': [B('Honey Beer', 'en', 'common_name', 'Comments (a honey-based beer entered here is "a honey beer")')],
  '31A': [B('American Rye Beer', 'en', 'common_name', 'style 1D, Comments ("American Rye beers should be entered as 31A Alternative Grain Beer")')],
};

const NUM_FIELDS = ['og', 'fg', 'ibu', 'srm', 'abv'];

// Reference-table rows that are known to be wrong for a style (issue 9): their figures are not
// derived. The 21B row carries the figures and tags of Black IPA, one of 21B's currently defined
// types; the BJCP gives 21B itself no vital statistics ("Variable by type, see individual styles")
// and each type carries its own (data/beer-styles/bjcp-2021-named.json).
export const NO_FIGURES = {
  '21B': 'BJCP 2021 gives Specialty IPA no vital statistics of its own ("Variable by type, see individual styles"); each currently defined type (Belgian, Black, Brown, Red, Rye, White, Brut IPA) carries its own figures. The reference table\'s 21B row holds Black IPA\'s figures and tags, so neither is served here. The guideline\'s strength classes for 21B entries are session 3.0–5.0%, standard 5.0–7.5% and double 7.5–10.0% ABV.',
};
// Styles whose table figures are one variant of several the guideline gives: per-field locators and
// a note saying which variant the figures are, and where the others are served.
const VARIANT_LOCATORS = {
  '25B': {
    og: 'style 25B, Vital Statistics (standard strength)',
    fg: 'style 25B, Vital Statistics (standard strength)',
    ibu: 'style 25B, Vital Statistics',
    srm: 'style 25B, Vital Statistics (pale)',
    abv: 'style 25B, Vital Statistics (standard strength)',
    tags: 'style 25B, Tags',
  },
};
const NOTES = {
  '25B': 'Figures are those of the standard-strength pale Saison, which the guideline describes first. BJCP 2021 gives Saison three strengths (table, standard, super) and two colours (pale, dark): ABV 3.5–5.0% table, 5.0–7.0% standard, 7.0–9.5% super; SRM 5–14 pale, 15–22 dark; OG and FG are given for standard strength only; IBU 20–35 for all. The other variants are served as named sub-styles under 25B: beer/25b-table-saison, beer/25b-super-saison, beer/25b-dark-saison.',
};

function main() {
  const rows = parseCsv(readFileSync(join(REF, 'bjcp-2021-beer-styles.csv'), 'utf8'));
  const out = [];
  const seenKeys = new Set();
  const usedAliasIds = new Set();
  for (const r of rows) {
    const id = r.style_id.trim();
    const loc = `style ${id}`;
    const key = `beer/${id.toLowerCase()}-${slug(r.name)}`;
    if (seenKeys.has(key)) throw new Error(`duplicate key ${key}`);
    seenKeys.add(key);
    const f = (value) => ({ value, source: 'bjcp-2021', locator: loc });
    const facts = {
      style_id: f(id),
      category: f(r.category.trim()),
      category_id: f(r.category_id.trim()),
    };
    const vloc = VARIANT_LOCATORS[id] || {};
    const fv = (field, value) => ({ value, source: 'bjcp-2021', locator: vloc[field] || loc });
    if (!NO_FIGURES[id]) {
      for (const n of NUM_FIELDS) {
        const lo = r[`${n}_min`], hi = r[`${n}_max`];
        if (lo !== '' && hi !== '') facts[n] = fv(n, { min: Number(lo), max: Number(hi) });
      }
      const tags = r.tags.split(',').map(t => t.trim()).filter(Boolean);
      if (tags.length) facts.tags = fv('tags', tags);
    }
    const aliases = (ALIASES[id] || []).map(a => {
      usedAliasIds.add(id);
      const where = a.field.startsWith('style ') ? a.field : `style ${id}, ${a.field}`;
      return { name: a.name, lang: a.lang, kind: a.kind, source: 'bjcp-2021-styleview', locator: where };
    });
    for (const a of ALIASES_REPRINT[id] || []) {
      usedAliasIds.add(id);
      const where = a.field.startsWith('style ') ? a.field : `style ${id}, ${a.field}`;
      aliases.push({ name: a.name, lang: a.lang, kind: a.kind, source: 'bjcp-2021-style-entries', locator: where });
    }
    const rec = { key, type: 'beer_style', name: r.name.trim(), review: 'reviewed', aliases, facts };
    const note = NO_FIGURES[id] || NOTES[id];
    if (note) rec.notes = note;
    out.push(rec);
  }
  for (const id of [...Object.keys(ALIASES), ...Object.keys(ALIASES_REPRINT)]) if (!usedAliasIds.has(id)) throw new Error(`alias for unknown style ${id}`);
  for (const id of Object.keys(NO_FIGURES)) if (!rows.some(r => r.style_id.trim() === id)) throw new Error(`NO_FIGURES for unknown style ${id}`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');
  const nAlias = out.reduce((s, r) => s + r.aliases.length, 0);
  console.log(`wrote ${out.length} beer styles, ${nAlias} aliases -> ${OUT}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
