// Scope words of a query (issue 33, item 1): a colour, sweetness or style word typed beside a name
// ("Sancerre rouge", "Champagne brut", "Mosel Riesling Spätlese", "tawny port") narrows what pair,
// explain, parse and pair-food return to evidence about that scope. The words and the classes they name
// come from data/label-terms.json (`colours` and `scope_words`, each with its source); nothing here
// names a scope of its own.
//
// Three dimensions, each a set of classes:
// - colour: red, white, rosé, amber;
// - sweetness: the rows of Annex III of Delegated Regulation (EU) 2019/33 (brut nature … doux; "dry",
//   "trocken", "secco", "seco" are the row "sec"), and the medium-sweet class ("moelleux", "lieblich");
// - style: the German Prädikate, the sherry types, the Port categories.
//
// How an item of evidence is placed against the scope asked for, from the scope text the curator
// recorded with it (a pairing item's `style_scope` and `sweetness_scope`, a grape rule's `scope`):
// - `in_scope`: for a dimension asked, the text names a class asked for ("Auslese" for Auslese);
// - `out_of_scope`: for a dimension asked, it names only other classes ("Auslese" when Spätlese is
//   asked, "white (Sauvignon Blanc)" when red is): left out, and counted;
// - `general`: the item has no scope: it is about the entity as a whole, so it stays;
// - `unstated`: its scope names nothing of the dimensions asked ("Blanc de Blancs" when brut is asked):
//   it stays, marked.
// Nothing falls back silently: the answer says which scope it applied and how many items it left out.

export type ScopeMatch = 'in_scope' | 'out_of_scope' | 'general' | 'unstated';
export type ScopeDimension = 'colour' | 'sweetness' | 'style';

export interface ColourWord {
  value: string;
  source: string;
}

export interface ScopeWord {
  dimension: ScopeDimension;
  /** The class the word names ("red", "brut", "Spätlese", "Tawny"). */
  value: string;
  source: string;
  /** The entity keys the word is a scope of ("Vintage": Port only); any entity when absent. */
  for?: readonly string[];
}

export interface AppliedScope {
  /** The colours asked for (values of data/label-terms.json: red, white, rosé, amber). */
  colours: string[];
  /** The sweetness classes asked for ("brut", "sec", "doux"). */
  sweetness: string[];
  /** The styles asked for ("Spätlese", "Tawny", "Fino"). */
  style: string[];
  /** The words of the query that asked for them, as typed. */
  terms: string[];
  /** The source of the first word. */
  source_key: string;
}

/** One scope word found in a text. */
export interface FoundScopeWord {
  start: number;
  end: number;
  text: string;
  word: ScopeWord;
}

