// ENGINE_MAX_IN_FLIGHT (issue 24, item 7.9). README, Configuration: "with ENGINE_URL: engine calls
// waiting or running at once per process; beyond it a call fails at once with 503 instead of
// queueing"; the error reference: ENGINE_UNAVAILABLE 503, "retry after Retry-After; nothing was
// counted". The engine is its own process (npm run engine's entry), frozen with SIGSTOP so that the
// calls sent to it stay in flight; the gateway is the real app on SQLite. Nothing is mocked.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';
import { freePort, spawnTsx, stopChildren, until } from '../services.ts';
import type { HttpEngineClient } from '../../src/gateway/engine-client.ts';

after(async () => stopChildren());

const LIMIT = 4;

test(`ENGINE_MAX_IN_FLIGHT=${LIMIT}: ${LIMIT} calls in flight are answered 200, the next fails at once with 503 ENGINE_UNAVAILABLE, refunded`, { timeout: 90_000 }, async () => {
  const port = await freePort();
  const engine = spawnTsx(['src/engine-server.ts'], { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  await until('engine up', 30_000, async () => (await fetch(`http://127.0.0.1:${port}/engine/health`).catch(() => null))?.ok);
  // a deadline far beyond the test (its maximum, 60 s), so the held calls can only end by the engine answering
  const t = await buildTestApp({ env: { ENGINE_URL: `http://127.0.0.1:${port}`, ENGINE_MAX_IN_FLIGHT: String(LIMIT), ENGINE_TIMEOUT_MS: '60000', ENGINE_BREAKER_FAILURES: '3' } });
  const client = t.ctx.engine as HttpEngineClient;
  // the count of calls waiting or running is private to the client: read only to know when the
  // held requests have reached it (a bounded wait, not an assertion)
  const inFlight = () => (client as unknown as { inFlight: number }).inFlight;
  try {
    assert.equal(client.mode, 'http');
    await t.ctx.store.upsertPlan({ name: 'inflight', monthly_limit: 100_000, per_minute_limit: 100_000 });
    const k = await t.createKey('inflight');
    const period = new Date().toISOString().slice(0, 7);
    const ask = (q: string) => t.app.inject({ url: `/v1/explain?q=${encodeURIComponent(q)}`, headers: k.auth });

    // under the limit, with the engine running: every call is answered
    const warm = await Promise.all(['syrah', 'merlot', 'barolo', 'riesling'].slice(0, LIMIT).map(ask));
    assert.deepEqual(warm.map((r) => r.statusCode), Array(LIMIT).fill(200));
    assert.equal(await t.ctx.store.getMonthly(k.id, period), LIMIT);

    engine.proc.kill('SIGSTOP');
    let held: { statusCode: number; json(): any }[] = [];
    try {
      // exactly LIMIT calls reach the frozen engine and stay in flight
      let settled = 0;
      const pending = ['gamay', 'cinsault', 'chianti', 'rioja'].slice(0, LIMIT).map((q) => ask(q).finally(() => settled++));
      await until(`${LIMIT} engine calls in flight`, 15_000, () => inFlight() === LIMIT);

      // one more: refused at once, while the others are still waiting on the engine
      const over = await ask('tokaji');
      assert.equal(settled, 0, 'the refusal did not wait for the calls in flight');
      assert.equal(over.statusCode, 503, over.body);
      assert.equal(over.json().error.code, 'ENGINE_UNAVAILABLE');
      assert.ok(Number(over.headers['retry-after']) >= 1, `Retry-After ${String(over.headers['retry-after'])}`);
      assert.equal(over.json().error.request_id, over.headers['x-request-id']);
      // the demo twin shares the process's limit
      const demo = await t.app.inject({ url: '/v1/demo/explain?q=gavi', remoteAddress: '192.0.2.44' });
      assert.equal(demo.statusCode, 503);
      assert.equal(demo.json().error.code, 'ENGINE_UNAVAILABLE');
      // refusals beyond the limit are not engine failures: more of them than ENGINE_BREAKER_FAILURES leave the circuit closed
      for (let i = 0; i < 5; i++) assert.equal((await ask(`port ${i}`)).statusCode, 503);
      assert.equal(client.circuit, 'closed');
      assert.equal(inFlight(), LIMIT, 'refused calls took no place');
      assert.equal(settled, 0);
      // nothing refused was counted: the month holds only the answered calls (the held ones are counted, not yet answered)
      assert.equal(await t.ctx.store.getMonthly(k.id, period), 2 * LIMIT);

      engine.proc.kill('SIGCONT');
      held = await Promise.all(pending);
    } finally {
      engine.proc.kill('SIGCONT');
    }
    // the calls that waited are answered by the engine once it runs again
    assert.deepEqual(held.map((r) => r.statusCode), Array(LIMIT).fill(200));
    assert.equal(inFlight(), 0);
    // and the places are free again
    const again = await Promise.all(['tempranillo', 'nebbiolo', 'sangiovese', 'grenache'].slice(0, LIMIT).map(ask));
    assert.deepEqual(again.map((r) => r.statusCode), Array(LIMIT).fill(200));
    assert.equal(await t.ctx.store.getMonthly(k.id, period), 3 * LIMIT, 'counted = the 200s answered');
  } finally {
    await t.close();
    engine.proc.kill('SIGKILL');
  }
});
