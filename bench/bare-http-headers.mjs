// Baseline for `npm run bench`: a bare node:http handler answering, per query, the same body bytes
// as bench/bare-http.mjs and also every response header our keyed answer carried for that query
// (BARE_HEADERS: { "<path?query>": { name: value } }, taken once from the service), written as one
// flat list in the keyed answer's order: the same bytes on the wire as the keyed path, none of our
// work, no framework. What the contract's headers cost on node:http itself.
import fs from 'node:fs';
import http from 'node:http';

const bodies = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BARE_BODIES, 'utf8'))).map(([k, v]) => [k, Buffer.from(v)]));
const lists = new Map(
  Object.entries(JSON.parse(fs.readFileSync(process.env.BARE_HEADERS, 'utf8'))).map(([k, h]) => [k, Object.entries(h).flat()]),
);
http
  .createServer((req, res) => {
    const body = bodies.get(req.url);
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"error":"not in the bench map"}');
      return;
    }
    res.writeHead(200, lists.get(req.url));
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
