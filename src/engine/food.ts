// The food vocabulary of /v1/pair-food: the Open Food Facts ingredients and categories taxonomies
// (data/food/vocabulary.json, derived by tools/derive/food-vocabulary.mjs), names in en, fr, de, es, it
// and pt, and the hierarchy (salmon → oily fish → fish). Pure: no I/O.
//
// Recognising a food in a query: the whole query, else its longest runs of words (at most MAX_WORDS,
// left to right, never overlapping) that equal a name of the vocabulary, compared without case, accents
// or punctuation; an English plural is tried as its singular and the other way round ("oysters",
// "pizza" → "Pizzas"). A stop word alone ("with", "de") is never a food.
import { damerau, exactForm, fold, STOP_WORDS } from './normalize.ts';
import type { Entity, KnowledgeBase } from './kb/load.ts';
import type { FoodVocabularyRecord, GuidanceItemRecord } from './kb/schema.ts';

export type { FoodNodeRecord, FoodVocabularyRecord } from './kb/schema.ts';

/** A run of query words that names one or more vocabulary entries. */
export interface FoodTerm {
  text: string;
  nodes: number[];
}

const MAX_WORDS = 6;
const SUGGESTION_LIMIT = 5;

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
        }
      }
    });
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
    const whole = this.lookup(folded, names);
    if (whole) return [{ text: q.trim(), nodes: whole }];
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

  constructor(readonly vocabulary: FoodVocabulary, entries: { entity: E; item: I }[]) {
    for (const { entity, item } of entries) {
      let nodes: number[] = [];
      let via: PlacedItem<E, I>['via'] = null;
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
          break;
        }
      }
      const at = this.placed.length;
      this.placed.push({ entity, item, nodes, via });
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
