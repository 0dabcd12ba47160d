// The engine: pure domain. Given a loaded knowledge base it answers resolve, explain, pair and
// compare with v1 bodies, or a typed "not resolved" error. No HTTP, no database.
import type { Entity, KnowledgeBase } from './kb/load.ts';
import { Resolver, type Candidate, type EntityKind, type Resolution } from './resolver.ts';
import type { Fact, GuidanceItemRecord, SensoryRecord } from './kb/schema.ts';

export interface EngineError {
  ok: false;
  error: { code: 'ENTITY_NOT_RESOLVED' | 'INVALID_REQUEST' | 'INTERNAL_ERROR'; message: string; [k: string]: unknown };
}
export type EngineResult = { status: 200; body: Record<string, unknown> } | { status: 404 | 400 | 500; body: EngineError };

export interface ResolveParams { q: string; limit?: number }
export interface TermParams { q: string }
export interface CompareParams { left: string; right: string }

export const DEFAULT_LIMIT = 10;

export const SENSORY_BOUNDARY = 'No sourced sensory reference expression exists for this entity in this knowledge-base release; none is generated.';

/** Why pair returns no guidance: each reason is documented in the OpenAPI document. */
export const BOUNDARY_REASONS = {
  no_verified_pairing_evidence: 'No verified, source-backed pairing evidence exists for this entity in this knowledge-base release. Generic pairing guidance is never substituted.',
  domain_not_covered: 'Pairing evidence is curated for wine entities only in this release; spirits and beer have no verified pairing evidence yet.',
} as const;

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

export class Engine {
  readonly resolver: Resolver;
  readonly buildMs: number;

  constructor(readonly kb: KnowledgeBase) {
    const t0 = performance.now();
    const names = kb.entities.flatMap((e) => [
      { entity: e.idx, field: 'canonical' as const, value: e.name },
      ...e.aliases.map((a) => ({ entity: e.idx, field: 'alias' as const, value: a.name })),
    ]);
    const shared = kb.ambiguities.map((a) => ({
      term: a.term,
      entities: a.entities.map((k) => kb.byKey.get(k)?.idx).filter((i): i is number => i !== undefined),
    }));
    // deterministic tie-break: served evidence first (verified pairing), then shorter name, then key
    const rank = (e: Entity) => (e.pairing ? 0 : 1);
    const kinds = kb.entities.map((e): EntityKind => (e.type === 'wine_geography' ? 'place' : e.type === 'grape' ? 'grape' : 'other'));
    this.resolver = new Resolver(
      names,
      shared,
      (a, b) => {
        const ea = kb.entities[a]!;
        const eb = kb.entities[b]!;
        return rank(ea) - rank(eb) || ea.name.length - eb.name.length || (ea.key < eb.key ? -1 : ea.key > eb.key ? 1 : 0);
      },
      { kindOf: (i) => kinds[i]!, outOfScope: kb.outOfScope.map((o) => o.term), placeNames: kb.placeNames },
    );
    this.buildMs = performance.now() - t0;
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
    const r = this.resolver.resolve(p.q, p.limit ?? DEFAULT_LIMIT);
    return {
      status: 200,
      body: { ok: true, ...this.resolutionHead(p.q, r), matches: r.candidates.map((c) => matchOf(this.kb, c)), ...this.unresolvedHelp(r) },
    };
  }

  /** On an unresolved answer: why (`coverage`) and the nearest names below the threshold (`suggestions`). */
  private unresolvedHelp(r: Resolution) {
    if (r.state !== 'unresolved') return {};
    return {
      coverage: r.coverage ?? 'unknown_term',
      suggestions: r.suggestions.map((c) => {
        const e = this.kb.entities[c.entity]!;
        return { ...entityRef(e), match_value: c.value, match_score: c.score };
      }),
    };
  }

  private best(q: string, param = 'q'): { r: Resolution; e: Entity; c: Candidate } | EngineResult {
    const r = this.resolver.resolve(q, 5);
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
    return { source_key: s.key, title: s.title, publisher: s.publisher, authority: s.authority, url: s.url, ...(s.retrieved_via ? { retrieved_via: s.retrieved_via } : {}) };
  }

