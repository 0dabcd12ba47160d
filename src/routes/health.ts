// GET /health: unversioned, keyless. 200 when the engine and every required store answer,
// 503 (with Retry-After) when one does not. Only statuses are shown: why a component is down
// (connection errors name internal addresses) goes to the log. A healthy answer is reused for up
// to HEALTH_CACHE_MS, so a flood of /health calls does not become a flood of store and engine
// checks; concurrent calls share one check; a 503 seen by any request (engine or store
// unavailable) drops the reused answer at once, and while something is down every call checks
// again.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../gateway/context.ts';

const Component = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]), kind: Type.String() });

export const HEALTH_CACHE_MS = 1000;

interface HealthAnswer {
  ok: boolean;
  body: Record<string, unknown>;
  at: number;
}

const state = new WeakMap<GatewayContext, { last?: HealthAnswer; pending?: Promise<HealthAnswer> }>();

/** Drops the reused healthy answer (called when any request sees the engine or a store down). */
export function invalidateHealth(ctx: GatewayContext) {
  const s = state.get(ctx);
  if (s) s.last = undefined;
}

async function checkAll(ctx: GatewayContext, log: FastifyBaseLogger): Promise<HealthAnswer> {
  const [engine, db, limiter] = await Promise.all([ctx.engine.health(), check(() => ctx.store.ping()), check(() => ctx.limiter.ping())]);
  if (!engine.ok) log.warn({ component: 'engine', detail: engine.detail }, 'health: engine unavailable');
  if (db) log.warn({ component: 'database', detail: db }, 'health: database unavailable');
  if (limiter) log.warn({ component: 'limiter', detail: limiter }, 'health: limiter store unavailable');
  const storeOk = db === null && limiter === null;
  const ok = engine.ok && storeOk;
  return {
    ok,
    at: Date.now(),
    body: {
      status: ok ? 'ok' : 'unavailable',
      version: ctx.version,
      engine: { status: engine.ok ? 'ok' : 'unavailable', mode: ctx.engine.mode, kb_version: engine.kb_version },
      store: {
        status: storeOk ? 'ok' : 'unavailable',
        database: { status: db === null ? 'ok' : 'unavailable', kind: ctx.store.kind },
        limiter: { status: limiter === null ? 'ok' : 'unavailable', kind: ctx.limiter.kind },
      },
    },
  };
}

/** The current answer: the reused healthy one while fresh, else the check under way, else a new one. */
function currentHealth(ctx: GatewayContext, log: FastifyBaseLogger): Promise<HealthAnswer> {
  let s = state.get(ctx);
  if (!s) state.set(ctx, (s = {}));
  const st = s;
  if (st.last && Date.now() - st.last.at < HEALTH_CACHE_MS) return Promise.resolve(st.last);
  st.pending ??= checkAll(ctx, log).then(
    (a) => {
      st.pending = undefined;
      st.last = a.ok ? a : undefined;
      return a;
    },
    (e) => {
      st.pending = undefined;
      throw e;
    },
  );
  return st.pending;
}

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
      description: 'status "ok" with 200 when the engine, the account store and the limiter store answer; "unavailable" with 503 otherwise. Statuses only (the reasons are logged). A healthy answer may be up to 1 s old.',
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
    handler: async (request, reply) => {
      const a = await currentHealth(ctx, request.log);
      reply.code(a.ok ? 200 : 503);
      if (!a.ok) reply.header('Retry-After', '5');
      return a.body;
    },
  });
}
