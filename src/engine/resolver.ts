// Resolver: free text → ranked entities. Everything is built once at start-up; a query touches only
// hash lookups, a sorted-array range for prefixes and a SymSpell deletion index (hashed, so no
// strings are built per query) for typos. Our own code rather than a search library because the
// tiers, word-boundary rule and state rules below are the product, and `npm run bench:resolve`
// shows the latency gain.
// Layout for speed (issue 8, p99 ≤ 50 µs): indexed words are interned to integer ids; posting lists,
// the forms' word lengths and weights, and the deletion index (open addressing, one cache line per
// probe, behind a 128 KB bit filter) are flat typed arrays; the per-query bookkeeping of tiers 5 and
// 6 lives in typed arrays reused from query to query (epoch stamps instead of clearing), so a query
// allocates little beyond its answer. `npm run bench:resolve-equivalence` compares every answer with
// the resolver before this layout (zero differences required).
//
// Normalisation (normalize.ts), on the query and on the index: case, white space, hyphens,
// apostrophes; accents and ligatures folded (é→e, ß→ss, æ→ae, ø→o, ł→l; "spät" findable as "spat"
// and "spaet"); St↔Saint, Ste↔Sainte, Mt↔Mount, Sta↔Santa both ways.
//
// Tiers and scores (0–100, comparable across queries):
//   1 exact canonical name ........ 100      4 word-order-free ........ 88 / 86   (canonical / alias)
//   2 exact alias ................. 97       5 token prefix ........... 60 + 25·coverage + adj (≤ 85)
//   3 folded (accents, St/Saint) .. 94 / 92  6 typo-tolerant .......... 50 + 25·coverage − 8·edits + adj
//   declared shared term (data/ambiguities.json, e.g. "pinot") .. 90, always ambiguous
// An exact (unfolded) match therefore always outranks a folded one.
// Tiers 5 and 6 ("partial" matches) need every query word to match a whole word or the start of a
// word of the same name, never the inside of a word ("cot" matches "Cot" and "Côtes", not
// "apricot"; the name "Cot" does not match the query "cotton candy"). A prefix needs 3 letters
// (2 for the last word of a multi-word query). Also:
//   - a query word may be two consecutive name words written together ("barleywine" → "Barley Wine");
//   - a word typed as an abbreviation — two to six capitals ("DIPA", "NZ") or capitals inside the
//     word ("GrüVe") — may match the starts of consecutive name words ("Double IPA", "New Zealand");
//   - typos: Damerau distance (a swap of two letters is one edit); a query word may carry one edit
//     from 5 letters and two from 9 (as Meilisearch does). A query word that is itself a word of
//     some name is taken as typed and gets no typo neighbours; stop words never get typos.
//   coverage = share of the name's words the query covers: a whole word (or a typo of it) covers
//     the word, a prefix covers its share of the word's letters; stop words ("of", "de", "the")
//     weigh nothing;
//   adj = −3 when the name is an alias (the canonical name wins a tie), plus up to +2 for entities
//     with many attested synonyms (well-known varieties): min(2, max(0, log2(1 + aliases) − 2)).
//   A query made only of stop words and generic words ("wine", "beer", "spirits", "the", colour
//   words such as "rosé", "red") gets no partial matches: it resolves only if it equals a name.
// State:
//   unresolved when no candidate reaches RESOLVE_THRESHOLD (55);
//   ambiguous when the query is a declared shared term, when the runner-up is within
//     AMBIGUITY_MARGIN (3) of the top, or when the top is only a partial match (tier 5 or 6) and
//     the runner-up is within PARTIAL_AMBIGUITY_MARGIN (5);
//   resolved otherwise.
// Named filters (src/engine/filters/, each with its test) hold the confidence rules of issue 32: a
// partial match that leaves the name's last words uncovered (narrower-name), a known word read as the
// start of a longer one (known-word-prefix) and bare initials (bare-initials) are at most ambiguous;
// connectives in another language are a near spelling, and added ones a reading (connective-words).
// Candidates below the threshold are never returned. Ties are broken by the caller's tieBreak and an
// entity's best name by (score, canonical first, value A–Z), so results do not depend on build order.
// The threshold and margins are tuned on test/resolve/labelled-queries.json
// (`npm run bench:resolve-quality`): a threshold of 50–55 gives the same results there, 60 loses
// 13 two-edit typos; a partial margin of 3 leaves 4 shared partial terms resolved ("Barleywine",
// "Shenandoah", "Malibu", "Uhlen"), 7 changes nothing more.
import {
  abbreviationSplit, damerau, deletionHashes, exactForm, fold, GENERIC_WORDS, indexVariants, isWeakWord, queryForms, STOP_WORDS, typoBudget,
} from './normalize.ts';
import { DesignationWords, Inflections, LIST_WORDS, listSides, type DesignationWord, type QueryTerm } from './market-words.ts';
import { leavesTrailingWords } from './filters/narrower-name.ts';
import { shortSubregionWord } from './filters/short-subregion.ts';
import { knownWordAsPrefix } from './filters/known-word-prefix.ts';
import { spellsInitials } from './filters/bare-initials.ts';
import { CONNECTIVE_SCORE, ConnectiveIndex, connectiveKey } from './filters/connective-words.ts';
import { extendedShare } from './filters/stem-extension.ts';
import type { BeerModifiers, ModifierClass } from './beer-modifiers.ts';

export const RESOLVE_THRESHOLD = 55;
/** A middle dot or double hyphen between two katakana (the words of a katakana line). */
const KANA_DOT = /(?<=[\u30a1-\u30fa\u30fc])[・･゠](?=[\u30a1-\u30fa\u30fc])/;
const KANA_DOTS = new RegExp(KANA_DOT.source, 'g');
/** A word in kana, CJK ideographs or Hangul. */
const CJK_WORD = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
/** Suggestions on an unresolved answer: names scoring at least this, at most SUGGESTION_LIMIT of them. */
export const SUGGESTION_FLOOR = 30;
export const SUGGESTION_LIMIT = 5;
/** A grape matched only through a synonym that is also a place's name falls this far below the place. */
export const PLACE_OVER_SYNONYM = 8;
/** Candidates found through one part of a query ("A / B", "Name (ABBR)", a plural made singular) lose this much. */
export const PART_PENALTY = 1;
/** Fallback answers (qualifiers dropped, or the head noun alone) rank this much lower and are never resolved. */
export const FALLBACK_PENALTY = 8;
/** Below this many surviving names, later query words are tested against their words directly. */
const DIRECT_SCAN_MAX = 64;
export const AMBIGUITY_MARGIN = 3;
export const PARTIAL_AMBIGUITY_MARGIN = 5;

export type MatchedOn =
  | 'canonical' | 'alias'
  | 'canonical_folded' | 'alias_folded'
  | 'canonical_word_order' | 'alias_word_order'
  | 'canonical_prefix' | 'alias_prefix'
  | 'canonical_typo' | 'alias_typo'
  | 'shared_term'
  | 'entity_id'
  | 'mention';

export interface ResolvableName {
  entity: number;
  field: 'canonical' | 'alias';
  value: string;
}

export interface Candidate {
  entity: number;
  score: number;
  matchedOn: MatchedOn;
  value: string;
}

export type Coverage = 'out_of_scope' | 'unknown_term';

export interface Resolution {
  state: 'resolved' | 'ambiguous' | 'unresolved';
  candidates: Candidate[];
  /** unresolved only: the nearest names below the threshold (best first, at most SUGGESTION_LIMIT) */
  suggestions: Candidate[];
  /** unresolved only: whether the term names a drink outside the four domains */
  coverage: Coverage | null;
  /** designation words recognised in the query and left out of matching ("DO" in "DO Ribera del Duero") */
  terms: QueryTerm[];
  /** a beer description read as a base style plus modifiers (beer-modifiers.ts); absent otherwise */
  reading?: ModifierReading;
}

/** A beer description read as base style + modifiers: the specialty style leads the candidates. */
export interface ModifierReading {
  /** the base style's words and how they resolve on their own (beer styles only) */
  base: { text: string; state: Resolution['state']; candidates: Candidate[] };
  modifiers: { text: string; class: ModifierClass }[];
  /** the specialty styles the modifiers go to (the first leads), or the base itself when it already has them */
  specialty: number[];
  inherent: boolean;
  /** the classes that chose the style */
  classes: ModifierClass[];
  source: string;
  locator: string;
}

/** What the resolver needs to know of an entity beyond its names. */
export type EntityKind = 'place' | 'grape' | 'other';

export interface ResolverOptions {
  /** kind of each entity (places beat grape synonyms) */
  kindOf?: (entity: number) => EntityKind;
  /** terms that name drinks outside the four domains ("sake", "cider", "hard seltzer") */
  outOfScope?: string[];
  /** country names: a query equal to one is answered only by a name that equals it, never by a partial match */
  placeNames?: string[];
  /** designation words of wine labels (data/designations.json): recognised around a name, never matched as names */
  designations?: DesignationWord[];
  /** the language of each alias (by name index; canonical names have none): inflected forms are read through it */
  aliasLanguages?: (string | null)[];
  /** entities that public demand data names (the demand prior's entity entries): the partial tiers' prominence bonus */
  askedFor?: number[];
  /** the kind of each alias (by name index): an `other_language` or `abbreviation` form is not matched as an abbreviation's expansion */
  aliasKinds?: (string | null)[];
  /** beer descriptions as base style + modifiers ("Bourbon Barrel Aged Stout"): word classes and specialty styles */
  modifiers?: BeerModifiers;
  /** whether an entity is a beer style (the base of a modifier reading must be one) */
  beerStyle?: (entity: number) => boolean;
  /** whether an entity is a wine geography of level subregion (filters/short-subregion.ts) */
  subregion?: (entity: number) => boolean;
}

interface Form {
  name: number; // index into names
  tokens: string[];
  ids: Int32Array; // word id of each token
  weights: number[]; // per token: 0 for stop words, else 1
  weight: number; // sum of weights (at least 1)
  first: number; // index of the first word that is not a stop word (0 when all are)
  end: number; // index of the first word of a closing bracketed note ("Rye whisky (United States type)"), else tokens.length
}

/**
 * Posting lists, flat: the postings of key id k are entries start[k] … start[k+1]−1, each a form and
 * `ws` = first word covered · 2 + (span − 1), span being 1, or 2 for two words written together.
 * Entries of one key keep the order in which they were added.
 */
