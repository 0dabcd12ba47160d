// Resolver: free text → ranked entities. Everything is built once into immutable maps at start-up;
// a query touches only hash lookups, a sorted-array range for prefixes and a SymSpell deletion
// index for typos. Our own code rather than a search library because the tiers, word-boundary rule
// and state rules below are the product, and `npm run bench:resolve` shows the latency gain.
//
// Tiers and scores (0–100, comparable across queries):
//   1 exact canonical name ........ 100      4 word-order-free ........ 88 / 86
//   2 exact alias ................. 97       5 token prefix ........... 60 + 25·coverage
//   3 folded (accents) ............ 94 / 92  6 typo-tolerant .......... 50 + 25·coverage − 8·edits
//   declared shared term ("pinot") .. 90, always ambiguous
// State: unresolved when no candidate reaches RESOLVE_THRESHOLD; ambiguous when the runner-up is
// within AMBIGUITY_MARGIN of the top or the query is a declared shared term; otherwise resolved.
import { deletes, damerau, indexVariants, queryForms, typoBudget, exactForm, fold } from './normalize.ts';

export const RESOLVE_THRESHOLD = 55;
export const AMBIGUITY_MARGIN = 3;

export type MatchedOn =
  | 'canonical' | 'alias'
  | 'canonical_folded' | 'alias_folded'
  | 'canonical_word_order' | 'alias_word_order'
  | 'canonical_prefix' | 'alias_prefix'
  | 'canonical_typo' | 'alias_typo'
  | 'shared_term';

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

export interface Resolution {
  state: 'resolved' | 'ambiguous' | 'unresolved';
  candidates: Candidate[];
}

interface Form {
  name: number; // index into names
  folded: string;
  tokens: string[];
  chars: number; // letters without spaces, for coverage
}

