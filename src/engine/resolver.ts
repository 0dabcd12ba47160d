// Resolver: free text → ranked entities. Everything is built once into immutable maps at start-up;
// a query touches only hash lookups, a sorted-array range for prefixes and a SymSpell deletion
// index (hashed, so no strings are built per query) for typos. Our own code rather than a search
// library because the tiers, word-boundary rule and state rules below are the product, and
// `npm run bench:resolve` shows the latency gain.
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
// Candidates below the threshold are never returned. Ties are broken by the caller's tieBreak and an
// entity's best name by (score, canonical first, value A–Z), so results do not depend on build order.
// The threshold and margins are tuned on test/resolve/labelled-queries.json
// (`npm run bench:resolve-quality`): a threshold of 50–55 gives the same results there, 60 loses
// 13 two-edit typos; a partial margin of 3 leaves 4 shared partial terms resolved ("Barleywine",
// "Shenandoah", "Malibu", "Uhlen"), 7 changes nothing more.
import {
  abbreviationSplit, damerau, deletionHashes, exactForm, fold, indexVariants, isWeakWord, queryForms, STOP_WORDS, typoBudget,
} from './normalize.ts';

export const RESOLVE_THRESHOLD = 55;
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
  | 'entity_id';

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
}

interface Form {
  name: number; // index into names
  tokens: string[];
  weights: number[]; // per token: 0 for stop words, else 1
  weight: number; // sum of weights (at least 1)
  first: number; // index of the first word that is not a stop word (0 when all are)
}

interface Posting {
  form: number;
  word: number; // first word covered
  span: number; // 1, or 2 for two words written together
}

interface TokenHit {
  cost: number; // edits
  prefix: boolean;
  credit: number; // covered weight of the name
  abbr: boolean; // matched as an abbreviation ("DIPA")
  head: boolean; // the name's first (non-stop) word is covered
  mask: number; // name words covered (bit i = word i, words past 30 not tracked)
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const PARTIAL_ALIAS_PENALTY = 3;
const PARTIAL = new Set<MatchedOn>(['canonical_prefix', 'alias_prefix', 'canonical_typo', 'alias_typo']);

const EMPTY: readonly number[] = [];
const HASHES: number[] = []; // scratch buffer for deletion hashes (resolve is synchronous)

/** Keeps the better hit of a query word on a name: fewer edits, then more coverage, then whole word. */
function record(hits: Map<number, TokenHit>, form: number, cost: number, prefix: boolean, credit: number, head: boolean, mask: number, abbr = false) {
  const cur = hits.get(form);
  if (!cur) hits.set(form, { cost, prefix, credit, abbr, head, mask });
  else if (cost < cur.cost || (cost === cur.cost && (credit > cur.credit || (credit === cur.credit && !prefix && cur.prefix)))) {
    cur.cost = cost;
    cur.prefix = prefix;
    cur.credit = credit;
    cur.abbr = abbr;
    cur.head ||= head;
    cur.mask = mask;
  } else cur.head ||= head;
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
  const s = round1(score);
  const cur = best.get(entity);
  if (!cur || s > cur.score) {
    best.set(entity, { entity, score: s, matchedOn, value });
    return;
  }
  if (s < cur.score) return;
  const canon = matchedOn.startsWith('canonical');
  const curCanon = cur.matchedOn.startsWith('canonical');
  if ((canon && !curCanon) || (canon === curCanon && value < cur.value)) best.set(entity, { entity, score: s, matchedOn, value });
}

export class Resolver {
  private readonly names: ResolvableName[];
  private readonly forms: Form[] = [];
  private readonly exactMap = new Map<string, number[]>(); // exact form → name idx
  private readonly foldedMap = new Map<string, number[]>(); // folded → name idx
  private readonly orderFreeMap = new Map<string, number[]>(); // sorted tokens → name idx
  private readonly postings = new Map<string, Posting[]>(); // word (or two words joined) → where
  private readonly sortedTokens: string[];
  private readonly deleteIndex = new Map<number, string[]>(); // hash of a deletion variant → words
  private readonly initials = new Map<string, Posting[]>(); // first letters of two consecutive words
  private readonly sharedTerms = new Map<string, number[]>(); // folded term → entities
  private readonly prominence = new Map<number, number>(); // entity → bonus for partial matches
  private readonly tieBreak: (a: number, b: number) => number;
  /** Longest indexed word and most words in a name: bounds that keep hostile queries cheap. */
  private readonly longestWord: number;
  private readonly mostWords: number;