interface FlatPostings {
  start: Int32Array;
  form: Int32Array;
  ws: Int32Array;
}

/** Collects (key, form, word, span) postings, then groups them by key into a FlatPostings. */
class PostingBuilder {
  private readonly keys: number[] = [];
  private readonly forms: number[] = [];
  private readonly ws: number[] = [];
  add(key: number, form: number, word: number, span: 1 | 2) {
    this.keys.push(key);
    this.forms.push(form);
    this.ws.push(word * 2 + span - 1);
  }
  build(keyCount: number): FlatPostings {
    const n = this.keys.length;
    const start = new Int32Array(keyCount + 1);
    for (let i = 0; i < n; i++) start[this.keys[i]! + 1]!++;
    for (let k = 0; k < keyCount; k++) start[k + 1]! += start[k]!;
    const fill = start.slice(0, keyCount);
    const form = new Int32Array(n);
    const ws = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const j = fill[this.keys[i]!]!++;
      form[j] = this.forms[i]!;
      ws[j] = this.ws[i]!;
    }
    return { start, form, ws };
  }
}

/**
 * The hits of one query word on the forms (tier 5 and 6 bookkeeping), reused across queries. A form
 * is present when at[2·form] equals the current epoch; its hit is then in slot at[2·form+1] of the
 * dense arrays below (slots in the order the forms were first hit, which is the order of iteration),
 * so a query touches one entry of `at` per form and a few short, cache-warm arrays.
 */
class Hits {
  epoch = 0;
  len = 0;
  readonly at: Int32Array; // per form: epoch, slot
  readonly list: Int32Array; // per slot: the form
  readonly cost: Int32Array; // edits
  readonly prefix: Uint8Array;
  readonly credit: Float64Array; // covered weight of the name
  readonly abbr: Uint8Array; // matched as an abbreviation ("DIPA")
  readonly head: Uint8Array; // the name's first (non-stop) word is covered
  readonly mask: Int32Array; // name words covered (bit i = word i, words past 30 not tracked)
  constructor(n: number) {
    this.at = new Int32Array(2 * n);
    this.list = new Int32Array(n);
    this.cost = new Int32Array(n);
    this.prefix = new Uint8Array(n);
    this.credit = new Float64Array(n);
    this.abbr = new Uint8Array(n);
    this.head = new Uint8Array(n);
    this.mask = new Int32Array(n);
  }
  /** Empties the set (no clearing: a new epoch). */
  reset() {
    this.len = 0;
    if (++this.epoch === 0x3fffffff) {
      this.at.fill(0);
      this.epoch = 1;
    }
  }
  has(form: number): boolean {
    return this.at[2 * form] === this.epoch;
  }
  /** The slot of a form that is present. */
  slot(form: number): number {
    return this.at[2 * form + 1]!;
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;
/** Partial-tier bonus of an entity that public demand data asks for by name. */
const DEMAND_BONUS = 2;
/** An all-capitals query word ("APA") is read as an abbreviation first: a plain prefix match ranks this much lower. */
const CAPS_PREFIX_PENALTY = 8;
const PARTIAL_ALIAS_PENALTY = 3;
const PARTIAL = new Set<MatchedOn>(['canonical_prefix', 'alias_prefix', 'canonical_typo', 'alias_typo']);

const EMPTY: readonly number[] = [];
const NO_WEAK = new Set<number>();
const isConnective = (t: string) => STOP_WORDS.has(t);
const isGenericWord = (t: string) => GENERIC_WORDS.has(t);
/** A word with at least one Latin letter (ASCII included): the words the typo index holds. */
const LATIN_WORD = /[a-z\u00c0-\u024f]/;
const DEL_FILTER_BITS = 20;
const HASHES: number[] = []; // scratch buffer for deletion hashes (resolve is synchronous)
const ORDER: number[] = []; // scratch: query word order in tokenMatches
const RARITY: number[] = []; // scratch: per query word, how many postings it has (Infinity when not indexed)

/**
 * The first three UTF-16 units of a word as one number, in the same order as the strings: pack3(a) <
 * pack3(b) implies a < b (a missing unit counts as 0, below every letter; words hold no U+0000).
 */
function pack3(w: string): number {
  const c0 = w.length > 0 ? w.charCodeAt(0) : 0;
  const c1 = w.length > 1 ? w.charCodeAt(1) : 0;
  const c2 = w.length > 2 ? w.charCodeAt(2) : 0;
  return (c0 * 65536 + c1) * 65536 + c2;
}

/** Query words rarest first, then longer first, then in query order (RARITY holds the rarities). */
function wordOrder(tokens: string[], x: number, y: number): number {
  return RARITY[x]! - RARITY[y]! || tokens[y]!.length - tokens[x]!.length || x - y;
}

/** Keeps the better hit of a query word on a name: fewer edits, then more coverage, then whole word. */
function record(hits: Hits, form: number, cost: number, prefix: boolean, credit: number, head: boolean, mask: number, abbr = false) {
  const at = hits.at;
  if (at[2 * form] !== hits.epoch) {
    const s = hits.len++;
    at[2 * form] = hits.epoch;
    at[2 * form + 1] = s;
    hits.list[s] = form;
    hits.cost[s] = cost;
    hits.prefix[s] = prefix ? 1 : 0;
    hits.credit[s] = credit;
    hits.abbr[s] = abbr ? 1 : 0;
    hits.head[s] = head ? 1 : 0;
    hits.mask[s] = mask;
    return;
  }
  const s = at[2 * form + 1]!;
  const curCost = hits.cost[s]!;
  const curCredit = hits.credit[s]!;
  if (cost < curCost || (cost === curCost && (credit > curCredit || (credit === curCredit && !prefix && hits.prefix[s] === 1)))) {
    hits.cost[s] = cost;
    hits.prefix[s] = prefix ? 1 : 0;
    hits.credit[s] = credit;
    hits.abbr[s] = abbr ? 1 : 0;
    hits.mask[s] = mask;
  }
  if (head) hits.head[s] = 1;
}

/** Whether the covered words leave out a weighted word between two covered ones ("Wild Beer" on "Wild Specialty Beer"). */
function skipsInnerWord(mask: number, weights: number[]): boolean {
  let seen = false;
  let gap = false;
  for (let i = 0; i < weights.length && i < 31; i++) {
    if (mask & (1 << i)) {
      if (gap) return true;
      seen = true;
    } else if (seen && weights[i]) gap = true;
  }
  return false;
}

/** Keeps an entity's best candidate; on equal scores the canonical name, then the first value A–Z (build order never matters). */
function offer(best: Map<number, Candidate>, entity: number, score: number, matchedOn: MatchedOn, value: string) {
  // a candidate object belongs to one map only, so it is updated in place
  const s = round1(score);
  const cur = best.get(entity);
  if (!cur) {
    best.set(entity, { entity, score: s, matchedOn, value });
    return;
  }
  if (s < cur.score) return;
  if (s === cur.score) {
    const canon = matchedOn.startsWith('canonical');
    const curCanon = cur.matchedOn.startsWith('canonical');
    if (!((canon && !curCanon) || (canon === curCanon && value < cur.value))) return;
  }
  cur.score = s;
  cur.matchedOn = matchedOn;
  cur.value = value;
}

const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);

/** What wholeNames answers: the names equal to a span, and whether it is a shared term or out of scope. */
export interface WholeNames {
  candidates: Candidate[];
  shared: boolean;
  outOfScope: boolean;
}

export class Resolver {
  private readonly names: ResolvableName[];
  private readonly forms: Form[] = [];
  private readonly exactMap = new Map<string, number[]>(); // exact form → name idx
  private readonly foldedMap = new Map<string, number[]>(); // folded → name idx
  private readonly orderFreeMap = new Map<string, number[]>(); // sorted tokens → name idx
  private readonly connectives = new ConnectiveIndex(isConnective); // content words → names that hold connectives
  /** Indexed words (a word, or two words joined) as ids: the keys of `postings`. */
  private readonly wordIds = new Map<string, number>();
  private readonly wordText: string[] = [];
  private readonly postings: FlatPostings; // word id → where
  private readonly sortedTokens: string[]; // indexed words A–Z (prefix ranges) …
  private readonly sortedIds: Int32Array; // … and their ids
  private readonly sortedKeys: Float64Array; // … and their first three letters packed (pack3), searched first
  private readonly initialIds = new Map<string, number>(); // first letters of two consecutive words → id
  private readonly initials: FlatPostings; // initials id → where
  // deletion index (SymSpell), open addressing with the slots interleaved (one cache line per probe):
  // delTable[4s … 4s+3] = hash, first word, end of words, used (0/1); the words of a slot are
  // delWords[first … end−1], ids in A–Z order
  private readonly delTable: Int32Array;
  // one bit per hash (2^DEL_FILTER_BITS bits, 128 KB, stays in cache): most deletion variants of a
  // query word are in no index word, and this answers them without touching the table
  private readonly delFilter = new Int32Array(1 << (DEL_FILTER_BITS - 5));
  private readonly delWords: Int32Array;
  private readonly delShift: number;
  private readonly delMask: number;
  // per-query scratch (resolution is synchronous): typo neighbours by word id, hits by form
  private readonly nearStamp: Int32Array;
  private readonly nearDist: Int32Array;
  private readonly nearIds: Int32Array;
  private nearEpoch = 0;
  private nearLen = 0;
  private readonly hitsA: Hits;
  // forms flattened for the posting walk: formMeta[2f] = first weighted word, formMeta[2f+1] = offset
  // of the form's words in wordMeta, where each word is length · 2 + weight
  private readonly formMeta: Int32Array;
  private readonly wordMeta: Int32Array;
  private readonly hitsB: Hits;
  /** Whether a folded word is an indexed word (a word of some name, or two joined). */
  private readonly isIndexWord = (t: string) => this.wordIds.has(t);
  private readonly sharedTerms = new Map<string, number[]>(); // folded term → entities
  /** folded shared term → the entity its declaration lists first at equal score (`first` in data/ambiguities) */
  private readonly sharedFirst = new Map<string, number>();
  private readonly prominence: Float64Array; // entity → bonus for partial matches
  private readonly asked: Uint8Array; // entity → 1 when public demand data names it (it has DEMAND_BONUS in the partial tiers)
  private readonly strongStamp: Int32Array; // entity → offerPartials call that found it strong (scratch)
  /** name index → 1 when the name is an alias given as another language's name (CLDR country names and the like) */
  private readonly foreignAlias: Uint8Array;
  /** the words that join a list's items (CLDR list patterns, `listWords`) */
  private readonly listWords = LIST_WORDS;
  private strongEpoch = 0;
  private readonly tieBreak: (a: number, b: number) => number;
  /** Candidates best first: score, then the caller's tie-break. */
  private readonly order: (x: Candidate, y: Candidate) => number;
  /** Longest indexed word and most words in a name: bounds that keep hostile queries cheap. */
  private readonly longestWord: number;
  private readonly mostWords: number;

