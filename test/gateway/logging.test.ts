import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { buildTestApp, createKey } from '../helper.ts';
import { until } from '../services.ts';
import { generateKey } from '../../src/gateway/keys.ts';
import { holdsKey, MAX_DECODE_ROUNDS, REDACTED_TOO_DEEP, redactKeys } from '../../src/gateway/redact.ts';

test('no API key appears in the logs, whatever the request', async () => {
  const stream = new PassThrough();
  let logs = '';
  stream.on('data', (c) => (logs += c.toString()));
  const t = await buildTestApp({ logStream: stream, env: { LOG_LEVEL: 'trace' } });
  try {
    const k = await createKey(t.ctx, 'free');
    await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
    await t.app.inject({ url: '/v1/resolve-entity?q=', headers: k.auth });
    await t.app.inject({ url: '/v1/usage', headers: k.auth });
    // a key pasted into the URL or the request id by mistake
    await t.app.inject({ url: `/v1/explain?q=syrah&api_key=${k.key}`, headers: k.auth });
    await t.app.inject({ url: '/v1/usage', headers: { ...k.auth, 'x-request-id': k.key } });
    await t.ctx.store.setKeyStatus(k.id, 'revoked');
    t.ctx.accounts.invalidate();
    await t.app.inject({ url: '/v1/usage', headers: k.auth });
    await t.app.inject({ url: '/v1/explain?q=syrah', headers: { authorization: 'Bearer dis_live_notarealkeynotarealkeynotarealk' } });
    await new Promise((r) => setImmediate(r));
    assert.ok(logs.length > 200, 'the requests were logged');
    assert.ok(!logs.includes(k.key), 'the key is not in the logs');
    assert.ok(!logs.includes(k.key.slice(9)), 'the secret part is not in the logs');
    assert.ok(!logs.includes('notarealkey'), 'an unknown key is not logged either');
  } finally {
    await t.close();
  }
});

/** Every byte as %XX, `times` times over (a key encoded so no character of it shows). */
function encodeTimes(s: string, times: number): string {
  let out = [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  for (let i = 1; i < times; i++) out = out.replace(/%/g, '%25');
  return out;
}

/** The text percent-decoded until nothing changes, however deep: the test's own oracle, with no bound. */
function decodeFully(text: string): string {
  for (;;) {
    const next = text.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (next === text) return text;
    text = next;
  }
}

/** A GET over real HTTP with exactly these headers (Host included); the answer's status. */
function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

test('redactKeys and holdsKey see through any depth of percent-encoding; past the bound the whole value is redacted', () => {
  const key = generateKey().key;
  for (const times of [1, 3, 4, 7, MAX_DECODE_ROUNDS]) {
    const url = `/v1/x?q=syrah&api_key=${encodeTimes(key, times)}`;
    assert.equal(redactKeys(url), '/v1/x?q=syrah&api_key=dis_live_[redacted]', `encoded ${times} times`);
    assert.ok(holdsKey(encodeTimes(key, times)), `a request id encoded ${times} times`);
    // only the underscores encoded, the secret itself in plain sight
    const underscores = key.replace(/_/g, encodeTimes('_', times));
    assert.equal(redactKeys(`/v1/x?k=${underscores}`), '/v1/x?k=dis_live_[redacted]', `underscores encoded ${times} times`);
  }
  for (const times of [MAX_DECODE_ROUNDS + 1, 40]) {
    const value = `/v1/x?api_key=${key.replace(/_/g, encodeTimes('_', times))}`;
    assert.equal(redactKeys(value), REDACTED_TOO_DEEP, `encoded ${times} times: the whole value goes`);
    assert.ok(holdsKey(value));
  }
  // text without a key is left as it came, however many escapes it has
  assert.equal(redactKeys('/v1/x?q=100%2525%20off&r=Gr%C3%BCner'), '/v1/x?q=100%2525%20off&r=Gr%C3%BCner');
  assert.equal(holdsKey('/v1/x?q=100%2525%20off'), false);
});

test('a key sent in any header that is logged (Host, X-Forwarded-Host, X-Forwarded-For, X-Request-Id) or in the URL, in any encoding, never reaches a log line: Fastify path, keyed fast path, pino', { timeout: 60_000 }, async () => {
  for (const trustProxy of ['false', 'true']) {
    const stream = new PassThrough();
    let logs = '';
    stream.on('data', (c) => (logs += c.toString()));
    const t = await buildTestApp({ logStream: stream, env: { LOG_LEVEL: 'info', TRUST_PROXY: trustProxy, USAGE_LEASE_MIN_RATE: '1' } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const k = await createKey(t.ctx, 'pro');
      const secret = k.key.slice(9);
      const hosts = [k.key, encodeTimes(k.key, 4), k.key.replace(/_/g, encodeTimes('_', 4)), `${k.key}:8080`];
      const fast = t.ctx.fastPath!;
      let sent = 0;
      for (const host of hosts) {
        // the first requests of a line go through Fastify; once a lease block is in hand the keyed
        // fast path answers (without TRUST_PROXY; with it, Fastify answers every request)
        const before = fast.answered;
        const send = async () => {
          const headers: Record<string, string> = { host, authorization: `Bearer ${k.key}`, 'x-request-id': `probe-${sent++}` };
          if (trustProxy === 'true') Object.assign(headers, { 'x-forwarded-for': host, 'x-forwarded-host': host });
          assert.equal(await get(port, `/v1/explain?q=syrah`, headers), 200);
          return fast.answered > before;
        };
        if (trustProxy === 'true') await send();
        else await until(`the keyed fast path answering with Host ${host}`, 10_000, send);
      }
      // the URL and the request id, the key encoded four times (only the underscores: the secret in plain sight)
      const four = k.key.replace(/_/g, encodeTimes('_', 4));
      await get(port, `/v1/explain?q=syrah&api_key=${four}`, { host: 'api.example', authorization: `Bearer ${k.key}` });
      await get(port, `/v1/explain?q=syrah&api_key=${encodeTimes(k.key, 4)}`, { host: 'api.example', authorization: `Bearer ${k.key}` });
      assert.equal(await get(port, '/plans', { host: 'api.example', 'x-request-id': four }), 200);
      // any pino line of the gateway, whatever field holds the header
      t.app.log.warn({ headers: { host: k.key, 'x-forwarded-for': encodeTimes(k.key, 4), referer: `https://x.example/?k=${four}` } }, 'a line with headers');
      await new Promise((r) => setImmediate(r));
      const lines = logs.split('\n').filter(Boolean);
      assert.ok(lines.filter((l) => l.includes('"msg":"request completed"')).length >= sent + 3, 'every request was logged');
      assert.ok(lines.some((l) => l.includes('"msg":"a line with headers"')), 'the pino line was written');
      const leaks = lines.filter((l) => decodeFully(l).includes(secret));
      assert.deepEqual(leaks, [], `TRUST_PROXY=${trustProxy}: the key is in no log line, in no encoding`);
      assert.ok(logs.includes('dis_live_[redacted]'), 'the log shows where a key was');
    } finally {
      await t.close();
    }
  }
});
