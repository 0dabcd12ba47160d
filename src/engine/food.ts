// The food vocabulary of /v1/pair-food: the Open Food Facts ingredients and categories taxonomies
// (data/food/vocabulary.json, derived by tools/derive/food-vocabulary.mjs), names in en, fr, de, es, it
// and pt, and the hierarchy (salmon → oily fish → fish). Pure: no I/O.
//
// Recognising a food in a query: the whole query, else its longest runs of words (at most MAX_WORDS,
// left to right, never overlapping) that equal a name of the vocabulary, compared without case, accents
// or punctuation; an English plural is tried as its singular and the other way round ("oysters",
// "pizza" → "Pizzas"). A stop word alone ("with", "de") is never a food.
//
// Dishes as dishes (issue 33, item 4): a query of several words is read as one dish before its words
// (`read`): its whole name, else a name with the same words in any order and number ("mushroom risotto" is
// "Mushrooms risottos", "spaghetti carbonara" is "Spaghetti with carbonara"), else, when its last food is a
// dish (an entry under Meals or Sandwiches, or a cooked food: see isDish), that dish made with the other
// foods ("lamb tagine": a tagine with lamb). Evidence on the dish, or on a narrower entry, applies in full; evidence on the dish's parents
// (up to two steps up, never a root such as Meals or Meats) applies at PARENT_WEIGHT and is marked "parent";
// evidence about another version of the dish (asparagus risotto for a mushroom risotto) or about one of
// its foods alone (a leg of lamb for a lamb tagine) does not apply. A query that names only a drink (an
// entry under Alcoholic beverages: "barolo") is no food (`drinks`). A single word that is no name but a
// word of the names of one dish (and of dishes below it) only names that dish ("carbonara": `headLookup`).
import { damerau, exactForm, fold, STOP_WORDS } from './normalize.ts';
import type { Entity, KnowledgeBase } from './kb/load.ts';
import type { FoodVocabularyRecord, GuidanceItemRecord } from './kb/schema.ts';

export type { FoodNodeRecord, FoodVocabularyRecord } from './kb/schema.ts';

/** A run of query words that names one or more vocabulary entries. */
export interface FoodTerm {
  text: string;
  nodes: number[];
}

/** How a query was read (`FoodVocabulary.read`). */
export interface FoodReading {
  /** whole: the query is one name (or the same words in another order); dish: a dish made with other foods; words: separate foods */
  kind: 'whole' | 'dish' | 'words';
  /** the foods found, as before (food.matched) */
  terms: FoodTerm[];
  /** the entries the evidence is looked for at or below */
  nodes: number[];
  /** for whole and dish: the dish's entries (evidence on their parents applies at PARENT_WEIGHT) */
  dish: number[];
  /** for dish: the other foods it is made with ("lamb" in "lamb tagine") */
  with: FoodTerm[];
  /** the query's words read one by one (for whole, the foods its words name): evidence must not name another food */
  words: FoodTerm[];
  /** drinks the query named ("barolo"): never a food */
  drinks: FoodTerm[];
}

/** One guidance item that applies to a reading: about the dish itself, or about a parent of it. */
export interface FoodMatch<E, I> {
  entity: E;
  item: I;
  level: 'dish' | 'parent';
  /** the vocabulary entry the item is about (for parent: the parent) */
  about: number;
  /** the share of the item's confidence that counts (1, or PARENT_WEIGHT) */
  weight: number;
  /** foodMatchOut's answer, kept on the match (a match about the item's own entry is built once) */
  shape?: Record<string, unknown>;
  out?: Record<string, unknown>;
}

/** Content words of a folded name, singular, in order: the key of names that differ only in order and number. */
function bagKey(folded: string): string {
  if (!folded.includes(' ') && !folded.includes('-')) return '';
  const words: string[] = [];
  for (const raw of folded.replace(/-/g, ' ').split(' ')) {
    if (!raw || STOP_WORDS.has(raw) || BAG_FILLER.has(raw)) continue;
    let w = raw;
    if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
    else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
    words.push(w);
  }
  return words.length >= 2 && words.length <= 5 ? words.sort().join(' ') : '';
}