  private readonly kindOf: (entity: number) => EntityKind;
  private readonly outOfScopeWords = new Set<string>(); // one-word out-of-scope terms, folded
  /** several-word terms, folded, padded with spaces, by their first word (most queries hold none) */
  private readonly outOfScopePhrases = new Map<string, string[]>();
  private readonly wholeScratch = new Map<number, Candidate>(); // wholeNames' candidates (resolution is synchronous)
  private readonly placeNames = new Set<string>(); // folded country names
  private readonly designations: DesignationWords;
  private readonly inflections: Inflections;
  private readonly modifiers: BeerModifiers | undefined;
  /** entity → its canonical name (the value a modifier reading's specialty candidate carries) */
  private readonly canonicalOf: string[] = [];
  private readonly beerStyle: (entity: number) => boolean;
  private readonly subregion: (entity: number) => boolean;
  /** set while a modifier reading resolves its base (no reading inside a reading) */
  private readingBase = false;
  /** the words of beer styles' names (built on the first modifier reading) */
  private beerWords: Set<string> | undefined;
  private beerWord(t: string): boolean {
    if (!this.beerWords) {
      this.beerWords = new Set();
      for (const f of this.forms) if (this.beerStyle(this.names[f.name]!.entity)) for (const w of f.tokens) this.beerWords.add(w);
    }
    return this.beerWords.has(t);
  }

  constructor(
    names: ResolvableName[],
    sharedTerms: { term: string; entities: number[]; first?: number }[],
    tieBreak: (a: number, b: number) => number,
    options: ResolverOptions = {},
  ) {
    this.names = names;
    this.tieBreak = tieBreak;
    this.order = (x, y) => y.score - x.score || tieBreak(x.entity, y.entity);
    this.kindOf = options.kindOf ?? (() => 'other');
    this.modifiers = options.modifiers;
    this.beerStyle = options.beerStyle ?? (() => false);
    this.subregion = options.subregion ?? (() => false);
    for (const p of options.placeNames ?? []) for (const f of indexVariants(p)) this.placeNames.add(f);
    for (const t of options.outOfScope ?? []) {
      for (const f of indexVariants(t)) {
        if (f.includes(' ')) {
          const first = f.split(' ')[0]!;
          const list = this.outOfScopePhrases.get(first);
          if (list) list.push(` ${f} `);
          else this.outOfScopePhrases.set(first, [` ${f} `]);
        }
        else this.outOfScopeWords.add(f);
      }
    }
    const push = <K>(m: Map<K, number[]>, k: K, v: number) => {
      const a = m.get(k);
      if (!a) m.set(k, [v]);
      else if (!a.includes(v)) a.push(v);
    };
    const wordIds = this.wordIds;
    const wordText = this.wordText;
    const wordId = (k: string) => {
      let id = wordIds.get(k);
      if (id === undefined) {
        id = wordText.length;
        wordIds.set(k, id);
        wordText.push(k);
      }
      return id;
    };
    const initialId = (k: string) => {
      let id = this.initialIds.get(k);
      if (id === undefined) this.initialIds.set(k, (id = this.initialIds.size));
      return id;
    };
    const posts = new PostingBuilder();
    const initials = new PostingBuilder();
    const aliases = new Map<number, number>();
    let entities = 0;
    for (const n of names) entities = Math.max(entities, n.entity + 1);
    this.prominence = new Float64Array(entities);
    this.strongStamp = new Int32Array(entities);
    const otherLanguage = names.map((_, i) => options.aliasKinds?.[i] === 'other_language' || options.aliasKinds?.[i] === 'abbreviation');
    this.foreignAlias = Uint8Array.from(names, (_, i) => (options.aliasKinds?.[i] === 'other_language' ? 1 : 0));
    names.forEach((n, i) => {
      if (n.field === 'canonical') this.canonicalOf[n.entity] = n.value;
      if (n.field === 'alias') aliases.set(n.entity, (aliases.get(n.entity) ?? 0) + 1);
      // words of a closing bracketed note qualify the name: they are not a narrower name (filters/narrower-name.ts)
      const bracket = n.value.trimEnd().endsWith(')') ? n.value.lastIndexOf('(') : -1;
      const noteWords = bracket > 0 ? queryForms(n.value.slice(bracket)).tokens.length : 0;
      for (const apostrophe of ['', ' '] as const) push(this.exactMap, exactForm(n.value, apostrophe), i);
      for (const folded of indexVariants(n.value)) {
        const formIdx = this.forms.length;
        const tokens = folded.split(' ');
        const weights: number[] = tokens.map((t) => (STOP_WORDS.has(t) ? 0 : 1));
        const ids = new Int32Array(tokens.length);
        this.forms.push({ name: i, tokens, ids, weights, weight: Math.max(1, weights.reduce((s, w) => s + w, 0)), first: Math.max(0, weights.indexOf(1)), end: Math.max(1, tokens.length - noteWords) });
        push(this.foldedMap, folded, i);
        if (tokens.length > 1) push(this.orderFreeMap, [...tokens].sort().join(' '), i);
        this.connectives.add(tokens, i);
        for (let w = 0; w < tokens.length; w++) {
          const t = tokens[w]!;
          ids[w] = wordId(t);
          posts.add(ids[w]!, formIdx, w, 1);
          const next = tokens[w + 1];
          if (next === undefined) continue;
          if (weights[w] && weights[w + 1]) posts.add(wordId(t + next), formIdx, w, 2);
          // an abbreviation never starts on a stop word ("d'Alba", "de la"): those pairs are not indexed
          // names given as another language's form ("Estados Unidos") or as an abbreviation ("EE. UU.") are not
          // where people abbreviate further: "EU" is not the US
          if (weights[w] && !otherLanguage[i]) initials.add(initialId(t[0]! + next[0]!), formIdx, w, 2);
        }
      }
    });
    for (const [e, n] of aliases) {
      const bonus = Math.min(2, Math.max(0, Math.log2(1 + n) - 2));
      if (bonus > 0) this.prominence[e] = bonus;
    }
    // entities that public demand data asks for by name (data/demand-prior.json) get +2 more in the
    // partial tiers: "zin" is Zinfandel's start before it is Zinthiana's
    this.asked = new Uint8Array(entities);
    for (const e of options.askedFor ?? []) if (e < entities) {
      this.prominence[e]! += DEMAND_BONUS;
      this.asked[e] = 1;
    }
    this.postings = posts.build(wordText.length);
    this.initials = initials.build(this.initialIds.size);
    this.sortedTokens = [...wordText].sort();
    this.sortedIds = Int32Array.from(this.sortedTokens, (t) => wordIds.get(t)!);
    this.sortedKeys = Float64Array.from(this.sortedTokens, pack3);
    const words = new Set<string>();
    for (const f of this.forms) for (const t of f.tokens) words.add(t);
    let longest = 0;
    for (const w of words) longest = Math.max(longest, w.length);
    this.longestWord = longest;
    let most = 0;
    for (const f of this.forms) most = Math.max(most, f.tokens.length);
    this.mostWords = most;
    // deletion index: (hash, word) pairs, words A–Z, then grouped by hash keeping that order
    const pairHash: number[] = [];
    const pairWord: number[] = [];
    for (const t of [...words].sort()) {
      // a query word of length L may carry typoBudget(L) edits; index words down to L-2 must be reachable
      const k = t.length >= 7 ? 2 : t.length >= 4 ? 1 : 0;
      // typos are sought in words of the Latin script only: the names in other scripts (CLDR's country
      // names in Cyrillic, Greek, Han…) are matched exactly or by prefix, and would double the index
      if (k === 0 || STOP_WORDS.has(t) || !LATIN_WORD.test(t)) continue;
      const id = wordIds.get(t)!;
      HASHES.length = 0;
      for (const d of deletionHashes(t, k, HASHES)) {
        pairHash.push(d);
        pairWord.push(id);
      }
    }
    let bits = 4;
    while (1 << bits < pairHash.length * 1.5) bits++;
    const size = 1 << bits;
    this.delShift = 32 - bits;
    this.delMask = size - 1;
    const table = (this.delTable = new Int32Array(size * 4));
    const slotOf = new Int32Array(pairHash.length);
    const count = new Int32Array(size);
    for (let i = 0; i < pairHash.length; i++) {
      const h = pairHash[i]!;
      let s = Math.imul(h, 0x9e3779b1) >>> this.delShift;
      while (table[4 * s + 3] && table[4 * s] !== h) s = (s + 1) & this.delMask;
      table[4 * s] = h;
      table[4 * s + 3] = 1;
      const f = Math.imul(h, 0x85ebca6b) >>> (32 - DEL_FILTER_BITS);
      this.delFilter[f >>> 5]! |= 1 << (f & 31);
      slotOf[i] = s;
      count[s]!++;
    }
    for (let s = 0, at = 0; s < size; s++) {
      table[4 * s + 1] = at;
      table[4 * s + 2] = at;
      at += count[s]!;
    }
    this.delWords = new Int32Array(pairHash.length);
    for (let i = 0; i < pairHash.length; i++) {
      const s = slotOf[i]!;
      const w = pairWord[i]!;
      const end = table[4 * s + 2]!;
      // a word reaches the same variant more than once ("cabernet" less either "e"): listed once
      if (end > table[4 * s + 1]! && this.delWords[end - 1] === w) continue;
      this.delWords[end] = w;
      table[4 * s + 2] = end + 1;
    }
    this.nearStamp = new Int32Array(wordText.length);
    this.nearDist = new Int32Array(wordText.length);
    this.nearIds = new Int32Array(wordText.length);
    this.hitsA = new Hits(this.forms.length);
    this.formMeta = new Int32Array(2 * this.forms.length);
    let wordsTotal = 0;
    for (const f of this.forms) wordsTotal += f.tokens.length;
    this.wordMeta = new Int32Array(wordsTotal);
    for (let i = 0, off = 0; i < this.forms.length; i++) {
      const f = this.forms[i]!;
      this.formMeta[2 * i] = f.first;
      this.formMeta[2 * i + 1] = off;
      for (let w = 0; w < f.tokens.length; w++) this.wordMeta[off + w] = f.tokens[w]!.length * 2 + f.weights[w]!;
      off += f.tokens.length;
    }
    this.hitsB = new Hits(this.forms.length);
    this.designations = new DesignationWords(options.designations ?? [], this.isIndexWord);
    const langs = options.aliasLanguages ?? [];
    this.inflections = new Inflections(
      names.flatMap((n, i) => (langs[i] ? [{ value: n.value, lang: langs[i]! }] : [])),
      this.isIndexWord,
    );
    for (const s of sharedTerms) {
      const key = fold(exactForm(s.term));
      this.sharedTerms.set(key, [...new Set([...(this.sharedTerms.get(key) ?? []), ...s.entities])]);
      if (s.first !== undefined) this.sharedFirst.set(key, s.first);
    }
    const pairUp = (tokens: string[]) => {
      if (!tokens.some((t) => STOP_WORDS.has(t))) return;
      const words = tokens.filter((t) => !STOP_WORDS.has(t));
      for (let a = 0; a < words.length; a++) for (let b = a + 1; b < words.length; b++) this.stopNamePairs.add(pairKey(words[a]!, words[b]!));
    };
    for (const f of this.forms) pairUp(f.tokens);
    for (const key of this.sharedTerms.keys()) pairUp(key.split(' '));
  }

