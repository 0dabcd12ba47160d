// Standard headers beside ours (issue 12 §2): IETF RateLimit-Policy / RateLimit on keyed answers,
// WWW-Authenticate on 401, Access-Control-Expose-Headers on demo answers, nosniff on keyed answers
// and no-store on keyed errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
before(async () => { t = await buildTestApp(); });
after(async () => t.close());

test('keyed answers carry RateLimit-Policy and RateLimit for the month and the minute, consistent with X-RateLimit-*', async () => {
  const k = await t.createKey('free');
  const r = await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth });
  assert.equal(r.statusCode, 200);
  const policy = String(r.headers['ratelimit-policy']);
  assert.match(policy, /^"monthly";q=1000;w=\d+, "minute";q=10;w=60$/);
  const m = /^"monthly";r=(\d+);t=(\d+), "minute";r=(\d+);t=(\d+)$/.exec(String(r.headers.ratelimit));
  assert.ok(m, String(r.headers.ratelimit));
  assert.equal(Number(m![1]), Number(r.headers['x-ratelimit-remaining']));
  assert.equal(Number(m![3]), Number(r.headers['x-ratelimit-minute-remaining']));
  assert.ok(Number(m![4]) <= 60);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['cache-control'], 'private, max-age=3600');
});

test('keyed errors carry no-store and nosniff; 401 carries WWW-Authenticate', async () => {
  const none = await t.app.inject({ url: '/v1/explain?q=syrah' });
  assert.equal(none.statusCode, 401);
  assert.equal(none.headers['www-authenticate'], 'Bearer realm="drinks-intelligence"');
  assert.equal(none.headers['cache-control'], 'no-store');
  assert.equal(none.headers['x-content-type-options'], 'nosniff');
  const bad = await t.app.inject({ url: '/v1/explain?q=syrah', headers: { authorization: 'Bearer dis_live_notakeynotakeynotakeynotakey00' } });
  assert.equal(bad.statusCode, 401);
  assert.equal(bad.headers['www-authenticate'], 'Bearer realm="drinks-intelligence", error="invalid_token"');
  const k = await t.createKey('free');
  const miss = await t.app.inject({ url: '/v1/explain?q=zzqqxxyy', headers: k.auth });
  assert.equal(miss.statusCode, 404);
  assert.equal(miss.headers['cache-control'], 'no-store');
});

test('demo answers expose Retry-After, X-Request-Id and ETag to browser code', async () => {
  const r = await t.app.inject({ url: '/v1/demo/resolve-entity?q=syrah' });
  assert.equal(r.statusCode, 200);
  assert.equal(r.headers['access-control-expose-headers'], 'Retry-After, X-Request-Id, ETag');
  assert.equal(r.headers['ratelimit'], undefined);
  assert.equal(r.headers['x-content-type-options'], undefined);
});