  private readonly kindOf: (entity: number) => EntityKind;
  private readonly outOfScopeWords = new Set<string>(); // one-word out-of-scope terms, folded
  private readonly outOfScopePhrases: string[] = []; // several-word terms, folded, padded with spaces
  private readonly placeNames = new Set<string>(); // folded country names

  constructor(
    names: ResolvableName[],
    sharedTerms: { term: string; entities: number[] }[],
    tieBreak: (a: number, b: number) => number,
    options: ResolverOptions = {},
  ) {
    this.names = names;
    this.tieBreak = tieBreak;
    this.kindOf = options.kindOf ?? (() => 'other');
    for (const p of options.placeNames ?? []) for (const f of indexVariants(p)) this.placeNames.add(f);
    for (const t of options.outOfScope ?? []) {
      for (const f of indexVariants(t)) {
        if (f.includes(' ')) this.outOfScopePhrases.push(` ${f} `);
        else this.outOfScopeWords.add(f);
      }
    }
    const push = <K>(m: Map<K, number[]>, k: K, v: number) => {
      const a = m.get(k);
      if (!a) m.set(k, [v]);
      else if (!a.includes(v)) a.push(v);
    };
    const post = (m: Map<string, Posting[]>, k: string, p: Posting) => {
      const a = m.get(k);
      if (!a) m.set(k, [p]);
      else a.push(p);
    };
    const aliases = new Map<number, number>();
    names.forEach((n, i) => {
      if (n.field === 'alias') aliases.set(n.entity, (aliases.get(n.entity) ?? 0) + 1);
      for (const apostrophe of ['', ' '] as const) push(this.exactMap, exactForm(n.value, apostrophe), i);
      for (const folded of indexVariants(n.value)) {
        const formIdx = this.forms.length;
        const tokens = folded.split(' ');
        const weights: number[] = tokens.map((t) => (STOP_WORDS.has(t) ? 0 : 1));
        this.forms.push({ name: i, tokens, weights, weight: Math.max(1, weights.reduce((s, w) => s + w, 0)), first: Math.max(0, weights.indexOf(1)) });
        push(this.foldedMap, folded, i);
        if (tokens.length > 1) push(this.orderFreeMap, [...tokens].sort().join(' '), i);
        tokens.forEach((t, w) => {
          post(this.postings, t, { form: formIdx, word: w, span: 1 });
          const next = tokens[w + 1];
          if (next === undefined) return;
          if (weights[w] && weights[w + 1]) post(this.postings, t + next, { form: formIdx, word: w, span: 2 });
          // an abbreviation never starts on a stop word ("d'Alba", "de la"): those pairs are not indexed
          if (weights[w]) post(this.initials, t[0]! + next[0]!, { form: formIdx, word: w, span: 2 });
        });
      }
    });
    for (const [e, n] of aliases) {
      const bonus = Math.min(2, Math.max(0, Math.log2(1 + n) - 2));
      if (bonus > 0) this.prominence.set(e, bonus);
    }
    this.sortedTokens = [...this.postings.keys()].sort();
    const words = new Set<string>();
    for (const f of this.forms) for (const t of f.tokens) words.add(t);
    this.longestWord = Math.max(0, ...[...words].map((w) => w.length));
    this.mostWords = Math.max(0, ...this.forms.map((f) => f.tokens.length));
    for (const t of [...words].sort()) {
      // a query word of length L may carry typoBudget(L) edits; index words down to L-2 must be reachable
      const k = t.length >= 7 ? 2 : t.length >= 4 ? 1 : 0;
      if (k === 0 || STOP_WORDS.has(t)) continue;
      for (const d of deletionHashes(t, k)) this.deleteIndexAdd(d, t);
    }
    for (const s of sharedTerms) {
      const key = fold(exactForm(s.term));
      this.sharedTerms.set(key, [...new Set([...(this.sharedTerms.get(key) ?? []), ...s.entities])]);
    }
  }