  /** The deletion-index slot of hash h (as an offset into delTable), or −1. */
  private delSlot(h: number): number {
    const f = Math.imul(h, 0x85ebca6b) >>> (32 - DEL_FILTER_BITS);
    if ((this.delFilter[f >>> 5]! & (1 << (f & 31))) === 0) return -1;
    const table = this.delTable;
    let s = Math.imul(h, 0x9e3779b1) >>> this.delShift;
    while (table[4 * s + 3]) {
      if (table[4 * s] === h) return 4 * s;
      s = (s + 1) & this.delMask;
    }
    return -1;
  }

  /** Whether a folded word is a word of some indexed name. */
  isNameWord(folded: string): boolean {
    return this.wordIds.has(folded);
  }

  /**
   * The words of each name and declared shared term that has a stop word ("Côtes de Nuits", "Blanc de
   * Noirs"), other than its stop words, two by two in either order (some 2,300 pairs).
   */
  private readonly stopNamePairs = new Set<string>();

  /**
   * Whether two folded words, neither a stop word, are both words of one name (or declared shared term)
   * that has a stop word. A span with a stop word equals a name, in any word order, only if its first
   * and last other words are: the line parser asks this of spans joined through stop words, which its
   * neighbouring-word check lets through whatever stands on either side ("Rioja de Barolo de …").
   */
  inStopName(a: string, b: string): boolean {
    return this.stopNamePairs.has(pairKey(a, b));
  }

  /** Calls of wholeNames so far: tests and benchmarks read the difference around a call (issue 31, item 7). */
  wholeNameLookups = 0;

  private numeralNamesMemo: boolean | undefined;
  /**
   * Whether some name is written in numerals alone: an exact, folded, any-order or shared-term key made
   * only of numbers (any script) and spaces. When none is, no run of numbers is a whole name, and the
   * line parser looks none up ("1 1 1 …"). Read from the index on first use (about 0.3 million keys).
   */
  get numeralNames(): boolean {
    if (this.numeralNamesMemo === undefined) {
      const numeral = /^[\p{N} ]+$/u;
      const any = (keys: Iterable<string>) => {
        for (const k of keys) if (numeral.test(k)) return true;
        return false;
      };
      this.numeralNamesMemo = any(this.exactMap.keys()) || any(this.foldedMap.keys()) || any(this.orderFreeMap.keys()) || any(this.sharedTerms.keys());
    }
    return this.numeralNamesMemo;
  }

  get nameCount() {
    return this.names.length;
  }

  /**
   * The names equal to q (tiers 1–4: exact, folded, declared shared term, any word order), best first,
   * and whether q is a declared shared term or out of scope; no partial or typo matches. Used by the
   * line parser, which tries many spans of a line and needs whole names only.
   */
  wholeNames(q: string, limit = 5): WholeNames {
    this.wholeNameLookups++;
    const best = this.wholeScratch;
    best.clear();
    const r = this.collect(q, best, true);
    if (best.size === 0) return { candidates: [], shared: r.shared, outOfScope: r.outOfScope };
    this.placesBeatSynonyms(best);
    const candidates = [...best.values()].filter((c) => c.score >= EXACT_FLOOR).sort(this.order).slice(0, limit);
    return { candidates, shared: r.shared, outOfScope: r.outOfScope };
  }

  /**
   * Resolves q. `accept`, when given, restricts the answer to the entities it accepts (the type and
   * domain filters of resolve-entity): the others are dropped before the state is decided, so a term
   * shared with an entity of another type can still be `resolved` within the filter.
   */
  resolve(q: string, limit: number, accept?: (entity: number) => boolean, lastResort = true): Resolution {
    // katakana words parted by a middle dot that are no name as one word ("フランス・ボルドー"): read with
    // the dots as spaces, as the same words typed apart are (issue 32)
    if (KANA_DOT.test(q)) {
      const probe = new Map<number, Candidate>();
      this.collect(q, probe, true);
      if (!hasAtLeast(probe, EXACT_FLOOR)) q = q.replace(KANA_DOTS, ' ');
    }
    let best = new Map<number, Candidate>();
    let whole = this.collect(q, best);
    // designation words around a name ("DO Ribera del Duero", "Rioja DOCa") are reported, not matched,
    // unless the whole query is itself a name
    let terms: QueryTerm[] = [];
    if (this.designations.mayContain(whole.tokens) && !hasAtLeast(best, 92)) {
      const d = this.designations.find(q);
      if (d) {
        terms = d.terms;
        q = d.rest;
        best = new Map();
        whole = this.collect(q, best);
      }
    }
    // a country name is answered by a name equal to it or not at all ("India" is not Indiana)
    const place = whole.place;
    let listQuery = false;
    if (!whole.empty && !whole.outOfScope && !place) {
      // Other taxonomies' forms: "Saison / Farmhouse Ale", "American Pale Ale (APA)", plurals
      // ("CANADIAN WHISKIES"). Each part is resolved on its own; its candidates rank a little lower.
      const parts = queryParts(q, whole.tokens, this.isIndexWord);
      // Other languages' inflections ("viskit", "likörer") and compounds ("maltwhisky"), when no name
      // equals the query as typed (a partial or typo match may be the worse reading: "viskit" is a
      // typo of "Viski" and its Finnish plural)
      const named = hasAtLeast(best, EXACT_FLOOR);
      const readings = named ? [] : this.inflections.readings(whole.tokens);
      // a list ("dortmunder och helles", "porter and stout") names each of its sides, none for sure
      const sides = named ? null : listSides(whole.tokens, this.listWords);
      if (sides) {
        listQuery = true;
        for (const side of sides) {
          const sideTokens = side.split(' ');
          parts.push(side, ...queryParts(side, sideTokens, this.isIndexWord));
          readings.push(...this.inflections.readings(sideTokens));
        }
      }
      for (const part of [...parts, ...readings]) {
        const partBest = new Map<number, Candidate>();
        // a reading counts only where it names a whole name ("rommit" read as "rom" is Rom, not the start of Roma)
        const reading = readings.includes(part);
        const r = this.collect(part, partBest, reading);
        whole.shared ||= r.shared;
        whole.outOfScope ||= r.outOfScope;
        if (!reading) for (const e of r.weakPartial) whole.weakPartial.add(e);
        if (r.loose.size) {
          if (whole.loose === NO_WEAK) whole.loose = new Set<number>();
          for (const e of r.loose) whole.loose.add(e);
        }
        // a reading that adds letters to a query word is only a prefix of the name (filters/stem-extension.ts)
        const share = reading ? extendedShare(whole.tokens, part.split(' ')) : 0;
        for (const c of partBest.values()) {
          if (reading && PARTIAL.has(c.matchedOn)) continue;
          if (share > 0) {
            const canonical = c.matchedOn.startsWith('canonical');
            whole.weakPartial.add(c.entity);
            offer(best, c.entity, Math.min(c.score - PART_PENALTY, 60 + 25 * share - (canonical ? 0 : PARTIAL_ALIAS_PENALTY)), canonical ? 'canonical_prefix' : 'alias_prefix', c.value);
            continue;
          }
          // a part matched only partially is a guess ("American Amber / Red Lager" is not "American Amber Ale")
          if (PARTIAL.has(c.matchedOn)) whole.weakPartial.add(c.entity);
          offer(best, c.entity, c.score - PART_PENALTY, c.matchedOn, c.value);
        }
      }
    }
    this.placesBeatSynonyms(best);
    for (const e of whole.weakPartial) if (!PARTIAL.has(best.get(e)!.matchedOn)) whole.weakPartial.delete(e);
    // a beer description read as base style + modifiers ("Bourbon Barrel Aged Stout"), when no name equals the query
    let reading: ModifierReading | undefined;
    if (this.modifiers && !this.readingBase && !whole.empty && !whole.outOfScope && !place && whole.tokens.length > 1 && !hasAtLeast(best, EXACT_FLOOR) && this.modifiers.mayContain(whole.tokens)) {
      reading = this.readModifiers(q, whole.tokens, best);
    }
    let fallback = false;
    // the fallback also runs when every candidate that reaches 55 is only a weak partial match
    if (!reading && lastResort && !whole.empty && !whole.outOfScope && !place && !hasStrong(best, whole.weakPartial)) fallback = this.fallback(whole.tokens, best);

    const ranked: Candidate[] = [];
    const below: Candidate[] = [];
    for (const c of best.values()) {
      if (accept && !accept(c.entity)) continue;
      (c.score >= RESOLVE_THRESHOLD ? ranked : c.score >= SUGGESTION_FLOOR ? below : null)?.push(c);
    }
    const order = this.order;
    if (ranked.length === 0) {
      return {
        state: 'unresolved',
        candidates: [],
        suggestions: below.sort(order).slice(0, SUGGESTION_LIMIT),
        coverage: whole.outOfScope ? 'out_of_scope' : 'unknown_term',
        terms,
      };
    }
    ranked.sort(order);
    // a shared term whose declaration names the meaning to list first ("Wallis": Valais, whose own
    // official-language name it is, before Wales, whose Afrikaans name it is) leads the ties on score
    // (the whole query's folded form is its tokens joined: the shared term's key)
    const first = whole.shared && this.sharedFirst.size ? this.sharedFirst.get(whole.tokens.join(' ')) : undefined;
    if (first !== undefined && ranked[0]!.entity !== first) {
      const at = ranked.findIndex((c) => c.entity === first);
      if (at > 0 && ranked[at]!.score === ranked[0]!.score) ranked.unshift(...ranked.splice(at, 1));
    }
    const top = ranked[0]!;
    // the demand bonus orders partial matches but never makes one confident: the gap is taken without it
    const bonusOf = (c: Candidate) => (PARTIAL.has(c.matchedOn) && this.asked[c.entity] ? DEMAND_BONUS : 0);
    const gap = ranked.length > 1 ? top.score - bonusOf(top) - (ranked[1]!.score - bonusOf(ranked[1]!)) : Infinity;
    const close = gap < AMBIGUITY_MARGIN || (PARTIAL.has(top.matchedOn) && gap < PARTIAL_AMBIGUITY_MARGIN);
    const shared = whole.shared && (!accept || ranked.length > 1);
    // a one-word query that reaches an entity only as a misspelling of one of its aliases is a guess: the
    // word is more likely a word of another kind or language ("negroni" is not the grape synonym
    // "Negron", "Patagonia" not the Norwegian "Catalonia")
    // so is a misspelling of a short name (one edit in five letters: "añejo" is not the place Añelo)
    const synonymTypo = whole.tokens.length === 1 && (top.matchedOn === 'alias_typo' || (top.matchedOn === 'canonical_typo' && whole.tokens[0]!.length <= SHORT_TYPO));
    // an alias of one entity that is, word for word, inside the official names of two or more others is a
    // generic term: "blended whisky" is US law's name for one whisky, and Scotch law's "Blended Scotch
    // Whisky", "Blended Malt Scotch Whisky"… hold it too
    const genericAlias = (top.matchedOn === 'alias' || top.matchedOn === 'alias_folded') && whole.tokens.length >= 2 && this.extendedByOthers(top, ranked, whole.tokens);
    // a connective the name lacks makes a reading, not a spelling (filters/connective-words.ts)
    const looseReading = whole.loose.has(top.entity) && (top.matchedOn === 'canonical_word_order' || top.matchedOn === 'alias_word_order') && top.score <= CONNECTIVE_SCORE.canonical;
    // a short everyday word typed alone is no confident answer for a sub-region no one asks for ("Ave", "Lima")
    const shortWord = shortSubregionWord(whole.tokens, this.subregion(top.entity), this.asked[top.entity] === 1);
    let state: Resolution['state'] = shared || close || fallback || synonymTypo || listQuery || genericAlias || looseReading || shortWord || whole.weakPartial.has(top.entity) ? 'ambiguous' : 'resolved';
    // a modifier reading that leads decides the state: resolved only when it explains the whole query
    // (one specialty style, the base resolved) and no other candidate is close
    if (reading && top.entity === reading.specialty[0]) state = !close && readingResolves(reading) ? 'resolved' : 'ambiguous';
    const out: Resolution = { state, candidates: ranked.slice(0, limit), suggestions: [], coverage: null, terms };
    if (reading && ranked.some((c) => reading!.specialty.includes(c.entity))) out.reading = reading;
    return out;
  }

