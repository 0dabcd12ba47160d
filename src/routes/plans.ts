// GET /plans: the public list of plans, where demo errors send callers who want a key. Private
// plans are left out.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../gateway/context.ts';
import { ApiError } from '../gateway/errors.ts';
import { errorResponses } from './engine-route.ts';

export default async function plans(app: FastifyInstance, ctx: GatewayContext) {
  app.get('/plans', {
    schema: {
      summary: 'Plans and their limits',
      description: 'Monthly allowance (calendar month, UTC) and per-minute limit of each public plan (private plans are not listed). Keys are issued by the operator with the admin CLI.',
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
      // private plans (admin: plans set NAME --private) are for keys the operator issues by hand
      plans: (await ctx.accounts.allPlans().catch(() => {
        throw new ApiError('STORE_UNAVAILABLE', 'The plan store is unavailable. Retry shortly.', { 'Retry-After': '5' });
      }))
        .filter((p) => !p.private)
        .map((p) => ({ name: p.name, monthly_limit: p.monthly_limit, per_minute_limit: p.per_minute_limit })),
      how_to_get_a_key: 'Ask the operator of this deployment for a key on one of these plans; send it as "Authorization: Bearer <key>" to the /v1/ endpoints.',
    }),
  });
}
