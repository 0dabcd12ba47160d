// GET /v1/compare and its demo twin: two scoped profiles side by side, field by field.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { EntityRef, ID_NOTE, Profile, ResolutionHead, ResolutionObject, SensoryParts, termParam } from '../schemas.ts';

const Side = Type.Object({ ...ResolutionHead, resolution: ResolutionObject, profile: Profile, ...SensoryParts });
const Contrast = Type.Object({
  basis: Type.String(),
  shared_total: Type.Integer({ minimum: 0 }),
  only_left_total: Type.Integer({ minimum: 0 }),
  only_right_total: Type.Integer({ minimum: 0 }),
  only_left: Type.Array(EntityRef, { description: 'At most 8; only_left_total gives the count.' }),
  only_right: Type.Array(EntityRef),
});
const Entry = Type.Object({ field: Type.String(), relation: Type.String(), left_source: Type.String(), right_source: Type.String() }, { additionalProperties: true });

export const compareRoute: EngineRouteDef = {
  op: 'compare',
  path: '/v1/compare',
  summary: 'Compare two resolved entities',
  description:
    'Resolves left and right and returns a scoped profile of each plus a field-by-field comparison of their sourced facts: the same or different value (country, colour, classification…), overlapping or disjoint ranges (ABV, IBU, OG…), shared list values (grapes, tags). Entities of different types compare on the fields they have in common; fields only one side has are listed, never guessed. Each side carries its sensory reference expressions where they are sourced (or the sensory boundary). The comparison comes first, with its `contrasts` (appellations, grapes, pairings and sensory evidence one side has and the other lacks), then the profile of each side, whose relation lists are cut at 5 (`relations_more` links to the whole list). Catalogue ids (VIVC, file numbers, style ids) are never compared. 404 ENTITY_NOT_RESOLVED names the side that did not resolve (not counted). ' + ID_NOTE,
  querystring: ({ maxLength }) =>
    Type.Object(
      { left: termParam(maxLength, 'left', 'First term.'), right: termParam(maxLength, 'right', 'Second term.') },
    ),
  toEngine: (query) => ({ left: String(query.left), right: String(query.right) }),
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
              only_left: Type.Array(Type.String(), { description: 'Foods only the left has verified pairing items for (at most 8).' }),
              only_right: Type.Array(Type.String()),
            }),
          ),
          sensory: Type.Object({ left_available: Type.Boolean(), right_available: Type.Boolean() }),
        },
        {
          description:
            'What tells the two apart beyond their facts, each part present only where a side has something: `appellations` (for grapes: the appellations whose rules name one and not the other, strongest role first), `grapes` (for appellations: the grapes one\'s rules name and the other\'s do not), `pairings` (foods with verified items on one side only) and `sensory` (which side has sourced sensory evidence). Lists hold at most 8 entries; the totals are given.',
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