  /**
   * Reads the query as base style + modifiers (beer-modifiers.ts) and offers the specialty style at
   * MODIFIER_SCORE, the base's candidates below it (so the base stays visible). A modifier that makes the
   * base a whole name with it stays in the base ("Wild Ale" in "Wild Ale with Peaches").
   */
  private readModifiers(q: string, tokens: string[], best: Map<number, Candidate>): ModifierReading | undefined {
    const mods = this.modifiers!;
    const split = mods.split(tokens);
    if (!split) return undefined;
    // the base is resolved with its words as typed: capitals read as an abbreviation ("DIPA")
    const { cased } = queryForms(q);
    const typed = cased.length === tokens.length ? cased : tokens;
    // a base with no word of a beer style's name, and no word in capitals, names no beer style ("apricot jam"):
    // not resolved at all (a query pays for a base only when it may have one)
    if (!split.baseAt.some((i) => this.beerWord(tokens[i]!) || /^[A-Z]{2,6}$/.test(typed[i]!))) return undefined;
    this.readingBase = true;
    try {
      const resolveBase = (at: boolean[]) => this.resolve(typed.filter((_, i) => at[i]).join(' '), 5, this.beerStyle);
      const inBase = tokens.map((_, i) => split.baseAt.includes(i));
      let base = resolveBase(inBase);
      // a modifier that joins the base into a whole name belongs to it ("Wild Ale" in "Wild Ale with Peaches")
      for (const m of [...split.modifiers]) {
        const at = inBase.map((b, i) => b || (i >= m.start && i < m.end));
        const r = resolveBase(at);
        if (r.state === 'unresolved' || r.candidates[0]!.score < EXACT_FLOOR) continue;
        if (base.state !== 'unresolved' && r.candidates[0]!.score <= base.candidates[0]!.score) continue;
        split.modifiers.splice(split.modifiers.indexOf(m), 1);
        for (let i = m.start; i < m.end; i++) inBase[i] = true;
        base = r;
      }
      split.base = tokens.filter((_, i) => inBase[i]);
      if (base.state === 'unresolved' || split.modifiers.length === 0) return undefined;
      const top = base.candidates[0]!;
      const choice = mods.specialty(split, top.entity);
      if (!choice) return undefined;
      if (choice.inherent) {
        for (const c of base.candidates) offer(best, c.entity, c.score - PART_PENALTY, c.matchedOn, c.value);
      } else {
        for (const e of choice.styles) offer(best, e, MODIFIER_SCORE, 'canonical_word_order', this.canonicalOf[e] ?? '');
        // the base stays visible, below the specialty style
        for (const c of base.candidates.slice(0, 3)) offer(best, c.entity, Math.min(c.score, 100) - BASE_BELOW, c.matchedOn, c.value);
      }
      return {
        base: { text: split.base.join(' '), state: base.state, candidates: base.candidates.slice(0, 3) },
        modifiers: split.modifiers.map((m) => ({ text: m.text, class: m.class })),
        specialty: choice.styles,
        inherent: choice.inherent,
        classes: choice.classes,
        source: choice.source,
        locator: choice.locator,
      };
    } finally {
      this.readingBase = false;
    }
  }

  /** Whether two or more other candidates' canonical names hold every word of the query (see `genericAlias`). */
  private extendedByOthers(top: Candidate, ranked: Candidate[], tokens: string[]): boolean {
    let n = 0;
    for (const c of ranked) {
      if (c === top || c.matchedOn !== 'canonical_prefix') continue;
      const words = fold(exactForm(c.value)).split(' ');
      if (tokens.every((t) => words.includes(t)) && ++n >= 2) return true;
    }
    return false;
  }

  /**
   * Tiers 1–6 for one query string into `best`. `weakPartial` holds entities reached only through a
   * partial match that is no evidence of identity: a one-word query that is only the start of a word
   * of a longer name ("australia" → "Australian Sparkling Ale") or a later word of it ("mexico" →
   * "New Mexico"). Such a match is never `resolved`.
   */
  private collect(q: string, best: Map<number, Candidate>, wholeNamesOnly = false) {
    const { exact, folded, foldedAlt, tokens, cased } = queryForms(q);
    // (whole names only: nothing is ever added to weakPartial, so one shared empty set serves)
    // (loose: entities reached only by a connective reading that adds a connective the name lacks: never resolved)
    const out = { empty: true, shared: false, outOfScope: false, place: false, weakPartial: wholeNamesOnly ? NO_WEAK : new Set<number>(), loose: NO_WEAK, tokens };
    if (!folded) return out;
    out.empty = false;
    out.place = this.placeNames.has(folded);

    for (const i of this.exactMap.get(exact) ?? EMPTY) {
      const n = this.names[i]!;
      offer(best, n.entity, n.field === 'canonical' ? 100 : 97, n.field, n.value);
    }
    for (const f of foldedAlt ? [folded, foldedAlt] : [folded]) {
      for (const i of this.foldedMap.get(f) ?? EMPTY) {
        const n = this.names[i]!;
        offer(best, n.entity, n.field === 'canonical' ? 94 : 92, n.field === 'canonical' ? 'canonical_folded' : 'alias_folded', n.value);
      }
    }
    const shared = this.sharedTerms.get(folded);
    if (shared) for (const e of shared) offer(best, e, 90, 'shared_term', q.trim());
    out.shared = !!shared;
    if (tokens.length > 1) {
      const alt = foldedAlt ? foldedAlt.split(' ') : null;
      for (const ts of alt && alt.length === tokens.length ? [tokens, alt] : [tokens]) {
        for (const i of this.orderFreeMap.get([...ts].sort().join(' ')) ?? EMPTY) {
          const n = this.names[i]!;
          offer(best, n.entity, n.field === 'canonical' ? 88 : 86, n.field === 'canonical' ? 'canonical_word_order' : 'alias_word_order', n.value);
        }
      }
    }
    // connectives in another language, or added ("Fiano de Avellino" → Fiano di Avellino);
    // not for the line parser (whole names only), and not when a name already equals the query
    if (!wholeNamesOnly && tokens.length > 1 && !hasAtLeast(best, 86)) this.connectiveReadings(tokens, best, out);
    // a term for a drink outside the four domains ("cider", "junmai sake") gets no partial matches
    for (const t of tokens) if (this.outOfScopeWords.has(t)) out.outOfScope = true;
    // (a phrase in the query begins with one of its words: only the phrases of those first words are tried)
    if (!out.outOfScope && this.outOfScopePhrases.size && tokens.length > 1) {
      let padded: string | undefined;
      for (const t of tokens) {
        const phrases = this.outOfScopePhrases.get(t);
        if (!phrases) continue;
        padded ??= ` ${folded} `;
        for (const p of phrases) if (padded.includes(p)) out.outOfScope = true;
      }
    }

    // wholeNamesOnly: the caller keeps only names equal to q (tiers 1–4), so tiers 5 and 6 are not run
    if (!wholeNamesOnly && !out.outOfScope && !out.place && (best.size === 0 || !shared) && !tokens.every(isWeakWord)) {
      // typo and abbreviation readings score at most 75: when a name equals the query they can change
      // neither the top nor the state, so they are not sought
      let named = false;
      for (const c of best.values()) if (c.score >= 92) named = true;
      this.tokenMatches(tokens, cased, best, out.weakPartial, named);
    }
    return out;
  }

