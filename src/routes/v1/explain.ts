// GET /v1/explain and its demo twin: the sourced profile of the best match.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { ID_NOTE, Match, Profile, ResolutionHead, ResolutionObject, SensoryParts, termParam } from '../schemas.ts';
import { AppliedScope } from '../scope-schema.ts';

export const explainRoute: EngineRouteDef = {
  op: 'explain',
  path: '/v1/explain',
  summary: 'Structured, sourced profile of the best resolved entity',
  description:
    'Resolves q and returns the profile of the best match: every fact with its provenance (source and locator), aliases with language codes, navigable relations (parent, ancestors, children, grapes, geographies) with ids for follow-up calls, and sensory reference expressions where sourced. When the term is ambiguous the other candidates are listed in `alternatives`. A colour word beside an appellation name ("Sancerre rouge") keeps only the grape rules for that colour (or without a colour) in `profile.facts.grapes`; `applied_scope` says so. A grape is listed once per rule: the colours of the rules that name it are joined in its `scope` ("red; rosé"). To keep bodies small, explain shows the first 25 aliases and 25 grape rules (strongest roles first) and cuts relation lists at 50; `profile.relations_more` gives each total and the query (/v1/entities/{id}, or a filtered /v1/entities) that lists the whole. 404 ENTITY_NOT_RESOLVED when nothing matches (not counted). ' + ID_NOTE,
  querystring: ({ maxLength }) => Type.Object({ q: termParam(maxLength) }),
  toEngine: (query) => ({ q: String(query.q) }),
  body: Type.Object({
    ok: Type.Literal(true),
    ...ResolutionHead,
    applied_scope: AppliedScope,
    resolution: ResolutionObject,
    alternatives: Type.Array(Match),
    profile: Profile,
    ...SensoryParts,
  }),
  notFound: 'ENTITY_NOT_RESOLVED',
  example: 'q=syrah',
};

export default async function explain(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, explainRoute);
  registerDemoTwin(app, ctx, explainRoute);
}
