// Baseline for `npm run bench`: bare Fastify answering, per query, the same body bytes as
// bench/bare-http.mjs and also every response header our keyed answer carried for that query
// (BARE_HEADERS: { "<path?query>": { name: value } }, taken once from the service), so it writes
// the same bytes as the keyed path: what the contract's headers cost without any of our work.
import fs from 'node:fs';
import Fastify from 'fastify';

const bodies = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BARE_BODIES, 'utf8'))).map(([k, v]) => [k, Buffer.from(v)]));
const headers = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BARE_HEADERS, 'utf8'))));
const app = Fastify({ logger: false });
app.get('/v1/resolve-entity', (req, reply) => {
  const body = bodies.get(req.url);
  if (!body) return reply.code(404).send({ error: 'not in the bench map' });
  reply.headers(headers.get(req.url)).send(body);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