  /** Names whose content words equal the query's (filters/connective-words.ts), at CONNECTIVE_SCORE. */
  private connectiveReadings(tokens: string[], best: Map<number, Candidate>, out: { loose: Set<number> }) {
    const q = connectiveKey(tokens, isConnective);
    // only a query that holds a connective (without one, the partial tiers already read a name whose
    // connectives weigh nothing); two content words at least: "le gin" is no reading of "Gin"
    if (!q || q.connectives === 0 || q.key.indexOf(' ') < 0) return;
    const take = (name: number, sameCount: boolean) => {
      const n = this.names[name]!;
      const score = n.field === 'canonical' ? CONNECTIVE_SCORE.canonical : CONNECTIVE_SCORE.alias;
      const before = best.get(n.entity)?.score ?? 0;
      offer(best, n.entity, score, n.field === 'canonical' ? 'canonical_word_order' : 'alias_word_order', n.value);
      if (sameCount) {
        out.loose.delete(n.entity);
        return;
      }
      if (before >= score) return;
      if (out.loose === NO_WEAK) out.loose = new Set<number>();
      out.loose.add(n.entity);
    };
    // names without connectives, when the query has some ("Colli Orientali del Friuli" → "Friuli Colli Orientali"): a reading
    for (const i of this.orderFreeMap.get(q.key) ?? EMPTY) take(i, false);
    const found = this.connectives.lookup(q.key);
    // a connective the name holds and the query leaves out is fine (stop words weigh nothing in the partial
    // tiers either: "American IPA" is "American-Style India Pale Ale"); one the name lacks is a reading
    if (found) for (let j = 0; j < found.length; j += 2) take(found[j]!, found[j + 1]! >= q.connectives);
  }

  /**
   * Last resort for a query nothing matched: catalogue and retail names wrap a known name in
   * qualifiers ("AMERICAN VODKAS", "80 PROOF VODKA", "SPICED RUM", "IMPORTED DRY GINS"). First the
   * qualifier words are dropped; failing that, the head noun (the last word) alone is tried, and
   * only an exact or accent-folded name counts. Either way the answer is at most `ambiguous`.
   */
  private fallback(tokens: string[], best: Map<number, Candidate>): boolean {
    const found = new Map<number, Candidate>();
    // origin and trade words first ("AMERICAN WHITE IPA" → "white ipa"), then every qualifier ("WHITE RUM"
    // → "rum"), then also the words no name holds (a qualifier in another language: "mörk rom" → "rom")
    const drops: ((t: string) => boolean)[] = [
      (t) => ORIGIN_QUALIFIERS.has(t),
      (t) => QUALIFIERS.has(t),
      // (a word that an inflection reading makes known is kept: "XO-Konjakit" → "konjakit" → Konjak)
      (t) => QUALIFIERS.has(t) || (!this.isIndexWord(t) && !STOP_WORDS.has(t) && this.inflections.readings([t]).length === 0),
    ];
    // the last word is the head of the phrase: an unknown head means another thing ("orange juice" is
    // juice), so words no name holds are dropped only before a known last word ("mörk rom")
    const headWord = tokens[tokens.length - 1]!;
    const headKnown = this.isIndexWord(headWord) || QUALIFIERS.has(headWord) || this.inflections.readings([headWord]).length > 0;
    for (const drop of drops) {
      if (drop === drops[2] && !headKnown) continue;
      const kept = tokens.filter((t) => !drop(t) && !/^\d+$/.test(t));
      if (kept.length === 0 || kept.length === tokens.length) continue;
      const last = drop === drops[2];
      for (const part of [kept.join(' '), ...queryParts(kept.join(' '), kept, this.isIndexWord), ...(last ? this.inflections.readings(kept) : [])]) {
        const r = this.collect(part, found, last);
        for (const e of r.weakPartial) if (PARTIAL.has(found.get(e)?.matchedOn ?? 'canonical')) found.delete(e);
      }
      // with unknown words dropped only a name equal to what is left counts ("cotton candy" is no "Candy Mountain")
      if (last) for (const [e, c] of found) if (PARTIAL.has(c.matchedOn)) found.delete(e);
      if (hasAtLeast(found, RESOLVE_THRESHOLD)) break;
    }
    // a compound's head: the last part of a word, when that part is a known word ("fruktlikör" → "likör",
    // "maltwhisky" → "whisky"): the compound is a kind of it
    // (not when a name covers the compound whole, as "Malt Whisky" covers "maltwhisky": a partial match of 80 or more)
    if (!hasAtLeast(found, RESOLVE_THRESHOLD) && !hasAtLeast(best, WHOLE_COVER)) {
      const heads = compoundHeads(tokens, this.isIndexWord);
      for (const h of heads) {
        const exact = new Map<number, Candidate>();
        this.collect(h, exact, true);
        for (const c of exact.values()) if (!PARTIAL.has(c.matchedOn)) offer(found, c.entity, c.score, c.matchedOn, c.value);
      }
    }
    // a line in Japanese, Chinese or Korean names its place from the broadest to the narrowest and puts
    // qualifiers after the name ("フランス ボルドー", "ブルゴーニュ ルージュ", "イタリア ピエモンテ バローロ",
    // "샤블리 프리미에 크뤼"): its runs of words that are whole names, read from the left, longest first;
    // the last run is the narrowest name (issue 32)
    if (!hasAtLeast(found, RESOLVE_THRESHOLD) && !hasAtLeast(best, RESOLVE_THRESHOLD) && tokens.length > 1 && tokens.some((t) => CJK_WORD.test(t))) {
      let last: Map<number, Candidate> | null = null;
      for (let i = 0; i < tokens.length; ) {
        let step = 1;
        for (let len = Math.min(tokens.length - i, 6); len >= 1; len--) {
          if (len === tokens.length) continue;
          const run = new Map<number, Candidate>();
          this.collect(tokens.slice(i, i + len).join(' '), run, true);
          for (const [e, c] of run) if (PARTIAL.has(c.matchedOn) || c.score < EXACT_FLOOR) run.delete(e);
          if (run.size) {
            last = run;
            step = len;
            break;
          }
        }
        i += step;
      }
      if (last) for (const c of last.values()) offer(found, c.entity, c.score, c.matchedOn, c.value);
    }
    // the head noun alone only when nothing at all reached the threshold (a weak partial match ranks above it)
    if (!hasAtLeast(found, RESOLVE_THRESHOLD) && !hasAtLeast(best, RESOLVE_THRESHOLD) && tokens.length > 1) {
      const head = tokens[tokens.length - 1]!;
      const heads = [head, ...queryParts(head, [head], this.isIndexWord)];
      const exact = new Map<number, Candidate>();
      for (const h of heads) {
        if (STOP_WORDS.has(h) || QUALIFIERS.has(h)) continue;
        this.collect(h, exact);
      }
      for (const c of exact.values()) if (!PARTIAL.has(c.matchedOn)) offer(found, c.entity, c.score, c.matchedOn, c.value);
    }
    let any = false;
    for (const c of found.values()) {
      if (c.score - FALLBACK_PENALTY >= RESOLVE_THRESHOLD) any = true;
      offer(best, c.entity, c.score - FALLBACK_PENALTY, c.matchedOn, c.value);
    }
    return any;
  }

  /** Places beat synonyms: a grape reached only through an alias that a place also bears ranks below the place. */
  private placesBeatSynonyms(best: Map<number, Candidate>) {
    let place = -1;
    for (const c of best.values()) if (c.score >= 92 && !PARTIAL.has(c.matchedOn) && this.kindOf(c.entity) === 'place') place = Math.max(place, c.score);
    if (place < 0) return;
    for (const c of best.values()) {
      if ((c.matchedOn === 'alias' || c.matchedOn === 'alias_folded') && this.kindOf(c.entity) === 'grape') {
        c.score = round1(Math.min(c.score, place) - PLACE_OVER_SYNONYM);
      }
    }
  }

  /**
   * Tiers 5 and 6: every query word must match a whole word or a word prefix of the same name.
   * Words are matched longest first (usually the rarest), and each later word only keeps names the
   * earlier words matched, so common words never build large maps.
   */
  private tokenMatches(tokens: string[], cased: string[], best: Map<number, Candidate>, weakOut: Set<number>, exactOnly = false) {
    // every query word must land on its own word (or words) of one name: more words than any name has cannot match
    if (tokens.length > this.mostWords) return;
    // rarest first: indexed words by how few names hold them, then the others longest first, so the
    // running intersection (acc) is small from the start ("napa" before "valley")
    const n = tokens.length;
    ORDER.length = 0;
    RARITY.length = 0;
    for (let i = 0; i < n; i++) {
      const id = this.wordIds.get(tokens[i]!);
      RARITY.push(id === undefined ? Infinity : this.postings.start[id + 1]! - this.postings.start[id]!);
      // insertion sort (a query has few words) by rarity, then longer first, then query order
      let j = ORDER.length;
      ORDER.push(i);
      while (j > 0 && wordOrder(tokens, ORDER[j - 1]!, i) > 0) {
        ORDER[j] = ORDER[j - 1]!;
        j--;
      }
      ORDER[j] = i;
    }
    let acc: Hits | null = null; // form → summed hit over the words so far
    for (let oi = 0; oi < n; oi++) {
      const ti = ORDER[oi]!;
      const t = tokens[ti]!;
      const stop = STOP_WORDS.has(t);
      const hits: Hits = acc === this.hitsA ? this.hitsB : this.hitsA;
      hits.reset();
      const prefixOk = !stop && (t.length >= 3 || (t.length === 2 && ti === tokens.length - 1 && tokens.length > 1));
      // a query word that is itself a word of some name is taken as typed: no typo neighbours
      // a word more than two letters longer than every indexed word cannot be within two edits of one
      const k = exactOnly || stop || this.wordIds.has(t) || t.length > this.longestWord + 2 ? 0 : typoBudget(t.length);
      if (acc && acc.len <= DIRECT_SCAN_MAX) {
        // few names left: test their words directly instead of walking long posting lists
        this.scanForms(hits, acc, t, prefixOk, k);
      } else {
        this.indexedMatches(hits, acc, t, prefixOk, k);
      }
      const c = cased[ti] ?? t;
      if (c !== t && !exactOnly) {
        const split = abbreviationSplit(c);
        if (split) this.abbreviationMatches(t, split, hits, acc);
      }
      if (hits.len === 0) return;
      if (acc) {
        for (let i = 0; i < hits.len; i++) {
          const a = acc.slot(hits.list[i]!);
          hits.cost[i]! += acc.cost[a]!;
          hits.credit[i]! += acc.credit[a]!;
          hits.prefix[i]! |= acc.prefix[a]!;
          hits.head[i]! |= acc.head[a]!;
          hits.mask[i]! |= acc.mask[a]!;
        }
      }
      acc = hits;
    }
    const capsQuery = tokens.length === 1 && !exactOnly && abbreviationSplit(cased[0] ?? '') === 'free';
    this.offerPartials(tokens, acc, best, weakOut, capsQuery);
  }

