// The engine: pure domain. Given a loaded knowledge base it answers resolve, explain, pair and
// compare with v1 bodies, or a typed "not resolved" error. No HTTP, no database.
import { createHash } from 'node:crypto';
import type { Entity, KnowledgeBase } from './kb/load.ts';
import { BeerModifiers } from './beer-modifiers.ts';
import { Resolver, RESOLVE_THRESHOLD, type Candidate, type EntityKind, type Resolution } from './resolver.ts';
import { entityClass } from './kb/entity-class.ts';
import { LineParser, MENTION_PENALTY, type LineMention, type LineTerm } from './parse.ts';
import { ENTITY_KEY_PREFIX, ENTITY_TYPES, type Fact, type GuidanceItemRecord, type SensoryRecord } from './kb/schema.ts';
import { drinkTypedAsFood, foodEvidenceOf, foodMatchOut, foodReadingOut, type FoodEvidence, type FoodMatch } from './food.ts';
import { exactForm, fold } from './normalize.ts';
import { agreementScore, drinkWeight, itemRanks, NARROWER_FOOD_WEIGHT, type ItemRank } from './food-rank.ts';
import { goneAnswer } from './kb-release.ts';
import { itemScopeText, joinScopes, matchScope, scopeOfWords, type AppliedScope, type FoundScopeWord, type ScopeMatch, type ScopeWords } from './scope.ts';

export interface EngineError {
  ok: false;
  error: { code: 'ENTITY_NOT_RESOLVED' | 'FOOD_NOT_RESOLVED' | 'NOT_FOUND' | 'INVALID_REQUEST' | 'INTERNAL_ERROR' | 'GONE' | 'MOVED_PERMANENTLY'; message: string; [k: string]: unknown };
}
/** 410 and 301: an id with a tombstone (kb-release.ts, issue 36). */
export type EngineResult = { status: 200; body: Record<string, unknown> } | { status: 404 | 400 | 500 | 410 | 301; body: EngineError };

export interface ResolveParams { q: string; limit?: number; type?: string; domain?: string }
export interface TermParams { q: string }
export interface CompareParams {
  left: string;
  right: string;
  /** "inline" (default, the v1 shape): each fact's provenance in full; "by_key": by source_key, the sources once per side (the body under 16 KB) */
  provenance?: 'inline' | 'by_key';
}
export interface ParseParams { text: string }
export interface PairFoodParams { q: string; limit?: number; type?: string; domain?: string; /** colour, sweetness or style words the drinks must be about (issue 33) */ scope?: string }
export interface EntityParams { id: string }
export interface ListParams { type?: string; domain?: string; country?: string; parent?: string; grape?: string; appellation?: string; limit?: number; cursor?: string }

export const DEFAULT_LIMIT = 10;
export const LIST_DEFAULT_LIMIT = 25;
export const LIST_MAX_LIMIT = 100;
/** Aliases shown by explain (the entity endpoint shows all), and grape rules shown by explain (issue 33: bodies under 32 KB). */
export const EXPLAIN_ALIAS_CAP = 25;
export const EXPLAIN_RULE_CAP = 25;
/** Relation lists of a compare side are cut at this length (the whole lists are one /v1/entities query away). */
export const COMPARE_RELATION_CAP = 5;
/** Values listed per side of a list-valued fact in a comparison's shared and differences (totals are given). */
export const COMPARE_VALUE_CAP = 5;
/** An appellation's grape rules (strongest roles first) and unmapped names shown in a compare side. */
export const COMPARE_RULE_CAP = 2;
/** Sensory reference expressions shown in a compare side (the full profile has them all). */
export const COMPARE_EXPRESSION_CAP = 1;
/** Items listed per part of a comparison's contrasts (totals are given). */
const CONTRAST_LIMIT = 3;
/** A profile's relation lists longer than this are cut, with the total and the /v1/entities query that lists them all (issue 33, item 6). */
export const RELATION_CAP = 50;
export { ENTITY_TYPES } from './kb/schema.ts';
export const DOMAINS = ['wine', 'spirits', 'beer'] as const;
/** An entity_id (UUIDv5) or a permanent entity key, as accepted wherever a term goes. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENTITY_KEY = /^(grape|geo|spirit|beer|style)\/[a-z0-9-]+$/;

function invalid(message: string, parameter: string): EngineResult {
  return { status: 400, body: { ok: false, error: { code: 'INVALID_REQUEST', message, parameter } } };
}

export const SENSORY_BOUNDARY = 'No sourced sensory reference expression exists for this entity in this knowledge-base release; none is generated.';

export const PAIR_FOOD_DEFAULT_LIMIT = 10;
export const PAIR_FOOD_MAX_LIMIT = 25;
/** Why pair-food names no drink for a food it knows. */
export const FOOD_BOUNDARY = 'No verified, source-backed pairing evidence in this knowledge-base release pairs a drink with this food or a narrower one. Generic pairing guidance is never substituted.';

/** Why pair returns no guidance: each reason is documented in the OpenAPI document. */
export const BOUNDARY_REASONS = {
  no_verified_pairing_evidence: 'No verified, source-backed pairing evidence exists for this entity in this knowledge-base release. Generic pairing guidance is never substituted.',
  domain_not_covered: 'No entity of this domain has verified pairing evidence in this release yet.',
} as const;

/** Why pair returns no guidance for the scope the query asked for (issue 33): `scope_boundary.reason`. */
export const SCOPE_BOUNDARY_REASONS = {
  no_evidence_in_scope: 'Verified pairing evidence exists for this entity, but none of it is about the scope the query asked for. Guidance about another scope is never given in its place.',
} as const;

/**
 * A drink of pair-food named with the scope its evidence is about (issue 33, item 2): `scopes` lists the
 * distinct style and sweetness scopes of its matching items, and `display_name` says them when every
 * item has one ("Bordeaux, Clairet", "Oregon, full-bodied Pinot noir"), so an app that shows the name
 * never suggests the whole of Bordeaux. A scope that only repeats the name adds nothing ("Gueuze").
 */
function drinkScopeOf(name: string, items: readonly GuidanceItemRecord[]) {
  const scopeOfItem = (it: GuidanceItemRecord) => [it.style_scope, it.sweetness_scope].filter((x): x is string => !!x && x.trim() !== '').join(', ') || null;
  const each = items.map(scopeOfItem);
  const scopes = [...new Set(each.filter((x): x is string => x !== null))];
  const same = (x: string) => fold(exactForm(x)) === fold(exactForm(name));
  const shown = scopes.filter((x) => !same(x));
  const allScoped = each.every((x) => x !== null);
  const display_name = allScoped && shown.length > 0 ? `${name}, ${shown.slice(0, 2).join('; ')}${shown.length > 2 ? '; …' : ''}` : name;
  return { display_name, scopes };
}

function matchOf(kb: KnowledgeBase, c: Candidate) {
  const e = kb.entities[c.entity]!;
  return {
    entity_id: e.id,
    canonical_name: e.name,
    entity_type: e.type,
    domain: e.domain,
    matched_on: c.matchedOn,
    match_value: c.value,
    match_score: c.score,
    vivc_id: factString(e, 'vivc_id'),
    wikidata_id: factString(e, 'wikidata_id'),
  };
}

/** Stable integer id of a sensory expression: 31-bit FNV-1a of its permanent expression_key. */
export function expressionIdOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 1;
}

function factString(e: Entity, field: string): string | null {
  const v = e.facts[field]?.value;
  return typeof v === 'string' ? v : null;
}

function entityRef(e: Entity) {
  return { entity_id: e.id, canonical_name: e.name, entity_type: e.type, domain: e.domain };
}

/**
 * What the Engine builds its resolver from: every canonical name and alias, the declared shared terms,
 * the tie-break and the resolver's options. Exported for the equivalence benchmark, which builds an
 * older resolver from the very same inputs.
 */
