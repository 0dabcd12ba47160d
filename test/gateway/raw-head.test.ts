// The fast path's header block built below writeHead (src/gateway/raw-head.ts): the same bytes on
// the wire as res.writeHead(status, list) for the same list, on real connections; and every state
// it must leave to writeHead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { RAW_HEAD_SUPPORTED, writeHeadRaw } from '../../src/gateway/raw-head.ts';

const BODY = Buffer.from('{"hello":"wörld"}');
const list200 = [
  'x-request-id', 'abc-123',
  'x-ratelimit-plan', 'pro',
  'etag', '"e1"',
  'ratelimit', '"monthly";r=5;t=10, "minute";r=1;t=2',
  'content-type', 'application/json; charset=utf-8',
  'content-length', String(BODY.length),
];
const list304 = list200.slice(0, -4);

interface Seen { raw: boolean | undefined }

/** A server answering `/raw?…` with writeHeadRaw (or writeHead where it declines) and `/node?…` with writeHead. */
async function server(opts: http.ServerOptions, setup?: (s: http.Server) => void) {
  const seen: Seen = { raw: undefined };
  const s = http.createServer(opts, (req, res) => {
    const u = new URL(req.url!, 'http://x');
    const status = u.searchParams.get('s') === '304' ? 304 : 200;
    const list = status === 200 ? list200 : list304;
    const plan = u.searchParams.get('plan') ?? 'pro';
    if (u.searchParams.get('set')) res.setHeader('x-set', '1');
    const values = plan === 'pro' ? list : list.map((v, i) => (i === 3 ? plan : v));
    try {
      if (u.pathname === '/raw') {
        seen.raw = writeHeadRaw(res, status, values, plan, Date.now());
        if (!seen.raw) res.writeHead(status, values);
      } else res.writeHead(status, values);
    } catch (e) {
      res.writeHead(500, { 'x-refused': (e as NodeJS.ErrnoException).code ?? 'error' });
      res.end();
      return;
    }
    if (status === 200) res.end(BODY);
    else res.end();
  });
  setup?.(s);
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  return { s, seen, port: (s.address() as net.AddressInfo).port };
}

/** Sends `text` on one connection and returns every byte that comes back until `answers` responses arrived. */
async function exchange(port: number, text: string, answers: number): Promise<string> {
  const c = net.connect(port, '127.0.0.1');
  await once(c, 'connect');
  c.write(text);
  let got = '';
  c.setEncoding('latin1');
  return new Promise((resolve, reject) => {
    const done = () => {
      c.destroy();
      resolve(got);
    };
    const t = setTimeout(() => reject(new Error(`no ${answers} answers in time: ${JSON.stringify(got)}`)), 5000);
    c.on('data', (d: string) => {
      got += d;
      if (got.split('HTTP/1.').length - 1 >= answers && (got.endsWith('\r\n\r\n') || got.endsWith(BODY.toString('latin1')))) {
        clearTimeout(t);
        done();
      }
    });
    c.on('end', () => {
      clearTimeout(t);
      done();
    });
  });
}

/** The two answers of one connection, raw then writeHead, for the same request; retried when a second ends between them (Date). */
async function both(port: number, query: string, extra = ''): Promise<[string, string]> {
  for (let i = 0; i < 3; i++) {
    const got = await exchange(port, `GET /raw?${query} HTTP/1.1\r\nHost: x\r\n${extra}\r\nGET /node?${query} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`, 2);
    const parts = got.split(/(?=HTTP\/1\.1 )/);
    assert.equal(parts.length, 2, got);
    const date = (p: string) => /Date: [^\r]*/.exec(p)?.[0];
    if (date(parts[0]!) === date(parts[1]!)) return [parts[0]!, parts[1]!];
  }
  throw new Error('the Date line differed three times');
}

test('this Node is one the raw header block supports', () => {
  assert.equal(RAW_HEAD_SUPPORTED, true);
});

