// Upgrading a database made before issue 12 §4 (SQLite schema 001, PostgreSQL 001–003): the
// lifecycle migration applies on top of keys and usage already there, and those keys (legacy form,
// without a checksum) keep working with their usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import pg from 'pg';
import { MIGRATIONS as SQLITE_MIGRATIONS, SqliteAccountStore } from '../../src/store/sqlite.ts';
import { MIGRATIONS as PG_MIGRATIONS, PostgresAccountStore } from '../../src/store/postgres.ts';
import { hashKey, looksLikeKey } from '../../src/gateway/keys.ts';
import type { AccountStore } from '../../src/store/ports.ts';
import { tempDir } from '../helper.ts';
import { createDatabase, dbUrl, dropDatabase, tempDatabaseName } from '../services.ts';

const PERIOD = '2026-11';
const legacyKey = 'dis_live_' + crypto.randomBytes(24).toString('base64url');
const LEGACY_ROW = ['key_legacy0000000001', hashKey(legacyKey), legacyKey.slice(0, 13), 'Old Client', 'starter', 'active', '2026-01-01T00:00:00.000Z'];

async function checkUpgraded(store: AccountStore, ...newVersions: string[]) {
  assert.deepEqual(await store.pendingMigrations(), newVersions);
  assert.deepEqual(await store.migrate(), newVersions);
  assert.ok(looksLikeKey(legacyKey), 'the legacy form is still accepted');
  const k = (await store.findKeyByHash(hashKey(legacyKey)))!;
  assert.equal(k.id, 'key_legacy0000000001');
  assert.equal(k.status, 'active');
  assert.equal(k.usage_key_id ?? null, null);
  assert.equal(k.expires_at ?? null, null);
  assert.equal(await store.getMonthly(k.id, PERIOD), 41);
  assert.deepEqual(await store.consumeMonthly(k.id, PERIOD, 50_000), { admitted: true, used: 42 });
  assert.deepEqual(await store.getPlan('starter'), { name: 'starter', monthly_limit: 50_000, per_minute_limit: 60 }, 'existing plans are public');
  const today = new Date().toISOString().slice(0, 10);
  assert.deepEqual(await store.dailyUsage(k.id, today, today), [{ day: today, used: 1 }], 'daily counts start with the upgrade');
}

test('SQLite: 002_key_lifecycle upgrades a 001 database; existing keys and usage keep working', async () => {
  const dir = tempDir('dis-upgrade-');
  const file = path.join(dir, 'old.db');
  try {
    const raw = new Database(file);
    raw.exec('CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    raw.exec(SQLITE_MIGRATIONS[0]!.sql);
    raw.prepare("INSERT INTO schema_migrations VALUES ('001_accounts', '2026-01-01')").run();
    raw.prepare("INSERT INTO plans VALUES ('starter', 50000, 60, '2026-01-01')").run();
    raw.prepare('INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(...LEGACY_ROW);
    raw.prepare('INSERT INTO monthly_usage VALUES (?, ?, 41)').run(LEGACY_ROW[0], PERIOD);
    raw.close();
    const store = new SqliteAccountStore(file);
    try {
      await checkUpgraded(store, '002_key_lifecycle', '003_usage_leases');
    } finally {
      await store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('PostgreSQL: 004_key_lifecycle upgrades a 001–003 database; existing keys and usage keep working', async () => {
  const db = tempDatabaseName();
  await createDatabase(db);
  try {
    const c = new pg.Client({ connectionString: dbUrl(db) });
    await c.connect();
    await c.query('CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    for (const m of PG_MIGRATIONS.slice(0, 3)) {
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
    }
    await c.query("INSERT INTO plans (name, monthly_limit, per_minute_limit) VALUES ('starter', 50000, 60)");
    await c.query('INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', LEGACY_ROW);
    await c.query('INSERT INTO monthly_usage VALUES ($1, $2, 41)', [LEGACY_ROW[0], PERIOD]);
    await c.end();
    const store = new PostgresAccountStore(dbUrl(db));
    try {
      await checkUpgraded(store, '004_key_lifecycle', '005_usage_leases', '006_lease_groups');
    } finally {
      await store.close();
    }
  } finally {
    await dropDatabase(db);
  }
});