export function resolverInputs(kb: KnowledgeBase) {
  const names = kb.entities.flatMap((e) => [
    { entity: e.idx, field: 'canonical' as const, value: e.name },
    ...e.aliases.map((a) => ({ entity: e.idx, field: 'alias' as const, value: a.name })),
  ]);
  const shared = kb.ambiguities.map((a) => ({
    term: a.term,
    entities: a.entities.map((k) => kb.byKey.get(k)?.idx).filter((i): i is number => i !== undefined),
    first: a.first === undefined ? undefined : kb.byKey.get(a.first)?.idx,
  }));
  // deterministic tie-break at equal scores: the demand prior (below), then the shorter name (the more general term), then served
  // evidence (verified pairing), then key. Evidence comes second so that adding evidence to an
  // entity never changes which entity a name means.
  // Before all of these: the public demand prior (data/demand-prior.json), so a shared name such as
  // "Calvados" lists the meaning most people ask for first (its state stays ambiguous).
  const rank = (e: Entity) => (e.pairing ? 0 : 1);
  const prior = kb.entities.map((e) => Math.max(kb.demandPrior.entities[e.key] ?? 0, kb.demandPrior.classes[entityClass(e)] ?? 0));
  const tieBreak = (a: number, b: number) => {
    const ea = kb.entities[a]!;
    const eb = kb.entities[b]!;
    return prior[b]! - prior[a]! || ea.name.length - eb.name.length || rank(ea) - rank(eb) || (ea.key < eb.key ? -1 : ea.key > eb.key ? 1 : 0);
  };
  const kinds = kb.entities.map((e): EntityKind => (e.type === 'wine_geography' ? 'place' : e.type === 'grape' ? 'grape' : 'other'));
  const aliasLanguages = kb.entities.flatMap((e) => [null, ...e.aliases.map((a) => a.lang)]);
  const aliasKinds = kb.entities.flatMap((e) => [null, ...e.aliases.map((a) => a.kind)]);
  const options = {
    kindOf: (i: number) => kinds[i]!,
    outOfScope: kb.outOfScope.map((o) => o.term),
    placeNames: kb.placeNames,
    designations: kb.designations.filter((d) => d.kind === 'designation').map((d) => ({ term: d.term, kind: d.kind })),
    aliasLanguages,
    aliasKinds,
    askedFor: kb.entities.filter((e) => (kb.demandPrior.entities[e.key] ?? 0) > 0).map((e) => e.idx),
    // beer descriptions as base style + modifiers (data/beer-modifiers.json)
    modifiers: kb.beerModifiers
      ? new BeerModifiers(kb.beerModifiers, (k) => kb.byKey.get(k)?.idx, (i) => {
        const t = kb.entities[i]!.facts.tags?.value;
        return Array.isArray(t) ? (t as string[]) : [];
      })
      : undefined,
    beerStyle: (i: number) => kb.entities[i]!.type === 'beer_style',
    subregion: (i: number) => kb.entities[i]!.type === 'wine_geography' && kb.entities[i]!.facts.level?.value === 'subregion',
  };
  return { names, shared, tieBreak, options };
}

export class Engine {
  readonly resolver: Resolver;
  readonly parser: LineParser;
  readonly buildMs: number;

