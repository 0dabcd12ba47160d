// GET /v1/entities and its demo twin: browse what the service knows, filtered, a page at a time.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { domainFilterParam, EntityRef, typeFilterParam } from '../schemas.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../engine/engine.ts';

export const entitiesRoute: EngineRouteDef = {
  op: 'entities',
  path: '/v1/entities',
  summary: 'List entities, filtered, in pages',
  description: `Served entities in a stable order (by permanent key), ${LIST_DEFAULT_LIMIT} per page by default (\`limit\` 1–${LIST_MAX_LIMIT}). Filters are optional and combine: \`type\` (one or a comma list), \`domain\`, \`country\` (ISO 3166-1 alpha-2 code of the entity's \`country\` fact: geographies and spirits), \`parent\` (an entity_id or permanent key: its direct children), \`grape\` (a grape's entity_id or key: the wine geographies whose rules or grapes fact name it), \`appellation\` (a wine geography's entity_id or key: the grapes its rules or grapes fact name). A profile whose relation list is cut at 50 links to the query that lists it all (\`relations_more\`). \`next_cursor\` is null on the last page; pass it as \`cursor\` with the same filters to get the next page. A cursor is opaque and stays valid across restarts for one knowledge-base version; a malformed cursor, one from another version or one issued for other filters is 400 naming \`cursor\` (equivalent filters share cursors: \`type=grape,spirit\` is \`type=spirit,grape\`; the cursor's checksum is no secret and guards nothing: the filters are applied again on every page). Walking every page returns each matching entity exactly once.`,
  querystring: ({ demo }) =>
    Type.Object({
      type: Type.Optional(typeFilterParam),
      domain: Type.Optional(domainFilterParam),
      country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code, e.g. FR.', examples: ['FR'] })),
      parent: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'entity_id (or permanent key) of the parent: lists its direct children.' })),
      grape: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'entity_id (or permanent key) of a grape: lists the wine geographies whose rules or grapes fact name it.' })),
      appellation: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'entity_id (or permanent key) of a wine geography: lists the grapes its rules or grapes fact name.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: demo ? 5 : LIST_MAX_LIMIT, default: demo ? 5 : LIST_DEFAULT_LIMIT, description: demo ? 'Entities per page, 1 to 5 on the demo.' : `Entities per page, 1 to ${LIST_MAX_LIMIT}.` })),
      cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'next_cursor of the previous page.' })),
    }),
  toEngine: (q, { demo, demoResultLimit }) => {
    const out: Record<string, string | number> = { limit: Math.min((q.limit as number | undefined) ?? (demo ? demoResultLimit : LIST_DEFAULT_LIMIT), demo ? demoResultLimit : LIST_MAX_LIMIT) };
    for (const k of ['type', 'domain', 'country', 'parent', 'grape', 'appellation', 'cursor']) if (q[k] !== undefined) out[k] = String(q[k]);
    return out;
  },
  body: Type.Object({
    ok: Type.Literal(true),
    entities: Type.Array(Type.Composite([EntityRef, Type.Object({ entity_key: Type.String({ description: 'Permanent key; entity_id = UUIDv5 of it.' }) })])),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Cursor of the next page; null on the last page.' }),
  }),
  notFound: null,
  example: 'type=wine_geography&country=FR&limit=3',
};

export default async function entities(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, entitiesRoute);
  registerDemoTwin(app, ctx, entitiesRoute);
}