  /** Whole-word, prefix and typo hits of query word `t` through the index (posting lists, sorted words, deletion hashes). */
  private indexedMatches(hits: Hits, acc: Hits | null, t: string, prefixOk: boolean, k: number) {
    const id = this.wordIds.get(t);
    if (id !== undefined) this.addPostings(hits, acc, t, id, 0, 1);
    if (prefixOk) {
      // word prefix: the query word starts an index word
      // first word ≥ t: compared on the packed first letters (one array), the strings only on a tie
      const sorted = this.sortedTokens;
      const keys = this.sortedKeys;
      const pt = pack3(t);
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const km = keys[mid]!;
        if (km < pt || (km === pt && sorted[mid]! < t)) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < sorted.length && sorted[i]!.startsWith(t); i++) {
        const tok = sorted[i]!;
        if (tok !== t) this.addPostings(hits, acc, t, this.sortedIds[i]!, 0, t.length / tok.length);
      }
    }
    if (k > 0) {
      this.typoNeighbours(t, k);
      for (let i = 0; i < this.nearLen; i++) {
        const w = this.nearIds[i]!;
        this.addPostings(hits, acc, t, w, this.nearDist[w]!, 1);
      }
    }
  }

  /**
   * Index words within `k` edits of `t` (Damerau), found through the deletion index: their ids in
   * nearIds[0 … nearLen−1] (in the order found), each with its distance in nearDist. Every word
   * examined gets nearStamp = nearEpoch and its distance (up to k+1) in nearDist.
   */
  private typoNeighbours(t: string, k: number) {
    if (++this.nearEpoch === 0x3fffffff) {
      this.nearStamp.fill(0);
      this.nearEpoch = 1;
    }
    const epoch = this.nearEpoch;
    this.nearLen = 0;
    HASHES.length = 0;
    for (const d of deletionHashes(t, k, HASHES)) {
      const s = this.delSlot(d);
      if (s < 0) continue;
      for (let j = this.delTable[s + 1]!, end = this.delTable[s + 2]!; j < end; j++) {
        const w = this.delWords[j]!;
        if (this.nearStamp[w] === epoch) continue;
        this.nearStamp[w] = epoch;
        const dist = damerau(t, this.wordText[w]!, k);
        this.nearDist[w] = dist;
        if (dist <= k) this.nearIds[this.nearLen++] = w;
      }
    }
  }

  /**
   * The same hits as indexedMatches, found by testing the words of the names still in `acc`: a word
   * equal to `t`, two weighted words written together, a word or joined pair that `t` starts (joined
   * only when `t` reaches into the second word), and a word within `k` edits (the typo neighbours
   * the deletion index gives).
   */
  private scanForms(hits: Hits, acc: Hits, t: string, prefixOk: boolean, k: number) {
    const near = k > 0;
    if (near) this.typoNeighbours(t, k);
    const epoch = this.nearEpoch;
    for (let i = 0; i < acc.len; i++) {
      const formIdx = acc.list[i]!;
      const f = this.forms[formIdx]!;
      const ws = f.tokens;
      for (let w = 0; w < ws.length; w++) {
        const word = ws[w]!;
        const weight = f.weights[w]!;
        const bit = w < 30 ? 1 << w : 0;
        const head = w === f.first;
        if (word === t) record(hits, formIdx, 0, false, weight, head, bit);
        else if (prefixOk && word.startsWith(t)) record(hits, formIdx, 0, true, weight * (t.length / word.length), head, bit);
        else if (near) {
          const id = f.ids[w]!;
          if (this.nearStamp[id] === epoch && this.nearDist[id]! <= k) record(hits, formIdx, this.nearDist[id]!, false, weight, head, bit);
        }
        const next = ws[w + 1];
        if (next === undefined || !weight || !f.weights[w + 1] || t.length <= word.length || !t.startsWith(word)) continue;
        // t reaches into the next word: is it the two written together, or their start?
        const joinedLength = word.length + next.length;
        if (t.length > joinedLength || !next.startsWith(t.slice(word.length))) continue;
        const bits = w < 30 ? 3 << w : 0;
        const jhead = w === f.first || w + 1 === f.first;
        if (t.length === joinedLength) record(hits, formIdx, 0, false, weight + f.weights[w + 1]!, jhead, bits);
        else if (prefixOk) record(hits, formIdx, 0, true, (weight + f.weights[w + 1]!) * (t.length / joinedLength), jhead, bits);
      }
    }
  }

  /** Scores every name that all query words reached (tiers 5 and 6) and marks the weak ones. */
  private offerPartials(tokens: string[], acc: Hits | null, best: Map<number, Candidate>, weakOut: Set<number>, capsQuery = false) {
    if (!acc) return;
    // entities with a strong form are not weak, whatever their other forms
    if (++this.strongEpoch === 0x3fffffff) {
      this.strongStamp.fill(0);
      this.strongEpoch = 1;
    }
    const strong = this.strongEpoch;
    const weak = weakOut;
    for (let i = 0; i < acc.len; i++) {
      const formIdx = acc.list[i]!;
      const form = this.forms[formIdx]!;
      if (tokens.length > form.tokens.length) continue;
      const n = this.names[form.name]!;
      const cost = acc.cost[i]!;
      const prefix = acc.prefix[i] === 1;
      const abbr = acc.abbr[i] === 1;
      // a partial match that misses the name's first word is no evidence of identity ("santa barbara"
      // is not "Happy Canyon of Santa Barbara"); nor is one query word that is only the start, or a
      // misspelling, of the first word of a longer name ("australia" → "Australian Sparkling Ale")
      // A one-word query that stops a few letters short of a one-word name may be another word of the
      // same stem ("india" → "Indiana"): at most ambiguous too.
      const q0 = tokens[0]!;
      const isWeak =
        acc.head[i] === 0 ||
        (tokens.length === 1 && !abbr && form.tokens.length > 1 && (form.tokens[form.first] !== q0 || cost > 0)) ||
        (tokens.length === 1 && !abbr && form.tokens.length === 1 && prefix && cost === 0 && form.tokens[0]!.length - q0.length <= 3) ||
        // a variety named "<word> <colour>" ("Loureiro Tinto", "Malvasia Bianca") is one of several of
        // that word: the word alone names none of them for sure
        (tokens.length === 1 && !abbr && form.first === 0 && form.tokens.length === 2 && GENERIC_WORDS.has(form.tokens[1]!) && (acc.mask[i]! & ~1) === 0) ||
        // a name of the form "<word> di|de|of <place>" is named after its place: the word alone is a grape, a
        // drink or a town ("sambuca" is not "Sambuca di Sicilia", "moscato" not "Moscato d'Asti")
        (tokens.length === 1 && !abbr && form.first === 0 && form.tokens.length > 2 && form.weights[1] === 0 && (acc.mask[i]! & ~1) === 0) ||
        // leaving out a word inside the name changes what it names ("Wild Beer" is not "Wild Specialty Beer")
        skipsInnerWord(acc.mask[i]!, form.weights) ||
        // the name's last words left uncovered name a narrower thing ("Trappist" is not "Trappist Single")
        (!abbr && (tokens.length > 1 || n.field === 'alias') && leavesTrailingWords(acc.mask[i]!, acc.credit[i]!, form.tokens, form.weights, form.end, isGenericWord)) ||
        // a word some name holds whole is not the start of a longer word ("Wheat" is not "Wheatwine")
        (tokens.length === 1 && !abbr && knownWordAsPrefix(q0, prefix, cost, this.isIndexWord)) ||
        // bare initials spell several names ("IPL": International, or India, Pale Lager)
        (tokens.length === 1 && abbr && spellsInitials(q0, form.tokens, form.weights)) ||
        // part of a name in another language is no evidence: languages place their qualifiers
        // differently ("Makedonia" is not "Makedonia Utara", the Malay for North Macedonia)
        (this.foreignAlias[form.name] === 1 && acc.credit[i]! < form.weight);
      if (isWeak) weak.add(n.entity);
      else this.strongStamp[n.entity] = strong;
      const coverage = Math.min(1, acc.credit[i]! / form.weight);
      const adjust = this.prominence[n.entity]! - (n.field === 'alias' ? PARTIAL_ALIAS_PENALTY : 0) - (capsQuery && !abbr && prefix ? CAPS_PREFIX_PENALTY : 0);
      if (cost === 0) {
        offer(best, n.entity, Math.min(85, 60 + 25 * coverage + adjust), n.field === 'canonical' ? 'canonical_prefix' : 'alias_prefix', n.value);
      } else {
        offer(best, n.entity, 50 + 25 * coverage - 8 * cost + adjust, n.field === 'canonical' ? 'canonical_typo' : 'alias_typo', n.value);
      }
    }
    for (const e of weak) if (this.strongStamp[e] === strong) weak.delete(e);
  }