  private deleteIndexAdd(variant: number, token: string) {
    const a = this.deleteIndex.get(variant);
    if (!a) this.deleteIndex.set(variant, [token]);
    else if (a[a.length - 1] !== token) a.push(token);
  }

  get nameCount() {
    return this.names.length;
  }

  /**
   * Resolves q. `accept`, when given, restricts the answer to the entities it accepts (the type and
   * domain filters of resolve-entity): the others are dropped before the state is decided, so a term
   * shared with an entity of another type can still be `resolved` within the filter.
   */
  resolve(q: string, limit: number, accept?: (entity: number) => boolean): Resolution {
    const best = new Map<number, Candidate>();
    const whole = this.collect(q, best);
    // a country name is answered by a name equal to it or not at all ("India" is not Indiana)
    const place = whole.place;
    if (!whole.empty && !whole.outOfScope && !place) {
      // Other taxonomies' forms: "Saison / Farmhouse Ale", "American Pale Ale (APA)", plurals
      // ("CANADIAN WHISKIES"). Each part is resolved on its own; its candidates rank a little lower.
      for (const part of queryParts(q, whole.tokens, (t) => this.postings.has(t))) {
        const partBest = new Map<number, Candidate>();
        const r = this.collect(part, partBest);
        whole.shared ||= r.shared;
        whole.outOfScope ||= r.outOfScope;
        for (const e of r.weakPartial) whole.weakPartial.add(e);
        for (const c of partBest.values()) {
          // a part matched only partially is a guess ("American Amber / Red Lager" is not "American Amber Ale")
          if (PARTIAL.has(c.matchedOn)) whole.weakPartial.add(c.entity);
          offer(best, c.entity, c.score - PART_PENALTY, c.matchedOn, c.value);
        }
      }
    }
    this.placesBeatSynonyms(best);
    for (const e of whole.weakPartial) if (!PARTIAL.has(best.get(e)!.matchedOn)) whole.weakPartial.delete(e);
    let fallback = false;
    // the fallback also runs when every candidate that reaches 55 is only a weak partial match
    if (!whole.empty && !whole.outOfScope && !place && !hasStrong(best, whole.weakPartial)) fallback = this.fallback(whole.tokens, best);

    const ranked: Candidate[] = [];
    const below: Candidate[] = [];
    for (const c of best.values()) {
      if (accept && !accept(c.entity)) continue;
      (c.score >= RESOLVE_THRESHOLD ? ranked : c.score >= SUGGESTION_FLOOR ? below : null)?.push(c);
    }
    const tieBreak = this.tieBreak;
    const order = (x: Candidate, y: Candidate) => y.score - x.score || tieBreak(x.entity, y.entity);
    if (ranked.length === 0) {
      return {
        state: 'unresolved',
        candidates: [],
        suggestions: below.sort(order).slice(0, SUGGESTION_LIMIT),
        coverage: whole.outOfScope ? 'out_of_scope' : 'unknown_term',
      };
    }
    ranked.sort(order);
    const top = ranked[0]!;
    const gap = ranked.length > 1 ? top.score - ranked[1]!.score : Infinity;
    const close = gap < AMBIGUITY_MARGIN || (PARTIAL.has(top.matchedOn) && gap < PARTIAL_AMBIGUITY_MARGIN);
    const shared = whole.shared && (!accept || ranked.length > 1);
    const state = shared || close || fallback || whole.weakPartial.has(top.entity) ? 'ambiguous' : 'resolved';
    return { state, candidates: ranked.slice(0, limit), suggestions: [], coverage: null };
  }

