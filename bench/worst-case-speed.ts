// The measuring half of `npm run bench:worst-case`, run as an esbuild bundle by bench/worst-case.ts
// (see there) with --expose-gc and a 64 MB young generation, so that what one call allocates is read
// from the heap with no scavenge in between.
// CPU time per call (process.cpuUsage over many calls) and bytes allocated per call (heap growth over
// one call after a minor collection, the median of 15) of /v1/parse and /v1/pair-food's engine work,
// for normal inputs and for inputs made to be slow, in the same run; the ratio worst/normal is the
// figure (issue 31, item 7: worst cases within 10× a normal line).
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, ROOT, table } from './lib/evaluate.ts';

const engine = loadEngine();
engine.warmFood();
const gc = (globalThis as { gc?: (o?: { type: 'minor' | 'major' }) => void }).gc;

// normal: the lines of 50–70 characters of the labelled parse set (as bench:parse times them), and
// the foods of bench:pair-food (common foods, other languages, a question, a misspelling)
const set = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'resolve', 'parse-lines.json'), 'utf8')) as { lines: { line: string }[] };
const normalLines = set.lines.map((l) => l.line).filter((t) => t.length >= 50 && t.length <= 70);
const normalFoods = ['salmon', 'oysters', 'lamb', 'steak', 'pork', 'duck', 'goat cheese', 'chocolate', 'curry', 'sushi', 'pizza', 'mushrooms', 'barbecue', 'shellfish', 'blue cheese', 'saumon', 'Lachs', 'fromage de chèvre', 'what goes with lamb?', 'fish', 'cheese', 'salomn'];

/** `n` items of `pick(i)` joined by the separators in turn, as long as the whole stays within `max` code points. */
function run(pick: (i: number) => string, seps: string[], max: number): string {
  let out = '';
  for (let i = 0; ; i++) {
    const next = (i ? seps[i % seps.length]! : '') + pick(i);
    if ([...out].length + [...next].length > max) return out;
    out += next;
  }
}
const ONES = ['1', '𝟏', '１', '𝟙', '①', '¹', '₁'];
/** white space of six kinds (a word of the line ends at any; inner hyphens, dots and apostrophes join) */
const SEPS = [' ', '\t', '\u00a0', '\u2002', '\u2009', '\u3000'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const BENGALI = [...'কখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশষসহ'];
/** words of three to five letters that begin the knowledge base's names, in key order */
const NAME_WORDS = [...new Set([...engine.kb.entities].sort((a, b) => (a.key < b.key ? -1 : 1)).map((e) => e.name.split(' ')[0]!.toLowerCase()).filter((w) => /^[a-z]{3,5}$/.test(w)))];
/** Seven letters drawn from the commonest of food names, the i-th of a fixed pseudo-random sequence. */
function common(i: number): string {
  let x = (i + 1) * 2654435761;
  let w = '';
  for (let k = 0; k < 7; k++) {
    x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) >>> 0;
    w += 'aeinorstlu'[x % 10];
  }
  return w;
}
// the engine's own limits: a parse text of at most 300 code points, a pair-food term of at most 200
const worstLines: [string, string][] = [
  ['"1 " × 150', '1 '.repeat(150)],
  ['"𝟏 " × 150 (mathematical digit)', '𝟏 '.repeat(150)],
  ['seven forms of 1, six kinds of space', run((i) => ONES[i % ONES.length]!, SEPS, 300)],
  ['"Bio" (Bío-Bío) × 75, six kinds of space', run(() => 'Bio', SEPS, 300)],
  ['"ন" (a word of itself twice) × 150, six kinds of space', run(() => 'ন', SEPS, 300)],
  // names in scripts whose vowel signs break words fold into runs of one-letter words, so nearly any two
  // such letters are neighbours in some name: a walk from letter to neighbouring letter through the
  // names' own pairs (found by a random walk over the knowledge base's Sinhala names), and Bengali
  // letters with a stop word between each two (every pair with a stop word passes)
  ['a walk through names\' neighbouring letters (Sinhala)', 'ට ය ව ක ව ස ල න ය ල ජ ර ස ප ත ය ව ල ජ ප ඤ ය ල ට න ග ර ම න ග ර ජ ප ර ම ක ය ක ර න ක ක ය ව න ඩ න ඩ ඩ ම ය න ග ව ක ව ක ර න ඩ න ට ව ක ව ක ක ව ක ස ය ව ව ක ර ල ක ව ස ර ස ර ම ස ත ග ව ක ට ව ල ඩ න ස ව ස ය ක ස ත '],
  ['Bengali letters with "del" between', run((i) => BENGALI[(i * 7) % BENGALI.length]!, [' del '], 300)],
  ['distinct name words with "de" between', run((i) => NAME_WORDS[i % NAME_WORDS.length]!, [' de '], 300)],
  ['"Rioja " × 50', 'Rioja '.repeat(50)],
  ['"Pinot Noir " × 27', 'Pinot Noir '.repeat(27)],
];
const worstFoods: [string, string][] = [
  ['"chocolatx" × 20', Array(20).fill('chocolatx').join(' ')],
  ['22 distinct unknown words, "s" + 7 letters', run((i) => 's' + LETTERS[i % 26]!.repeat(7), [' '], 200)],
  ['distinct unknown words of common letters', run((i) => 'c' + common(i), [' '], 200)],
  ['"salmon" × 28', run(() => 'salmon', [' '], 200)],
];

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const WARMUP = Number(process.env.WARMUP ?? 100);

