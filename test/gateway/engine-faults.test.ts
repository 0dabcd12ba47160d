// A hung engine (issue 11, item 7): the engine runs as its own process and is frozen with SIGSTOP
// while 300 requests are under way. Every answer is a 503 ENGINE_UNAVAILABLE within the engine
// deadline (README: ENGINE_TIMEOUT_MS, 1 s here; asserted under 3 s, 3 × that), nothing is counted,
// /health answers (503), the open circuit refuses without calling the engine, and after SIGCONT the
// gateway recovers by itself (circuit breaker: one probe after the cool-down). The only elapsed-time
// assertion is the engine deadline's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';
import { HttpEngineClient } from '../../src/gateway/engine-client.ts';
import { freePort, spawnTsx, stopChildren, until } from '../services.ts';

after(async () => stopChildren());

test('engine frozen with SIGSTOP: 300 concurrent requests all end 503 within 3 s, refunds exact, recovery on SIGCONT', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const engine = spawnTsx(['src/engine-server.ts'], { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  await until('engine up', 30_000, async () => (await fetch(`http://127.0.0.1:${port}/engine/health`).catch(() => null))?.ok);
  const t = await buildTestApp({ env: { ENGINE_URL: `http://127.0.0.1:${port}`, ENGINE_BREAKER_COOLDOWN_MS: '8000', ENGINE_TIMEOUT_MS: '1000' } });
  try {
    await t.ctx.store.upsertPlan({ name: 'fault', monthly_limit: 100_000, per_minute_limit: 100_000 });
    const k = await t.createKey('fault');
    const period = new Date().toISOString().slice(0, 7);
    const ok = await t.app.inject({ url: '/v1/explain?q=barolo', headers: k.auth });
    assert.equal(ok.statusCode, 200);
    assert.equal(await t.ctx.store.getMonthly(k.id, period), 1);

    engine.proc.kill('SIGSTOP');
    try {
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          t.app.inject({ url: `/v1/explain?q=${encodeURIComponent(`barolo ${i}`)}`, headers: k.auth }).then((r) => ({ r, ms: Date.now() - started })),
        ),
      );
      for (const { r, ms } of answers) {
        assert.equal(r.statusCode, 503, r.body);
        assert.equal(r.json().error.code, 'ENGINE_UNAVAILABLE');
        assert.ok(r.headers['retry-after']);
        assert.ok(ms < 3000, `answered after ${ms} ms`);
      }
      // refunds exact: only the one answered 200 counts
      assert.equal(await t.ctx.store.getMonthly(k.id, period), 1);
      // the circuit is open (cool-down 8 s, several times what the 300 answers take): the next call
      // is refused by it, without a call to the engine
      const engineClient = t.ctx.engine;
      assert.ok(engineClient instanceof HttpEngineClient);
      assert.equal(engineClient.circuit, 'open', 'repeated failures opened the circuit');
      const fast = await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth });
      assert.equal(fast.statusCode, 503);
      assert.equal(fast.json().error.code, 'ENGINE_UNAVAILABLE');
      // /health is not stuck behind the frozen engine: it answers, 503
      const health = await t.app.inject({ url: '/health' });
      assert.equal(health.statusCode, 503);
    } finally {
      engine.proc.kill('SIGCONT');
    }
    // recovery: after the cool-down one probe goes through and closes the circuit
    const back = await until('engine answers again', 30_000, async () => {
      const r = await t.app.inject({ url: '/v1/explain?q=syrah', headers: k.auth });
      return r.statusCode === 200 ? r : undefined;
    });
    assert.equal(back.json().profile.canonical_name, 'Syrah');
  } finally {
    await t.close();
    engine.proc.kill('SIGKILL');
  }
});