  /**
   * Tiers 1–6 for one query string into `best`. `weakPartial` holds entities reached only through a
   * partial match that is no evidence of identity: a one-word query that is only the start of a word
   * of a longer name ("australia" → "Australian Sparkling Ale") or a later word of it ("mexico" →
   * "New Mexico"). Such a match is never `resolved`.
   */
  private collect(q: string, best: Map<number, Candidate>) {
    const { exact, folded, foldedAlt, tokens, cased } = queryForms(q);
    const out = { empty: true, shared: false, outOfScope: false, place: false, weakPartial: new Set<number>(), tokens };
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
    // a term for a drink outside the four domains ("cider", "junmai sake") gets no partial matches
    for (const t of tokens) if (this.outOfScopeWords.has(t)) out.outOfScope = true;
    if (!out.outOfScope && this.outOfScopePhrases.length && tokens.length > 1) {
      const padded = ` ${folded} `;
      for (const p of this.outOfScopePhrases) if (padded.includes(p)) out.outOfScope = true;
    }
    if (!out.outOfScope && !out.place && (best.size === 0 || !shared) && !tokens.every(isWeakWord)) {
      // typo and abbreviation readings score at most 75: when a name equals the query they can change
      // neither the top nor the state, so they are not sought
      let named = false;
      for (const c of best.values()) if (c.score >= 92) named = true;
      this.tokenMatches(tokens, cased, best, out.weakPartial, named);
    }
    return out;
  }

