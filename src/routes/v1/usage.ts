// GET /v1/usage: the calling key's plan and monthly usage. Authenticated, never counted, refused
// while the key's per-minute window is used up.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { authenticate, peekHeaders } from '../../gateway/keyed.ts';
import { errorResponses } from '../engine-route.ts';
import { QUOTA_HEADERS } from '../schemas.ts';
import { monthBounds } from '../../store/ports.ts';

export default async function usage(app: FastifyInstance, ctx: GatewayContext) {
  app.route({
    method: 'GET',
    url: '/v1/usage',
    schema: {
      summary: "The calling key's plan, monthly usage and remaining allowance",
      description: 'Never counted: it consumes neither monthly quota nor a slot of the per-minute window. It is refused with 429 RATE_LIMITED (and Retry-After) while the key\'s per-minute window is used up. The period is the calendar month in UTC. The count is read from the store at most once a second per key and process: requests this process counted show at once, those of other processes within the second.',
      tags: ['keyed'],
      security: [{ bearerAuth: [] }],
      response: {
        200: {
          ...Type.Object({
            ok: Type.Literal(true),
            plan: Type.Object({ name: Type.String(), monthly_limit: Type.Integer(), per_minute_limit: Type.Integer() }),
            usage: Type.Object({
              period_start: Type.String({ format: 'date-time' }),
              period_end: Type.String({ format: 'date-time', description: 'Exclusive: 00:00 UTC on the 1st of next month.' }),
              used: Type.Integer(),
            }),
            remaining: Type.Integer(),
          }),
          headers: QUOTA_HEADERS,
        },
        ...errorResponses(['INVALID_REQUEST', 'UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE', 'INTERNAL_ERROR']),
      },
    },
    onRequest: authenticate(ctx),
    handler: async (request, reply) => {
      const a = request.account!;
      const used = await peekHeaders(ctx, request, reply);
      const { start, end } = monthBounds(ctx.now());
      return {
        ok: true,
        plan: { name: a.plan.name, monthly_limit: a.plan.monthly_limit, per_minute_limit: a.plan.per_minute_limit },
        usage: { period_start: start.toISOString(), period_end: end.toISOString(), used },
        remaining: Math.max(0, a.plan.monthly_limit - used),
      };
    },
  });
}