  constructor(readonly kb: KnowledgeBase) {
    const t0 = performance.now();
    const r = resolverInputs(kb);
    this.resolver = new Resolver(r.names, r.shared, r.tieBreak, r.options);
    this.parser = new LineParser(kb, this.resolver);
    this.buildMs = performance.now() - t0;
    for (const e of kb.entities) if (e.pairing) this.domainsWithPairings.add(e.domain);
    this.listOrder = [...kb.entities].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Colour, sweetness and style words of data/label-terms.json: the parser's own (issue 33: the scope a query asks for). */
  private get scopeWords(): ScopeWords {
    return this.parser.scopeWords;
  }

  /**
   * The scope a query asks for about the wine entity it resolved to: the colour, sweetness and style
   * words that the line reading finds beside that entity's name ("Sancerre rouge", "Champagne brut",
   * "tawny port"). Null when the query has none, when the word is part of a name ("Rosé", "Vinho Verde",
   * "Dry Creek Valley") or is the name asked for ("Fino", "Brut"), or when the entity is no wine.
   */
  scopeFor(q: string, e: Entity): AppliedScope | null {
    if (e.domain !== 'wine' || !this.scopeWords.mayHave(q)) return null;
    const line = this.parser.parse(q);
    if (!line.primary || line.primary.candidate.entity !== e.idx) return null;
    return this.lineScope(line);
  }

  /**
   * The scope of a line: its terms that are scope words ("rouge", "Spätlese", "Brut"), its mentions that
   * are scope words read as a name ("rosé", the wine style, in "Sancerre rosé"; "Fino" in "Jerez fino"),
   * other than the primary itself, and the runs of words nothing explains that are scope words and
   * nothing else ("tawny" in "tawny port"; not "Dry" in "Dry River Pinot Noir"). A word that is a scope
   * of some entities only ("Vintage": Port) counts beside those.
   */
  private lineScope(line: { primary: LineMention | null; mentions: LineMention[]; terms: readonly LineTerm[]; unexplained: readonly { start: number; text: string }[] }): AppliedScope | null {
    const primaryKey = line.primary ? this.kb.entities[line.primary.candidate.entity]!.key : null;
    const found: FoundScopeWord[] = [];
    const one = (x: { start: number; end: number; text: string }) => {
      const w = this.scopeWords.get(x.text);
      if (w) found.push({ start: x.start, end: x.end, text: x.text, word: w });
    };
    for (const t of line.terms) one(t);
    for (const m of line.mentions) if (m !== line.primary) one(m);
    for (const u of line.unexplained) {
      const r = this.scopeWords.find(u.text);
      if (r.covered) for (const f of r.found) found.push({ ...f, start: u.start + f.start, end: u.start + f.end });
    }
    return scopeOfWords(found.filter((f) => !f.word.for || (primaryKey !== null && f.word.for.includes(primaryKey))).sort((a, b) => a.start - b.start));
  }

  /** How a scope text (a pairing item's style and sweetness scopes, a grape rule's scope) falls against the scope asked for. */
  private scopeMatch(scope: string | null | undefined, want: AppliedScope): ScopeMatch {
    return matchScope(scope, want, this.scopeWords);
  }

  /** The `applied_scope` object of an answer: the scope, and what it kept and left out. */
  private appliedScopeOut(want: AppliedScope, matches: ScopeMatch[]) {
    const n = (m: ScopeMatch) => matches.filter((x) => x === m).length;
    return { colours: want.colours, sweetness: want.sweetness, style: want.style, terms: want.terms, source_key: want.source_key, in_scope: n('in_scope'), general: n('general'), unstated: n('unstated'), left_out: n('out_of_scope') };
  }

  /** Domains with at least one verified pairing set in this release. */
  private readonly domainsWithPairings = new Set<string>();
  /** Served entities in list order: by permanent key, so pages are stable across restarts. */
  private readonly listOrder: Entity[];

  /** The entity an entity_id or a permanent key names, if the term is one. */
  entityByIdOrKey(term: string): Entity | undefined {
    if (term.length === 36 && UUID.test(term)) return this.kb.byId.get(term.toLowerCase());
    if (ENTITY_KEY.test(term)) return this.kb.byKey.get(term);
    return undefined;
  }

  /** Resolution of a term, where an entity_id or permanent key resolves directly (score 100). */
  private resolveTerm(q: string, limit: number, accept?: (entity: number) => boolean): Resolution {
    const direct = this.entityByIdOrKey(q);
    if (direct && (!accept || accept(direct.idx))) {
      return { state: 'resolved', candidates: [{ entity: direct.idx, score: 100, matchedOn: 'entity_id', value: q }], suggestions: [], coverage: null, terms: [] };
    }
    const r = this.resolver.resolve(q, limit, accept);
    // a scope word beside a name ("Sancerre rosé", "Jerez fino") makes the word alone (the wine style Rosé,
    // Fino) an ambiguous partial match: the line reading, when it is sure, names the entity and the scope
    const scoped = this.scopeWords.mayHave(q);
    const scopeLine = r.state === 'ambiguous' && scoped;
    if ((r.state !== 'unresolved' && !scopeLine) || r.coverage === 'out_of_scope' || !/\S\s+\S/.test(q.trim())) return r;
    // a whole line ("Cloudy Bay Sauvignon Blanc Marlborough 2022") that names nothing as a whole: the
    // entities the line mentions, primary first, each scoring MENTION_PENALTY below its name alone
    const line = this.parser.parse(q);
    // with a scope word, a line whose only doubt is a primary name shared by several entities is read as
    // that name alone, when its first candidate is the primary ("Champagne brut": Champagne, with brut)
    if (scoped && line.state !== 'resolved' && line.primary && this.lineScope(line)) {
      const alone = this.sharedNameAlone(line, limit, accept);
      if (alone) return alone;
    }
    if (!line.primary || (scopeLine && (line.state !== 'resolved' || !this.lineScope(line)))) return r;
    const seen = new Set<number>();
    const candidates: Candidate[] = [];
    for (const m of [line.primary, ...line.mentions]) {
      const e = m.candidate.entity;
      if (seen.has(e) || (accept && !accept(e))) continue;
      seen.add(e);
      candidates.push({ entity: e, score: Math.max(RESOLVE_THRESHOLD, m.candidate.score - MENTION_PENALTY), matchedOn: 'mention', value: m.text });
    }
    if (!candidates.length) return r;
    return { state: line.state === 'resolved' && candidates[0]!.entity === line.primary.candidate.entity ? 'resolved' : 'ambiguous', candidates: candidates.slice(0, limit), suggestions: [], coverage: null, terms: [] };
  }

  /** The resolution of a line's primary name alone, when that shared name is the line's only doubt and its first candidate is the primary. */
  private sharedNameAlone(line: { primary: LineMention | null; reasons: readonly string[] }, limit: number, accept?: (entity: number) => boolean): Resolution | null {
    if (!line.primary || line.reasons.length !== 1 || !line.primary.shared) return null;
    const alone = this.resolver.resolve(line.primary.text, limit, accept);
    return alone.state !== 'unresolved' && alone.candidates[0]?.entity === line.primary.candidate.entity ? alone : null;
  }

  /** GET /v1/parse: a product line read into its entities, terms, vintage and the words nothing explains. */
  parse(p: ParseParams): EngineResult {
    const line = this.parser.parse(p.text);
    const matchOfMention = (m: LineMention) => {
      const e = this.kb.entities[m.candidate.entity]!;
      return { ...entityRef(e), match_score: m.candidate.score, matched_on: m.candidate.matchedOn, match_value: m.candidate.value };
    };
    // only for a line read for sure: an ambiguous primary's grapes would be a guess; a colour word of
    // the line keeps only the grapes of rules for that colour ("Sancerre rouge": Pinot Noir; issue 33)
    const primaryEntity = line.primary ? this.kb.entities[line.primary.candidate.entity]! : null;
    const want = primaryEntity && primaryEntity.domain === 'wine' ? this.lineScope(line) : null;
    const impliedAll = line.state === 'resolved' ? this.parser.implied(line.primary) : [];
    const impliedMatches = want ? impliedAll.map((g) => this.scopeMatch(g.scope, want)) : [];
    const implied = impliedAll.filter((_, i) => !want || impliedMatches[i] !== 'out_of_scope').map((g) => {
      const s = this.kb.sources.get(g.source)!;
      return {
        ...entityRef(g.grape),
        basis: 'appellation_rules',
        role: g.role,
        scope: g.scope,
        provenance: { source_key: s.key, source_title: s.title, source_publisher: s.publisher, source_url: s.url, locator: g.locator, retrieved_via: s.retrieved_via ?? null },
      };
    });
    return {
      status: 200,
      body: {
        ok: true,
        text: p.text,
        state: line.state,
        primary: line.primary ? matchOfMention(line.primary) : null,
        mentions: line.mentions.map((m) => ({ start: m.start, end: m.end, text: m.text, role: m.role, match: matchOfMention(m) })),
        terms: line.terms.map((t) => ({ start: t.start, end: t.end, text: t.text, kind: t.kind, value: t.value, source_key: t.source })),
        vintage: line.vintage,
        unexplained: line.unexplained,
        implied,
        applied_scope: want ? this.appliedScopeOut(want, impliedMatches) : null,
        ambiguity_reasons: line.reasons,
      },
    };
  }

  private foodEvidence?: FoodEvidence<Entity, GuidanceItemRecord>;
  private foodRankMap?: Map<GuidanceItemRecord, ItemRank>;

  /** The rank weight of every placed guidance item (food-rank.ts), computed once with the food index. */
  private foodRanks(): Map<GuidanceItemRecord, ItemRank> {
    return (this.foodRankMap ??= itemRanks(this.food().placed, this.kb.sources));
  }

  /** The verified guidance items placed in the food vocabulary (built on first use: see warmFood). */
  food(): FoodEvidence<Entity, GuidanceItemRecord> {
    return (this.foodEvidence ??= foodEvidenceOf(this.kb));
  }

  /**
   * Builds the food index ahead of the first pair-food request. Start-up calls it before listening
   * (src/server.ts, src/engine-server.ts), so a food vocabulary that cannot be loaded stops the process
   * with this error, naming the file, instead of failing after it reported ready (issue 31, item 5).
   */
  warmFood(): void {
    try {
      this.food();
      this.foodRanks();
    } catch (e) {
      throw new Error(`The food vocabulary of /v1/pair-food did not load: ${(e as Error).message}`, { cause: e });
    }
  }

  /**
   * Drinks for a food, from the verified guidance items read backwards. Ranking: for each drink, the
   * matching items are grouped by publisher (independent sources); the score is the sum over publishers
   * of the highest confidence among that publisher's items (confidence already follows the source's
   * authority, one class lower for a copy); ties go to more publishers, then more items, then the name.
   * A dish is read as one dish before its words, and an item on a parent of the dish counts at half its
   * confidence, marked "parent" (food.ts: read, matches; issue 33, item 4).
   */
  pairFood(p: PairFoodParams): EngineResult {
    const f = this.typeFilter(p.type, p.domain);
    if (f && 'status' in f) return f;
    const limit = p.limit ?? PAIR_FOOD_DEFAULT_LIMIT;
    const want = p.scope === undefined ? null : this.scopeParam(p.scope);
    if (want && 'status' in want) return want;
    const evidence = this.food();
    const vocabulary = evidence.vocabulary;
    const reading = vocabulary.read(p.q);
    const terms = reading.terms;
    if (terms.length === 0) {
      // a drink typed as a food ("barolo") points to /v1/pair (issue 33, item 4)
      if (reading.drinks.length) return { status: 404, body: { ok: false, error: drinkTypedAsFood(p.q, reading.drinks) } };
      return {
        status: 404,
        body: {
          ok: false,
          error: {
            code: 'FOOD_NOT_RESOLVED',
            message: `No food in the vocabulary matches q "${p.q}". Name a food or dish ("salmon", "goat cheese", "pizza").`,
            parameter: 'q',
            suggestions: vocabulary.suggest(p.q),
          },
        },
      };
    }
    const nodes = reading.nodes;
    const byDrink = new Map<Entity, FoodMatch<Entity, GuidanceItemRecord>[]>();
    const scopeMatches: ScopeMatch[] = [];
    for (const m of evidence.matches(reading)) {
      if (f && !f(m.entity)) continue;
      if (want) {
        // a scope asked for (issue 33): only the items about it count
        scopeMatches.push(this.foodScopeMatch(m.entity, m.item, want));
        if (scopeMatches[scopeMatches.length - 1] !== 'in_scope') continue;
      }
      const list = byDrink.get(m.entity);
      if (list) list.push(m);
      else byDrink.set(m.entity, [m]);
    }
    const ranks = this.foodRanks();
    const asked = new Set(reading.dish.length ? reading.dish : nodes);
    const ranked = [...byDrink].map(([e, matches]) => {
      // issue 33, item 3 (src/engine/food-rank.ts): authority, specificity, promotion, agreement
      const best = new Map<string, number>();
      let discounted: ItemRank | null = null;
      for (const m of matches) {
        const rank = ranks.get(m.item)!;
        const s = m.item.confidence * m.weight * rank.weight * (asked.has(m.about) || m.level === 'parent' ? 1 : NARROWER_FOOD_WEIGHT);
        if (s > (best.get(rank.publisher) ?? -1)) best.set(rank.publisher, s);
        if (rank.reason && (!discounted || rank.weight < discounted.weight)) discounted = rank;
      }
      const { best: top, bonus } = agreementScore(best.values());
      const drink = drinkWeight(e);
      const score = Math.round((top + bonus) * drink * 100) / 100;
      return { e, matches, level: matches.some((m) => m.level === 'dish') ? 'dish' : 'parent', score, sources: best.size, basis: { top, bonus, drink, discounted } };
    });
    ranked.sort((a, b) => b.score - a.score || b.sources - a.sources || b.matches.length - a.matches.length || (a.e.name < b.e.name ? -1 : a.e.name > b.e.name ? 1 : 0));
    const first = nodes[0]!;
    return {
      status: 200,
      body: {
        ok: true,
        query: p.q,
        food: {
          matched: terms.map((t) => t.text),
          category: vocabulary.label(vocabulary.root(first)),
          entries: nodes.map((n) => ({ id: vocabulary.ids[n], name: vocabulary.label(n) })),
          ...foodReadingOut(vocabulary, reading),
        },
        drinks: ranked.slice(0, limit).map((r) => ({
          ...entityRef(r.e),
          ...drinkScopeOf(r.e.name, r.matches.map((m) => m.item)),
          score: r.score,
          source_count: r.sources,
          guidance: r.matches.map((m) => foodMatchOut(vocabulary, m, this.guidanceOut(m.item))),
          evidence_level: r.level,
          rank_basis: rankBasisOut(r.basis),
        })),
        drinks_total: ranked.length,
        applied_scope: want ? this.appliedScopeOut(want, scopeMatches) : null,
        scope_boundary: want && ranked.length === 0 && scopeMatches.length > 0 ? { reason: 'no_evidence_in_scope', message: SCOPE_BOUNDARY_REASONS.no_evidence_in_scope } : null,
        boundary: ranked.length || scopeMatches.length
          ? null
          : { reason: 'no_verified_pairing_evidence_for_food', message: FOOD_BOUNDARY, knowledge_base_version: this.kb.version },
        vocabulary: { source: vocabulary.record.source, version: vocabulary.record.version, licence: vocabulary.record.licence },
      },
    };
  }

  /** The scope of pair-food's `scope` parameter: scope words and nothing else, or an error naming the parameter. */
  private scopeParam(scope: string): AppliedScope | EngineResult {
    if (scope.length > 100) return invalid('Parameter "scope" is too long: at most 100 characters.', 'scope');
    const r = this.scopeWords.find(scope);
    const want = r.covered ? scopeOfWords(r.found) : null;
    if (!want) return invalid(`Parameter "scope" must be colour, sweetness or style words of a wine label ("sweet", "brut", "tawny", "rouge", "Spätlese"); got "${scope}".`, 'scope');
    return want;
  }

  /**
   * How a pair-food item falls against the scope asked for: only a wine's item whose scope names a class
   * asked for is in scope (or any item of a wine style whose own name is one: "Pedro Ximénez"). An item
   * with no scope, or a scope that names nothing asked, is about the drink at large, so it cannot say
   * that the drink is of the scope asked for: in pair-food it is left out, unlike in pair.
   */
  private foodScopeMatch(e: Entity, item: GuidanceItemRecord, want: AppliedScope): ScopeMatch {
    if (e.domain !== 'wine') return 'out_of_scope';
    if (e.type === 'wine_style' && [e.name, ...e.aliases.map((a) => a.name)].some((n) => this.scopeMatch(n, want) === 'in_scope')) return 'in_scope';
    return this.scopeMatch(itemScopeText(item), want) === 'in_scope' ? 'in_scope' : 'out_of_scope';
  }

  /** A filter over entities from `type` (comma list) and `domain`, or an error naming the parameter. */
  private typeFilter(type: string | undefined, domain: string | undefined): ((e: Entity) => boolean) | EngineResult | undefined {
    let types: Set<string> | undefined;
    if (type !== undefined) {
      types = new Set(type.split(',').map((t) => t.trim()));
      for (const t of types) {
        if (!(ENTITY_TYPES as readonly string[]).includes(t)) return invalid(`Parameter "type" must be one or more of ${ENTITY_TYPES.join(', ')} (comma-separated); got "${t}".`, 'type');
      }
    }
    if (domain !== undefined && !(DOMAINS as readonly string[]).includes(domain)) {
      return invalid(`Parameter "domain" must be one of ${DOMAINS.join(', ')}.`, 'domain');
    }
    if (!types && domain === undefined) return undefined;
    return (e) => (!types || types.has(e.type)) && (domain === undefined || e.domain === domain);
  }

  get version() {
    return this.kb.version;
  }

  private resolutionHead(q: string, r: Resolution) {
    return {
      query: q,
      state: r.state,
      resolved: r.state !== 'unresolved',
      ambiguous: r.state === 'ambiguous',
      top_score: r.candidates[0]?.score ?? 0,
    };
  }

  resolveEntity(p: ResolveParams): EngineResult {
    let accept: ((i: number) => boolean) | undefined;
    if (p.type !== undefined || p.domain !== undefined) {
      const f = this.typeFilter(p.type, p.domain);
      if (f && 'status' in f) return f;
      if (f) accept = (i) => f(this.kb.entities[i]!);
    }
    const r = this.resolveTerm(p.q, p.limit ?? DEFAULT_LIMIT, accept);
    return {
      status: 200,
      body: { ok: true, ...this.resolutionHead(p.q, r), matches: r.candidates.map((c) => matchOf(this.kb, c)), terms: r.terms, ...this.unresolvedHelp(r), reading: this.readingOf(r) },
    };
  }

  /** A beer description read as base style + modifiers (beer-modifiers.ts), or null. */
  private readingOf(r: Resolution) {
    const x = r.reading;
    if (!x) return null;
    const s = this.kb.sources.get(x.source);
    return {
      kind: x.inherent ? ('base_style_has_modifiers' as const) : ('specialty_style' as const),
      base: { text: x.base.text, state: x.base.state, matches: x.base.candidates.map((c) => matchOf(this.kb, c)) },
      modifiers: x.modifiers.map((m) => ({ text: m.text, class: m.class })),
      specialty: x.specialty.map((i) => entityRef(this.kb.entities[i]!)),
      provenance: { source_key: x.source, source_title: s?.title ?? x.source, source_publisher: s?.publisher ?? null, source_url: s?.url ?? null, locator: x.locator, retrieved_via: s?.retrieved_via ?? null },
    };
  }

  /** On an unresolved answer: why (`coverage`) and the nearest names below the threshold (`suggestions`). */
  private unresolvedHelp(r: Resolution) {
    if (r.state !== 'unresolved') return { coverage: null, suggestions: null };
    return {
      coverage: r.coverage ?? 'unknown_term',
      suggestions: r.suggestions.map((c) => {
        const e = this.kb.entities[c.entity]!;
        return { ...entityRef(e), match_value: c.value, match_score: c.score };
      }),
    };
  }

  private best(q: string, param = 'q'): { r: Resolution; e: Entity; c: Candidate } | EngineResult {
    const r = this.resolveTerm(q, 5);
    const c = r.candidates[0];
    if (!c) {
      return {
        status: 404,
        body: {
          ok: false,
          error: {
            code: 'ENTITY_NOT_RESOLVED',
            message:
              r.coverage === 'out_of_scope'
                ? `${param} "${q}" names a drink outside wine, spirits and beer, which this service does not cover.`
                : `No entity matches ${param} "${q}". Try /v1/resolve-entity to see what the service knows.`,
            parameter: param,
            ...this.unresolvedHelp(r),
          },
        },
      };
    }
    return { r, e: this.kb.entities[c.entity]!, c };
  }

  private resolutionObject(e: Entity, c: Candidate) {
    return {
      entity_id: e.id,
      canonical_name: e.name,
      matched_on: c.matchedOn,
      match_value: c.value,
      match_score: c.score,
      vivc_id: factString(e, 'vivc_id'),
      wikidata_id: factString(e, 'wikidata_id'),
    };
  }

  private sourceOf(key: string) {
    const s = this.kb.sources.get(key)!;
    return { source_key: s.key, title: s.title, publisher: s.publisher, authority: s.authority, url: s.url, retrieved_via: s.retrieved_via ?? null };
  }

  /** A fact with its provenance inline; entity references become navigable objects. */
  private factOut(f: Fact) {
    let value: unknown = f.value;
    if (typeof f.value === 'string' && ENTITY_KEY_PREFIX.test(f.value)) {
      const t = this.kb.byKey.get(f.value);
      if (t) value = entityRef(t);
    } else if (Array.isArray(f.value) && f.value.every((v) => ENTITY_KEY_PREFIX.test(v))) {
      value = f.value.map((k) => this.kb.byKey.get(k)).filter(Boolean).map((t) => entityRef(t!));
    }
    const s = this.kb.sources.get(f.source)!;
    return {
      value,
      provenance: {
        source_key: s.key, source_title: s.title, source_publisher: s.publisher, source_url: s.url, locator: f.locator,
        // the copy's note (often ~500 characters) is given once, in the profile's `sources`, not with every fact
        retrieved_via: s.retrieved_via ? { url: s.retrieved_via.url, kind: s.retrieved_via.kind } : null,
        source_excerpt: f.source_excerpt ?? null,
        language_code: f.language_code ?? null,
      },
    };
  }

  /** The sourced profile of one entity. Relations carry the ids a client needs for a follow-up call. */
  profile(e: Entity, want: AppliedScope | null = null, relationCap = RELATION_CAP, aliasCap = Number.POSITIVE_INFINITY, ruleCap = relationCap) {
    const facts: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(e.facts)) facts[k] = this.factOut(f);
    if (e.grapeRules.length) facts.grapes = this.grapeRulesOut(e, want, ruleCap);
    const parentKey = e.facts.parent?.value;
    const parent = typeof parentKey === 'string' ? this.kb.byKey.get(parentKey) : undefined;
    const ancestors: Entity[] = [];
    for (let p = parent, guard = 0; p && guard < 10; guard++) {
      ancestors.push(p);
      const k = p.facts.parent?.value;
      p = typeof k === 'string' ? this.kb.byKey.get(k) : undefined;
    }
    const refs = (idxs: number[]) => idxs.map((i) => this.kb.entities[i]!).sort((a, b) => a.name.localeCompare(b.name)).map(entityRef);
    // long relation lists are cut: the first RELATION_CAP, the total, and the query that pages through all
    const more: Record<string, { total: number; shown: number; list: string }> = {};
    const rules = facts.grapes as { value: unknown[]; value_total?: number } | undefined;
    // explain lists the first aliases (names in hundreds of CLDR locales make some lists long); /v1/entities/{id} gives them all
    if (e.aliases.length > aliasCap) more.aliases = { total: e.aliases.length, shown: aliasCap, list: `/v1/entities/${e.id}` };
    if (rules?.value_total !== undefined) more.grape_rules = { total: rules.value_total, shown: rules.value.length, list: `/v1/entities?appellation=${e.id}&type=grape` };
    const cap = <T>(name: string, list: T[], url: string): T[] => {
      if (list.length <= relationCap) return list;
      more[name] = { total: list.length, shown: relationCap, list: url };
      return list.slice(0, relationCap);
    };
    const grapes = Array.isArray(e.facts.grapes?.value) ? (e.facts.grapes!.value as string[]) : [];
    const sourceKeys = new Set<string>([
      ...Object.values(e.facts).map((f) => f.source),
      ...e.grapeRules.flatMap((set) => [set.source, ...(set.supersedes ?? [])]),
      ...e.aliases.map((a) => a.source),
    ]);
    return {
      entity_id: e.id,
      entity_key: e.key,
      canonical_name: e.name,
      entity_type: e.type,
      domain: e.domain,
      review_status: e.review,
      aliases: e.aliases.slice(0, aliasCap).map((a) => ({ name: a.name, language_code: a.lang, kind: a.kind, source_key: a.source, locator: a.locator })),
      facts,
      relations: {
        parent: parent ? entityRef(parent) : null,
        country: this.countryOf(e),
        ancestors: ancestors.map(entityRef),
        children: cap('children', refs(e.children), `/v1/entities?parent=${e.id}`),
        grapes: cap('grapes', grapes.map((k) => this.kb.byKey.get(k)).filter(Boolean).map((t) => entityRef(t!)), `/v1/entities?appellation=${e.id}&type=grape`),
        geographies: cap('geographies', refs(e.geographies), `/v1/entities?grape=${e.id}&type=wine_geography`),
        appellations: cap('appellations', this.appellationsOf(e), `/v1/entities?grape=${e.id}&type=wine_geography`),
      },
      relations_more: more,
      sensory_available: e.sensory.length > 0,
      pairing_available: e.pairing !== null,
      sources: [...sourceKeys].sort().map((k) => this.sourceOf(k)),
    };
  }

