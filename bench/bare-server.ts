// Baseline for the benchmarks: a bare Fastify handler that returns a small fixed JSON body.
import Fastify from 'fastify';

const body = { ok: true, query: 'cabernet sauvignon', state: 'resolved', resolved: true, ambiguous: false, top_score: 100, matches: [] };
const app = Fastify({ logger: false });
app.get('/v1/resolve-entity', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