test('a 200 and a 304: the same bytes as writeHead, kept alive', async () => {
  const { s, seen, port } = await server({});
  try {
    const [raw, node] = await both(port, 's=200');
    assert.equal(seen.raw, true);
    assert.equal(raw, node);
    assert.match(raw, /^HTTP\/1\.1 200 OK\r\nx-request-id: abc-123\r\n/);
    assert.match(raw, /\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n/);
    const [raw304, node304] = await both(port, 's=304');
    assert.equal(seen.raw, true);
    assert.equal(raw304, node304);
    assert.match(raw304, /^HTTP\/1\.1 304 Not Modified\r\n/);
    assert.ok(raw304.endsWith('\r\n\r\n'));
  } finally {
    s.close();
    s.closeAllConnections();
  }
});

test('the server’s keep-alive settings: no timeout, and a request limit per connection', async () => {
  const a = await server({}, (s) => (s.keepAliveTimeout = 0));
  const b = await server({}, (s) => (s.maxRequestsPerSocket = 10));
  try {
    const [raw, node] = await both(a.port, 's=200');
    assert.equal(a.seen.raw, true);
    assert.equal(raw, node);
    assert.doesNotMatch(raw, /Keep-Alive:/);
    const [rawB, nodeB] = await both(b.port, 's=200');
    assert.equal(b.seen.raw, true);
    assert.equal(rawB, nodeB);
    assert.match(rawB, /Keep-Alive: timeout=5, max=10\r\n/);
  } finally {
    for (const x of [a, b]) {
      x.s.close();
      x.s.closeAllConnections();
    }
  }
});

test('the connection’s last request under maxRequestsPerSocket is left to writeHead (Connection: close)', async () => {
  const { s, seen, port } = await server({}, (x) => (x.maxRequestsPerSocket = 1));
  try {
    const got = await exchange(port, 'GET /raw?s=200 HTTP/1.1\r\nHost: x\r\n\r\n', 1);
    assert.equal(seen.raw, false);
    assert.match(got, /\r\nConnection: close\r\n/);
  } finally {
    s.close();
    s.closeAllConnections();
  }
});

test('states left to writeHead: HTTP/1.0, Connection: close, Expect: 100-continue, a header set before, a plan name writeHead refuses', async () => {
  const { s, seen, port } = await server({});
  try {
    let got = await exchange(port, 'GET /raw?s=200 HTTP/1.0\r\nHost: x\r\n\r\n', 1);
    assert.equal(seen.raw, false);
    assert.match(got, /^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close\r\n/);

    got = await exchange(port, 'GET /raw?s=200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 1);
    assert.equal(seen.raw, false);
    assert.match(got, /Connection: close\r\n/);

    got = await exchange(port, 'GET /raw?s=200 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n', 2);
    assert.equal(seen.raw, false);

    got = await exchange(port, 'GET /raw?s=200&set=1 HTTP/1.1\r\nHost: x\r\n\r\n', 1);
    assert.equal(seen.raw, false);
    assert.match(got, /\r\nx-set: 1\r\n/);

    // a control character in the plan's name: declined here, so writeHead refuses it as it always did
    got = await exchange(port, 'GET /raw?s=200&plan=a%01b HTTP/1.1\r\nHost: x\r\n\r\n', 1);
    assert.equal(seen.raw, false);
    assert.match(got, /^HTTP\/1\.1 500 [\s\S]*x-refused: ERR_INVALID_CHAR\r\n/);
    // and a name writeHead takes goes raw, the same bytes
    const [raw, node] = await both(port, 's=200&plan=team-2');
    assert.equal(seen.raw, true);
    assert.equal(raw, node);
    assert.match(raw, /\r\nx-ratelimit-plan: team-2\r\n/);
  } finally {
    s.close();
    s.closeAllConnections();
  }
});

test('pipelined requests on one connection: each raw answer in order, bodies intact', async () => {
  const { s, port } = await server({});
  try {
    const n = 5;
    const got = await exchange(port, 'GET /raw?s=200 HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(n), n);
    const parts = got.split(/(?=HTTP\/1\.1 )/);
    assert.equal(parts.length, n);
    for (const p of parts) assert.ok(p.endsWith(`\r\n\r\n${BODY.toString('latin1')}`), p);
  } finally {
    s.close();
    s.closeAllConnections();
  }
});