  /**
   * An appellation's grapes from its rules: each variety with its role, the shares the text states
   * and the wine type it holds for; the fact's provenance is the first rule set's, and each item
   * names its own source and locator (an appellation may have sets from several texts).
   */
  private grapeRulesOut(e: Entity, want: AppliedScope | null = null, cap = Number.POSITIVE_INFINITY) {
    // one item per grape, role, shares and source: the scopes of the sets that repeat it are joined
    // ("Pinot Noir: required, red; rosé"), so a grape is listed once per rule (issue 33, item 1)
    const value: { entity_id: string; role: string; min_share: number | null; max_share: number | null; scope: string | null; source_key: string; locator: string; [k: string]: unknown }[] = [];
    for (const set of e.grapeRules) {
      for (const g of set.grapes) {
        const scope = g.scope ?? set.scope ?? null;
        if (want && this.scopeMatch(scope, want) === 'out_of_scope') continue;
        const ref = entityRef(this.kb.byKey.get(g.grape)!);
        const same = value.find((v) => v.entity_id === ref.entity_id && v.role === g.role && v.min_share === g.min_share && v.max_share === g.max_share && v.source_key === set.source);
        if (same) {
          same.scope = joinScopes(same.scope, scope);
          continue;
        }
        // the date the rule applies from and the texts it replaced (issue 34, item 4), where recorded
        const dated = set.in_force_from ? { in_force_from: set.in_force_from, in_force_basis: set.in_force_basis ?? null, supersedes: set.supersedes ?? [] } : {};
        value.push({ ...ref, role: g.role, min_share: g.min_share, max_share: g.max_share, scope, source_key: set.source, locator: set.locator, ...dated });
      }
    }
    const first = e.grapeRules[0]!;
    // honest completeness (issue 34, item 2): a partial set says so, with the names it could not map
    const unmapped: { name: string; reason: string; source_text: string | null; source_key: string }[] = [];
    const notes: string[] = [];
    let complete = true;
    for (const set of e.grapeRules) {
      if (want && set.scope && this.scopeMatch(set.scope, want) === 'out_of_scope') continue;
      if (!set.complete) complete = false;
      for (const u of set.unmapped ?? []) if (!unmapped.some((x) => x.name === u.name)) unmapped.push({ name: u.name, reason: u.reason, source_text: u.source_text ?? null, source_key: set.source });
      if (set.completeness_note) notes.push(set.completeness_note);
    }
    const fact = { ...this.factOut({ value: [], source: first.source, locator: first.locator }), value, complete, unmapped, completeness_note: notes.length ? notes.join(' ') : null };
    if (value.length <= cap) return fact;
    // a long rule list (a regional register of varieties) is cut, strongest roles first, and says so
    const rank: Record<string, number> = { required: 0, principal: 1, permitted: 2, accessory: 3 };
    const kept = value.map((v, i) => ({ v, i })).sort((a, b) => rank[a.v.role]! - rank[b.v.role]! || a.i - b.i).slice(0, cap).sort((a, b) => a.i - b.i).map((x) => x.v);
    return { ...fact, value: kept, value_total: value.length };
  }

