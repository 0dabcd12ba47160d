// GET /v1/entities/{entity_id} and its demo twin: one entity's profile by id.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { Profile, SensoryParts } from '../schemas.ts';

export const entityRoute: EngineRouteDef = {
  op: 'entity',
  path: '/v1/entities/:entity_id',
  summary: 'One entity by its entity_id',
  description:
    'The profile that /v1/explain returns, for the entity with this `entity_id` (a UUID from any answer of this API), with its sensory reference expressions or the sensory boundary. The permanent key is accepted too, URL-encoded (`grape%2Fsyrah`). An unknown or malformed id is 404 NOT_FOUND naming the id, and is not counted. Ids are forever: an id an earlier knowledge-base release served and this one does not answers 410 GONE (the entity was removed; `reason`, `date`, `since_version`) or 301 MOVED_PERMANENTLY with Location and `replaced_by` naming its successor (merged or renamed); neither is counted.',
  params: Type.Object({
    entity_id: Type.String({ minLength: 1, maxLength: 100, description: 'entity_id (UUID) or permanent key (URL-encoded).', examples: ['grape/syrah'] }),
  }),
  querystring: () => Type.Object({}),
  toEngine: (input) => ({ id: String(input.entity_id) }),
  body: Type.Object({ ok: Type.Literal(true), entity: Profile, ...SensoryParts }),
  notFound: 'NOT_FOUND',
  otherErrors: ['GONE', 'MOVED_PERMANENTLY'],
  example: '',
  examplePath: { entity_id: 'grape/syrah' },
};

export default async function entity(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, entityRoute);
  registerDemoTwin(app, ctx, entityRoute);
}