const WORD = /[\p{L}\p{M}]+/gu;
/** A word, or words joined by hyphens: "semi-dry" is one word, and not "dry". */
const COMPOUND = /[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*/gu;
/** Lower case without accents: "Spätlese", "spatlese" and "SPÄTLESE" are one word. */
export const foldWord = (w: string) => w.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/**
 * The scope words of data/label-terms.json, looked up by their words (folded; "demi-sec" is "demi sec").
 * A phrase of several words wins over its parts: "brut nature" is not "brut", "Late Bottled Vintage"
 * is not "Vintage".
 */
export class ScopeWords {
  /** By the phrase as written, lower-cased ("rosé": the French colour word), then by its folded form ("rose"). */
  private readonly exact = new Map<string, ScopeWord>();
  private readonly phrases = new Map<string, ScopeWord>();
  private readonly tokens = new Set<string>();
  private maxWords = 1;

  constructor(colours: ReadonlyMap<string, ColourWord>, words: readonly { term: string; dimension: 'sweetness' | 'style'; value: string; source: string; for?: readonly string[] }[]) {
    for (const [term, c] of colours) this.add(term, { dimension: 'colour', value: c.value, source: c.source });
    for (const w of words) this.add(w.term, { dimension: w.dimension, value: w.value, source: w.source, ...(w.for ? { for: w.for } : {}) });
  }

  private add(term: string, word: ScopeWord) {
    // "demi-sec" is also written "demi sec"
    for (const form of new Set([term, term.replace(/-/g, ' ')])) {
      const parts = [...form.matchAll(COMPOUND)].map((m) => m[0].toLowerCase());
      if (!parts.length) continue;
      // the first entry of a phrase is its meaning (data/label-terms.json lists colours first)
      const key = parts.join(' ');
      if (!this.exact.has(key)) this.exact.set(key, word);
      const folded = foldWord(key);
      if (!this.phrases.has(folded)) this.phrases.set(folded, word);
      this.maxWords = Math.max(this.maxWords, parts.length);
    }
    for (const m of term.matchAll(WORD)) this.tokens.add(foldWord(m[0]));
  }

  /** The scope word a whole text is ("Brut", "demi-sec"), if it is one. */
  get(text: string): ScopeWord | undefined {
    return this.lookUp([...text.matchAll(COMPOUND)].map((m) => m[0].toLowerCase()).join(' '));
  }

  private lookUp(key: string): ScopeWord | undefined {
    return this.exact.get(key) ?? this.phrases.get(foldWord(key));
  }

  /** True when a query has a word that is part of a scope word: the cheap test before reading the line. */
  mayHave(q: string): boolean {
    for (const m of q.matchAll(WORD)) if (this.tokens.has(foldWord(m[0]))) return true;
    return false;
  }

  /** The scope words of a text, longest phrase first, left to right; `covered` says whether every word is one. */
  find(text: string): { found: FoundScopeWord[]; covered: boolean } {
    const words = [...text.matchAll(COMPOUND)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, key: m[0].toLowerCase() }));
    const found: FoundScopeWord[] = [];
    let i = 0;
    let covered = words.length > 0;
    while (i < words.length) {
      let hit = 0;
      for (let n = Math.min(this.maxWords, words.length - i); n >= 1 && !hit; n--) {
        const w = this.lookUp(words.slice(i, i + n).map((x) => x.key).join(' '));
        if (w) {
          found.push({ start: words[i]!.start, end: words[i + n - 1]!.end, text: text.slice(words[i]!.start, words[i + n - 1]!.end), word: w });
          hit = n;
        }
      }
      if (!hit) covered = false;
      i += hit || 1;
    }
    return { found, covered };
  }
}

const WANT_KEY: Record<ScopeDimension, 'colours' | 'sweetness' | 'style'> = { colour: 'colours', sweetness: 'sweetness', style: 'style' };

/** Where a scope text falls against the scope asked for. */
export function matchScope(scope: string | null | undefined, want: AppliedScope, words: ScopeWords): ScopeMatch {
  if (scope === null || scope === undefined || scope.trim() === '') return 'general';
  const named: Record<ScopeDimension, Set<string>> = { colour: new Set(), sweetness: new Set(), style: new Set() };
  for (const f of words.find(scope).found) named[f.word.dimension].add(f.word.value);
  let hit = false;
  for (const d of ['colour', 'sweetness', 'style'] as const) {
    const asked = want[WANT_KEY[d]];
    if (!asked.length || !named[d].size) continue;
    if (asked.some((v) => named[d].has(v))) hit = true;
    else return 'out_of_scope';
  }
  return hit ? 'in_scope' : 'unstated';
}

/** The scope text of a pairing item: its style and sweetness scopes together. */
export function itemScopeText(item: { style_scope?: string | null; sweetness_scope?: string | null }): string | null {
  const parts = [item.style_scope, item.sweetness_scope].filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  return parts.length ? parts.join('; ') : null;
}

/** The scope asked for by the scope words a line reading found (in line order), or null when it found none. */
export function scopeOfWords(found: readonly { text: string; word: ScopeWord }[]): AppliedScope | null {
  if (found.length === 0) return null;
  // a word read both as a term and as a name ("Brut": a sweetness term and the style) counts once
  found = found.filter((f, i) => found.findIndex((g) => g.text === f.text && g.word === f.word) === i);
  const of = (d: ScopeDimension) => [...new Set(found.filter((f) => f.word.dimension === d).map((f) => f.word.value))];
  return { colours: of('colour'), sweetness: of('sweetness'), style: of('style'), terms: found.map((f) => f.text), source_key: found[0]!.word.source };
}

/**
 * The scope of one entry standing for several rules ("Pinot Noir" in Sancerre's red and rosé rules):
 * the scopes joined ("red; rosé"); null (the whole wine) as soon as one rule has no scope.
 */
export function joinScopes(seen: string | null, scope: string | null): string | null {
  if (seen === null || scope === null) return null;
  return seen.split('; ').includes(scope) ? seen : `${seen}; ${scope}`;
}
