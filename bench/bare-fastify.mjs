// Baseline for `npm run bench`: a bare Fastify handler answering the same bytes per query as
// bench/bare-http.mjs (the map in BARE_BODIES). The practical ceiling for a Fastify gateway.
import fs from 'node:fs';
import Fastify from 'fastify';

const bodies = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BARE_BODIES, 'utf8'))).map(([k, v]) => [k, Buffer.from(v)]));
const app = Fastify({ logger: false });
app.get('/v1/resolve-entity', (req, reply) => {
  const body = bodies.get(req.url);
  if (!body) return reply.code(404).send({ error: 'not in the bench map' });
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
