// Baseline for `npm run bench`: a bare node:http handler answering, for each query, the very bytes
// our keyed /v1/resolve-entity answered for it (fetched once by the benchmark and passed in the JSON
// file BARE_BODIES as { "<path?query>": "<body>" }). Plain JavaScript so no loader runs in it.
import fs from 'node:fs';
import http from 'node:http';

const bodies = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BARE_BODIES, 'utf8'))).map(([k, v]) => [k, Buffer.from(v)]));
http
  .createServer((req, res) => {
    const body = bodies.get(req.url);
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"error":"not in the bench map"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
