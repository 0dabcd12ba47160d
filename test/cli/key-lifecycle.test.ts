// Issue 12 §4 through the admin CLI, against SQLite and PostgreSQL: keys set-plan, keys roll,
// plans delete, plans set --private, usage --days. The CLI runs as its own process on the same
// DATABASE_URL; the test counts requests through a store instance of its own (another "process").
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { ROOT, tempDir } from '../helper.ts';
import { createDatabase, dbUrl, dropDatabase, tempDatabaseName } from '../services.ts';
import { SqliteAccountStore } from '../../src/store/sqlite.ts';
import { PostgresAccountStore } from '../../src/store/postgres.ts';
import { monthPeriod, type AccountStore } from '../../src/store/ports.ts';
import { hashKey, looksLikeKey } from '../../src/gateway/keys.ts';
import { adminMain } from '../../src/cli/admin.ts';
import { loadConfig } from '../../src/config.ts';

interface Backend {
  name: string;
  url: string;
  setup(): Promise<void>;
  open(): AccountStore;
  teardown(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dir = tempDir('dis-cli-');
  const file = path.join(dir, 'cli.db');
  return {
    name: 'sqlite', url: `sqlite:${file}`,
    async setup() {},
    open: () => new SqliteAccountStore(file),
    async teardown() { fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

function postgresBackend(): Backend {
  const db = tempDatabaseName();
  return {
    name: 'postgres', url: dbUrl(db),
    async setup() { await createDatabase(db); },
    open: () => new PostgresAccountStore(dbUrl(db)),
    async teardown() { await dropDatabase(db); },
  };
}

const PERIOD = monthPeriod(new Date());

for (const backend of [sqliteBackend(), postgresBackend()]) {
  describe(`admin CLI key and plan lifecycle (${backend.name})`, () => {
    let store: AccountStore;
    /** The CLI as its own process (slow on a busy machine: used for a few calls). */
    const spawned = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), ...args], {
        cwd: ROOT, env: { ...process.env, DATABASE_URL: backend.url }, encoding: 'utf8',
      });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    /** The same command line in this process (adminMain: the exit code, stdout and stderr). */
    const admin = async (...args: string[]) => {
      let out = '';
      let err = '';
      const write = process.stdout.write;
      const error = console.error;
      const log = console.log;
      // strings are the CLI's; the test runner's own reports (buffers) pass through
      process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
        typeof chunk === 'string' ? ((out += chunk), true) : (write as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest)) as typeof process.stdout.write;
      console.log = (...a: unknown[]) => void (out += a.join(' ') + '\n');
      console.error = (...a: unknown[]) => void (err += a.join(' ') + '\n');
      try {
        const code = await adminMain(args, () => loadConfig({ DATABASE_URL: backend.url, LOG_LEVEL: 'silent' }, ROOT));
        return { code, out, err };
      } finally {
        process.stdout.write = write;
        console.error = error;
        console.log = log;
      }
    };
    const json = async (...args: string[]) => {
      const r = await admin(...args, '--json');
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      return JSON.parse(r.out);
    };
    const count = async (id: string, n: number, limit = 1_000_000) => {
      for (let i = 0; i < n; i++) assert.equal((await store.consumeMonthly(id, PERIOD, limit)).admitted, true);
    };

    before(async () => {
      await backend.setup();
      assert.equal((await admin('db', 'migrate')).code, 0);
      store = backend.open();
    });
    after(async () => {
      await store?.close();
      await backend.teardown();
    });

    test('keys create issues a checksummed key that looksLikeKey accepts', async () => {
      const k = (await json('keys', 'create', '--client', 'Checksum', '--plan', 'free'));
      assert.match(k.key, /^dis_live_[0-9A-Za-z]{38}$/);
      assert.ok(looksLikeKey(k.key));
      const flipped = k.key.slice(0, -1) + (k.key.endsWith('x') ? 'y' : 'x');
      assert.ok(!looksLikeKey(flipped), 'a mistyped key fails its checksum');
    });

    test('keys set-plan: the key keeps its id and the month\'s usage; errors are clear', async () => {
      const k = (await json('keys', 'create', '--client', 'Mover', '--plan', 'free'));
      await count(k.id, 4);
      const moved = (await json('keys', 'set-plan', k.id, 'pro'));
      assert.deepEqual(moved, { id: k.id, plan: 'pro', previous_plan: 'free' });
      const usage = (await json('usage', k.id));
      assert.equal(usage.plan.name, 'pro');
      assert.equal(usage.usage.used, 4, 'usage carries over');
      assert.equal((await store.findKeyByHash(hashKey(k.key)))!.plan, 'pro');
      const badPlan = (await admin('keys', 'set-plan', k.id, 'platinum'));
      assert.equal(badPlan.code, 2);
      assert.match(badPlan.err, /unknown plan "platinum"/);
      assert.equal((await admin('keys', 'set-plan', 'key_missing', 'pro')).code, 2);
      assert.match((await admin('keys', 'set-plan', k.id)).err, /needs a key id and a plan/);
    });

    test('keys roll: new key, same client and plan, one monthly usage; the old key stops when the overlap ends', async () => {
      const old = (await json('keys', 'create', '--client', 'Roller', '--plan', 'starter'));
      await count(old.id, 3);
      const rolled = (await json('keys', 'roll', old.id));
      assert.equal(rolled.replaces, old.id);
      assert.equal(rolled.client, 'Roller');
      assert.equal(rolled.plan, 'starter');
      assert.ok(looksLikeKey(rolled.key));
      assert.notEqual(rolled.key, old.key);
      const overlapEnds = Date.parse(rolled.old_key_expires_at) - Date.now();
      assert.ok(overlapEnds > 23 * 3_600_000 && overlapEnds <= 24 * 3_600_000, 'default overlap 24h');
      // during the overlap both work and count toward one usage
      assert.equal((await store.findKeyByHash(hashKey(old.key)))!.status, 'active');
      assert.equal((await store.findKeyByHash(hashKey(rolled.key)))!.status, 'active');
      await count(rolled.id, 2);
      await count(old.id, 1);
      assert.equal((await json('usage', rolled.id)).usage.used, 6);
      assert.equal((await json('usage', old.id)).usage.used, 6);
      // the text output shows the key once and says when the old one stops
      const again = spawned('keys', 'roll', rolled.id, '--overlap', '0');
      assert.equal(again.code, 0, again.err);
      assert.match(again.out, /dis_live_[0-9A-Za-z]{38}/);
      assert.match(again.out, new RegExp(`The old key ${rolled.id} works until \\d{4}-`));
      // --overlap 0: the rolled key stops at once; the newest works and shares the usage
      assert.equal((await store.findKeyByHash(hashKey(rolled.key)))!.status, 'inactive');
      const listed = (await json('keys', 'list'));
      const newest = listed.find((k: { usage_key_id: string | null; id: string }) => k.usage_key_id === old.id && k.id !== rolled.id);
      assert.equal(newest.status, 'active');
      assert.equal((await json('usage', newest.id)).usage.used, 6);
      // an inactive (expired) or revoked key cannot be rolled
      const revive = (await admin('keys', 'activate', rolled.id));
      assert.equal(revive.code, 2);
      assert.match(revive.err, /replaced by keys roll.*cannot be reactivated/);
      const expired = (await admin('keys', 'roll', rolled.id));
      assert.equal(expired.code, 2);
      assert.match(expired.err, /only an active key can be rolled/);
      for (const bad of ['1w', '-1h', 'soon', '91d']) {
        const r = (await admin('keys', 'roll', newest.id, `--overlap=${bad}`));
        assert.equal(r.code, 2, bad);
        assert.match(r.err, /--overlap must be/);
      }
    });

    test('plans delete refuses while a key uses the plan; plans set --private keeps it off the public list', async () => {
      assert.equal((await admin('plans', 'set', 'beta-test', '--monthly', '100', '--per-minute', '5', '--private')).code, 0);
      let plan = (await json('plans', 'list')).find((p: { name: string }) => p.name === 'beta-test');
      assert.deepEqual(plan, { name: 'beta-test', monthly_limit: 100, per_minute_limit: 5, private: true });
      // an update without --private/--public keeps the flag; limits not given are kept
      assert.equal((await admin('plans', 'set', 'beta-test', '--monthly', '200')).code, 0);
      plan = (await json('plans', 'list')).find((p: { name: string }) => p.name === 'beta-test');
      assert.deepEqual(plan, { name: 'beta-test', monthly_limit: 200, per_minute_limit: 5, private: true });
      assert.match((await admin('plans', 'set', 'beta-test', '--private', '--public')).err, /not both/);
      assert.match((await admin('plans', 'set', 'brand-new', '--private')).err, /--monthly must be a whole number/);

      const k = (await json('keys', 'create', '--client', 'Tester', '--plan', 'beta-test'));
      assert.equal((await admin('keys', 'revoke', k.id)).code, 0);
      const refused = spawned('plans', 'delete', 'beta-test');
      assert.equal(refused.code, 2);
      assert.match(refused.err, /plan "beta-test" is used by 1 key\(s\).*keys set-plan/);
      assert.ok((await json('plans', 'list')).some((p: { name: string }) => p.name === 'beta-test'), 'still there');
      assert.equal((await admin('keys', 'set-plan', k.id, 'free')).code, 0);
      assert.deepEqual((await json('plans', 'delete', 'beta-test')), { name: 'beta-test', deleted: true });
      assert.ok(!(await json('plans', 'list')).some((p: { name: string }) => p.name === 'beta-test'));
      const gone = (await admin('plans', 'delete', 'beta-test'));
      assert.equal(gone.code, 2);
      assert.match(gone.err, /unknown plan/);
    });

    test('usage --days 30: daily counts as JSON and as a table', async () => {
      const k = (await json('keys', 'create', '--client', 'Daily', '--plan', 'free'));
      await count(k.id, 7, 1000);
      await store.refundMonthly(k.id, PERIOD);
      const u = (await json('usage', k.id, '--days', '30'));
      assert.equal(u.days, 30);
      assert.equal(u.daily.length, 30);
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(u.daily.at(-1), { day: today, used: 6 });
      assert.ok(u.daily.slice(0, -1).every((d: { used: number }) => d.used === 0));
      assert.equal(u.total, 6);
      assert.equal(u.usage.used, 6);
      const dates = u.daily.map((d: { day: string }) => d.day);
      assert.deepEqual([...dates].sort(), dates, 'oldest first');
      assert.equal((Date.parse(today) - Date.parse(dates[0])) / 86_400_000, 29);

      const table = spawned('usage', k.id, '--days', '30');
      assert.equal(table.code, 0, table.err);
      assert.match(table.out, /day \(UTC\)\s+requests/);
      assert.match(table.out, new RegExp(`${today}\\s+6\\n`));
      assert.match(table.out, /total\s+6/);
      assert.equal(table.out.trim().split('\n').length, 1 + 1 + 1 + 30 + 1);
      for (const bad of ['0', '367', 'week']) {
        const r = (await admin('usage', k.id, '--days', bad));
        assert.equal(r.code, 2, bad);
        assert.match(r.err, /--days must be/);
      }
    });
  });
}
