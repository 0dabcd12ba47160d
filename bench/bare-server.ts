// Baseline for the benchmarks: a bare Fastify handler that returns a fixed JSON body. Benchmarks
// pass the body our keyed endpoint returns for the same query (BARE_BODY), so both sides put the
// same bytes on the wire and the ratio measures the gateway and engine, not the payload size.
import Fastify from 'fastify';

const body = process.env.BARE_BODY ?? JSON.stringify({ ok: true, query: 'cabernet sauvignon', state: 'resolved', matches: [] });
const app = Fastify({ logger: false });
app.get('/v1/resolve-entity', async (_req, reply) => {
  reply.type('application/json; charset=utf-8');
  return body;
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