/** Mean CPU µs per call over `rounds` passes through `inputs`. */
function cpuPerCall(f: (s: string) => unknown, inputs: string[], rounds: number): number {
  const c0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const s of inputs) f(s);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (rounds * inputs.length);
}

/** Mean over `inputs` of the median bytes one call allocates (null without --expose-gc). */
function bytesPerCall(f: (s: string) => unknown, inputs: string[]): number | null {
  if (!gc) return null;
  let sum = 0;
  for (const s of inputs) {
    const xs: number[] = [];
    for (let k = 0; k < 15; k++) {
      gc({ type: 'minor' });
      const h0 = process.memoryUsage().heapUsed;
      f(s);
      xs.push(process.memoryUsage().heapUsed - h0);
    }
    sum += xs.sort((a, b) => a - b)[7]!;
  }
  return sum / inputs.length;
}

function compare(name: string, f: (s: string) => unknown, normal: string[], worst: [string, string][]) {
  for (let r = 0; r < WARMUP; r++) for (const s of normal) f(s);
  for (let r = 0; r < 20; r++) for (const [, s] of worst) f(s);
  const baseBytes = bytesPerCall(f, normal);
  const kb = (b: number | null) => (b === null ? '-' : (b / 1024).toFixed(1));
  const rows: (string | number)[][] = [];
  const bases: number[] = [];
  let max = { ratio: 0, label: '' };
  let maxBytes = { ratio: 0, label: '' };
  for (const [label, s] of worst) {
    // the normal inputs are timed again right before each worst one, and the ratio taken to that
    // figure: a shared machine's load, which drifts over seconds, moves both alike
    const base = cpuPerCall(f, normal, ROUNDS);
    bases.push(base);
    // calls for about 0.2 s of CPU, at least 20
    const calls = Math.min(10_000, Math.max(20, Math.round(200_000 / cpuPerCall(f, [s], 5))));
    const cpu = cpuPerCall(f, [s], calls);
    const bytes = bytesPerCall(f, [s]);
    const ratio = cpu / base;
    const bytesRatio = bytes !== null && baseBytes ? bytes / baseBytes : 0;
    if (ratio > max.ratio) max = { ratio, label };
    if (bytesRatio > maxBytes.ratio) maxBytes = { ratio: bytesRatio, label };
    rows.push([label, [...s].length, cpu.toFixed(1), ratio.toFixed(1), kb(bytes), bytes === null ? '-' : bytesRatio.toFixed(1)]);
  }
  const median = [...bases].sort((a, b) => a - b)[Math.floor(bases.length / 2)]!;
  rows.unshift([`normal (${normal.length} inputs, mean; median of ${bases.length} timings)`, '', median.toFixed(1), '1.0', kb(baseBytes), '1.0']);
  console.log(`\n${name}`);
  console.log(table(['input', 'code points', 'CPU µs/call', '× normal', 'KB allocated/call', '× normal'], rows));
  console.log(`${name}: worst-case/normal CPU ${max.ratio.toFixed(1)}× (${max.label}); bytes allocated ${maxBytes.ratio.toFixed(1)}× (${maxBytes.label}); target CPU <= 10×: ${max.ratio <= 10 ? 'met' : 'MISSED'}`);
}

console.log(`worst-case inputs against normal ones, as shipped (esbuild bundle; ${ROUNDS} rounds after ${WARMUP} warm-up; engine only, before the memo)`);
compare('parse', (s) => engine.parse({ text: s }), normalLines, worstLines);
compare('pair-food', (s) => engine.pairFood({ q: s }), normalFoods, worstFoods);
