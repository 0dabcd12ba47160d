// GET /v1/compare and its demo twin: two scoped profiles side by side, field by field.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { EntityRef, ID_NOTE, Profile, ResolutionHead, ResolutionObject, SensoryParts, SourcedFact, termParam } from '../schemas.ts';

const More = (what: string) =>
  Type.Object({ total: Type.Integer({ minimum: 0 }), shown: Type.Integer({ minimum: 0 }), list: Type.String({ description: `Where ${what} is whole.` }) });

/**
 * A compare side's profile (issue 33, item 5: a compare body under 16 KB): the explain profile with
 * each fact's provenance by source_key. The source's title, publisher, url and the copy read
 * (retrieved_via) are given once, in this profile's `sources`.
 */
const SideProfile = Type.Object(
  {
    ...Profile.properties,
    facts: Type.Record(
      Type.String(),
      Type.Object({
        // every field of an explain fact (value, value_total…), with the provenance by key
        ...SourcedFact.properties,
        value_total: Type.Optional(Type.Integer({ minimum: 0, description: 'Present when a list value was cut (an appellation\'s grape rules: 2 shown in a compare side, strongest roles first): the length of the whole list; relations_more.grape_rules links to it.' })),
        provenance: Type.Object({
          ...SourcedFact.properties.provenance.properties,
          source_title: Type.Optional(SourcedFact.properties.provenance.properties.source_title),
          source_publisher: Type.Optional(SourcedFact.properties.provenance.properties.source_publisher),
          source_url: Type.Optional(SourcedFact.properties.provenance.properties.source_url),
          retrieved_via: Type.Optional(SourcedFact.properties.provenance.properties.retrieved_via),
        }, { description: 'As in explain (every field present) by default; with provenance=by_key only source_key, locator, source_excerpt and language_code: the source\'s title, publisher, url and copy read are the entry of this profile\'s `sources` with that source_key.' }),
      }),
      { description: 'The facts of the explain profile. With provenance=by_key each provenance names its source by source_key only (the full profile, with it inline, is provenance_by_key.full_profile).' },
    ),
    provenance_by_key: Type.Optional(Type.Object(
      {
        given_in: Type.Literal('sources'),
        full_profile: Type.String({ description: '/v1/entities/{entity_id}: the profile uncut by compare, each fact with its provenance inline, every alias, every source (with its retrieved_via note), every sensory expression, and relation lists up to 50 (a longer one links to its /v1/entities query).' }),
      },
      { description: 'Present with provenance=by_key: says that the facts\' provenance is by source_key (see facts), and where the uncut profile is.' },
    )),
  },
  {
    additionalProperties: true,
    description:
      'The profile of one side, cut; each cut says what it left out and where the whole is (with provenance=by_key a compare body of two of the 100 most-asked entities stays under 16 KB). No aliases (relations_more.aliases: total, shown 0). Relation lists at most 5; an appellation\'s grape rules at most 2 (facts.grapes.value_total, relations_more.grape_rules) and the names its sources list that map to no grape at most 2 (facts.grapes.unmapped; relations_more.unmapped counts them all), and its bare `relations.grapes` list empty, since the rules name the grapes (relations_more.grapes). `sources` only the sources this side cites (relations_more.sources counts all), with provenance=by_key each retrieved_via without its note and the facts\' provenance by source_key (provenance_by_key).',
  },
);

