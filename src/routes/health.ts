// GET /health: unversioned, keyless. 200 when the engine and every required store answer,
// 503 (with Retry-After) when one does not.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../gateway/context.ts';

const Component = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]), kind: Type.String(), detail: Type.Optional(Type.String()) });

async function check(fn: () => Promise<void>, timeoutMs = 1000): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs)))]);
    return null;
  } catch (e) {
    return (e as Error).message || 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

export default async function health(app: FastifyInstance, ctx: GatewayContext) {
  app.get('/health', {
    schema: {
      summary: 'Service health',
      description: 'status "ok" with 200 when the engine, the account store and the limiter store answer; "unavailable" with 503 otherwise.',
      tags: ['service'],
      response: {
        200: Type.Object({
          status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
          version: Type.String({ description: 'Service version.' }),
          engine: Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]), mode: Type.String(), kb_version: Type.Union([Type.String(), Type.Null()]) }),
          store: Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]), database: Component, limiter: Component }),
        }),
        503: { description: 'Same body with status "unavailable".', type: 'object' },
      },
    },
    handler: async (_request, reply) => {
      const [engine, db, limiter] = await Promise.all([
        ctx.engine.health(),
        check(() => ctx.store.ping()),
        check(() => ctx.limiter.ping()),
      ]);
      const storeOk = db === null && limiter === null;
      const ok = engine.ok && storeOk;
      reply.code(ok ? 200 : 503);
      if (!ok) reply.header('Retry-After', '5');
      return {
        status: ok ? 'ok' : 'unavailable',
        version: ctx.version,
        engine: { status: engine.ok ? 'ok' : 'unavailable', mode: ctx.engine.mode, kb_version: engine.kb_version },
        store: {
          status: storeOk ? 'ok' : 'unavailable',
          database: { status: db === null ? 'ok' : 'unavailable', kind: ctx.store.kind, ...(db ? { detail: db } : {}) },
          limiter: { status: limiter === null ? 'ok' : 'unavailable', kind: ctx.limiter.kind, ...(limiter ? { detail: limiter } : {}) },
        },
      };
    },
  });
}
