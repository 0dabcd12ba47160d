import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { buildTestApp, createKey } from '../helper.ts';

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