  /** Records the names where index word `id` occurs as a hit of query word `t` (only names in `acc`, when given). */
  private addPostings(hits: Hits, acc: Hits | null, t: string, id: number, cost: number, share: number) {
    const { start, form: pForm, ws: pWs } = this.postings;
    const meta = this.formMeta;
    const wm = this.wordMeta;
    for (let j = start[id]!, end = start[id + 1]!; j < end; j++) {
      const form = pForm[j]!;
      if (acc && acc.at[2 * form] !== acc.epoch) continue;
      const first = meta[2 * form]!;
      const at = meta[2 * form + 1]!;
      const word = pWs[j]! >> 1;
      const span2 = (pWs[j]! & 1) === 1;
      const m = wm[at + word]!;
      let w = m & 1;
      if (span2) {
        // two words written together count only when the query word reaches into the second one
        if (t.length <= m >> 1) continue;
        w += wm[at + word + 1]! & 1;
      }
      const bits = word < 30 ? (span2 ? 3 : 1) << word : 0;
      record(hits, form, cost, share < 1, w * share, word === first || (span2 && word + 1 === first), bits);
    }
  }

  /**
   * A word typed as an abbreviation: its pieces start consecutive words of a name. "GrüVe" has fixed
   * pieces ("gru", "ve"); an all-capitals word ("DIPA", "NZ") may split anywhere into two or more.
   */
  private abbreviationMatches(t: string, split: string[] | 'free', hits: Hits, acc: Hits | null) {
    const { start, form: pForm, ws: pWs } = this.initials;
    if (split !== 'free') {
      const id = this.initialIds.get(split[0]![0]! + split[1]![0]!);
      if (id === undefined) return;
      for (let j = start[id]!, end = start[id + 1]!; j < end; j++) {
        const form = pForm[j]!;
        if (acc && !acc.has(form)) continue;
        const f = this.forms[form]!;
        const word = pWs[j]! >> 1;
        const credit = this.fixedSplit(split, f, word);
        if (credit > 0) record(hits, form, 0, true, credit, word <= f.first, 0, true);
      }
      return;
    }
    // any split: the first piece is t[0..cut), the second starts with t[cut]; the rest may split again
    for (let cut = 1; cut < t.length; cut++) {
      const first = t.slice(0, cut);
      const id = this.initialIds.get(t[0]! + t[cut]!);
      if (id === undefined) continue;
      for (let j = start[id]!, end = start[id + 1]!; j < end; j++) {
        const form = pForm[j]!;
        if (acc && !acc.has(form)) continue;
        const f = this.forms[form]!;
        const word = pWs[j]! >> 1;
        const w = f.tokens[word]!;
        if (!w.startsWith(first)) continue;
        const rest = this.freeSplit(t, cut, f, word + 1, 1);
        if (rest > 0) record(hits, form, 0, true, rest + f.weights[word]! * (cut / w.length), word <= f.first, 0, true);
      }
    }
  }

  /** Covered weight when `pieces` start words `word`, `word`+1, … of the form, else 0. */
  private fixedSplit(pieces: string[], f: Form, word: number): number {
    if (word + pieces.length > f.tokens.length) return 0;
    let credit = 0;
    for (let i = 0; i < pieces.length; i++) {
      const w = f.tokens[word + i]!;
      if (!w.startsWith(pieces[i]!)) return 0;
      credit += f.weights[word + i]! * (pieces[i]!.length / w.length);
    }
    return credit;
  }

  /** Best covered weight for t[pos…] split into prefixes of words `word`, `word`+1, … (at least two pieces). */
  private freeSplit(t: string, pos: number, f: Form, word: number, pieces: number): number {
    if (pos === t.length) return pieces >= 2 ? 1e-9 : 0;
    const w = f.tokens[word];
    if (w === undefined) return 0;
    let best = 0;
    for (let end = pos + 1; end <= t.length && end - pos <= w.length; end++) {
      if (w.charCodeAt(end - pos - 1) !== t.charCodeAt(end - 1)) break;
      const rest = this.freeSplit(t, end, f, word + 1, pieces + 1);
      if (rest > 0) best = Math.max(best, rest + f.weights[word]! * ((end - pos) / w.length));
    }
    return best;
  }
}

const PLURAL_ENDINGS: [string, string][] = [['ies', 'y'], ['es', ''], ['s', '']];

/**
 * The parts of a query that are worth resolving on their own: each side of "A / B", the name before
 * a bracket and the bracketed abbreviation ("American Pale Ale (APA)"), and the query with plural
 * words made singular where only the singular is an indexed word ("CANADIAN WHISKIES").
 */
export function queryParts(q: string, qTokens: string[], isIndexWord: (folded: string) => boolean): string[] {
  // most queries have no brackets, no slash and no plural to try: nothing to build
  if (!q.includes('(') && !q.includes('/') && !q.includes('|') && !hasUnindexedPlural(qTokens, isIndexWord)) return [];
  const parts = new Set<string>();
  if (q.includes('(')) {
    const bracket = /\(([^()]{1,40})\)/g;
    parts.add(q.replace(bracket, ' '));
    for (const m of q.matchAll(bracket)) parts.add(m[1]!);
  }
  if (q.includes('/') || q.includes('|')) {
    for (const p of [q, ...parts]) {
      const sides = p.split(/[/|]/).map((x) => x.trim()).filter(Boolean);
      if (sides.length >= 2 && sides.length <= 4) {
        for (const x of sides) parts.add(x);
        // "Fruit / Vegetable Beer", "American Amber / Red Lager": the last side's final word (the
        // family noun) belongs to every side, so "Fruit Beer" and "American Amber Lager" are tried too
        const last = sides[sides.length - 1]!.split(/\s+/);
        if (last.length >= 2) {
          const noun = last[last.length - 1]!;
          for (let i = 0; i < sides.length - 1; i++) {
            const words = sides[i]!.split(/\s+/);
            if (words[words.length - 1]!.toLowerCase() !== noun.toLowerCase()) parts.add(`${sides[i]} ${noun}`);
          }
        }
      }
    }
  }
  for (const p of parts.size === 0 ? [q] : [q, ...parts]) {
    const tokens = p === q ? qTokens : queryForms(p).tokens;
    if (!hasUnindexedPlural(tokens, isIndexWord)) continue;
    let changed = false;
    const singular = tokens.map((t) => {
      if (t.length < 4 || isIndexWord(t)) return t;
      for (const [end, repl] of PLURAL_ENDINGS) {
        if (t.endsWith(end) && isIndexWord(t.slice(0, -end.length) + repl)) {
          changed = true;
          return t.slice(0, -end.length) + repl;
        }
      }
      return t;
    });
    if (changed) parts.add(singular.join(' '));
  }
  parts.delete(q);
  const out: string[] = [];
  for (const p of parts) if (p.trim()) out.push(p);
  return out;
}

/** Whether a word of four letters or more ends in "s" and is not an indexed word (it may be a plural). */
function hasUnindexedPlural(tokens: string[], isIndexWord: (folded: string) => boolean): boolean {
  for (const t of tokens) if (t.length >= 4 && t.endsWith('s') && !isIndexWord(t)) return true;
  return false;
}

/** A modifier reading's specialty style scores this (the word-order tier: the whole query is explained, in other words). */
const MODIFIER_SCORE = 88;
/** The base style of a modifier reading ranks this far below its own score (never within the margin of the specialty style). */
const BASE_BELOW = 15;

/** Whether a modifier reading explains the whole query: one specialty style (or the base), the base resolved. */
function readingResolves(r: ModifierReading): boolean {
  return r.base.state === 'resolved' && r.specialty.length === 1;
}

/** Scores from here up are whole-name matches (exact, folded, word order free); below, partial and typo matches. */
const EXACT_FLOOR = 86;
/** A one-word query this short reaching a name only by a typo is at most ambiguous. */
const SHORT_TYPO = 5;
/** A partial match scoring this much covers (nearly) every word of its name. */
const WHOLE_COVER = 80;
/** Shortest part of a compound kept as its head; the part before it must have at least MIN_MODIFIER letters. */
const MIN_HEAD = 4;
const MIN_MODIFIER = 3;

/**
 * Readings of a query with one compound word ("fruktlikör", "maltwhisky") replaced by its head: the
 * longest ending that is an indexed word. At most one reading per word.
 */
export function compoundHeads(tokens: string[], isIndexWord: (w: string) => boolean): string[] {
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (t.length < MIN_HEAD + MIN_MODIFIER || /\d/.test(t)) return;
    for (let cut = MIN_MODIFIER; cut <= t.length - MIN_HEAD; cut++) {
      const head = t.slice(cut);
      if (!isIndexWord(head)) continue;
      const word = head;
      const copy = tokens.slice();
      copy[i] = word;
      out.push(copy.join(' '));
      return;
    }
  });
  return out;
}

function hasStrong(m: Map<number, Candidate>, weak: Set<number>): boolean {
  for (const c of m.values()) if (c.score >= RESOLVE_THRESHOLD && !weak.has(c.entity)) return true;
  return false;
}

function hasAtLeast(m: Map<number, Candidate>, score: number): boolean {
  for (const c of m.values()) if (c.score >= score) return true;
  return false;
}

/**
 * Words that qualify a drink without naming another one, as retail categories and catalogues use them:
 * origin and trade words ("american", "imported"), strength ("80 proof"), style words of spirits
 * ("spiced", "straight"), and the origin adjectives and family nouns beer catalogues put around a
 * style name. Dropped only by the last-resort fallback, whose answers are never `resolved`.
 */
export const ORIGIN_QUALIFIERS: ReadonlySet<string> = new Set([
  'american', 'imported', 'import', 'domestic', 'misc', 'miscellaneous', 'other', 'premium', 'proof', 'low',
  'style', 'traditional', 'classic', 'contemporary',
  // beer catalogues: origin adjectives around a style name
  'english', 'british', 'german', 'belgian', 'european', 'euro', 'international',
]);

export const QUALIFIERS: ReadonlySet<string> = new Set([
  ...ORIGIN_QUALIFIERS,
  'spiced', 'white', 'gold', 'golden', 'dark', 'aged', 'straight', 'single', 'barrel', 'bottled', 'bond', 'mixto', 'agave',
  // beer catalogues: the family noun after a style name ("Munich Helles Lager")
  'ale', 'lager', 'beer', 'bier',
]);