  /** Country records by ISO code and by folded name (made on first use). */
  private countries: { byCode: Map<string, Entity>; byName: Map<string, Entity> } | undefined;

  /**
   * The country an entity's facts name, as a reference (issue 24, item 3): the country record whose
   * code is the entity's `country` fact (geographies, spirits, wine styles), or whose name is a
   * grape's `country_of_origin` (VIVC spells countries in English capitals). Null where the fact is
   * absent, names no country record (EU, a historical state), or the entity is that country itself.
   */
  private countryOf(e: Entity) {
    if (!this.countries) {
      const byCode = new Map<string, Entity>();
      const byName = new Map<string, Entity>();
      for (const x of this.kb.entities) {
        if (x.type !== 'wine_geography' || x.facts.level?.value !== 'country') continue;
        const code = x.facts.country?.value;
        if (typeof code === 'string' && !byCode.has(code)) byCode.set(code, x);
        byName.set(fold(exactForm(x.name)), x);
      }
      this.countries = { byCode, byName };
    }
    const code = e.facts.country?.value;
    const origin = e.facts.country_of_origin?.value;
    const c = typeof code === 'string' ? this.countries.byCode.get(code) : typeof origin === 'string' ? this.countries.byName.get(fold(exactForm(origin))) : undefined;
    return c && c !== e ? entityRef(c) : null;
  }