interface TokenHit {
  cost: number; // edits
  prefix: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export class Resolver {
  private readonly names: ResolvableName[];
  private readonly forms: Form[] = [];
  private readonly exactMap = new Map<string, number[]>(); // exact form → name idx
  private readonly foldedMap = new Map<string, number[]>(); // folded → name idx
  private readonly orderFreeMap = new Map<string, number[]>(); // sorted tokens → name idx
  private readonly postings = new Map<string, number[]>(); // token → form idx
  private readonly sortedTokens: string[];
  private readonly deleteIndex = new Map<string, string[]>(); // deletion variant → tokens
  private readonly sharedTerms = new Map<string, number[]>(); // folded term → entities
  private readonly tieBreak: (a: number, b: number) => number;

  constructor(
    names: ResolvableName[],
    sharedTerms: { term: string; entities: number[] }[],
    tieBreak: (a: number, b: number) => number,
  ) {
    this.names = names;
    this.tieBreak = tieBreak;
    const push = <K>(m: Map<K, number[]>, k: K, v: number) => {
      const a = m.get(k);
      if (!a) m.set(k, [v]);
      else if (a[a.length - 1] !== v) a.push(v);
    };
    names.forEach((n, i) => {
      for (const apostrophe of ['', ' '] as const) push(this.exactMap, exactForm(n.value, apostrophe), i);
      for (const folded of indexVariants(n.value)) {
        const formIdx = this.forms.length;
        const tokens = folded.split(' ');
        this.forms.push({ name: i, folded, tokens, chars: folded.length - (tokens.length - 1) });
        push(this.foldedMap, folded, i);
        if (tokens.length > 1) push(this.orderFreeMap, [...tokens].sort().join(' '), i);
        for (const t of new Set(tokens)) push(this.postings, t, formIdx);
      }
    });
    this.sortedTokens = [...this.postings.keys()].sort();
    for (const t of this.sortedTokens) {
      // a query word of length L may carry typoBudget(L) edits; index words down to L-2 must be reachable
      const k = t.length >= 7 ? 2 : t.length >= 4 ? 1 : 0;
      if (k === 0) continue;
      for (const d of deletes(t, k)) this.deleteIndexAdd(d, t);
    }
    for (const s of sharedTerms) this.sharedTerms.set(fold(exactForm(s.term)), s.entities);
  }

  private deleteIndexAdd(variant: string, token: string) {
    const a = this.deleteIndex.get(variant);
    if (!a) this.deleteIndex.set(variant, [token]);
    else if (a[a.length - 1] !== token) a.push(token);
  }

  get nameCount() {
    return this.names.length;
  }

  resolve(q: string, limit: number): Resolution {
    const { exact, folded, tokens } = queryForms(q);
    const best = new Map<number, Candidate>();
    const offer = (entity: number, score: number, matchedOn: MatchedOn, value: string) => {
      const cur = best.get(entity);
      if (!cur || score > cur.score) best.set(entity, { entity, score: round1(score), matchedOn, value });
    };
    if (!folded) return { state: 'unresolved', candidates: [] };

    for (const i of this.exactMap.get(exact) ?? []) {
      const n = this.names[i]!;
      offer(n.entity, n.field === 'canonical' ? 100 : 97, n.field, n.value);
    }
    for (const i of this.foldedMap.get(folded) ?? []) {
      const n = this.names[i]!;
      offer(n.entity, n.field === 'canonical' ? 94 : 92, n.field === 'canonical' ? 'canonical_folded' : 'alias_folded', n.value);
    }
    const shared = this.sharedTerms.get(folded);
    if (shared) for (const e of shared) offer(e, 90, 'shared_term', q.trim());
    if (tokens.length > 1) {
      for (const i of this.orderFreeMap.get([...tokens].sort().join(' ')) ?? []) {
        const n = this.names[i]!;
        offer(n.entity, n.field === 'canonical' ? 88 : 86, n.field === 'canonical' ? 'canonical_word_order' : 'alias_word_order', n.value);
      }
    }
    if (best.size === 0 || !shared) this.tokenMatches(tokens, offer);

    const ranked = [...best.values()].filter((c) => c.score >= RESOLVE_THRESHOLD);
    ranked.sort((a, b) => b.score - a.score || this.tieBreak(a.entity, b.entity));
    if (ranked.length === 0) return { state: 'unresolved', candidates: [] };
    const top = ranked[0]!;
    const close = ranked.length > 1 && top.score - ranked[1]!.score < AMBIGUITY_MARGIN;
    return { state: shared || close ? 'ambiguous' : 'resolved', candidates: ranked.slice(0, limit) };
  }

  /** Tiers 5 and 6: every query word must match a whole word or a word prefix of the same name. */
  private tokenMatches(tokens: string[], offer: (e: number, s: number, m: MatchedOn, v: string) => void) {
    const perToken: Map<number, TokenHit>[] = [];
    for (let ti = 0; ti < tokens.length; ti++) {
      const t = tokens[ti]!;
      const hits = new Map<number, TokenHit>();
      const add = (token: string, hit: TokenHit) => {
        for (const f of this.postings.get(token) ?? []) {
          const cur = hits.get(f);
          if (!cur || hit.cost < cur.cost || (hit.cost === cur.cost && cur.prefix && !hit.prefix)) hits.set(f, hit);
        }
      };
      if (this.postings.has(t)) add(t, { cost: 0, prefix: false });
      if (t.length >= 3 || (t.length === 2 && ti === tokens.length - 1 && tokens.length > 1)) {
        // word prefix: the query word starts an index word
        let lo = 0;
        let hi = this.sortedTokens.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (this.sortedTokens[mid]! < t) lo = mid + 1;
          else hi = mid;
        }
        for (let i = lo; i < this.sortedTokens.length && this.sortedTokens[i]!.startsWith(t); i++) {
          const tok = this.sortedTokens[i]!;
          if (tok !== t) add(tok, { cost: 0, prefix: true });
        }
      }
      const k = typoBudget(t.length);
      if (k > 0) {
        const seen = new Set<string>();
        for (const d of deletes(t, k)) {
          for (const tok of this.deleteIndex.get(d) ?? []) {
            if (seen.has(tok) || tok === t) continue;
            seen.add(tok);
            const dist = damerau(t, tok, k);
            if (dist <= k) add(tok, { cost: dist, prefix: false });
          }
        }
      }
      if (hits.size === 0) return;
      perToken.push(hits);
    }
    if (perToken.length === 0) return;
    let smallest = 0;
    perToken.forEach((m, i) => {
      if (m.size < perToken[smallest]!.size) smallest = i;
    });
    const queryChars = tokens.reduce((s, t) => s + t.length, 0);
    for (const [formIdx] of perToken[smallest]!) {
      let edits = 0;
      let ok = true;
      for (const m of perToken) {
        const h = m.get(formIdx);
        if (!h) {
          ok = false;
          break;
        }
        edits += h.cost;
      }
      if (!ok) continue;
      const form = this.forms[formIdx]!;
      if (tokens.length > form.tokens.length) continue;
      const n = this.names[form.name]!;
      const coverage = Math.min(1, queryChars / form.chars);
      if (edits === 0) {
        offer(n.entity, 60 + 25 * coverage, n.field === 'canonical' ? 'canonical_prefix' : 'alias_prefix', n.value);
      } else {
        offer(n.entity, 50 + 25 * coverage - 8 * edits, n.field === 'canonical' ? 'canonical_typo' : 'alias_typo', n.value);
      }
    }
  }
}