const MAX_WORDS = 6;
const SUGGESTION_LIMIT = 5;
/** Evidence on a dish's parent counts this much of its confidence (issue 33, item 4). */
export const PARENT_WEIGHT = 0.5;
/** How far above a dish its parents' evidence is looked for. */
const PARENT_STEPS = 2;
/** The entries whose descendants are dishes, and the one whose descendants are drinks (vocabulary ids). */
const DISH_ROOTS = ['cat:en:meals', 'cat:en:sandwiches'];
const DRINK_ROOT = 'cat:en:alcoholic beverages';
/** The id prefix of the categories taxonomy's cooked foods ("Cooked chicken", "Cooked salmons"). */
const COOKED = 'cat:en:cooked ';
/** Words a dish name may add that say nothing of the food ("Spaghetti with carbonara", "Carbonara-style pasta"). */
const BAG_FILLER = new Set(['with', 'style', 'avec', 'mit', 'con', 'com', 'alla', 'al', 'a']);
/** Words that join two foods in a query: "fish and chips" may be a dish, "cheese and oysters" is two foods. */
const JOINERS = /\s(?:and|or|&|et|und|y|e|o|ou|oder)\s|[,;+/]/i;

const key = (s: string) => fold(exactForm(s));

/** English singular/plural variants of a folded phrase's last word (the vocabulary mixes both). */
function numberVariants(folded: string): string[] {
  const i = folded.lastIndexOf(' ');
  const head = i < 0 ? '' : folded.slice(0, i + 1);
  const w = folded.slice(i + 1);
  if (w.length < 3) return [];
  const out: string[] = [];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  else out.push(`${w}s`, `${w}es`);
  return out.map((v) => head + v);
}

/**
 * The letters of a word as a set of 32 bits: a–z one bit each, any other character one of six more bits
 * by its code. Two words whose sets differ in k bits on one side differ in at least k letters there.
 */
