// Adds to data/food/vocabulary.json the dishes of a newer Open Food Facts categories taxonomy (issue 33,
// item 4: dishes people order, each with its parent). Usage:
//   node tools/derive/food-dishes.mjs <openfoodfacts/robotoff git dir> [commit]
// Source: the categories taxonomy of Open Food Facts as exported by Open Food Facts itself
// (categories.full.json, the taxonomy compiled to JSON: names and synonyms by language, parents, wikidata
// ids), in the openfoodfacts/robotoff repository at data/taxonomies/categories.full.json.gz, commit 73e23ceb
// (2022-10-13; later commits hold only a Git LFS pointer). The base vocabulary is the 2020 taxonomy
// (tools/derive/food-vocabulary.mjs), which has no pad thai, no spaghetti carbonara, no mushroom risotto.
// What is taken: the WHOLE subtrees under en:meals and en:sandwiches (prepared dishes), every entry that
// the base vocabulary does not already hold (same English name), with its names in en, fr, de, es, it, pt,
// its parents (mapped to the base entry of the same English name where there is one) and its wikidata id.
// Nothing is added by hand. Re-running replaces the entries added before (marked "from": "off-2022").
// Order: tools/derive/food-vocabulary.mjs (the base), this script, tools/derive/food-dishes-current.mjs
// (the current taxonomy's entries for the dishes of issue 33), then tools/derive/beer-modifiers.mjs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [gitDir, commit = '73e23ceb31ac578c1817c558fc59c9d03edb6558'] = process.argv.slice(2);
if (!gitDir) {
  console.error('usage: node tools/derive/food-dishes.mjs <openfoodfacts/robotoff git dir> [commit]');
  process.exit(2);
}
const FILE = 'data/taxonomies/categories.full.json.gz';
const ROOTS = ['en:meals', 'en:sandwiches'];
const LANGS = ['en', 'fr', 'de', 'es', 'it', 'pt'];
const SUPPLEMENT = 'off-2022';
const sha = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', commit], { encoding: 'utf8' }).trim();
const date = execFileSync('git', ['--git-dir', gitDir, 'log', '-1', '--format=%cs', commit], { encoding: 'utf8' }).trim();
const gz = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${FILE}`], { maxBuffer: 64 << 20 });
const taxonomy = JSON.parse(zlib.gunzipSync(gz).toString('utf8'));

const vocabularyFile = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'data', 'food', 'vocabulary.json');
const doc = JSON.parse(fs.readFileSync(vocabularyFile, 'utf8'));
doc.nodes = doc.nodes.filter((n) => n.from !== SUPPLEMENT);
const fold = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
const baseByEnglish = new Map();
for (const n of doc.nodes) {
  if (!n.id.startsWith('cat:')) continue;
  for (const name of n.names.en ?? []) if (!baseByEnglish.has(fold(name))) baseByEnglish.set(fold(name), n.id);
}

// the whole subtrees under the roots
const children = new Map();
for (const [key, e] of Object.entries(taxonomy)) for (const p of e.parents ?? []) children.set(p, [...(children.get(p) ?? []), key]);
const subtree = new Set();
const stack = [...ROOTS];
while (stack.length) {
  const k = stack.pop();
  if (subtree.has(k) || !taxonomy[k]) continue;
  subtree.add(k);
  stack.push(...(children.get(k) ?? []));
}

const names = (e) => Object.fromEntries(LANGS.filter((l) => e.synonyms?.[l]?.length).map((l) => [l, [...new Set(e.synonyms[l])]]));
/** the vocabulary id of a taxonomy key: the base entry of the same English name, else a new id in the base's form */
const idOf = new Map();
for (const key of Object.keys(taxonomy)) {
  const e = taxonomy[key];
  const en = e.synonyms?.en ?? (e.name?.en ? [e.name.en] : []);
  const base = en.map((n) => baseByEnglish.get(fold(n))).find(Boolean);
  if (base) idOf.set(key, base);
  else {
    const lang = key.slice(0, key.indexOf(':'));
    const first = e.synonyms?.[lang]?.[0] ?? e.name?.[lang] ?? key.slice(lang.length + 1);
    idOf.set(key, `cat:${lang}:${first.trim().toLowerCase()}`);
  }
}
const known = new Set(doc.nodes.map((n) => n.id));
let added = 0;
for (const key of [...subtree].sort()) {
  const id = idOf.get(key);
  if (known.has(id)) continue;
  const e = taxonomy[key];
  const node = { id, names: names(e), parents: [...new Set((e.parents ?? []).map((p) => idOf.get(p)).filter((p) => p && p !== id))], from: SUPPLEMENT, off_id: key };
  const wikidata = e.wikidata?.en;
  if (wikidata && /^Q\d+$/.test(wikidata)) node.wikidata = wikidata;
  doc.nodes.push(node);
  known.add(id);
  added++;
}
// a parent outside the subtrees that the base lacks is left out (the entry keeps its other parents)
for (const n of doc.nodes) if (n.from === SUPPLEMENT) n.parents = n.parents.filter((p) => known.has(p));
doc.supplements = [
  ...(doc.supplements ?? []).filter((s) => s.id !== SUPPLEMENT),
  {
    id: SUPPLEMENT,
    source: 'Open Food Facts categories taxonomy (categories.full.json, the taxonomy compiled to JSON), Association Open Food Facts',
    url: 'https://github.com/openfoodfacts/openfoodfacts-server/tree/main/taxonomies',
    retrieved_via: { url: `https://github.com/openfoodfacts/robotoff/blob/${sha}/${FILE}`, kind: 'copy', note: `Open Food Facts' own export of the taxonomy, kept in its robotoff repository; read at commit ${sha.slice(0, 8)} (${date})` },
    version: `robotoff ${sha.slice(0, 8)} (${date})`,
    licence: 'AGPL-3.0 (the robotoff repository, its LICENCE file); the taxonomy itself is that of openfoodfacts-server, as the base: see data/food/LICENSE-openfoodfacts.txt',
    derived_by: 'tools/derive/food-dishes.mjs',
    scope: `every entry at or below ${ROOTS.join(' and ')} that the base vocabulary lacks (same English name): ${added} entries`,
  },
];
fs.writeFileSync(vocabularyFile, JSON.stringify(doc) + '\n');
console.log(`${subtree.size} entries under ${ROOTS.join(', ')}; ${added} added (from: ${SUPPLEMENT}) → ${vocabularyFile}`);
