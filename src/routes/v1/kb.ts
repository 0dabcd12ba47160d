// GET /v1/kb: the knowledge-base release this deployment serves (issue 36): its version, date,
// counts and the link to its change notes. Keyless, never metered (no key is read, nothing is
// counted), cheap (the engine computes the body once per release) and cacheable: a public
// Cache-Control and an ETag of the release, so If-None-Match answers 304.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import type { EngineOp } from '../../gateway/engine-client.ts';
import { PUBLIC_CACHE } from '../../gateway/answer-headers.ts';
import { callEngine, errorResponses, etagOf, matchesIfNoneMatch, NOT_MODIFIED, sendEngineResult } from '../engine-route.ts';
import { CACHE_HEADERS, REQUEST_ID_HEADER } from '../schemas.ts';

const Count = Type.Integer({ minimum: 0 });

export const KbBody = Type.Object({
  ok: Type.Literal(true),
  knowledge_base_version: Type.String({ description: 'The release label (YYYY.MM.N, see the README\'s deprecation policy); every engine answer names it too.', examples: ['2026.11.4'] }),
  date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The release date (data/kb.json), or null.' }),
  counts: Type.Object({
    entities: Count,
    entities_by_type: Type.Record(Type.String(), Count),
    entities_by_domain: Type.Record(Type.String(), Count),
    aliases: Count,
    facts: Count,
    sources: Count,
    sensory_expressions: Count,
    pairing_sets: Count,
    pairing_items: Count,
    tombstones: Type.Integer({ minimum: 0, description: 'Ids of earlier releases that now answer 410 GONE or 301 on /v1/entities/{entity_id}.' }),
  }),
  notes_url: Type.Union([Type.String(), Type.Null()], { description: 'Where the change notes of this release are (GET /v1/kb/notes), or null when it has none.' }),
});

/** A keyless, unmetered engine answer with the release's ETag and a public cache (GET /v1/kb, /v1/kb/notes). */
export async function sendReleaseAnswer(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, op: EngineOp) {
  reply.header('Access-Control-Allow-Origin', '*');
  const result = await callEngine(ctx, request, op, {});
  if (result.status === 200) {
    const etag = etagOf(result.version ?? ctx.engine.kbVersion ?? '', op, {}, false);
    reply.header('etag', etag).header('cache-control', PUBLIC_CACHE);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  return sendEngineResult(reply, request, result);
}

export default async function kb(app: FastifyInstance, ctx: GatewayContext) {
  app.get('/v1/kb', {
    schema: {
      summary: 'The knowledge-base release',
      description:
        'The knowledge-base release this deployment serves: its version, date, counts and the link to its change notes. No key needed and never counted. Cacheable: `Cache-Control: public` and an ETag that changes with the release (If-None-Match answers 304).',
      tags: ['service'],
      response: {
        200: { ...KbBody, headers: { ...REQUEST_ID_HEADER, ...CACHE_HEADERS } },
        304: NOT_MODIFIED,
        ...errorResponses(['ENGINE_UNAVAILABLE', 'INTERNAL_ERROR']),
      },
    },
    handler: (request, reply) => sendReleaseAnswer(ctx, request, reply, 'kb'),
  });
}
