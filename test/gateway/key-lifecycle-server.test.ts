// Issue 12 §4 seen by a running server (SQLite and PostgreSQL): `keys set-plan`, `keys roll` and
// `plans set --private` made by the admin CLI on the same DATABASE_URL take effect within 2 s
// (KEY_CACHE_TTL_MS ≤ 1.5 s), without a restart; usage carries over and is shared by a rolled pair.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, ROOT } from '../helper.ts';
import { createDatabase, dbUrl, dropDatabase, tempDatabaseName, until } from '../services.ts';
import { adminMain } from '../../src/cli/admin.ts';
import { loadConfig } from '../../src/config.ts';
import { PostgresAccountStore } from '../../src/store/postgres.ts';
import { monthPeriod } from '../../src/store/ports.ts';

/** The bound the issue states for a change to reach a running server. */
const EFFECT_MS = 2000;

async function cli(url: string, ...args: string[]): Promise<any> {
  let out = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    typeof chunk === 'string' ? ((out += chunk), true) : (write as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest)) as typeof process.stdout.write;
  let code;
  try {
    code = await adminMain([...args, '--json'], () => loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }, ROOT));
  } finally {
    process.stdout.write = write;
  }
  assert.equal(code, 0, `${args.join(' ')} failed`);
  return JSON.parse(out);
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`key and plan changes reach a running server (${backend})`, () => {
    let t: Awaited<ReturnType<typeof buildTestApp>>;
    let url = '';
    const db = tempDatabaseName();

    before(async () => {
      if (backend === 'postgres') {
        await createDatabase(db);
        url = dbUrl(db);
        const s = new PostgresAccountStore(url);
        await s.migrate();
        await s.close();
        t = await buildTestApp({ env: { DATABASE_URL: url } });
      } else {
        t = await buildTestApp();
        url = t.config.database.kind === 'sqlite' ? `sqlite:${t.config.database.path}` : '';
      }
    });
    after(async () => {
      await t?.close();
      if (backend === 'postgres') await dropDatabase(db);
    });

    const call = (auth: Record<string, string>) => t.app.inject({ url: '/v1/resolve-entity?q=merlot', headers: auth });

    test('keys set-plan: a key out of allowance is admitted again within 2 s, with the month\'s usage kept', async () => {
      await t.ctx.store.upsertPlan({ name: 'lc3', monthly_limit: 3, per_minute_limit: 100 });
      const k = await t.createKey('lc3');
      for (let i = 0; i < 3; i++) assert.equal((await call(k.auth)).statusCode, 200);
      const refused = await call(k.auth);
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error.code, 'QUOTA_EXCEEDED');

      await cli(url, 'keys', 'set-plan', k.id, 'starter');
      const changed = Date.now();
      const ok = await until('admitted on the new plan', EFFECT_MS + 1000, async () => {
        const r = await call(k.auth);
        return r.statusCode === 200 && r;
      });
      assert.ok(Date.now() - changed <= EFFECT_MS, `took ${Date.now() - changed} ms`);
      assert.equal(ok.headers['x-ratelimit-plan'], 'starter');
      assert.equal(ok.headers['x-ratelimit-remaining'], String(50_000 - 4), 'the 3 earlier requests still count');
      assert.equal(await t.ctx.store.getMonthly(k.id, monthPeriod(new Date())), 4);
    });

    test('keys roll: both keys work during the overlap and share one usage; with --overlap 0 the old key stops within 2 s', async () => {
      const k = await t.createKey('free');
      assert.equal((await call(k.auth)).statusCode, 200);
      const rolled = await cli(url, 'keys', 'roll', k.id, '--overlap', '24h');
      const next = { authorization: `Bearer ${rolled.key}` };
      const r1 = await call(next);
      assert.equal(r1.statusCode, 200);
      assert.equal(r1.headers['x-ratelimit-remaining'], String(1000 - 2), 'the new key continues the old key\'s count');
      const r2 = await call(k.auth);
      assert.equal(r2.statusCode, 200, 'the old key works during the overlap');
      assert.equal(r2.headers['x-ratelimit-remaining'], String(1000 - 3));

      const third = await cli(url, 'keys', 'roll', rolled.id, '--overlap', '0');
      const rolledAt = Date.now();
      const stopped = await until('the rolled key refused', EFFECT_MS + 1000, async () => {
        const r = await call(next);
        return r.statusCode === 401 && r;
      });
      assert.ok(Date.now() - rolledAt <= EFFECT_MS, `took ${Date.now() - rolledAt} ms`);
      assert.equal(stopped.json().error.code, 'UNAUTHORIZED');
      const r3 = await call({ authorization: `Bearer ${third.key}` });
      assert.equal(r3.statusCode, 200);
      // every request of the three keys (the polling above included) is in one count
      const period = monthPeriod(new Date());
      const used = await t.ctx.store.getMonthly(k.id, period);
      assert.ok(used >= 4);
      assert.equal(r3.headers['x-ratelimit-remaining'], String(1000 - used));
      assert.equal(await t.ctx.store.getMonthly(third.id, period), used);
      assert.equal((await call(k.auth)).statusCode, 200, 'the first key\'s own overlap (24h) still runs');
    });

    test('plans set --private: the plan leaves /plans within 2 s and keys on it keep working', async () => {
      await cli(url, 'plans', 'set', 'partner', '--monthly', '500', '--per-minute', '50');
      const k = await t.createKey('partner');
      await until('partner listed', EFFECT_MS + 1000, async () =>
        (await t.app.inject({ url: '/plans' })).json().plans.some((p: { name: string }) => p.name === 'partner'));
      await cli(url, 'plans', 'set', 'partner', '--private');
      const changed = Date.now();
      const page = await until('partner unlisted', EFFECT_MS + 1000, async () => {
        const r = await t.app.inject({ url: '/plans' });
        return !r.json().plans.some((p: { name: string }) => p.name === 'partner') && (r.json() as { plans: { name: string }[] });
      });
      assert.ok(Date.now() - changed <= EFFECT_MS);
      for (const name of ['free', 'starter', 'pro']) assert.ok(page.plans.some((p) => p.name === name), `${name} still listed`);
      for (const p of page.plans) assert.deepEqual(Object.keys(p).sort(), ['monthly_limit', 'name', 'per_minute_limit']);
      const r = await call(k.auth);
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['x-ratelimit-plan'], 'partner');
    });
  });
}
