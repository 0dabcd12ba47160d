// npm run --silent bench:resolve-equivalence — the resolver's answers must not change when it is
// made faster. Loads the knowledge base once, builds the current resolver (src/engine/resolver.ts)
// and a reference resolver from an earlier commit, and compares the whole Resolution (state,
// candidates with score, matched_on and value, suggestions, coverage) for every query of
// test/resolve/labelled-queries.json and test/resolve/demand-queries.json and their variants:
// lower case, upper case, accents stripped, and (to reach the typo and prefix tiers) one letter
// dropped, two letters swapped and the last two letters cut. Each query runs unfiltered with
// limit 10, with limit 1, and through a filter (grapes only; places only) as resolve-entity uses it.
//
// Reference: OLD_REV (env, a git revision; default the resolver before the flat-array rewrite) is
// read with `git show` into a temporary directory; OLD_DIR=<dir> uses resolver.ts and normalize.ts
// from that directory instead. Exit code 1 on any difference (the first ones are printed).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEngine, loadLabelledQueries, ROOT } from './lib/evaluate.ts';
import { loadDemandSet } from './lib/demand.ts';
import { Resolver, type Resolution } from '../src/engine/resolver.ts';
import { resolverInputs } from '../src/engine/engine.ts';
import * as norm from '../src/engine/normalize.ts';

const OLD_REV = process.env.OLD_REV ?? 'd1979cd57f4527806cec659d4b905069b353275e';

function oldDir(): string {
  if (process.env.OLD_DIR) return path.resolve(process.env.OLD_DIR);
  const dir = path.join(os.tmpdir(), `resolver-ref-${OLD_REV.slice(0, 12)}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['resolver.ts', 'normalize.ts']) {
    fs.writeFileSync(path.join(dir, f), execFileSync('git', ['show', `${OLD_REV}:src/engine/${f}`], { cwd: ROOT }));
  }
  return dir;
}

const dir = oldDir();
const Old = ((await import(pathToFileURL(path.join(dir, 'resolver.ts')).href)) as { Resolver: typeof Resolver }).Resolver;
const oldNorm = (await import(pathToFileURL(path.join(dir, 'normalize.ts')).href)) as typeof norm;

const engine = loadEngine();
const kb = engine.kb;
// the same arguments as the Engine constructor (src/engine/engine.ts)
const { names, shared, tieBreak, options } = resolverInputs(kb);

let t = performance.now();
const oldR = new Old(names, shared, tieBreak, options);
const oldMs = performance.now() - t;
t = performance.now();
const newR = new Resolver(names, shared, tieBreak, options);
const newMs = performance.now() - t;

const base = [...loadLabelledQueries().map((q) => q.q), ...loadDemandSet().queries.map((q) => q.q)];
const stripAccents = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '');
const queries = new Set<string>();
for (const q of base) {
  for (const v of [q, q.toLowerCase(), q.toUpperCase(), stripAccents(q)]) {
    queries.add(v);
    const m = v.length >> 1;
    if (v.length >= 4) {
      queries.add(v.slice(0, m) + v.slice(m + 1)); // a letter dropped
      queries.add(v.slice(0, m - 1) + v[m] + v[m - 1] + v.slice(m + 1)); // two letters swapped
      queries.add(v.slice(0, -2)); // the end cut (prefix tier)
    }
  }
}

// the normalisation functions themselves, on every query variant and every indexed name
let normCompared = 0;
let normDifferences = 0;
const normChecks: [string, (n: typeof norm, s: string) => unknown][] = [
  ['exactForm', (n, s) => n.exactForm(s)],
  ['exactForm/space', (n, s) => n.exactForm(s, ' ')],
  ['fold', (n, s) => n.fold(s)],
  ['fold(exactForm)', (n, s) => n.fold(n.exactForm(s))],
  ['queryForms', (n, s) => n.queryForms(s)],
  ['indexVariants', (n, s) => n.indexVariants(s)],
  ['deletionHashes', (n, s) => [n.deletionHashes(s, 1), n.deletionHashes(s, 2)]],
  ['abbreviationSplit', (n, s) => s.split(/\s+/).map((w) => n.abbreviationSplit(w))],
];
const extra = [' ', '', "  O'Neil  ", 'a--b', "d'Alba", 'A`B', 'UPPER case', 'x  ', '  x', 'Ab Cd', 'AbCd', 'ABC', '9 a', '\tTab', 'GrüVe', 'DIPA', 'NZ', 'ABCDEFG', 'aBc', 'AbC9', 'A', 'AB', 'ÅB', 'AbCDe'];
// every character from U+0080 to U+017F alone, inside a word, capitalised, after an apostrophe
for (let c = 0x80; c <= 0x17f; c++) {
  const ch = String.fromCharCode(c);
  extra.push(ch, `a${ch}b`, `${ch.toUpperCase()}x ${ch}`, `x'${ch}`, `Gr${ch}Ve`, `${ch}${ch}`);
}
for (const s of [...queries, ...names.map((n) => n.value), ...extra]) {
  for (const [label, f] of normChecks) {
    normCompared++;
    const a = JSON.stringify(f(oldNorm, s));
    const b = JSON.stringify(f(norm, s));
    if (a !== b) {
      normDifferences++;
      if (normDifferences <= 20) console.log(`DIFF ${label} ${JSON.stringify(s)}\n  old ${a}\n  new ${b}`);
    }
  }
}

const filters: [string, ((e: number) => boolean) | undefined, number][] = [
  ['all/10', undefined, 10],
  ['all/1', undefined, 1],
  ['grape/10', (e) => options.kindOf(e) === 'grape', 10],
  ['place/10', (e) => options.kindOf(e) === 'place', 10],
];
const show = (r: Resolution) => JSON.stringify(r);
let compared = 0;
let differences = 0;
for (const q of queries) {
  for (const [label, accept, limit] of filters) {
    const a = show(oldR.resolve(q, limit, accept));
    const b = show(newR.resolve(q, limit, accept));
    compared++;
    if (a !== b) {
      differences++;
      if (differences <= 20) console.log(`DIFF ${label} ${JSON.stringify(q)}\n  old ${a}\n  new ${b}`);
    }
  }
}
console.log(
  `resolver equivalence: ${queries.size} distinct queries (${base.length} labelled+demand and variants) × ${filters.length} filters = ${compared} comparisons; ` +
    `${differences} differences; normalisation ${normCompared} comparisons, ${normDifferences} differences; reference ${process.env.OLD_DIR ? dir : OLD_REV}; ${names.length} names; build old ${oldMs.toFixed(0)} ms, new ${newMs.toFixed(0)} ms`,
);
if (!process.env.OLD_DIR) fs.rmSync(dir, { recursive: true, force: true });
process.exitCode = differences === 0 && normDifferences === 0 ? 0 : 1;
