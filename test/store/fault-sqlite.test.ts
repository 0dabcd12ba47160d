// SQLite faults made for real (issue 11, items 8 and 14): the write lock held by another connection
// (a second libsql connection inside BEGIN IMMEDIATE) must not freeze the event loop, and a new
// database file is private to its owner.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { SqliteAccountStore } from '../../src/store/sqlite.ts';
import { monthPeriod } from '../../src/store/ports.ts';
import { buildTestApp, sleep, tempDir } from '../helper.ts';
import { within } from '../services.ts';

const PERIOD = monthPeriod(new Date());
const BIG = { name: 'fault', monthly_limit: 1_000_000, per_minute_limit: 1_000_000 };

async function appWithLockableDb(env: Record<string, string> = {}) {
  const t = await buildTestApp({ env });
  await t.ctx.store.upsertPlan(BIG);
  const k = await t.createKey(BIG.name);
  const ask = () => t.app.inject({ method: 'GET', url: '/v1/resolve-entity?q=cabernet%20sauvignon', headers: k.auth });
  assert.equal((await ask()).statusCode, 200);
  const other = new Database(path.join(t.dir, 'test.db'));
  return { t, k, ask, other };
}

async function healthMs(t: Awaited<ReturnType<typeof buildTestApp>>) {
  const t0 = performance.now();
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  return { ms: performance.now() - t0, status: res.statusCode };
}

describe('SQLite faults', () => {
  test('/health answers within 100 ms while another connection holds the write lock; the waiting requests are answered and counted once it is released', async () => {
    const { t, k, ask, other } = await appWithLockableDb();
    try {
      other.exec('BEGIN IMMEDIATE');
      const pending = Promise.all(Array.from({ length: 20 }, ask));
      await sleep(50); // the counts are now waiting for the lock
      const probes = [];
      for (let i = 0; i < 5; i++) {
        probes.push(await healthMs(t));
        await sleep(100);
      }
      for (const p of probes) {
        assert.equal(p.status, 200);
        assert.ok(p.ms < 100, `/health took ${p.ms.toFixed(0)} ms while the lock was held`);
      }
      other.exec('COMMIT');
      const answers = await within(pending, 5000, 'requests after the lock');
      const ok = answers.filter((r) => r.statusCode === 200).length;
      assert.equal(ok, 20, `statuses ${answers.map((r) => r.statusCode)}`);
      assert.equal(await t.ctx.store.getMonthly(k.id, PERIOD), 1 + ok);
    } finally {
      other.close();
      await t.close();
    }
  });

  test('a lock held past STORE_TIMEOUT_MS: requests are 503 STORE_UNAVAILABLE, nothing is counted, the loop stays free', async () => {
    const { t, k, ask, other } = await appWithLockableDb({ STORE_TIMEOUT_MS: '400' });
    try {
      other.exec('BEGIN IMMEDIATE');
      const t0 = performance.now();
      const pending = Promise.all(Array.from({ length: 10 }, ask));
      await sleep(100);
      const h = await healthMs(t);
      assert.ok(h.ms < 100, `/health took ${h.ms.toFixed(0)} ms`);
      const answers = await within(pending, 5000, 'requests during the lock');
      const ms = performance.now() - t0;
      other.exec('COMMIT');
      assert.deepEqual([...new Set(answers.map((r) => r.statusCode))], [503]);
      assert.equal(answers[0]!.json().error.code, 'STORE_UNAVAILABLE');
      assert.ok(ms >= 350 && ms < 3000, `answered after ${ms.toFixed(0)} ms`);
      assert.equal(await t.ctx.store.getMonthly(k.id, PERIOD), 1, 'nothing counted for the 503s');
      assert.equal((await ask()).statusCode, 200, 'answers again once the lock is gone');
    } finally {
      other.close();
      await t.close();
    }
  });

  test('exact quota still holds when two connections contend for the lock', async () => {
    const dir = tempDir('dis-sqlite-fault-');
    const file = path.join(dir, 'db', 'accounts.db');
    const a = new SqliteAccountStore(file);
    await a.migrate();
    const b = new SqliteAccountStore(file);
    try {
      await a.insertKey({ id: 'key_x', key_hash: 'h'.repeat(64), display_prefix: 'dis_live_x', client: 'c', plan: 'free', status: 'active', created_at: new Date().toISOString(), last_used_at: null });
      const results = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).consumeMonthly('key_x', PERIOD, 150)));
      assert.equal(results.filter((r) => r.admitted).length, 150);
      assert.equal(await a.getMonthly('key_x', PERIOD), 150);
    } finally {
      await a.close();
      await b.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a new database file is created 0600 in a folder created 0700 (and its WAL files follow)', async () => {
    const dir = tempDir('dis-sqlite-perm-');
    const file = path.join(dir, 'var', 'drinks.db');
    const s = new SqliteAccountStore(file);
    try {
      await s.migrate();
      await s.upsertPlan(BIG);
      const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);
      assert.equal(mode(path.dirname(file)), '700');
      assert.equal(mode(file), '600');
      for (const extra of ['-wal', '-shm']) if (fs.existsSync(file + extra)) assert.equal(mode(file + extra), '600', extra);
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
