// Derives data/food/vocabulary.json, the food vocabulary of /v1/pair-food, from the Open Food Facts
// taxonomies (ingredients and categories: a directed acyclic graph of foods with names in many
// languages). Usage:
//   node tools/derive/food-vocabulary.mjs <openfoodfacts-server git dir> [commit]
// The taxonomies were read from a public snapshot of the openfoodfacts-server repository (the fork
// nyu-ossd-s20/openfoodfacts-server at 9318cfdf, 2020-07-20, brought here with the search tool's fetch).
// What is kept: every entry (ingredients: "ing:", categories: "cat:"), its names in the languages of the
// guidance excerpts (en, fr, de, es, it, pt) and its parents. Comments, properties (wikidata, vegan…)
// and other languages are left out. Nothing is added by hand.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
if (!gitDir) {
  console.error('usage: node tools/derive/food-vocabulary.mjs <openfoodfacts-server git dir> [commit]');
  process.exit(2);
}
const LANGS = ['en', 'fr', 'de', 'es', 'it', 'pt'];
const show = (file) => execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { maxBuffer: 64 << 20, encoding: 'utf8' });
const sha = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', commit], { encoding: 'utf8' }).trim();
const date = execFileSync('git', ['--git-dir', gitDir, 'log', '-1', '--format=%cs', commit], { encoding: 'utf8' }).trim();

/** The lower-case, accent-kept key OFF uses to refer to an entry by one of its names. */
const refKey = (lang, name) => `${lang}:${name.trim().toLowerCase()}`;

function parse(text, prefix) {
  const entries = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    if (!lines.length) continue;
    const parents = [];
    const names = {};
    let id = null;
    for (const line of lines) {
      if (line.startsWith('<')) {
        parents.push(line.slice(1).trim());
        continue;
      }
      const m = /^([a-z]{2,3}(?:[-_][a-z]{2,4})?):(.*)$/.exec(line);
      // property lines ("wikidata:en:Q…", "vegan:en:yes") and header lists (stopwords:, synonyms:) are not names
      if (!m || /^[a-z]{2,3}(?:[-_][a-z]{2,4})?:[a-z]{2}:/.test(line) || ['stopwords', 'synonyms'].includes(m[1])) continue;
      const lang = m[1];
      const list = m[2].split(',').map((s) => s.trim()).filter(Boolean);
      if (!list.length) continue;
      if (!id) id = refKey(lang, list[0]);
      if (LANGS.includes(lang)) names[lang] = [...new Set([...(names[lang] ?? []), ...list])];
      names[`_ref_${lang}`] = list; // every name refers, for the parent look-up
    }
    if (!id) continue;
    entries.push({ id: `${prefix}${id}`, names, parentRefs: parents });
  }
  return entries;
}

const out = [];
let unresolved = 0;
for (const [file, prefix] of [['taxonomies/ingredients.txt', 'ing:'], ['taxonomies/categories.txt', 'cat:']]) {
  const entries = parse(show(file), prefix);
  const byRef = new Map();
  for (const e of entries) {
    for (const [k, list] of Object.entries(e.names)) {
      if (!k.startsWith('_ref_')) continue;
      for (const n of list) if (!byRef.has(refKey(k.slice(5), n))) byRef.set(refKey(k.slice(5), n), e.id);
    }
  }
  for (const e of entries) {
    const parents = [];
    for (const p of e.parentRefs) {
      const m = /^([a-z]{2,3}(?:[-_][a-z]{2,4})?):(.*)$/.exec(p);
      const target = m ? byRef.get(refKey(m[1], m[2])) : undefined;
      if (target && target !== e.id) parents.push(target);
      else unresolved++;
    }
    const names = Object.fromEntries(LANGS.filter((l) => e.names[l]).map((l) => [l, e.names[l]]));
    // an entry with no name in the six languages is kept only as a link in the graph
    out.push({ id: e.id, names, parents: [...new Set(parents)] });
  }
}
const doc = {
  source: 'Open Food Facts taxonomies (ingredients.txt, categories.txt), Association Open Food Facts',
  url: 'https://github.com/openfoodfacts/openfoodfacts-server/tree/main/taxonomies',
  retrieved_via: { url: 'https://github.com/nyu-ossd-s20/openfoodfacts-server', kind: 'mirror', note: `a fork of openfoodfacts-server, read at commit ${sha.slice(0, 8)} (${date}); the original repository was too large to bring here` },
  version: `openfoodfacts-server ${sha.slice(0, 8)} (${date})`,
  licence: 'AGPL-3.0-or-later (the openfoodfacts-server repository, which holds the taxonomies; see data/food/LICENSE-openfoodfacts.txt)',
  derived_by: 'tools/derive/food-vocabulary.mjs',
  languages: LANGS,
  nodes: out,
};
const file = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'data', 'food', 'vocabulary.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, JSON.stringify(doc) + '\n');
// the licence travels with the derived file
const copyright = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:COPYRIGHT`], { encoding: 'utf8' });
const licence = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:LICENSE`], { encoding: 'utf8' });
fs.writeFileSync(path.join(path.dirname(file), 'LICENSE-openfoodfacts.txt'), `data/food/vocabulary.json is derived from the taxonomies of Open Food Facts' openfoodfacts-server\nrepository (${sha.slice(0, 8)}, ${date}), which are distributed under these terms:\n\n${copyright}\n\n${licence}`);
console.log(`${out.length} nodes (${out.filter((n) => Object.keys(n.names).length).length} named in ${LANGS.join(', ')}); ${unresolved} parent references to no entry; ${fs.statSync(file).size} bytes → ${file}`);