const LETTER_CLASSES = 32;
const letterClass = (c: number) => (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
function letterSet(w: string): number {
  let set = 0;
  for (let i = 0; i < w.length; i++) set |= 1 << letterClass(w.charCodeAt(i));
  return set;
}

/** How many letters of each class (as letterSet) a word has, written into `out` at `at` (at most 255 a class). */
function letterCounts(w: string, out: Uint8Array, at: number): Uint8Array {
  for (let i = 0; i < w.length; i++) {
    const c = at + letterClass(w.charCodeAt(i));
    if (out[c]! < 255) out[c]!++;
  }
  return out;
}

/** Bits set in a 32-bit number. */
function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

export class FoodVocabulary {
  readonly ids: string[];
  private readonly labels: string[];
  private readonly parents: number[][];
  private readonly byName = new Map<string, number[]>();
  /** the English names only: guidance items name their food in English (food_item, dish) */
  private readonly byEnglishName = new Map<string, number[]>();
  /** first letter and length → folded one-word names, for suggestions */
  private readonly byInitial = new Map<string, string[]>();
  /** the same buckets' letter sets (letterSet) and letter counts (32 classes a name, letterCounts), name by name */
  private readonly letterSets = new Map<string, Int32Array>();
  private readonly letterCounts = new Map<string, Uint8Array>();
  /** Edit distances computed by suggest so far: tests and benchmarks read the difference around a call (issue 31, item 7). */
  distancesComputed = 0;
  private readonly ancestorMemo = new Map<number, Set<number>>();
  /** bagKey → entries (names of 2 to 5 content words) */
  private readonly byBag = new Map<string, number[]>();
  private readonly dishRoots: number[];
  private readonly dishMemo = new Map<number, boolean>();
  private readonly parentMemo = new Map<string, Map<number, number>>();
  private readonly drinkRoot: number | undefined;
  /** word → the dishes one of whose names has it as a word (headLookup; built on first use) */
  private dishWords: Map<string, number[]> | undefined;

  constructor(readonly record: FoodVocabularyRecord) {
    const nodes = record.nodes;
    this.ids = nodes.map((n) => n.id);
    const index = new Map(this.ids.map((id, i) => [id, i]));
    this.labels = nodes.map((n) => n.names.en?.[0] ?? Object.values(n.names)[0]?.[0] ?? n.id.replace(/^[a-z]+:[a-z]{2}:/, ''));
    this.parents = nodes.map((n) => n.parents.map((p) => index.get(p)).filter((i): i is number => i !== undefined));
    nodes.forEach((n, i) => {
      for (const name of n.names.en ?? []) {
        const k = key(name);
        if (!k || STOP_WORDS.has(k)) continue;
        const at = this.byEnglishName.get(k);
        if (!at) this.byEnglishName.set(k, [i]);
        else if (!at.includes(i)) at.push(i);
      }
      for (const list of Object.values(n.names)) {
        for (const name of list) {
          const k = key(name);
          if (!k || STOP_WORDS.has(k)) continue;
          const at = this.byName.get(k);
          if (!at) {
            this.byName.set(k, [i]);
            if (!k.includes(' ')) {
              const bucket = `${k[0]}${k.length}`;
              const b = this.byInitial.get(bucket);
              if (b) b.push(k);
              else this.byInitial.set(bucket, [k]);
            }
          } else if (!at.includes(i)) at.push(i);
          const bag = bagKey(k);
          if (bag) {
            const b = this.byBag.get(bag);
            if (!b) this.byBag.set(bag, [i]);
            else if (!b.includes(i)) b.push(i);
          }
        }
      }
    });
    this.dishRoots = DISH_ROOTS.map((id) => index.get(id)).filter((i): i is number => i !== undefined);
    this.drinkRoot = index.get(DRINK_ROOT);
    for (const [bucket, list] of this.byInitial) {
      this.letterSets.set(bucket, Int32Array.from(list, letterSet));
      const counts = new Uint8Array(LETTER_CLASSES * list.length);
      list.forEach((name, k) => letterCounts(name, counts, k * LETTER_CLASSES));
      this.letterCounts.set(bucket, counts);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  label(i: number): string {
    return this.labels[i]!;
  }

  /** Entries whose name equals the folded phrase (or its English singular or plural). */
  private lookup(folded: string, names = this.byName): number[] | undefined {
    let out = names.get(folded);
    for (const v of numberVariants(folded)) {
      const h = names.get(v);
      if (h) out = out ? [...new Set([...out, ...h])] : h;
    }
    // a name that several entries share, one above another, is the narrowest of them (German
    // "Pizzas, Kuchen und Quiches" makes "Pizzas" a name of the broader entry too)
    if (out && out.length > 1) {
      const all = out;
      const narrow = all.filter((n) => !all.some((m) => m !== n && this.ancestorsOrSelf(m).has(n)));
      if (narrow.length) out = narrow;
    }
    return out;
  }

  /** The foods a query names: the whole query, else its longest runs of words, left to right. */
  recognise(q: string, englishOnly = false): FoodTerm[] {
    const names = englishOnly ? this.byEnglishName : this.byName;
    const folded = key(q);
    if (!folded) return [];
    const whole = this.lookup(folded, names) ?? this.bagLookup(folded) ?? this.headLookup(folded);
    if (whole) return [{ text: q.trim(), nodes: whole }];
    return this.scan(folded, names);
  }

  /**
   * A single word that is no name but a word of the names of one dish and of dishes below it only: that
   * dish ("carbonara": Carbonara-style pasta, whose narrower entries are the spaghetti and tagliatelle with
   * carbonara; "Carbonara sauces" is no dish). A word of several unrelated dishes names none of them.
   */
  private headLookup(folded: string): number[] | undefined {
    if (folded.length < 4 || folded.includes(' ') || STOP_WORDS.has(folded) || BAG_FILLER.has(folded)) return undefined;
    if (!this.dishWords) {
      const index = new Map<string, number[]>();
      for (let i = 0; i < this.ids.length; i++) {
        if (!this.ids[i]!.startsWith('cat:') || !this.isDish(i)) continue;
        for (const list of Object.values(this.record.nodes[i]!.names)) {
          for (const name of list) {
            for (const w of key(name).split(/[\s-]+/)) {
              if (w.length < 4) continue;
              const at = index.get(w);
              if (!at) index.set(w, [i]);
              else if (!at.includes(i)) at.push(i);
            }
          }
        }
      }
      this.dishWords = index;
    }
    const hit = this.dishWords.get(folded) ?? numberVariants(folded).map((v) => this.dishWords!.get(v)).find(Boolean);
    if (!hit) return undefined;
    let tops = hit.filter((n) => !hit.some((m) => m !== n && this.ancestorsOrSelf(n).has(m)));
    // a dish named by another's name and more words is that dish named more narrowly ("Carbonara-style
    // pasta (spaghetti tagliatelle…)", the 2020 name of "Carbonara-style pasta")
    if (tops.length > 1) {
      const words = (n: number) => new Set(key(this.labels[n]!).replace(/-/g, ' ').split(' ').filter((w) => w && !STOP_WORDS.has(w) && !BAG_FILLER.has(w)));
      const sets = new Map(tops.map((n) => [n, words(n)]));
      const within = (a: Set<string>, b: Set<string>) => a.size < b.size && [...a].every((w) => b.has(w));
      tops = tops.filter((n) => !tops.some((m) => m !== n && within(sets.get(m)!, sets.get(n)!)));
    }
    return tops.length === 1 ? tops : undefined;
  }

  /** Entries named by the same content words in another order or number ("mushroom risotto" → "Mushrooms risottos"). */
  private bagLookup(folded: string): number[] | undefined {
    const bag = bagKey(folded);
    const hit = bag ? this.byBag.get(bag) : undefined;
    if (!hit || hit.length < 2) return hit;
    const narrow = hit.filter((n) => !hit.some((m) => m !== n && this.ancestorsOrSelf(m).has(n)));
    return narrow.length ? narrow : hit;
  }

  /** The foods the words of a whole name name one by one ("mushroom", "risotto" in "mushroom risotto"). */
  private scanWords(folded: string): FoodTerm[] {
    const out: FoodTerm[] = [];
    for (const w of folded.split(' ')) {
      if (w.length < 3 || STOP_WORDS.has(w)) continue;
      const hit = this.lookup(w);
      if (hit) out.push({ text: w, nodes: hit });
    }
    return out;
  }

  /** The longest runs of words that name a food, left to right. */
  private scan(folded: string, names: Map<string, number[]>): FoodTerm[] {
    const words = folded.split(' ');
    const out: FoodTerm[] = [];
    for (let i = 0; i < words.length; ) {
      let found = false;
      for (let len = Math.min(MAX_WORDS, words.length - i); len >= 1; len--) {
        const phrase = words.slice(i, i + len).join(' ');
        if (len === 1 && (STOP_WORDS.has(phrase) || phrase.length < 3)) continue;
        const hit = this.lookup(phrase, names);
        if (hit) {
          out.push({ text: phrase, nodes: hit });
          i += len;
          found = true;
          break;
        }
      }
      if (!found) i++;
    }
    return out;
  }

  /**
   * A prepared dish: an entry under Meals or Sandwiches (not those roots), or under one of the taxonomy's
   * "Cooked …" categories (roast chicken is under Cooked chicken, grilled salmon under Cooked salmons).
   * A product of its own such as smoked salmon (under Salmons and Smoked fishes) is no dish: salmon items
   * are not about it.
   */
  isDish(i: number): boolean {
    if (this.dishRoots.includes(i)) return false;
    let memo = this.dishMemo.get(i);
    if (memo === undefined) {
      const up = this.ancestorsOrSelf(i);
      memo = this.dishRoots.some((r) => up.has(r)) || [...up].some((a) => this.ids[a]!.startsWith(COOKED));
      this.dishMemo.set(i, memo);
    }
    return memo;
  }

  /** A drink: an entry at or under Alcoholic beverages ("Barolo", "Wines from Italy"). */
  isDrink(i: number): boolean {
    return this.drinkRoot !== undefined && this.ancestorsOrSelf(i).has(this.drinkRoot);
  }

  /** The parents of a dish whose evidence applies to it: up to PARENT_STEPS above, never a root (Meals, Meats). */
  dishParents(nodes: number[]): Map<number, number> {
    const memoKey = nodes.join(' ');
    const known = this.parentMemo.get(memoKey);
    if (known) return known;
    const out = new Map<number, number>();
    if (this.parentMemo.size < 10_000) this.parentMemo.set(memoKey, out);
    const below = new Set<number>();
    for (const n of nodes) for (const a of this.ancestorsOrSelf(n)) if (nodes.includes(a)) below.add(a);
    let level = nodes;
    for (let step = 0; step < PARENT_STEPS; step++) {
      const next: number[] = [];
      for (const n of level) {
        for (const p of this.parents[n]!) {
          if (below.has(p) || out.has(p) || this.parents[p]!.length === 0 || this.dishRoots.includes(p)) continue;
          out.set(p, n);
          next.push(p);
        }
      }
      level = next;
    }
    return out;
  }

  /**
   * How a query is read: one dish before its words (the header). Drinks are set apart; a query that names
   * only drinks has no terms.
   */
  read(q: string): FoodReading {
    const folded = key(q);
    const empty: FoodReading = { kind: 'words', terms: [], nodes: [], dish: [], with: [], words: [], drinks: [] };
    if (!folded) return empty;
    const whole = this.lookup(folded) ?? this.bagLookup(folded) ?? this.headLookup(folded);
    if (whole) {
      if (whole.every((n) => this.isDrink(n))) return { ...empty, drinks: [{ text: q.trim(), nodes: whole }] };
      const term = { text: q.trim(), nodes: whole };
      // a dish: its parents' evidence applies (the foods its words name bound that evidence)
      const dish = whole.filter((n) => this.isDish(n));
      const words = dish.length && folded.includes(' ') ? this.scanWords(folded) : [term];
      return { kind: 'whole', terms: [term], nodes: whole, dish, with: [], words, drinks: [] };
    }
    const scanned = this.scan(folded, this.byName);
    const drinks = scanned.filter((t) => t.nodes.every((n) => this.isDrink(n)));
    const words = scanned.filter((t) => !drinks.includes(t));
    const last = words[words.length - 1];
    const head = last ? last.nodes.filter((n) => this.isDish(n)) : [];
    if (words.length >= 2 && head.length && !JOINERS.test(` ${folded} `)) {
      const others = words.slice(0, -1);
      return { kind: 'dish', terms: words, nodes: head, dish: head, with: others, words, drinks };
    }
    const nodes = [...new Set(words.flatMap((t) => t.nodes))];
    return { kind: 'words', terms: words, nodes, dish: [], with: [], words, drinks };
  }

  /** The entry and every entry above it in the hierarchy. */
  ancestorsOrSelf(i: number): Set<number> {
    const known = this.ancestorMemo.get(i);
    if (known) return known;
    const seen = new Set<number>([i]);
    const stack = [i];
    while (stack.length) {
      for (const p of this.parents[stack.pop()!]!) {
        if (!seen.has(p)) {
          seen.add(p);
          stack.push(p);
        }
      }
    }
    this.ancestorMemo.set(i, seen);
    return seen;
  }

  /** The most general entry above i (the root of its branch; the first when there are several). */
  root(i: number): number {
    let at = i;
    const seen = new Set<number>();
    while (this.parents[at]!.length && !seen.has(at)) {
      seen.add(at);
      at = this.parents[at]![0]!;
    }
    return at;
  }

  /**
   * Food names near the words of a query that named none (one or two edits, a swap of two letters
   * counting one; same first letter). Each distinct word is read once (a word met again adds nothing new:
   * its names are in already), and a name whose letters differ from the word's by more than two is
   * passed over without computing the distance (issue 31, item 7: "chocolatx" × 20 took 80 times a
   * normal query).
   */
  suggest(q: string): string[] {
    const out = new Set<string>();
    for (const w of new Set(key(q).split(' '))) {
      if (w.length < 4 || STOP_WORDS.has(w)) continue;
      const scored: [number, string][] = [];
      const letters = letterSet(w);
      const counts = letterCounts(w, new Uint8Array(LETTER_CLASSES), 0);
      for (let len = w.length - 2; len <= w.length + 2; len++) {
        const bucket = `${w[0]}${len}`;
        const names = this.byInitial.get(bucket);
        if (!names) continue;
        const sets = this.letterSets.get(bucket)!;
        const nameCounts = this.letterCounts.get(bucket)!;
        for (let k = 0; k < names.length; k++) {
          // lower bounds of the distance, cheapest first: each edit writes or removes one letter (a swap
          // none), so every letter of one that the other lacks costs an edit, and one edit changes the
          // letter counts by at most two in all; past two edits the name is passed over
          const set = sets[k]!;
          if (bitCount(letters & ~set) > 2 || bitCount(set & ~letters) > 2) continue;
          let apart = 0;
          const at = k * LETTER_CLASSES;
          // (over the classes either has, lowest bit first)
          for (let u = letters | set; u !== 0 && apart <= 4; u &= u - 1) {
            const c = 31 - Math.clz32(u & -u);
            apart += Math.abs(counts[c]! - nameCounts[at + c]!);
          }
          if (apart > 4) continue;
          this.distancesComputed++;
          const name = names[k]!;
          const d = damerau(w, name, 2);
          if (d <= 2) scored.push([d, name]);
        }
      }
      scored.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
      for (const [, name] of scored) {
        out.add(this.label(this.byName.get(name)![0]!));
        if (out.size >= SUGGESTION_LIMIT) return [...out];
      }
    }
    return [...out];
  }
}

/** A guidance item placed in the vocabulary: the entries its food_item, else its dish, else its food_category names. */
export interface PlacedItem<E, I> {
  entity: E;
  item: I;
  nodes: number[];
  /** which field placed it: the food, the dish, or only the broad category (a last resort) */
  via: 'food_item' | 'dish' | 'food_category' | null;
  /** every food the placing field names (the placed one among them): "asparagus risotto" names asparagus too */
  foods: number[][];
  /** every food the food_item and dish name, "with" parts included ("risotto with boletus mushrooms" names mushrooms) */
  mentions: number[][];
  /** the placing field's words that name no food ("fried" in "fried chicken"): a preparation of its own */
  rest: string[];
  /** the item as a match about its own entry, in full (built once: most answers are made of these) */
  match: FoodMatch<E, I>;
}

/**
 * The verified guidance items placed in the vocabulary, and an index from every entry to the items at
 * or below it: a query for an entry finds the items placed on it or on a narrower one ("fish" finds
 * salmon items, "salmon" finds smoked-salmon items, "smoked salmon" never finds an item placed only on
 * salmon or fish).
 */
export class FoodEvidence<E, I extends { food_item: string; dish: string | null; food_category: string }> {
  readonly placed: PlacedItem<E, I>[] = [];
  private readonly below = new Map<number, number[]>();
  /** entry → the items placed on it (not below) */
  private readonly on = new Map<number, number[]>();

  constructor(readonly vocabulary: FoodVocabulary, entries: { entity: E; item: I }[]) {
    for (const { entity, item } of entries) {
      let nodes: number[] = [];
      let via: PlacedItem<E, I>['via'] = null;
      let foods: number[][] = [];
      let rest: string[] = [];
      for (const field of ['food_item', 'dish', 'food_category'] as const) {
        const v = item[field];
        if (!v) continue;
        // the food before "with" is the food ("asparagus with butter" is asparagus); the English names
        // first (food_item and dish are written in English), then every language ("gougères")
        const text = v.replace(/_/g, ' ').split(/\s+with\s+/i)[0]!;
        let terms = vocabulary.recognise(text, true);
        if (!terms.length) terms = vocabulary.recognise(text);
        if (terms.length) {
          // the whole name, else its longest food (the last of equal length: English puts the head noun
          // last, "grilled lamb" is lamb); never every food a long name mentions
          let head = terms[0]!;
          for (const t of terms) if (t.text.split(' ').length >= head.text.split(' ').length) head = t;
          nodes = head.nodes;
          via = field;
          foods = terms.map((t) => t.nodes);
          const covered = new Set(terms.flatMap((t) => key(t.text).split(' ')));
          rest = key(text).replace(/-/g, ' ').split(' ').filter((w) => w && !covered.has(w) && !STOP_WORDS.has(w) && !BAG_FILLER.has(w));
          break;
        }
      }
      const at = this.placed.length;
      // what the item names in all: its placing foods, and the foods of a "with" part or of the other field
      let mentions = foods;
      const more = [item.food_item, item.dish].filter((v): v is string => !!v && (v !== item[via ?? 'food_item'] || /\swith\s/i.test(v)));
      if (more.length) {
        mentions = [...foods];
        for (const v of more) for (const t of vocabulary.recognise(v.replace(/_/g, ' '), true)) mentions.push(t.nodes);
      }
      this.placed.push({ entity, item, nodes, via, foods, mentions, rest, match: { entity, item, level: 'dish', about: nodes[0] ?? -1, weight: 1 } });
      for (const n of nodes) {
        const list = this.on.get(n);
        if (list) list.push(at);
        else this.on.set(n, [at]);
      }
      const reach = new Set<number>();
      for (const n of nodes) for (const a of vocabulary.ancestorsOrSelf(n)) reach.add(a);
      for (const a of reach) {
        const list = this.below.get(a);
        if (list) list.push(at);
        else this.below.set(a, [at]);
      }
    }
  }

  /** The placed items at or below any of these entries, in placement order. */
  itemsFor(nodes: number[]): PlacedItem<E, I>[] {
    const at = new Set<number>();
    for (const n of nodes) for (const i of this.below.get(n) ?? []) at.add(i);
    return [...at].sort((a, b) => a - b).map((i) => this.placed[i]!);
  }

  /**
   * The items that apply to a reading, each marked with its level (the header of this file): for separate
   * words, every item at or below one of them; for a dish, the items at or below it that name no other
   * food (a "dish" reading also needs its other foods: a lamb tagine item names lamb or a narrower food;
   * one that names none is about the tagine, a parent), then the items placed on its parents that name no
   * food the query does not.
   */
  matches(reading: FoodReading): FoodMatch<E, I>[] {
    if (!reading.dish.length) return this.itemsFor(reading.nodes).map((p) => p.match);
    const v = this.vocabulary;
    const near = (a: number, b: number) => v.ancestorsOrSelf(a).has(b) || v.ancestorsOrSelf(b).has(a);
    // the foods the query names, its dish and the dish's parents: an item naming another food is about another dish
    const parents = v.dishParents(reading.dish);
    const allowed = [...reading.words.flatMap((t) => t.nodes), ...reading.dish, ...parents.keys()];
    const fits = (p: PlacedItem<E, I>) => p.foods.every((f) => f.some((n) => allowed.some((a) => near(n, a))));
    // each of these foods is named by the item, at or below it (its "with" part too)
    const names = (p: PlacedItem<E, I>, t: FoodTerm) => p.mentions.some((f) => f.some((n) => t.nodes.some((m) => v.ancestorsOrSelf(n).has(m))));
    // a parent's item whose words say another preparation ("fried chicken" for a roast chicken) is not about it
    const queryWords = new Set(key(reading.terms.map((t) => t.text).join(' ')).replace(/-/g, ' ').split(' '));
    const plain = (p: PlacedItem<E, I>) => p.rest.every((w) => queryWords.has(w));
    // for a whole name, an item on a parent that names every food of the query is about the dish ("risotto
    // with boletus mushrooms" for "mushroom risotto")
    const whole = reading.kind === 'whole' && reading.words.length >= 2 ? reading.words : null;
    const out: FoodMatch<E, I>[] = [];
    const seen = new Set<PlacedItem<E, I>>();
    for (const p of this.itemsFor(reading.dish)) {
      if (!fits(p)) continue;
      seen.add(p);
      const full = reading.with.every((t) => names(p, t));
      if (!full && !plain(p)) continue;
      out.push(full ? p.match : { entity: p.entity, item: p.item, level: 'parent', about: reading.dish[0]!, weight: PARENT_WEIGHT });
    }
    for (const parent of parents.keys()) {
      for (const i of this.on.get(parent) ?? []) {
        const p = this.placed[i]!;
        if (seen.has(p) || !fits(p)) continue;
        if (whole && whole.every((t) => names(p, t))) {
          seen.add(p);
          out.push({ entity: p.entity, item: p.item, level: 'dish', about: reading.dish[0]!, weight: 1 });
          continue;
        }
        if (!plain(p)) continue;
        seen.add(p);
        out.push({ entity: p.entity, item: p.item, level: 'parent', about: parent, weight: PARENT_WEIGHT });
      }
    }
    return out;
  }

  /** Items no field of which names an entry of the vocabulary. */
  unplaced(): PlacedItem<E, I>[] {
    return this.placed.filter((p) => p.nodes.length === 0);
  }
}

/** Every verified guidance item of the knowledge base placed in its food vocabulary (pair-food and kb validate). */
export function foodEvidenceOf(kb: KnowledgeBase): FoodEvidence<Entity, GuidanceItemRecord> {
  const entries = kb.entities.flatMap((entity) => (entity.pairing?.items ?? []).map((item) => ({ entity, item })));
  return new FoodEvidence(new FoodVocabulary(kb.foodVocabulary()), entries);
}

/** pair-food's `food` fields on how the query was read (issue 33, item 4; documented in src/routes/v1/pair-food.ts). */
export function foodReadingOut(v: FoodVocabulary, r: FoodReading) {
  const ref = (n: number) => ({ id: v.ids[n]!, name: v.label(n) });
  return {
    reading: r.kind,
    dish: r.dish.length ? { entries: r.dish.map(ref), with: r.with.map((t) => t.text), parents: [...v.dishParents(r.dish).keys()].map(ref), parent_weight: PARENT_WEIGHT } : null,
    ignored_drinks: r.drinks.map((t) => t.text),
  };
}

/** The guidance items of pair-food with their match fields, built once per item, level and entry (shared, never mutated). */
const matchShapes = new WeakMap<object, Map<number, Record<string, unknown>>>();

/**
 * A guidance item (`shape`: its /v1/pair form, shared) with the fields on why it applies: to the dish
 * itself, or to a parent at a lower weight.
 */
export function foodMatchOut<E, I extends { confidence: number }>(v: FoodVocabulary, m: FoodMatch<E, I>, shape: Record<string, unknown>): Record<string, unknown> {
  if (m.out && m.shape === shape) return m.out;
  let byMatch = matchShapes.get(shape);
  if (!byMatch) matchShapes.set(shape, (byMatch = new Map()));
  const k = m.level === 'dish' ? m.about : -1 - m.about;
  let out = byMatch.get(k);
  if (!out) {
    out = {
      ...shape,
      evidence_level: m.level,
      evidence_about: { id: v.ids[m.about]!, name: v.label(m.about) },
      applied_confidence: Math.round(m.item.confidence * m.weight * 100) / 100,
    };
    byMatch.set(k, out);
  }
  m.shape = shape;
  m.out = out;
  return out;
}

/** The 404 of pair-food for a query that names a drink, not a food ("barolo"): it points to /v1/pair. */
export function drinkTypedAsFood(q: string, drinks: FoodTerm[]) {
  const text = drinks.map((t) => t.text).join(', ');
  return {
    code: 'FOOD_NOT_RESOLVED' as const,
    message: `"${text}" is a drink, not a food. For the foods to serve with it, ask /v1/pair?q=${encodeURIComponent(q.trim())}.`,
    parameter: 'q',
    suggestions: [] as string[],
    drink: text,
    see: `/v1/pair?q=${encodeURIComponent(q.trim())}`,
  };
}
