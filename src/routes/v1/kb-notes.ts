// GET /v1/kb/notes: the change notes of the knowledge-base release this deployment serves (issue
// 36), as written by `npm run kb:diff -- <previous> <this> --write`: entities added, removed and
// merged, facts changed with old and new value and source, pairing items added and removed.
// Keyless, never metered, cacheable like GET /v1/kb (src/routes/v1/kb.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { errorResponses, NOT_MODIFIED } from '../engine-route.ts';
import { CACHE_HEADERS, REQUEST_ID_HEADER } from '../schemas.ts';
import { sendReleaseAnswer } from './kb.ts';

export default async function kbNotes(app: FastifyInstance, ctx: GatewayContext) {
  app.get('/v1/kb/notes', {
    schema: {
      summary: 'Change notes of the knowledge-base release',
      description: 'What changed in this release against the previous one, in Markdown (`notes`). 404 NOT_FOUND when the release has none. No key needed and never counted; cacheable like /v1/kb.',
      tags: ['service'],
      response: {
        200: {
          ...Type.Object({
            ok: Type.Literal(true),
            knowledge_base_version: Type.String(),
            date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
            format: Type.Literal('text/markdown'),
            notes: Type.String({ description: 'The change notes, Markdown.' }),
          }),
          headers: { ...REQUEST_ID_HEADER, ...CACHE_HEADERS },
        },
        304: NOT_MODIFIED,
        ...errorResponses(['NOT_FOUND', 'ENGINE_UNAVAILABLE', 'INTERNAL_ERROR']),
      },
    },
    handler: (request, reply) => sendReleaseAnswer(ctx, request, reply, 'kb-notes'),
  });
}
