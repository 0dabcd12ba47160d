// Adds to data/food/vocabulary.json what the current Open Food Facts categories taxonomy says of the dishes
// of issue 33 (item 4) beyond the 2022 export (tools/derive/food-dishes.mjs). Usage:
//   node tools/derive/food-dishes-current.mjs [categories.txt]
// Source: taxonomies/food/categories.txt of Open Food Facts' openfoodfacts-server repository, commit 0000cfb5.
// The repository (2 GB) could not be brought here whole: the entries used were read in a stored copy of that
// file with the search tool and are kept verbatim in data/food/off-categories-excerpt.txt (the default
// input). Given the whole file instead, the script reads the same entries from it (DISHES below).
// What is taken, for each English name in DISHES:
//   - an entry the vocabulary lacks (same English name) is added, with its names in en, fr, de, es, it, pt
//     and its parents (each the vocabulary entry of the parent's English name; a parent the vocabulary
//     lacks is left out), marked "from": "off-current" ("Fish and Chips", under Meals with fish);
//   - an entry the vocabulary has gains the names in those languages it lacked, listed in the node's
//     "names_added" (Carbonara-style pasta gains "Pasta alla carbonara", "Pasta estilo carbonara"...), and
//     the parents the taxonomy now gives it, listed in "parents_added" (Tagliatelle with carbonara, under
//     Pasta dishes in 2020, is under Carbonara-style pasta now).
// Nothing is added by hand; re-running first undoes the previous run.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const [input = path.join(ROOT, 'data', 'food', 'off-categories-excerpt.txt')] = process.argv.slice(2);
const COMMIT = '0000cfb5b0b34835fe9644164ddbc3125c6919fd';
const SUPPLEMENT = 'off-current';
const LANGS = ['en', 'fr', 'de', 'es', 'it', 'pt'];
/** The dishes of issue 33 this supplement reads (English names as in the taxonomy). */
const DISHES = ['Fish and Chips', 'Carbonara-style pasta', 'Tagliatelle with carbonara', 'Spaghetti with carbonara', 'Pad thai', 'Chicken curry', 'Paella', 'Hamburgers', 'Sushis'];

const fold = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
const LANG_LINE = /^([a-z]{2,3}(?:[-_][a-z]{2,4})?):(.*)$/;

/** The entries of an OFF taxonomy text: names by language and parent references (as tools/derive/food-vocabulary.mjs). */
function parse(text) {
  const entries = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const parents = [];
    const names = {};
    for (const line of lines) {
      if (line.startsWith('<')) {
        parents.push(line.slice(1).trim());
        continue;
      }
      const m = LANG_LINE.exec(line);
      // property lines ("wikidata:en: Q…") and header lists (stopwords:, synonyms:) are not names
      if (!m || /^[a-z]{2,3}(?:[-_][a-z]{2,4})?:[a-z]{2}:/.test(line) || ['stopwords', 'synonyms'].includes(m[1])) continue;
      const list = m[2].split(',').map((s) => s.trim()).filter(Boolean);
      if (list.length) names[m[1]] = [...new Set([...(names[m[1]] ?? []), ...list])];
    }
    if (names.en) entries.push({ names, parents });
  }
  return entries;
}

const vocabularyFile = path.join(ROOT, 'data', 'food', 'vocabulary.json');
const doc = JSON.parse(fs.readFileSync(vocabularyFile, 'utf8'));
// undo the previous run
doc.nodes = doc.nodes.filter((n) => n.from !== SUPPLEMENT);
for (const n of doc.nodes) {
  if (!n.names_added) continue;
  for (const [lang, list] of Object.entries(n.names_added)) {
    n.names[lang] = (n.names[lang] ?? []).filter((x) => !list.includes(x));
    if (!n.names[lang].length) delete n.names[lang];
  }
  delete n.names_added;
}
const byEnglish = new Map();
for (const n of doc.nodes) {
  if (!n.id.startsWith('cat:')) continue;
  for (const name of n.names.en ?? []) if (!byEnglish.has(fold(name))) byEnglish.set(fold(name), n);
}

const entries = parse(fs.readFileSync(input, 'utf8'));
const wanted = new Map(DISHES.map((d) => [fold(d), d]));
let added = 0;
let enriched = 0;
const missing = new Set(DISHES);
for (const e of entries) {
  const key = e.names.en.map(fold).find((k) => wanted.has(k));
  if (!key) continue;
  missing.delete(wanted.get(key));
  const names = Object.fromEntries(LANGS.filter((l) => e.names[l]).map((l) => [l, e.names[l]]));
  const known = e.names.en.map((n) => byEnglish.get(fold(n))).find(Boolean);
  const parents = e.parents
    .map((p) => LANG_LINE.exec(p))
    .filter((m) => m && m[1] === 'en')
    .map((m) => byEnglish.get(fold(m[2]))?.id)
    .filter(Boolean);
  if (known) {
    const newParents = [...new Set(parents)].filter((p) => p !== known.id && !known.parents.includes(p));
    if (newParents.length) {
      known.parents = [...known.parents, ...newParents];
      known.parents_added = newParents;
    }
    const gained = {};
    for (const [lang, list] of Object.entries(names)) {
      const have = new Set((known.names[lang] ?? []).map(fold));
      const add = list.filter((x) => !have.has(fold(x)));
      if (!add.length) continue;
      known.names[lang] = [...(known.names[lang] ?? []), ...add];
      gained[lang] = add;
    }
    if (Object.keys(gained).length) known.names_added = gained;
    if (known.names_added || known.parents_added) enriched++;
    continue;
  }
  const node = { id: `cat:en:${e.names.en[0].trim().toLowerCase()}`, names, parents: [...new Set(parents)], from: SUPPLEMENT };
  doc.nodes.push(node);
  byEnglish.set(fold(e.names.en[0]), node);
  added++;
}
if (missing.size) {
  console.error(`not in ${input}: ${[...missing].join(', ')}`);
  process.exit(1);
}
doc.supplements = [
  ...(doc.supplements ?? []).filter((s) => s.id !== SUPPLEMENT),
  {
    id: SUPPLEMENT,
    source: 'Open Food Facts categories taxonomy (taxonomies/food/categories.txt), Association Open Food Facts',
    url: `https://github.com/openfoodfacts/openfoodfacts-server/blob/${COMMIT}/taxonomies/food/categories.txt`,
    retrieved_via: {
      url: 'data/food/off-categories-excerpt.txt',
      kind: 'excerpt',
      note: `the entries used, read in a stored copy of the file at commit ${COMMIT.slice(0, 8)} with the search tool and kept verbatim; the repository could not be fetched whole`,
    },
    version: `openfoodfacts-server ${COMMIT.slice(0, 8)}`,
    licence: 'AGPL-3.0-or-later (the openfoodfacts-server repository, which holds the taxonomies; see data/food/LICENSE-openfoodfacts.txt)',
    derived_by: 'tools/derive/food-dishes-current.mjs',
    scope: `the dishes of issue 33 the taxonomy has (${DISHES.join(', ')}): ${added} added (from: ${SUPPLEMENT}), ${enriched} given names in ${LANGS.join(', ')} or parents they lacked (names_added, parents_added)`,
  },
];
fs.writeFileSync(vocabularyFile, JSON.stringify(doc) + '\n');
console.log(`${entries.length} entries read from ${input}; ${added} added, ${enriched} enriched → ${vocabularyFile}`);