  /** A fact with its provenance inline; entity references become navigable objects. */
  private factOut(f: Fact) {
    let value: unknown = f.value;
    if (typeof f.value === 'string' && /^(grape|geo|spirit|beer)\//.test(f.value)) {
      const t = this.kb.byKey.get(f.value);
      if (t) value = entityRef(t);
    } else if (Array.isArray(f.value) && f.value.every((v) => /^(grape|geo|spirit|beer)\//.test(v))) {
      value = f.value.map((k) => this.kb.byKey.get(k)).filter(Boolean).map((t) => entityRef(t!));
    }
    const s = this.kb.sources.get(f.source)!;
    return {
      value,
      provenance: { source_key: s.key, source_title: s.title, source_publisher: s.publisher, source_url: s.url, locator: f.locator, ...(s.retrieved_via ? { retrieved_via: s.retrieved_via } : {}) },
    };
  }

  /** The sourced profile of one entity. Relations carry the ids a client needs for a follow-up call. */
  profile(e: Entity) {
    const facts: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(e.facts)) facts[k] = this.factOut(f);
    const parentKey = e.facts.parent?.value;
    const parent = typeof parentKey === 'string' ? this.kb.byKey.get(parentKey) : undefined;
    const ancestors: Entity[] = [];
    for (let p = parent, guard = 0; p && guard < 10; guard++) {
      ancestors.push(p);
      const k = p.facts.parent?.value;
      p = typeof k === 'string' ? this.kb.byKey.get(k) : undefined;
    }
    const refs = (idxs: number[]) => idxs.map((i) => this.kb.entities[i]!).sort((a, b) => a.name.localeCompare(b.name)).map(entityRef);
    const grapes = Array.isArray(e.facts.grapes?.value) ? (e.facts.grapes!.value as string[]) : [];
    const sourceKeys = new Set<string>([
      ...Object.values(e.facts).map((f) => f.source),
      ...e.aliases.map((a) => a.source),
    ]);
    return {
      entity_id: e.id,
      entity_key: e.key,
      canonical_name: e.name,
      entity_type: e.type,
      domain: e.domain,
      review_status: e.review,
      aliases: e.aliases.map((a) => ({ name: a.name, language_code: a.lang, kind: a.kind, source_key: a.source, locator: a.locator })),
      facts,
      relations: {
        parent: parent ? entityRef(parent) : null,
        ancestors: ancestors.map(entityRef),
        children: refs(e.children),
        grapes: grapes.map((k) => this.kb.byKey.get(k)).filter(Boolean).map((t) => entityRef(t!)),
        geographies: refs(e.geographies),
      },
      sensory_available: e.sensory.length > 0,
      pairing_available: e.pairing !== null,
      sources: [...sourceKeys].sort().map((k) => this.sourceOf(k)),
    };
  }

  explain(p: TermParams): EngineResult {
    const b = this.best(p.q);
    if ('status' in b) return b;
    const { r, e, c } = b;
    return {
      status: 200,
      body: {
        ok: true,
        ...this.resolutionHead(p.q, r),
        resolution: this.resolutionObject(e, c),
        alternatives: r.state === 'ambiguous' ? r.candidates.slice(1).map((x) => matchOf(this.kb, x)) : [],
        profile: this.profile(e),
        reference_expressions: e.sensory.map((s) => this.expressionOut(s, e)),
        ...(e.sensory.length === 0 ? { sensory_boundary: { reason: 'no_sourced_sensory_evidence', message: SENSORY_BOUNDARY } } : {}),
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
    const guidance = set ? set.items.map((it) => this.guidanceOut(it)) : [];
    const body: Record<string, unknown> = {
      ok: true,
      ...this.resolutionHead(p.q, r),
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
    if (e.sensory.length > 0) body.reference_expression = this.expressionOut(e.sensory[0]!, e);
    if (!set) {
      const reason = e.domain === 'wine' ? 'no_verified_pairing_evidence' : 'domain_not_covered';
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

  private guidanceOut(it: GuidanceItemRecord) {
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
    };
  }

  compare(p: CompareParams): EngineResult {
    const lb = this.best(p.left, 'left');
    if ('status' in lb) return lb;
    const rb = this.best(p.right, 'right');
    if ('status' in rb) return rb;
    const side = (q: string, b: { r: Resolution; e: Entity; c: Candidate }) => ({
      ...this.resolutionHead(q, b.r),
      resolution: this.resolutionObject(b.e, b.c),
      profile: this.scopedProfile(b.e),
    });
    return {
      status: 200,
      body: {
        ok: true,
        left: side(p.left, lb),
        right: side(p.right, rb),
        comparison: this.comparison(lb.e, rb.e),
      },
    };
  }

  private scopedProfile(e: Entity) {
    const { aliases: _a, ...rest } = this.profile(e);
    return rest;
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
        const display = (xs: string[]) => xs.map((k) => this.kb.byKey.get(k)?.name ?? k);
        const entry = { field: f, relation: common.length ? 'shared_values' : 'no_shared_values', common: display(common), left: display(va), right: display(vb), ...prov };
        (common.length ? shared : differences).push(entry);
      } else if (va === vb) {
        shared.push({ field: f, relation: 'same', value: this.displayValue(va), ...prov });
      } else {
        differences.push({ field: f, relation: 'different', left: this.displayValue(va), right: this.displayValue(vb), ...prov });
      }
    }
    return {
      same_entity,
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
    if (typeof v === 'string' && /^(grape|geo|spirit|beer)\//.test(v)) {
      const t = this.kb.byKey.get(v);
      return t ? entityRef(t) : v;
    }
    return v;
  }
}
