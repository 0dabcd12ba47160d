// GET /plans: the public list of plans, where demo errors send callers who want a key.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../gateway/context.ts';
import { ApiError } from '../gateway/errors.ts';
import { errorResponses } from './engine-route.ts';

export default async function plans(app: FastifyInstance, ctx: GatewayContext) {
  app.get('/plans', {
    schema: {
      summary: 'Plans and their limits',
      description: 'Monthly allowance (calendar month, UTC) and per-minute limit of each plan. Keys are issued by the operator with the admin CLI.',
      tags: ['service'],
      response: {
        200: Type.Object({
          ok: Type.Literal(true),
          plans: Type.Array(Type.Object({ name: Type.String(), monthly_limit: Type.Integer(), per_minute_limit: Type.Integer() })),
          how_to_get_a_key: Type.String(),
        }),
        ...errorResponses(['STORE_UNAVAILABLE']),
      },
    },
    handler: async () => ({
      ok: true,
      plans: await ctx.accounts.allPlans().catch(() => {
        throw new ApiError('STORE_UNAVAILABLE', 'The plan store is unavailable. Retry shortly.', { 'Retry-After': '5' });
      }),
      how_to_get_a_key: 'Ask the operator of this deployment for a key on one of these plans; send it as "Authorization: Bearer <key>" to the /v1/ endpoints.',
    }),
  });
}