  /** For a grape: the appellations whose rules name it, strongest role first, then by name. */
  private appellationsOf(e: Entity) {
    const rank: Record<string, number> = { required: 0, principal: 1, permitted: 2, accessory: 3 };
    return [...e.appellations]
      .map((a) => ({ ...a, entity: this.kb.entities[a.geo]! }))
      .sort((x, y) => rank[x.role]! - rank[y.role]! || x.entity.name.localeCompare(y.entity.name))
      .map((a) => ({ ...entityRef(a.entity), role: a.role, scope: a.scope }));
  }

  explain(p: TermParams): EngineResult {
    const b = this.best(p.q);
    if ('status' in b) return b;
    const { r, e, c } = b;
    const want = this.scopeFor(p.q, e);
    return {
      status: 200,
      body: {
        ok: true,
        ...this.resolutionHead(p.q, r),
        applied_scope: want ? this.appliedScopeOut(want, e.grapeRules.flatMap((set) => set.grapes.map((g) => this.scopeMatch(g.scope ?? set.scope ?? null, want)))) : null,
        resolution: this.resolutionObject(e, c),
        alternatives: r.state === 'ambiguous' ? r.candidates.slice(1).map((x) => matchOf(this.kb, x)) : [],
        profile: this.profile(e, want, RELATION_CAP, EXPLAIN_ALIAS_CAP, EXPLAIN_RULE_CAP),
        reference_expressions: e.sensory.map((s) => this.expressionOut(s, e)),
        sensory_boundary: e.sensory.length === 0 ? { reason: 'no_sourced_sensory_evidence', message: SENSORY_BOUNDARY } : null,
      },
    };
  }

  private expressionOut(s: SensoryRecord, e: Entity) {
    const { entity: _entity, provenance, ...rest } = s;
    return {
      expression_id: expressionIdOf(s.expression_key),
      ...rest,
      provenance: provenance.map((p) => ({ source: p.source, locator: p.locator, supports: p.supports })),
    };
  }

  pair(p: TermParams): EngineResult {
    const b = this.best(p.q);
    if ('status' in b) return b;
    const { r, e, c } = b;
    const set = e.pairing;
    const want = set ? this.scopeFor(p.q, e) : null;
    let guidance: Record<string, unknown>[];
    let appliedScope: ReturnType<Engine['appliedScopeOut']> | null = null;
    let scopeBoundary: { reason: keyof typeof SCOPE_BOUNDARY_REASONS; message: string } | null = null;
    if (set && want) {
      // only the items about the scope asked for, or about the entity as a whole; each says which
      const matches = set.items.map((it) => this.scopeMatch(itemScopeText(it), want));
      guidance = set.items.flatMap((it, i) => (matches[i] === 'out_of_scope' ? [] : [{ ...this.guidanceOut(it), scope_match: matches[i] }]));
      appliedScope = this.appliedScopeOut(want, matches);
      if (guidance.length === 0) scopeBoundary = { reason: 'no_evidence_in_scope', message: SCOPE_BOUNDARY_REASONS.no_evidence_in_scope };
    } else {
      guidance = set ? set.items.map((it) => this.guidanceOut(it)) : [];
    }
    const body: Record<string, unknown> = {
      ok: true,
      ...this.resolutionHead(p.q, r),
      applied_scope: appliedScope,
      scope_boundary: scopeBoundary,
      pairing: {
        guidance,
        review_status: set ? 'verified' : 'none',
        guidance_version: set ? set.guidance_version : this.kb.version,
      },
      resolution: this.resolutionObject(e, c),
      sensory_available: e.sensory.length > 0,
      domain: e.domain,
      pairing_available: set !== null,
      pairing_evidence: {
        customer_guidance_source: set ? 'verified_source_backed_pairing_evidence' : 'none',
        verified_source_backed_available: set !== null,
        generic_fallback_available: false,
        generic_fallback_used: false,
      },
      pairing_boundary: {
        pairing_is_independent_from_sensory: true,
        verified_source_backed_pairing_overrides_generic_pairing: true,
        generic_pairing_must_not_expand_verified_source_backed_set: true,
        pairing_scope_must_be_preserved: true,
        pairing_requires_separate_promoted_evidence: true,
      },
    };
    body.reference_expression = e.sensory.length > 0 ? this.expressionOut(e.sensory[0]!, e) : null;
    body.boundary = null;
    if (!set) {
      const reason = this.domainsWithPairings.has(e.domain) ? 'no_verified_pairing_evidence' : 'domain_not_covered';
      body.boundary = {
        reason,
        message: BOUNDARY_REASONS[reason],
        entity_id: e.id,
        entity_type: e.type,
        sensory_available: e.sensory.length > 0,
        knowledge_base_version: this.kb.version,
      };
    }
    return { status: 200, body };
  }

  /** Each item's answer shape, built once (items never change after load; answers only serialise them). */
  private readonly guidanceShapes = new WeakMap<GuidanceItemRecord, Record<string, unknown>>();

  private guidanceOut(it: GuidanceItemRecord): Record<string, unknown> {
    let out = this.guidanceShapes.get(it);
    if (!out) this.guidanceShapes.set(it, (out = this.guidanceShape(it)));
    return out;
  }

  private guidanceShape(it: GuidanceItemRecord) {
    const s = this.kb.sources.get(it.source_key)!;
    const { source_key, source_url, source_section, source_page, source_excerpt, ...rest } = it;
    return {
      ...rest,
      source_key,
      source_title: s.title,
      source_publisher: s.publisher,
      source_authority: s.authority,
      source_url,
      source_section,
      source_page,
      source_excerpt,
      retrieved_via: s.retrieved_via ?? null,
    };
  }

  /** GET /v1/entities/{entity_id}: the profile of one entity by entity_id or permanent key. */
  entity(p: EntityParams): EngineResult {
    const e = this.entityByIdOrKey(p.id);
    if (!e) {
      // an id a past release served: 410 (removed) or 301 (merged, renamed), never a plain 404
      const gone = goneAnswer(this.kb, p.id);
      if (gone) return gone;
      return {
        status: 404,
        body: { ok: false, error: { code: 'NOT_FOUND', message: `No entity has the id "${p.id}". Ids are the entity_id values (UUIDs) or permanent keys (grape/syrah) this API returns.`, parameter: 'entity_id' } },
      };
    }
    return {
      status: 200,
      body: {
        ok: true,
        entity: this.profile(e),
        reference_expressions: e.sensory.map((s) => this.expressionOut(s, e)),
        sensory_boundary: e.sensory.length === 0 ? { reason: 'no_sourced_sensory_evidence', message: SENSORY_BOUNDARY } : null,
      },
    };
  }

