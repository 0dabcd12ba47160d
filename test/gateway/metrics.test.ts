// GET /metrics (issue 12): Prometheus text through prom-client, never public by default: absent
// without METRICS_TOKEN, refused without the right bearer token, or on its own METRICS_PORT; the
// counters move with real traffic (requests by route and status, refusals, demo cache, engine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';
import { freePort } from '../services.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line `name{labels} value` (labels in any order), or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{([^}]*)\})? ([0-9.e+-]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const ls = Object.fromEntries((m[3] ?? '').split(',').filter(Boolean).map((kv) => { const [k, v] = kv.split('='); return [k, v!.replace(/^"|"$/g, '')]; }));
    if (Object.entries(labels).every(([k, v]) => ls[k] === v)) total += Number(m[4]);
  }
  return total;
}

test('without METRICS_TOKEN or METRICS_PORT there is no /metrics', async () => {
  const t = await buildTestApp();
  try {
    assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 404);
  } finally {
    await t.close();
  }
});

test('with METRICS_TOKEN: refused without the token; counters move with traffic', async () => {
  const t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN, DEMO_CACHE_TTL_SECONDS: '60' } });
  try {
    const metrics = async () => {
      const r = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(r.statusCode, 200);
      assert.match(String(r.headers['content-type']), /text\/plain/);
      return r.body;
    };
    assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 401);
    assert.equal((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-wrong-token' } })).statusCode, 401);
    const before = await metrics();
    const k = await t.createKey('free');
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: k.auth })).statusCode, 200);
    await t.app.inject({ url: '/v1/demo/explain?q=barolo' });
    await t.app.inject({ url: '/v1/demo/explain?q=barolo' });
    await t.app.inject({ url: '/v1/explain?q=syrah', headers: { authorization: 'Bearer dis_live_unknownunknownunknownunknown00' } });
    let limited = 0;
    for (let i = 0; i < 12; i++) if ((await t.app.inject({ url: `/v1/explain?q=syrah${i}`, headers: k.auth })).statusCode === 429) limited++;
    assert.ok(limited > 0);
    const after = await metrics();
    const d = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    assert.equal(d('dis_http_requests_total', { route: '/v1/resolve-entity', status: '200' }), 1);
    assert.equal(d('dis_http_requests_total', { route: '/v1/demo/explain', status: '200' }), 2);
    assert.equal(d('dis_http_requests_total', { route: '/v1/explain', status: '401' }), 1);
    assert.equal(d('dis_refusals_total', { code: 'RATE_LIMITED' }), limited);
    assert.equal(d('dis_demo_cache_lookups_total', { result: 'hit' }), 1);
    assert.equal(d('dis_demo_cache_lookups_total', { result: 'miss' }), 1);
    assert.ok(d('dis_engine_call_duration_seconds_count', { op: 'resolve-entity' }) >= 1);
    assert.ok(d('dis_http_request_duration_seconds_count', { route: '/v1/resolve-entity' }) >= 1);
    assert.ok(sample(after, 'dis_process_resident_memory_bytes') > 0);
  } finally {
    await t.close();
  }
});

test('/metrics token guesses count in the per-address failed-authentication limit (then 429 with Retry-After, even with the right token), shared with API keys', async () => {
  const t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN, AUTH_FAILURES_PER_IP_PER_MINUTE: '3' } });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer guess-${i}-guess-guess` } })).statusCode, 401);
    const refused = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    // the same address's API-key authentications are refused too: one limit per address
    assert.equal((await t.app.inject({ url: '/v1/resolve-entity?q=syrah', headers: { authorization: 'Bearer dis_live_unknownkeyunknownkeyunknownkey' } })).statusCode, 429);
    // another address is not affected
    assert.equal((await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
  } finally {
    await t.close();
  }
});

test('with METRICS_PORT: served on its own listener only', async () => {
  const port = await freePort();
  const t = await buildTestApp({ env: { METRICS_PORT: String(port) } });
  try {
    assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 404, 'not on the public port');
    const r = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(r.status, 200);
    assert.match(await r.text(), /dis_http_requests_total|dis_process_cpu/);
  } finally {
    await t.close();
  }
});

test('a short METRICS_TOKEN is refused at start-up', async () => {
  const { loadConfig, ConfigError } = await import('../../src/config.ts');
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), (e: unknown) => e instanceof ConfigError && /METRICS_TOKEN/.test((e as Error).message));
  assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metrics.token, TOKEN);
  assert.equal(loadConfig({}).metrics.token, null);
});

test('series updated in place give the same Prometheus text as prom-client inc() and observe()', async () => {
  const { Counter, Histogram, Registry } = await import('prom-client');
  const { CounterSeries, HistogramSeries } = await import('../../src/gateway/metrics.ts');
  const make = () => {
    const registry = new Registry();
    const c = new Counter({ name: 't_requests_total', help: 'h', labelNames: ['route', 'status'] as const, registers: [registry] });
    const h = new Histogram({ name: 't_seconds', help: 'h', labelNames: ['route'] as const, buckets: [0.001, 0.01, 0.1, 1], registers: [registry] });
    return { registry, c, h };
  };
  const plain = make();
  const fast = make();
  const series = { a: new CounterSeries(fast.c, { route: '/a', status: '200' }), b: new CounterSeries(fast.c, { route: '/b', status: '404' }) };
  const timers = { a: new HistogramSeries(fast.h, { route: '/a' }), b: new HistogramSeries(fast.h, { route: '/b' }) };
  // bounds themselves, values between them, beyond the last bound, zero
  const values = [0, 0.001, 0.0005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 7, 0.0099, 1e-9];
  for (let i = 0; i < 200; i++) {
    const v = values[i % values.length]! * (1 + (i % 3) / 1000);
    const which = i % 3 === 0 ? 'b' : 'a';
    plain.c.inc({ route: `/${which}`, status: which === 'a' ? '200' : '404' });
    plain.h.observe({ route: `/${which}` }, v);
    series[which].inc();
    timers[which].observe(v);
  }
  assert.equal(await fast.registry.metrics(), await plain.registry.metrics());
  // after a reset the series start again, as prom-client's own would
  plain.registry.resetMetrics();
  fast.registry.resetMetrics();
  for (const v of values) {
    plain.h.observe({ route: '/a' }, v);
    timers.a.observe(v);
    plain.c.inc({ route: '/a', status: '200' });
    series.a.inc();
  }
  assert.equal(await fast.registry.metrics(), await plain.registry.metrics());
});
