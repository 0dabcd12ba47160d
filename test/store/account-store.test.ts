// One suite of AccountStore behaviour, run against both adapters: SQLite (a temp file) and
// PostgreSQL (a temp database created through the `test` database and dropped afterwards).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SqliteAccountStore } from '../../src/store/sqlite.ts';
import { PostgresAccountStore } from '../../src/store/postgres.ts';
import { STARTER_PLANS, type AccountStore, type ApiKeyRecord } from '../../src/store/ports.ts';
import { tempDir } from '../helper.ts';
import { createDatabase, dbUrl, dropDatabase, tempDatabaseName } from '../services.ts';

interface Adapter {
  name: string;
  /** a fresh, empty database */
  setup(): Promise<void>;
  /** a new store instance on that database (call several times for "several processes") */
  open(): AccountStore;
  teardown(): Promise<void>;
}

function sqliteAdapter(): Adapter {
  let dir = '';
  return {
    name: 'sqlite',
    async setup() {
      dir = tempDir('dis-store-');
    },
    open: () => new SqliteAccountStore(path.join(dir, 'accounts.db')),
    async teardown() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresAdapter(): Adapter {
  const db = tempDatabaseName();
  return {
    name: 'postgres',
    async setup() {
      await createDatabase(db);
    },
    open: () => new PostgresAccountStore(dbUrl(db)),
    async teardown() {
      await dropDatabase(db);
    },
  };
}

let seq = 0;
function keyRecord(plan = 'free', over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  seq++;
  return {
    id: `key_${crypto.randomBytes(8).toString('hex')}`,
    key_hash: crypto.createHash('sha256').update(`secret-${seq}-${Math.random()}`).digest('hex'),
    display_prefix: `dis_live_${String(seq).padStart(4, '0')}`,
    client: `client ${seq}`,
    plan,
    status: 'active',
    // strictly increasing so listKeys' order (created_at, id) is the insertion order
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    last_used_at: null,
    usage_key_id: null,
    expires_at: null,
    ...over,
  };
}

const PERIOD = '2026-11';

for (const adapter of [sqliteAdapter(), postgresAdapter()]) {
  describe(`AccountStore (${adapter.name})`, () => {
    let store: AccountStore;
    const extra: AccountStore[] = [];

    before(async () => {
      await adapter.setup();
      store = adapter.open();
    });
    after(async () => {
      for (const s of [store, ...extra]) await s?.close().catch(() => undefined);
      await adapter.teardown();
    });

    test('migrations: pending on a fresh database, applied once, starter plans seeded', async () => {
      assert.equal(store.kind, adapter.name);
      const expected = adapter.name === 'postgres' ? ['001_accounts', '002_consume_function', '003_count_groups', '004_key_lifecycle', '005_usage_leases', '006_lease_groups'] : ['001_accounts', '002_key_lifecycle', '003_usage_leases'];
      assert.deepEqual(await store.pendingMigrations(), expected);
      assert.deepEqual(await store.migrate(), expected);
      assert.deepEqual(await store.pendingMigrations(), []);
      assert.deepEqual(await store.migrate(), [], 'a second migrate applies nothing');
      assert.deepEqual(await store.listPlans(), STARTER_PLANS);
      await store.ping();
    });

    test('keys: insert, find by hash and id, list in creation order, status changes, touch', async () => {
      const a = keyRecord('free');
      const b = keyRecord('pro', { client: 'Ünïcødé client' });
      await store.insertKey(a);
      await store.insertKey(b);
      assert.deepEqual(await store.findKeyByHash(a.key_hash), a);
      assert.deepEqual(await store.getKey(b.id), b);
      assert.equal(await store.findKeyByHash('0'.repeat(64)), null);
      assert.equal(await store.getKey('key_missing'), null);
      const listed = await store.listKeys();
      assert.deepEqual(listed.filter((k) => k.id === a.id || k.id === b.id), [a, b]);

      await store.setKeyStatus(a.id, 'inactive');
      assert.equal((await store.getKey(a.id))!.status, 'inactive');
      await store.setKeyStatus(a.id, 'revoked');
      assert.equal((await store.findKeyByHash(a.key_hash))!.status, 'revoked');

      const at = '2026-11-22T10:00:00.000Z';
      await store.touchKey(b.id, at);
      assert.equal((await store.getKey(b.id))!.last_used_at, at);

      await assert.rejects(store.insertKey({ ...keyRecord('free'), key_hash: a.key_hash }), 'a key hash is unique');
      await assert.rejects(store.insertKey(keyRecord('no-such-plan')), 'a key needs an existing plan');
    });

    test('plans: upsert creates and updates; unknown plan is null', async () => {
      await store.upsertPlan({ name: 'team', monthly_limit: 5_000_000_000, per_minute_limit: 120 });
      assert.deepEqual(await store.getPlan('team'), { name: 'team', monthly_limit: 5_000_000_000, per_minute_limit: 120 });
      await store.upsertPlan({ name: 'team', monthly_limit: 7, per_minute_limit: 0 });
      assert.deepEqual(await store.getPlan('team'), { name: 'team', monthly_limit: 7, per_minute_limit: 0 });
      assert.equal(await store.getPlan('nope'), null);
      const names = (await store.listPlans()).map((p) => p.name);
      assert.deepEqual(names, ['team', 'free', 'starter', 'pro'], 'ordered by monthly limit');
    });

    test('consumeMonthly admits exactly the limit under 200 concurrent calls', async () => {
      const k = keyRecord('free');
      await store.insertKey(k);
      const results = await Promise.all(Array.from({ length: 200 }, () => store.consumeMonthly(k.id, PERIOD, 50)));
      const admitted = results.filter((r) => r.admitted);
      assert.equal(admitted.length, 50);
      assert.deepEqual(admitted.map((r) => r.used).sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i + 1), 'each admitted call saw its own count');
      for (const r of results.filter((x) => !x.admitted)) assert.equal(r.used, 50);
      assert.equal(await store.getMonthly(k.id, PERIOD), 50);
    });

    test('consumeMonthly stays exact across two store instances (two processes) on one database', async () => {
      const other = adapter.open();
      extra.push(other);
      const k = keyRecord('free');
      await store.insertKey(k);
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? other : store).consumeMonthly(k.id, PERIOD, 50)));
      assert.equal(results.filter((r) => r.admitted).length, 50);
      assert.equal(await store.getMonthly(k.id, PERIOD), 50);
      assert.equal(await other.getMonthly(k.id, PERIOD), 50);
    });

    test('consumeMonthly with limit 0 admits nothing; periods and keys are separate', async () => {
      const k = keyRecord('free');
      const j = keyRecord('free');
      await store.insertKey(k);
      await store.insertKey(j);
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 0), { admitted: false, used: 0 });
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 2), { admitted: true, used: 1 });
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 2), { admitted: true, used: 2 });
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 2), { admitted: false, used: 2 });
      assert.deepEqual(await store.consumeMonthly(k.id, '2026-12', 2), { admitted: true, used: 1 });
      assert.equal(await store.getMonthly(j.id, PERIOD), 0);
      assert.equal(await store.getMonthly('key_missing', PERIOD), 0);
      // a raised limit admits again (plan upgrade mid-month)
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 3), { admitted: true, used: 3 });
    });

    test('refundMonthly gives back one request and never goes below zero', async () => {
      const k = keyRecord('free');
      await store.insertKey(k);
      await store.refundMonthly(k.id, PERIOD); // nothing counted yet: no-op
      assert.equal(await store.getMonthly(k.id, PERIOD), 0);
      for (let i = 0; i < 3; i++) await store.consumeMonthly(k.id, PERIOD, 3);
      assert.equal((await store.consumeMonthly(k.id, PERIOD, 3)).admitted, false);
      await store.refundMonthly(k.id, PERIOD);
      assert.equal(await store.getMonthly(k.id, PERIOD), 2);
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 3), { admitted: true, used: 3 }, 'the refunded request can be used again');
      await Promise.all(Array.from({ length: 10 }, () => store.refundMonthly(k.id, PERIOD)));
      assert.equal(await store.getMonthly(k.id, PERIOD), 0);
    });

    test('set-plan: moves the key (and its rolled partner), keeps the id and the month\'s usage', async () => {
      await store.upsertPlan({ name: 'lc-small', monthly_limit: 3, per_minute_limit: 10 });
      await store.upsertPlan({ name: 'lc-big', monthly_limit: 10, per_minute_limit: 10 });
      const k = keyRecord('lc-small');
      await store.insertKey(k);
      for (let i = 0; i < 3; i++) assert.equal((await store.consumeMonthly(k.id, PERIOD, 3)).admitted, true);
      assert.equal((await store.consumeMonthly(k.id, PERIOD, 3)).admitted, false);
      await store.setKeyPlan(k.id, 'lc-big');
      const moved = (await store.findKeyByHash(k.key_hash))!;
      assert.equal(moved.id, k.id);
      assert.equal(moved.plan, 'lc-big');
      assert.equal(await store.getMonthly(k.id, PERIOD), 3, 'usage carries over');
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 10), { admitted: true, used: 4 });
      await assert.rejects(store.setKeyPlan(k.id, 'no-such-plan'), 'the plan must exist');
    });

    test('roll: the new key counts toward the old key\'s usage; the old key stops at expires_at', async () => {
      await store.upsertPlan({ name: 'lc-roll', monthly_limit: 5, per_minute_limit: 10 });
      const old = keyRecord('lc-roll');
      await store.insertKey(old);
      for (let i = 0; i < 2; i++) await store.consumeMonthly(old.id, PERIOD, 5);
      const soon = new Date(Date.now() + 60_000).toISOString();
      const next = keyRecord('free', { client: 'ignored: copied from the old key' });
      await store.rollKey(old.id, next, soon);
      const n = (await store.findKeyByHash(next.key_hash))!;
      assert.equal(n.client, old.client);
      assert.equal(n.plan, 'lc-roll');
      assert.equal(n.usage_key_id, old.id);
      assert.equal(n.status, 'active');
      assert.equal((await store.getKey(old.id))!.expires_at, soon);
      assert.equal((await store.getKey(old.id))!.status, 'active', 'works during the overlap');
      // both keys count toward one allowance, exactly, under concurrency
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.consumeMonthly(i % 2 ? old.id : next.id, PERIOD, 5)));
      assert.equal(results.filter((r) => r.admitted).length, 3);
      assert.equal(await store.getMonthly(old.id, PERIOD), 5);
      assert.equal(await store.getMonthly(next.id, PERIOD), 5);
      await store.refundMonthly(next.id, PERIOD);
      assert.equal(await store.getMonthly(old.id, PERIOD), 4);
      // a set-plan on either key moves both
      await store.setKeyPlan(next.id, 'pro');
      assert.equal((await store.getKey(old.id))!.plan, 'pro');
      // rolling the new key again keeps the same usage owner
      const third = keyRecord('free');
      await store.rollKey(next.id, third, new Date(Date.now() + 60_000).toISOString());
      assert.equal((await store.getKey(third.id))!.usage_key_id, old.id);
      assert.equal(await store.getMonthly(third.id, PERIOD), 4);
      // the overlap ends: the old key reads as inactive (its stored status is unchanged)
      const past = new Date(Date.now() - 1000).toISOString();
      await store.rollKey(old.id, keyRecord('free'), past);
      assert.equal((await store.findKeyByHash(old.key_hash))!.status, 'inactive');
      assert.equal((await store.getKey(old.id))!.status, 'inactive');
      assert.equal((await store.listKeys()).find((k) => k.id === old.id)!.status, 'inactive');
      assert.equal((await store.findKeyByHash(next.key_hash))!.status, 'active');
      await assert.rejects(store.rollKey('key_missing', keyRecord('free'), soon));
    });

    test('plans: delete refuses while any key uses the plan; private plans keep their flag', async () => {
      await store.upsertPlan({ name: 'lc-del', monthly_limit: 1, per_minute_limit: 1 });
      const k = keyRecord('lc-del');
      await store.insertKey(k);
      await store.setKeyStatus(k.id, 'revoked');
      assert.deepEqual(await store.deletePlan('lc-del'), { deleted: false, reason: 'in_use', keys: 1 });
      await store.setKeyPlan(k.id, 'free');
      assert.deepEqual(await store.deletePlan('lc-del'), { deleted: true });
      assert.equal(await store.getPlan('lc-del'), null);
      assert.deepEqual(await store.deletePlan('lc-del'), { deleted: false, reason: 'not_found' });

      await store.upsertPlan({ name: 'lc-test', monthly_limit: 9, per_minute_limit: 9, private: true });
      assert.deepEqual(await store.getPlan('lc-test'), { name: 'lc-test', monthly_limit: 9, per_minute_limit: 9, private: true });
      await store.upsertPlan({ name: 'lc-test', monthly_limit: 8, per_minute_limit: 8 });
      assert.equal((await store.getPlan('lc-test'))!.private, true, 'an update without the flag keeps it');
      assert.equal((await store.listPlans()).find((p) => p.name === 'lc-test')!.private, true);
      await store.upsertPlan({ name: 'lc-test', monthly_limit: 8, per_minute_limit: 8, private: false });
      assert.deepEqual(await store.getPlan('lc-test'), { name: 'lc-test', monthly_limit: 8, per_minute_limit: 8 });
    });

    test('daily usage: counted in the same transaction as the month, refunds included', async () => {
      const k = keyRecord('free');
      await store.insertKey(k);
      const today = new Date().toISOString().slice(0, 10);
      const results = await Promise.all(Array.from({ length: 30 }, () => store.consumeMonthly(k.id, PERIOD, 12)));
      assert.equal(results.filter((r) => r.admitted).length, 12);
      await store.refundMonthly(k.id, PERIOD);
      assert.deepEqual(await store.dailyUsage(k.id, '2000-01-01', today), [{ day: today, used: 11 }]);
      assert.equal(await store.getMonthly(k.id, PERIOD), 11);
      assert.deepEqual(await store.dailyUsage(k.id, '2000-01-01', '2000-01-31'), []);
      assert.deepEqual(await store.dailyUsage('key_missing', '2000-01-01', today), []);
    });

    test('durability: close and reopen keeps keys, plans, statuses and usage', async () => {
      const k = keyRecord('free');
      await store.insertKey(k);
      await store.upsertPlan({ name: 'durable', monthly_limit: 10, per_minute_limit: 1 });
      for (let i = 0; i < 7; i++) await store.consumeMonthly(k.id, PERIOD, 10);
      await store.setKeyStatus(k.id, 'inactive');
      await store.close();
      for (const s of extra.splice(0)) await s.close();
      store = adapter.open();
      assert.deepEqual(await store.pendingMigrations(), [], 'a reopened database needs no migration');
      assert.equal(await store.getMonthly(k.id, PERIOD), 7);
      assert.equal((await store.getKey(k.id))!.status, 'inactive');
      assert.deepEqual(await store.getPlan('durable'), { name: 'durable', monthly_limit: 10, per_minute_limit: 1 });
      assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 10), { admitted: true, used: 8 });
    });
  });
}