  /** GET /v1/entities: served entities by permanent key, filtered, in pages with an opaque cursor. */
  listEntities(p: ListParams): EngineResult {
    const limit = p.limit ?? LIST_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) return invalid(`Parameter "limit" must be a whole number from 1 to ${LIST_MAX_LIMIT}.`, 'limit');
    const tf = this.typeFilter(p.type, p.domain);
    if (tf && 'status' in tf) return tf;
    let country: string | undefined;
    if (p.country !== undefined) {
      if (!/^[A-Za-z]{2}$/.test(p.country)) return invalid('Parameter "country" must be an ISO 3166-1 alpha-2 code such as FR or US.', 'country');
      country = p.country.toUpperCase();
    }
    let parentKey: string | undefined;
    if (p.parent !== undefined) {
      const parent = this.entityByIdOrKey(p.parent);
      if (!parent) return invalid(`Parameter "parent" must be the entity_id (or permanent key) of a served entity; "${p.parent}" is not one.`, 'parent');
      parentKey = parent.key;
    }
    // grape=: the wine geographies whose rules or grapes fact name the grape; appellation=: the grapes an
    // appellation's rules or grapes fact names (the lists a profile's relations cut at RELATION_CAP)
    let grapeOf: Set<number> | undefined;
    let grapeKey: string | undefined;
    if (p.grape !== undefined) {
      const g = this.entityByIdOrKey(p.grape);
      if (!g || g.type !== 'grape') return invalid(`Parameter "grape" must be the entity_id (or permanent key) of a served grape; "${p.grape}" is not one.`, 'grape');
      grapeKey = g.key;
      grapeOf = new Set([...g.appellations.map((a) => a.geo), ...g.geographies]);
    }
    let appellationOf: Set<string> | undefined;
    let appellationKey: string | undefined;
    if (p.appellation !== undefined) {
      const a = this.entityByIdOrKey(p.appellation);
      if (!a || a.type !== 'wine_geography') return invalid(`Parameter "appellation" must be the entity_id (or permanent key) of a served wine geography; "${p.appellation}" is not one.`, 'appellation');
      appellationKey = a.key;
      const listed = Array.isArray(a.facts.grapes?.value) ? (a.facts.grapes!.value as string[]) : [];
      appellationOf = new Set([...listed, ...a.grapeRules.flatMap((set) => set.grapes.map((g) => g.grape))]);
    }
    // filters in one normal form, so equivalent ones share cursors (type=grape,spirit is type=spirit,grape)
    const types = p.type === undefined ? '' : [...new Set(p.type.split(',').map((t) => t.trim()))].sort().join(',');
    const filters = `type=${types}&domain=${p.domain ?? ''}&country=${country ?? ''}&parent=${parentKey ?? ''}` + (grapeKey ? `&grape=${grapeKey}` : '') + (appellationKey ? `&appellation=${appellationKey}` : '');
    let after: string | null = null;
    if (p.cursor !== undefined) {
      const c = this.readCursor(p.cursor, filters);
      if (typeof c !== 'string') return c;
      after = c;
    }
    const keep = (e: Entity) =>
      (!tf || tf(e)) &&
      (country === undefined || e.facts.country?.value === country) &&
      (parentKey === undefined || e.facts.parent?.value === parentKey) &&
      (grapeOf === undefined || grapeOf.has(e.idx)) &&
      (appellationOf === undefined || appellationOf.has(e.key));
    // first position after the cursor's key (binary search over the key order)
    let lo = 0;
    if (after !== null) {
      let hi = this.listOrder.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.listOrder[mid]!.key <= after) lo = mid + 1;
        else hi = mid;
      }
    }
    const page: Entity[] = [];
    let i = lo;
    for (; i < this.listOrder.length && page.length < limit; i++) if (keep(this.listOrder[i]!)) page.push(this.listOrder[i]!);
    let more = false;
    for (; i < this.listOrder.length; i++) if (keep(this.listOrder[i]!)) { more = true; break; }
    return {
      status: 200,
      body: {
        ok: true,
        entities: page.map((e) => ({ entity_id: e.id, entity_key: e.key, canonical_name: e.name, entity_type: e.type, domain: e.domain })),
        next_cursor: more ? this.cursorOf(page[page.length - 1]!.key, filters) : null,
      },
    };
  }

  /**
   * Opaque, stable cursor: the last key served, tied to the KB version and the filters by a checksum.
   * The checksum is no secret (anyone can make a cursor); it only catches a cursor reused with other
   * filters. That is harmless either way: the filters are applied again on every page.
   */
  private cursorOf(afterKey: string, filters: string): string {
    const payload = Buffer.from(JSON.stringify([this.kb.version, afterKey])).toString('base64url');
    return `${payload}.${this.cursorSig(payload, filters)}`;
  }

  private cursorSig(payload: string, filters: string) {
    return createHash('sha256').update(`${this.kb.version}\u0000${filters}\u0000${payload}`).digest('base64url').slice(0, 16);
  }

  private readCursor(cursor: string, filters: string): string | EngineResult {
    const bad = (why: string) => invalid(`Parameter "cursor" ${why} Start again without a cursor.`, 'cursor');
    const dot = cursor.indexOf('.');
    if (dot < 1 || cursor.length > 400) return bad('is not a cursor issued by this endpoint.');
    const payload = cursor.slice(0, dot);
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return bad('is not a cursor issued by this endpoint.');
    }
    if (!Array.isArray(decoded) || decoded.length !== 2 || typeof decoded[0] !== 'string' || typeof decoded[1] !== 'string') return bad('is not a cursor issued by this endpoint.');
    if (decoded[0] !== this.kb.version) return bad(`belongs to knowledge-base version ${decoded[0]}, not ${this.kb.version}.`);
    if (cursor.slice(dot + 1) !== this.cursorSig(payload, filters)) return bad('does not belong to these filters (type, domain, country, parent): pass the same filters as the page it came from.');
    return decoded[1];
  }

  compare(p: CompareParams): EngineResult {
    const lb = this.best(p.left, 'left');
    if ('status' in lb) return lb;
    const rb = this.best(p.right, 'right');
    if ('status' in rb) return rb;
    const side = (q: string, b: { r: Resolution; e: Entity; c: Candidate }) => ({
      ...this.resolutionHead(q, b.r),
      resolution: this.resolutionObject(b.e, b.c),
      profile: this.scopedProfile(b.e, p.provenance === 'by_key'),
      // the first sensory expression; the others (Rioja's Blanco beside its Tinto) are in the full profile
      reference_expressions: b.e.sensory.slice(0, COMPARE_EXPRESSION_CAP).map((x) => this.expressionOut(x, b.e)),
      ...(b.e.sensory.length > COMPARE_EXPRESSION_CAP
        ? { reference_expressions_more: { total: b.e.sensory.length, shown: COMPARE_EXPRESSION_CAP, list: `/v1/entities/${b.e.id}` } }
        : {}),
      sensory_boundary: b.e.sensory.length === 0 ? { reason: 'no_sourced_sensory_evidence', message: SENSORY_BOUNDARY } : null,
    });
    // the comparison first (what tells the two apart), then each side's profile
    return {
      status: 200,
      body: {
        ok: true,
        comparison: this.comparison(lb.e, rb.e),
        left: side(p.left, lb),
        right: side(p.right, rb),
      },
    };
  }

  /**
   * A side of a comparison (issue 33, item 5), cut so that a compare body stays under 16 KB, each cut
   * saying what it left out and where the whole is (`/v1/entities/{id}`, the uncut profile): no aliases
   * (relations_more.aliases), relation lists cut at COMPARE_RELATION_CAP, grape rules and unmapped names
   * at COMPARE_RULE_CAP, each fact's provenance by source_key (the source's title, publisher, url and the
   * copy read are given once, in the side's `sources`), and `sources` only the ones the side cites
   * (relations_more.sources).
   */
  private scopedProfile(e: Entity, byKey = false) {
    const p = this.profile(e, null, COMPARE_RELATION_CAP, Number.POSITIVE_INFINITY, COMPARE_RULE_CAP);
    const full = `/v1/entities/${e.id}`;
    const more: Record<string, { total: number; shown: number; list: string }> = { ...p.relations_more };
    const cited = new Set<string>();
    const facts: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(p.facts as Record<string, { value: unknown; value_total?: number; provenance: ReturnType<Engine['factOut']>['provenance'] }>)) {
      const { source_key, locator, source_excerpt, language_code } = f.provenance;
      cited.add(source_key);
      // an appellation's grape rules name their own source each
      if (Array.isArray(f.value)) for (const v of f.value) if (v && typeof v === 'object' && typeof (v as { source_key?: unknown }).source_key === 'string') cited.add((v as { source_key: string }).source_key);
      // by_key: the source's title, publisher, url and copy are in `sources` only; inline (the v1 default): in full
      const out: Record<string, unknown> = byKey ? { ...f, provenance: { source_key, locator, source_excerpt, language_code } } : { ...f };
      // the names an appellation's sources list that map to no grape: the first few, counted, the rest in the full profile
      const unmapped = (f as { unmapped?: unknown }).unmapped;
      if (Array.isArray(unmapped)) {
        out.unmapped = unmapped.slice(0, COMPARE_RULE_CAP);
        for (const u of out.unmapped as { source_key?: unknown }[]) if (typeof u.source_key === 'string') cited.add(u.source_key);
        if (unmapped.length > COMPARE_RULE_CAP) more.unmapped = { total: unmapped.length, shown: COMPARE_RULE_CAP, list: full };
      }
      facts[k] = out;
    }
    let relations = p.relations;
    // an appellation whose rules were read lists its grapes (with their roles) in facts.grapes: the
    // bare relation list would repeat them
    if (e.grapeRules.length && relations.grapes.length) {
      const total = more.grapes?.total ?? relations.grapes.length;
      more.grapes = { total, shown: 0, list: `/v1/entities?appellation=${e.id}&type=grape` };
      relations = { ...relations, grapes: [] };
    }
    if (e.aliases.length) more.aliases = { total: e.aliases.length, shown: 0, list: full };
    // the copy's note (up to ~400 characters) is left to the full profile; the copy's url and kind stay
    const sources = p.sources.filter((s) => cited.has(s.source_key)).map((s) => (byKey && s.retrieved_via ? { ...s, retrieved_via: { url: s.retrieved_via.url, kind: s.retrieved_via.kind } } : s));
    if (sources.length < p.sources.length) more.sources = { total: p.sources.length, shown: sources.length, list: full };
    const { aliases: _a, ...rest } = { ...p, facts, relations, relations_more: more, sources };
    return byKey ? { ...rest, provenance_by_key: { given_in: 'sources', full_profile: full } } : rest;
  }

  /**
   * What tells two entities apart beyond their facts (issue 33, item 5), each part only where one side
   * has something: the appellations whose rules name one grape and not the other (strongest role first),
   * the grapes one appellation's rules name and the other's do not, the foods one has verified pairing
   * items for and the other lacks, and which side has sourced sensory evidence.
   */
  private contrasts(a: Entity, b: Entity) {
    const out: Record<string, unknown> = {};
    const names = (xs: Entity[]) => xs.slice(0, CONTRAST_LIMIT).map(entityRef);
    if (a.appellations.length || b.appellations.length) {
      const rank: Record<string, number> = { required: 0, principal: 1, permitted: 2, accessory: 3 };
      const geos = (e: Entity) => {
        const best = new Map<number, number>();
        for (const x of e.appellations) best.set(x.geo, Math.min(best.get(x.geo) ?? 9, rank[x.role]!));
        return best;
      };
      const ga = geos(a);
      const gb = geos(b);
      const only = (x: Map<number, number>, y: Map<number, number>) =>
        [...x].filter(([g]) => !y.has(g)).sort((p, q) => p[1] - q[1] || this.kb.entities[p[0]]!.name.localeCompare(this.kb.entities[q[0]]!.name)).map(([g]) => this.kb.entities[g]!);
      const onlyA = only(ga, gb);
      const onlyB = only(gb, ga);
      out.appellations = {
        basis: 'appellations whose grape rules name the grape (strongest role first)',
        shared_total: [...ga.keys()].filter((g) => gb.has(g)).length,
        only_left_total: onlyA.length,
        only_right_total: onlyB.length,
        only_left: names(onlyA),
        only_right: names(onlyB),
        // each grape's appellations in full (the lists above are cut at CONTRAST_LIMIT)
        left_list: `/v1/entities?grape=${a.id}&type=wine_geography`,
        right_list: `/v1/entities?grape=${b.id}&type=wine_geography`,
      };
    }
    if (a.grapeRules.length || b.grapeRules.length) {
      const grapes = (e: Entity) => new Set(e.grapeRules.flatMap((set) => set.grapes.map((g) => g.grape)));
      const sa = grapes(a);
      const sb = grapes(b);
      const only = (x: Set<string>, y: Set<string>) => [...x].filter((k) => !y.has(k)).map((k) => this.kb.byKey.get(k)!).sort((p, q) => p.name.localeCompare(q.name));
      const onlyA = only(sa, sb);
      const onlyB = only(sb, sa);
      out.grapes = {
        basis: 'grapes the appellation rules name',
        shared_total: [...sa].filter((k) => sb.has(k)).length,
        only_left_total: onlyA.length,
        only_right_total: onlyB.length,
        only_left: names(onlyA),
        only_right: names(onlyB),
        left_list: `/v1/entities?appellation=${a.id}&type=grape`,
        right_list: `/v1/entities?appellation=${b.id}&type=grape`,
      };
    }
    if (a.pairing || b.pairing) {
      const foods = (e: Entity) => new Map((e.pairing?.items ?? []).filter((it) => it.pairing_relationship !== 'avoid').map((it) => [it.food_item.toLowerCase(), it.food_item]));
      const fa = foods(a);
      const fb = foods(b);
      const only = (x: Map<string, string>, y: Map<string, string>) => [...x].filter(([k]) => !y.has(k)).map(([, v]) => v);
      const shared = [...fa].filter(([k]) => fb.has(k)).map(([, v]) => v);
      const onlyA = only(fa, fb);
      const onlyB = only(fb, fa);
      out.pairings = {
        basis: 'foods with verified pairing items (recommended or suitable); the items and their sources are in /v1/pair',
        shared: shared.slice(0, CONTRAST_LIMIT),
        only_left: onlyA.slice(0, CONTRAST_LIMIT),
        only_right: onlyB.slice(0, CONTRAST_LIMIT),
        // the lists above are cut at CONTRAST_LIMIT: their lengths, and each side's whole pairing
        shared_total: shared.length,
        only_left_total: onlyA.length,
        only_right_total: onlyB.length,
        left_list: a.pairing ? `/v1/pair?q=${a.id}` : null,
        right_list: b.pairing ? `/v1/pair?q=${b.id}` : null,
      };
    }
    out.sensory = { left_available: a.sensory.length > 0, right_available: b.sensory.length > 0 };
    return out;
  }

  /** Field by field, over sourced facts only. */
  private comparison(a: Entity, b: Entity) {
    const same_entity = a.idx === b.idx;
    const shared: Record<string, unknown>[] = [];
    const differences: Record<string, unknown>[] = [];
    const onlyLeft: string[] = [];
    const onlyRight: string[] = [];
    const SKIP = new Set(['vivc_id', 'wikidata_id', 'file_number', 'cfr_section', 'style_id', 'legal_reference', 'vivc_prime_name']);
    const fields = new Set([...Object.keys(a.facts), ...Object.keys(b.facts)]);
    for (const f of [...fields].sort()) {
      if (SKIP.has(f)) continue;
      const fa = a.facts[f];
      const fb = b.facts[f];
      if (!fa) { onlyRight.push(f); continue; }
      if (!fb) { onlyLeft.push(f); continue; }
      const prov = { left_source: fa.source, right_source: fb.source };
      const va = fa.value;
      const vb = fb.value;
      if (typeof va === 'object' && !Array.isArray(va) && typeof vb === 'object' && !Array.isArray(vb)) {
        const lo = Math.max(va.min, vb.min);
        const hi = Math.min(va.max, vb.max);
        const entry = { field: f, relation: lo <= hi ? 'overlapping_range' : 'disjoint_range', left: va, right: vb, overlap: lo <= hi ? { min: lo, max: hi } : null, ...prov };
        (lo <= hi ? shared : differences).push(entry);
      } else if (Array.isArray(va) && Array.isArray(vb)) {
        const common = va.filter((x) => vb.includes(x));
        // long lists (an appellation's 65 grapes) are cut at COMPARE_VALUE_CAP; the totals are given, and
        // each side's whole value is in its uncapped profile
        const display = (xs: string[]) => xs.slice(0, COMPARE_VALUE_CAP).map((k) => this.kb.byKey.get(k)?.name ?? k);
        const cut = Math.max(common.length, va.length, vb.length) > COMPARE_VALUE_CAP;
        const entry = {
          field: f, relation: common.length ? 'shared_values' : 'no_shared_values', common: display(common), left: display(va), right: display(vb), ...prov,
          common_total: common.length, left_total: va.length, right_total: vb.length,
          ...(cut ? { left_list: `/v1/entities/${a.id}`, right_list: `/v1/entities/${b.id}` } : {}),
        };
        (common.length ? shared : differences).push(entry);
      } else if (va === vb) {
        shared.push({ field: f, relation: 'same', value: this.displayValue(va), ...prov });
      } else {
        differences.push({ field: f, relation: 'different', left: this.displayValue(va), right: this.displayValue(vb), ...prov });
      }
    }
    return {
      same_entity,
      contrasts: this.contrasts(a, b),
      same_type: a.type === b.type,
      same_domain: a.domain === b.domain,
      left_type: a.type,
      right_type: b.type,
      shared,
      differences,
      only_left: onlyLeft,
      only_right: onlyRight,
      basis: 'sourced facts only; a field missing on one side is listed under only_left/only_right, never guessed',
    };
  }

  private displayValue(v: Fact['value']) {
    if (typeof v === 'string' && ENTITY_KEY_PREFIX.test(v)) {
      const t = this.kb.byKey.get(v);
      return t ? entityRef(t) : v;
    }
    return v;
  }
}

/** pair-food's `rank_basis` of a drink: how its score was reached (food-rank.ts; documented in src/routes/v1/pair-food.ts). */
function rankBasisOut(b: { top: number; bonus: number; drink: number; discounted: ItemRank | null }) {
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    best_item: r2(b.top),
    agreement_bonus: r2(b.bonus),
    drink_weight: b.drink,
    discount: b.discounted ? { reason: b.discounted.reason!, food_categories: b.discounted.categories, weight: r2(b.discounted.weight) } : null,
  };
}