  /**
   * Last resort for a query nothing matched: catalogue and retail names wrap a known name in
   * qualifiers ("AMERICAN VODKAS", "80 PROOF VODKA", "SPICED RUM", "IMPORTED DRY GINS"). First the
   * qualifier words are dropped; failing that, the head noun (the last word) alone is tried, and
   * only an exact or accent-folded name counts. Either way the answer is at most `ambiguous`.
   */
  private fallback(tokens: string[], best: Map<number, Candidate>): boolean {
    const found = new Map<number, Candidate>();
    // origin and trade words first ("AMERICAN WHITE IPA" → "white ipa"), then every qualifier ("WHITE RUM" → "rum")
    for (const drop of [ORIGIN_QUALIFIERS, QUALIFIERS]) {
      const kept = tokens.filter((t) => !drop.has(t) && !/^\d+$/.test(t));
      if (kept.length === 0 || kept.length === tokens.length) continue;
      for (const part of [kept.join(' '), ...queryParts(kept.join(' '), kept, (t) => this.postings.has(t))]) {
        const r = this.collect(part, found);
        for (const e of r.weakPartial) if (PARTIAL.has(found.get(e)?.matchedOn ?? 'canonical')) found.delete(e);
      }
      if (hasAtLeast(found, RESOLVE_THRESHOLD)) break;
    }
    // the head noun alone only when nothing at all reached the threshold (a weak partial match ranks above it)
    if (!hasAtLeast(found, RESOLVE_THRESHOLD) && !hasAtLeast(best, RESOLVE_THRESHOLD) && tokens.length > 1) {
      const head = tokens[tokens.length - 1]!;
      const heads = [head, ...queryParts(head, [head], (t) => this.postings.has(t))];
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
    const rarity = (i: number) => this.postings.get(tokens[i]!)?.length ?? Infinity;
    const order = tokens.map((_, i) => i).sort((x, y) => rarity(x) - rarity(y) || tokens[y]!.length - tokens[x]!.length || x - y);
    let acc: Map<number, TokenHit> | null = null; // form → summed hit over the words so far
    for (const ti of order) {
      const t = tokens[ti]!;
      const stop = STOP_WORDS.has(t);
      const hits = new Map<number, TokenHit>();
      const prefixOk = !stop && (t.length >= 3 || (t.length === 2 && ti === tokens.length - 1 && tokens.length > 1));
      // a query word that is itself a word of some name is taken as typed: no typo neighbours
      // a word more than two letters longer than every indexed word cannot be within two edits of one
      const k = exactOnly || stop || this.postings.has(t) || t.length > this.longestWord + 2 ? 0 : typoBudget(t.length);
      if (acc && acc.size <= DIRECT_SCAN_MAX) {
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
      if (hits.size === 0) return;
      if (acc) {
        for (const [form, h] of hits) {
          const a = acc.get(form)!;
          h.cost += a.cost;
          h.credit += a.credit;
          h.prefix ||= a.prefix;
          h.head ||= a.head;
          h.mask |= a.mask;
        }
      }
      acc = hits;
    }
    this.offerPartials(tokens, acc, best, weakOut);
  }

  /** Whole-word, prefix and typo hits of query word `t` through the index (posting lists, sorted words, deletion hashes). */
  private indexedMatches(hits: Map<number, TokenHit>, acc: Map<number, TokenHit> | null, t: string, prefixOk: boolean, k: number) {
    if (this.postings.has(t)) this.addPostings(hits, acc, t, t, 0, 1);
    if (prefixOk) {
      // word prefix: the query word starts an index word
      const sorted = this.sortedTokens;
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < sorted.length && sorted[i]!.startsWith(t); i++) {
        const tok = sorted[i]!;
        if (tok !== t) this.addPostings(hits, acc, t, tok, 0, t.length / tok.length);
      }
    }
    if (k > 0) for (const [tok, dist] of this.typoNeighbours(t, k)) this.addPostings(hits, acc, t, tok, dist, 1);
  }

  /** Index words within `k` edits of `t` (Damerau), found through the deletion index, with their distance. */
  private typoNeighbours(t: string, k: number): Map<string, number> {
    const out = new Map<string, number>();
    const seen = new Set<string>();
    HASHES.length = 0;
    for (const d of deletionHashes(t, k, HASHES)) {
      const toks = this.deleteIndex.get(d);
      if (!toks) continue;
      for (const tok of toks) {
        if (seen.has(tok)) continue;
        seen.add(tok);
        const dist = damerau(t, tok, k);
        if (dist <= k) out.set(tok, dist);
      }
    }
    return out;
  }

  /**
   * The same hits as indexedMatches, found by testing the words of the names still in `acc`: a word
   * equal to `t`, two weighted words written together, a word or joined pair that `t` starts (joined
   * only when `t` reaches into the second word), and a word within `k` edits (the typo neighbours
   * the deletion index gives).
   */
  private scanForms(hits: Map<number, TokenHit>, acc: Map<number, TokenHit>, t: string, prefixOk: boolean, k: number) {
    const near = k > 0 ? this.typoNeighbours(t, k) : null;
    for (const formIdx of acc.keys()) {
      const f = this.forms[formIdx]!;
      const ws = f.tokens;
      for (let w = 0; w < ws.length; w++) {
        const word = ws[w]!;
        const weight = f.weights[w]!;
        const bit = w < 30 ? 1 << w : 0;
        const head = w === f.first;
        if (word === t) record(hits, formIdx, 0, false, weight, head, bit);
        else if (prefixOk && word.startsWith(t)) record(hits, formIdx, 0, true, weight * (t.length / word.length), head, bit);
        else if (near !== null) {
          const dist = near.get(word);
          if (dist !== undefined) record(hits, formIdx, dist, false, weight, head, bit);
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
  private offerPartials(tokens: string[], acc: Map<number, TokenHit> | null, best: Map<number, Candidate>, weakOut: Set<number>) {
    if (!acc) return;
    const strong = new Set<number>();
    const weak = weakOut;
    for (const [formIdx, h] of acc) {
      const form = this.forms[formIdx]!;
      if (tokens.length > form.tokens.length) continue;
      const n = this.names[form.name]!;
      // a partial match that misses the name's first word is no evidence of identity ("santa barbara"
      // is not "Happy Canyon of Santa Barbara"); nor is one query word that is only the start, or a
      // misspelling, of the first word of a longer name ("australia" → "Australian Sparkling Ale")
      // A one-word query that stops a few letters short of a one-word name may be another word of the
      // same stem ("india" → "Indiana"): at most ambiguous too.
      const q0 = tokens[0]!;
      const isWeak =
        !h.head ||
        (tokens.length === 1 && !h.abbr && form.tokens.length > 1 && (form.tokens[form.first] !== q0 || h.cost > 0)) ||
        (tokens.length === 1 && !h.abbr && form.tokens.length === 1 && h.prefix && h.cost === 0 && form.tokens[0]!.length - q0.length <= 3) ||
        // leaving out a word inside the name changes what it names ("Wild Beer" is not "Wild Specialty Beer")
        skipsInnerWord(h.mask, form.weights);
      (isWeak ? weak : strong).add(n.entity);
      const coverage = Math.min(1, h.credit / form.weight);
      const adjust = (this.prominence.get(n.entity) ?? 0) - (n.field === 'alias' ? PARTIAL_ALIAS_PENALTY : 0);
      if (h.cost === 0) {
        offer(best, n.entity, Math.min(85, 60 + 25 * coverage + adjust), n.field === 'canonical' ? 'canonical_prefix' : 'alias_prefix', n.value);
      } else {
        offer(best, n.entity, 50 + 25 * coverage - 8 * h.cost + adjust, n.field === 'canonical' ? 'canonical_typo' : 'alias_typo', n.value);
      }
    }
    for (const e of strong) weak.delete(e);
  }

  /** Records the names where index word `token` occurs as a hit of query word `t` (only names in `acc`, when given). */
  private addPostings(hits: Map<number, TokenHit>, acc: Map<number, TokenHit> | null, t: string, token: string, cost: number, share: number) {
    const ps = this.postings.get(token);
    if (!ps) return;
    for (const p of ps) {
      if (acc && !acc.has(p.form)) continue;
      const f = this.forms[p.form]!;
      let w = f.weights[p.word]!;
      if (p.span === 2) {
        // two words written together count only when the query word reaches into the second one
        if (t.length <= f.tokens[p.word]!.length) continue;
        w += f.weights[p.word + 1]!;
      }
      const bits = p.word < 30 ? (p.span === 2 ? 3 : 1) << p.word : 0;
      record(hits, p.form, cost, share < 1, w * share, p.word === f.first || (p.span === 2 && p.word + 1 === f.first), bits);
    }
  }

  /**
   * A word typed as an abbreviation: its pieces start consecutive words of a name. "GrüVe" has fixed
   * pieces ("gru", "ve"); an all-capitals word ("DIPA", "NZ") may split anywhere into two or more.
   */
  private abbreviationMatches(t: string, split: string[] | 'free', hits: Map<number, TokenHit>, acc: Map<number, TokenHit> | null) {
    if (split !== 'free') {
      for (const p of this.initials.get(split[0]![0]! + split[1]![0]!) ?? []) {
        if (acc && !acc.has(p.form)) continue;
        const f = this.forms[p.form]!;
        const credit = this.fixedSplit(split, f, p.word);
        if (credit > 0) record(hits, p.form, 0, true, credit, p.word <= f.first, 0, true);
      }
      return;
    }
    // any split: the first piece is t[0..cut), the second starts with t[cut]; the rest may split again
    for (let cut = 1; cut < t.length; cut++) {
      const first = t.slice(0, cut);
      for (const p of this.initials.get(t[0]! + t[cut]!) ?? []) {
        if (acc && !acc.has(p.form)) continue;
        const f = this.forms[p.form]!;
        const w = f.tokens[p.word]!;
        if (!w.startsWith(first)) continue;
        const rest = this.freeSplit(t, cut, f, p.word + 1, 1);
        if (rest > 0) record(hits, p.form, 0, true, rest + f.weights[p.word]! * (cut / w.length), p.word <= f.first, 0, true);
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
  const parts = new Set<string>();
  if (q.includes('(')) {
    const bracket = /\(([^()]{1,40})\)/g;
    parts.add(q.replace(bracket, ' '));
    for (const m of q.matchAll(bracket)) parts.add(m[1]!);
  }
  if (q.includes('/') || q.includes('|')) {
    for (const p of [q, ...parts]) {
      const sides = p.split(/[/|]/).map((x) => x.trim()).filter(Boolean);
      if (sides.length >= 2 && sides.length <= 4) for (const x of sides) parts.add(x);
    }
  }
  for (const p of [q, ...parts]) {
    const tokens = p === q ? qTokens : queryForms(p).tokens;
    if (!tokens.some((t) => t.endsWith('s') && t.length >= 4 && !isIndexWord(t))) continue;
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
  return [...parts].filter((p) => p.trim());
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
