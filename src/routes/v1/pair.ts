// GET /v1/pair and its demo twin: verified, source-backed pairing guidance or an explicit boundary.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { ID_NOTE, ResolutionHead, ResolutionObject, termParam } from '../schemas.ts';
import { BOUNDARY_REASONS } from '../../engine/engine.ts';
import { FOOD_CATEGORIES } from '../../engine/kb/schema.ts';
import { AppliedScope, ScopeBoundary, ScopeMatch } from '../scope-schema.ts';

const NStr = Type.Union([Type.String(), Type.Null()]);

export const GuidanceItem = Type.Object({
  food_item: Type.String(),
  dish: NStr,
  pairing_key: Type.String({ pattern: '^[a-z0-9]+(_[a-z0-9]+)*$' }),
  pairing_text: Type.String(),
  pairing_relationship: Type.Union([Type.Literal('recommended'), Type.Literal('suitable'), Type.Literal('avoid')]),
  food_category: Type.Union(FOOD_CATEGORIES.map((c) => Type.Literal(c))),
  preparation: NStr,
  qualifier: NStr,
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'Set by the authority of the source: official_regional_wine_body and regulator 0.9, trade_body 0.8, educational_body 0.75, wine_press 0.6; one class lower (0.8, 0.75, 0.6, 0.5) when the source was read in a copy (retrieved_via).' }),
  verification_status: Type.Literal('verified'),
  evidence_version: Type.String(),
  language_code: Type.String(),
  geography_scope: NStr,
  style_scope: NStr,
  oak_scope: NStr,
  serving_scope: NStr,
  wine_age_scope: NStr,
  sweetness_scope: NStr,
  pairing_rationale: NStr,
  source_key: Type.String(),
  source_title: Type.String(),
  source_publisher: Type.String(),
  source_authority: Type.Union(['official_regional_wine_body', 'regulator', 'trade_body', 'educational_body', 'wine_press'].map((a) => Type.Literal(a))),
  source_url: Type.String({ format: 'uri' }),
  source_section: Type.String(),
  source_page: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
  source_excerpt: Type.String({ maxLength: 300, description: 'Verbatim quote of the source, at most 300 characters.' }),
  retrieved_via: Type.Union([Type.Object({ url: Type.String({ format: 'uri' }), kind: Type.String(), note: Type.Optional(Type.String()) }), Type.Null()], { description: 'The copy (mirror, reprint, third-party list) the excerpt was read in, where it was not read at source_url (the confidence is then one class lower); null otherwise.' }),
  scope_match: Type.Optional(ScopeMatch),
});

export const pairRoute: EngineRouteDef = {
  op: 'pair',
  path: '/v1/pair',
  summary: 'Verified food-pairing guidance for the best resolved entity, or an explicit boundary',
  description:
    'Returns guidance only from verified, source-backed pairing evidence; each item keeps its own scope and source. Without such evidence the answer is 200 with pairing_available false, an empty guidance list and a `boundary` object saying why (reasons: ' +
    Object.entries(BOUNDARY_REASONS).map(([k, v]) => `${k}: ${v}`).join(' ') +
    '). Generic guidance is never substituted. A colour word beside the name ("Sancerre rouge", "Rioja tinto") narrows the guidance to items about that colour or about the entity as a whole: `applied_scope` says so, and `scope_boundary` when none is left (guidance about another colour is never given in its place). Pairing does not depend on sensory evidence; where a sensory reference expression exists it is included. 404 ENTITY_NOT_RESOLVED when nothing matches (not counted). ' + ID_NOTE,
  querystring: ({ maxLength }) => Type.Object({ q: termParam(maxLength) }),
  toEngine: (query) => ({ q: String(query.q) }),
  body: Type.Object({
    ok: Type.Literal(true),
    ...ResolutionHead,
    applied_scope: AppliedScope,
    scope_boundary: ScopeBoundary,
    pairing: Type.Object({
      guidance: Type.Array(GuidanceItem),
      review_status: Type.Union([Type.Literal('verified'), Type.Literal('none')]),
      guidance_version: Type.String({ description: 'Version label of the guidance evidence; the knowledge-base version when there is none.' }),
    }),
    resolution: ResolutionObject,
    sensory_available: Type.Boolean(),
    reference_expression: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'Spec 2.5: the first reference expression where sensory evidence exists; null otherwise.' }),
    domain: Type.Union([Type.Literal('wine'), Type.Literal('spirits'), Type.Literal('beer')]),
    pairing_available: Type.Boolean(),
    pairing_evidence: Type.Object({
      customer_guidance_source: Type.Union([Type.Literal('verified_source_backed_pairing_evidence'), Type.Literal('none')]),
      verified_source_backed_available: Type.Boolean(),
      generic_fallback_available: Type.Boolean(),
      generic_fallback_used: Type.Boolean(),
    }),
    pairing_boundary: Type.Object({
      pairing_is_independent_from_sensory: Type.Boolean(),
      verified_source_backed_pairing_overrides_generic_pairing: Type.Boolean(),
      generic_pairing_must_not_expand_verified_source_backed_set: Type.Boolean(),
      pairing_scope_must_be_preserved: Type.Boolean(),
      pairing_requires_separate_promoted_evidence: Type.Boolean(),
    }),
    boundary: Type.Union([
      Type.Object({
        reason: Type.Union(Object.keys(BOUNDARY_REASONS).map((k) => Type.Literal(k))),
        message: Type.String(),
        entity_id: Type.String({ format: 'uuid' }),
        entity_type: Type.String(),
        sensory_available: Type.Boolean(),
        knowledge_base_version: Type.String(),
      }),
      Type.Null(),
    ], { description: 'An object exactly when pairing_available is false (why there is no guidance); null otherwise.' }),
  }),
  notFound: 'ENTITY_NOT_RESOLVED',
  example: 'q=vinho%20verde',
};

export default async function pair(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, pairRoute);
  registerDemoTwin(app, ctx, pairRoute);
}