const Side = Type.Object({
  ...ResolutionHead,
  resolution: ResolutionObject,
  profile: SideProfile,
  reference_expressions: SensoryParts.reference_expressions,
  reference_expressions_more: Type.Optional(More('every sensory reference expression of the side')),
  sensory_boundary: SensoryParts.sensory_boundary,
});
const Contrast = Type.Object({
  basis: Type.String(),
  shared_total: Type.Integer({ minimum: 0 }),
  only_left_total: Type.Integer({ minimum: 0 }),
  only_right_total: Type.Integer({ minimum: 0 }),
  only_left: Type.Array(EntityRef, { description: 'At most 3; only_left_total gives the count.' }),
  only_right: Type.Array(EntityRef),
  left_list: Type.Optional(Type.String({ description: 'The /v1/entities query listing the whole of the left side\'s list (its appellations, or its grapes).' })),
  right_list: Type.Optional(Type.String()),
});
const Entry = Type.Object(
  {
    field: Type.String(),
    relation: Type.String(),
    left_source: Type.String(),
    right_source: Type.String(),
    common_total: Type.Optional(Type.Integer({ minimum: 0, description: 'List-valued fields (shared_values, no_shared_values): common, left and right show at most 5 values each; these are the whole lengths.' })),
    left_total: Type.Optional(Type.Integer({ minimum: 0 })),
    right_total: Type.Optional(Type.Integer({ minimum: 0 })),
    left_list: Type.Optional(Type.String({ description: 'Present when a list was cut: /v1/entities/{id} of the left side, whose fact holds the whole list.' })),
    right_list: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const compareRoute: EngineRouteDef = {
  op: 'compare',
  path: '/v1/compare',
  summary: 'Compare two resolved entities',
  description:
    'Resolves left and right and returns a scoped profile of each plus a field-by-field comparison of their sourced facts: the same or different value (country, colour, classification…), overlapping or disjoint ranges (ABV, IBU, OG…), shared list values (grapes, tags). Entities of different types compare on the fields they have in common; fields only one side has are listed, never guessed. Each side carries its sensory reference expressions where they are sourced (or the sensory boundary). The comparison comes first, with its `contrasts` (appellations, grapes, pairings and sensory evidence one side has and the other lacks), then the profile of each side, cut (no aliases, relation lists at most 5, grape rules at most 2, one sensory expression, only the sources it cites; with provenance=by_key each fact\'s provenance by source_key with the sources given once per side, which keeps the body under 16 KB); every cut gives its total and the URL of the whole (`relations_more`, `reference_expressions_more`, `provenance_by_key.full_profile`). Catalogue ids (VIVC, file numbers, style ids) are never compared. 404 ENTITY_NOT_RESOLVED names the side that did not resolve (not counted). ' + ID_NOTE,
  querystring: ({ maxLength }) =>
    Type.Object(
      {
        left: termParam(maxLength, 'left', 'First term.'),
        right: termParam(maxLength, 'right', 'Second term.'),
        provenance: Type.Optional(
          Type.Union([Type.Literal('inline'), Type.Literal('by_key')], {
            description: '"inline" (default, the v1 shape): each fact\'s provenance in full, as in explain. "by_key": each fact names its source by source_key, and the title, publisher, url and copy read are given once per side in `sources` (the copy\'s note left to the full profile): every compare of two of the 100 most-asked entities is then under 16 KB.',
          }),
        ),
      },
    ),
  toEngine: (query) => ({ left: String(query.left), right: String(query.right), ...(query.provenance === undefined ? {} : { provenance: String(query.provenance) }) }),
  body: Type.Object({
    ok: Type.Literal(true),
    comparison: Type.Object({
      same_entity: Type.Boolean(),
      contrasts: Type.Object(
        {
          appellations: Type.Optional(Contrast),
          grapes: Type.Optional(Contrast),
          pairings: Type.Optional(
            Type.Object({
              basis: Type.String(),
              shared: Type.Array(Type.String()),
              only_left: Type.Array(Type.String(), { description: 'Foods only the left has verified pairing items for (at most 3).' }),
              only_right: Type.Array(Type.String()),
              shared_total: Type.Optional(Type.Integer({ minimum: 0, description: 'The whole lengths of shared, only_left and only_right (each shows at most 3).' })),
              only_left_total: Type.Optional(Type.Integer({ minimum: 0 })),
              only_right_total: Type.Optional(Type.Integer({ minimum: 0 })),
              left_list: Type.Optional(Type.Union([Type.String({ description: '/v1/pair?q={entity_id}: the left side\'s verified pairing items with their sources.' }), Type.Null()])),
              right_list: Type.Optional(Type.Union([Type.String(), Type.Null()])),
            }),
          ),
          sensory: Type.Object({ left_available: Type.Boolean(), right_available: Type.Boolean() }),
        },
        {
          description:
            'What tells the two apart beyond their facts, each part present only where a side has something: `appellations` (for grapes: the appellations whose rules name one and not the other, strongest role first), `grapes` (for appellations: the grapes one\'s rules name and the other\'s do not), `pairings` (foods with verified items on one side only) and `sensory` (which side has sourced sensory evidence). Lists hold at most 3 entries; the totals are given, and left_list/right_list say where each side\'s whole list is.',
        },
      ),
      same_type: Type.Boolean(),
      same_domain: Type.Boolean(),
      left_type: Type.String(),
      right_type: Type.String(),
      shared: Type.Array(Entry),
      differences: Type.Array(Entry),
      only_left: Type.Array(Type.String()),
      only_right: Type.Array(Type.String()),
      basis: Type.String(),
    }),
    left: Side,
    right: Side,
  }),
  notFound: 'ENTITY_NOT_RESOLVED',
  example: 'left=syrah&right=grenache',
};

export default async function compare(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, compareRoute);
  registerDemoTwin(app, ctx, compareRoute);
}
