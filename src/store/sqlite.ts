// SQLite adapter (the embedded default) on libsql's synchronous, better-sqlite3-compatible API.
// libsql was chosen over better-sqlite3 by measurement on this machine: libsql installs in ~1.4 s
// from a binary shipped inside its npm package, better-sqlite3 12 compiles from source (~2.5 min)
// and better-sqlite3 13 needs Node 22. Statements run synchronously in one process, so the
// monthly counter's conditional UPSERT is atomic without extra locking.
//
// Waiting for the write lock (issue 11, item 8): libsql's calls are synchronous, so SQLite's own
// busy wait would freeze the whole event loop while another process holds the lock. The busy
// timeout is therefore tiny (BUSY_SLICE_MS) and a busy operation is retried on a timer, with
// back-off, for at most `lockWaitMs` (STORE_TIMEOUT_MS) before it fails as unavailable.
// Files (item 14): a new database is created 0600 in a folder created 0700 (the -wal and -shm files
// take the database's mode). synchronous=NORMAL in WAL mode: a commit survives a crash of this
// process, but the last commits can be lost if the operating system crashes or power fails.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { STARTER_PLANS, dayOf, withExpiry, type AccountStore, type ApiKeyRecord, type ConsumeResult, type DailyUsage, type DeletePlanResult, type KeyStatus, type LeaseGrant, type LeaseReservation, type Plan } from './ports.ts';

export const MIGRATIONS: { version: string; sql: string }[] = [
  {
    version: '001_accounts',
    sql: `
      CREATE TABLE plans (
        name TEXT PRIMARY KEY,
        monthly_limit INTEGER NOT NULL CHECK (monthly_limit >= 0),
        per_minute_limit INTEGER NOT NULL CHECK (per_minute_limit >= 0),
        updated_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        display_prefix TEXT NOT NULL,
        client TEXT NOT NULL,
        plan TEXT NOT NULL REFERENCES plans(name),
        status TEXT NOT NULL CHECK (status IN ('active','inactive','revoked')),
        created_at TEXT NOT NULL,
        last_used_at TEXT
      );
      CREATE TABLE monthly_usage (
        key_id TEXT NOT NULL REFERENCES api_keys(id),
        period TEXT NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (key_id, period)
      );`,
  },
  {
    // issue 12 §4: a rolled key counts toward its predecessor's usage (usage_key_id), the old key
    // stops at expires_at, private plans stay off /plans, and daily counts beside the monthly ones
    version: '002_key_lifecycle',
    sql: `
      ALTER TABLE api_keys ADD COLUMN usage_key_id TEXT REFERENCES api_keys(id);
      ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
      ALTER TABLE plans ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE daily_usage (
        key_id TEXT NOT NULL REFERENCES api_keys(id),
        day TEXT NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (key_id, day)
      );`,
  },
  {
    // issue 14: usage leases (src/store/lease.ts). One row per process holding an open block of a
    // key's monthly allowance; the count of live rows shrinks every holder's next block.
    version: '003_usage_leases',
    sql: `
      CREATE TABLE usage_leases (
        key_id TEXT NOT NULL,
        period TEXT NOT NULL,
        holder TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (key_id, period, holder)
      );`,
  },
];

/** A holder's open block counts toward the shrinking rule while its row is younger than this. */
export const LEASE_ROW_LIVE_MS = 30_000;

/** The key whose usage rows a key counts toward (itself unless it was made by `keys roll`). */
const OWNER_SQL = 'COALESCE((SELECT COALESCE(usage_key_id, id) FROM api_keys WHERE id = ?), ?)';

function planRow(r: { name: string; monthly_limit: number; per_minute_limit: number; private: number }): Plan {
  const p: Plan = { name: r.name, monthly_limit: r.monthly_limit, per_minute_limit: r.per_minute_limit };
  if (r.private) p.private = true;
  return p;
}

/** Longest single synchronous wait for the lock; the rest of the wait is on timers. */
const BUSY_SLICE_MS = 5;

const isBusy = (e: unknown) => (e as { code?: string } | null)?.code === 'SQLITE_BUSY' || (e as { code?: string } | null)?.code === 'SQLITE_LOCKED';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface SqliteStoreOptions {
  /** how long an operation may wait for another connection's write lock (default 5000 ms) */
  lockWaitMs?: number;
}

function clean<T>(row: unknown): T {
  if (row && typeof row === 'object' && '_metadata' in row) {
    const { _metadata, ...rest } = row as Record<string, unknown>;
    return rest as T;
  }
  return row as T;
}

export class SqliteAccountStore implements AccountStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly stmts: Record<string, Database.Statement>;

  private readonly lockWaitMs: number;

  constructor(file: string, opts: SqliteStoreOptions = {}) {
    this.lockWaitMs = opts.lockWaitMs ?? 5000;
    if (file !== ':memory:') {
      // owner-only: the file holds key hashes and usage. An existing file or folder keeps its mode.
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
    }
    this.db = new Database(file);
    // start-up may block: wait as long as an operation may, then switch to short slices
    this.db.exec(`PRAGMA busy_timeout = ${this.lockWaitMs}`);
    if (file !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    this.db.exec(`PRAGMA busy_timeout = ${BUSY_SLICE_MS}`);
    this.stmts = {};
  }

  /**
   * Runs `fn` (synchronous SQLite work); while another connection holds the lock, retries it on a
   * timer (5, 10, 20 … 50 ms apart) so the event loop keeps serving, until `lockWaitMs` has passed.
   */
  private async locked<T>(fn: () => T): Promise<T> {
    const deadline = Date.now() + this.lockWaitMs;
    for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
      try {
        return fn();
      } catch (e) {
        if (!isBusy(e) || Date.now() + delay > deadline) throw e;
      }
      await sleep(delay);
    }
  }

  private stmt(name: string, sql: string): Database.Statement {
    return (this.stmts[name] ??= this.db.prepare(sql));
  }

  async pendingMigrations(): Promise<string[]> {
    const done = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: string }[]).map((r) => r.version),
    );
    return MIGRATIONS.filter((m) => !done.has(m.version)).map((m) => m.version);
  }

  async migrate(): Promise<string[]> {
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      // decided inside the write lock, so two processes migrating a new file do not both apply it
      await this.locked(() => this.db.exec('BEGIN IMMEDIATE'));
      if (this.db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version)) {
        this.db.exec('COMMIT');
        continue;
      }
      try {
        this.db.exec(m.sql);
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, new Date().toISOString());
        if (m.version === '001_accounts') {
          const ins = this.db.prepare('INSERT INTO plans (name, monthly_limit, per_minute_limit, updated_at) VALUES (?, ?, ?, ?)');
          for (const p of STARTER_PLANS) ins.run(p.name, p.monthly_limit, p.per_minute_limit, new Date().toISOString());
        }
        this.db.exec('COMMIT');
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
      applied.push(m.version);
    }
    return applied;
  }

  async ping(): Promise<void> {
    this.stmt('ping', 'SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return withExpiry(clean<ApiKeyRecord | null>(this.stmt('byHash', 'SELECT * FROM api_keys WHERE key_hash = ?').get(hash) ?? null));
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    return withExpiry(clean<ApiKeyRecord | null>(this.stmt('byId', 'SELECT * FROM api_keys WHERE id = ?').get(id) ?? null));
  }

  async insertKey(k: ApiKeyRecord): Promise<void> {
    await this.locked(() => this.stmt(
      'insertKey',
      `INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at, last_used_at, usage_key_id, expires_at)
       VALUES (@id, @key_hash, @display_prefix, @client, @plan, @status, @created_at, @last_used_at, @usage_key_id, @expires_at)`,
    ).run({ ...k, usage_key_id: k.usage_key_id ?? null, expires_at: k.expires_at ?? null }));
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const now = new Date();
    return (this.stmt('listKeys', 'SELECT * FROM api_keys ORDER BY created_at, id').all() as unknown[]).map((r) => withExpiry(clean<ApiKeyRecord>(r), now));
  }

  async setKeyPlan(id: string, plan: string): Promise<void> {
    await this.locked(() => this.stmt(
      'setPlan',
      `UPDATE api_keys SET plan = ? WHERE COALESCE(usage_key_id, id) = ${OWNER_SQL}`,
    ).run(plan, id, id));
  }

  async rollKey(oldId: string, next: ApiKeyRecord, oldExpiresAt: string): Promise<void> {
    await this.locked(() => this.db.exec('BEGIN IMMEDIATE'));
    try {
      const old = this.stmt('byId', 'SELECT * FROM api_keys WHERE id = ?').get(oldId) as ApiKeyRecord | undefined;
      if (!old) throw new Error(`no key with id "${oldId}"`);
      this.stmt(
        'insertKey',
        `INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at, last_used_at, usage_key_id, expires_at)
         VALUES (@id, @key_hash, @display_prefix, @client, @plan, @status, @created_at, @last_used_at, @usage_key_id, @expires_at)`,
      ).run({ ...next, client: old.client, plan: old.plan, usage_key_id: old.usage_key_id ?? old.id, expires_at: next.expires_at ?? null });
      // an earlier expiry (an overlap already running) is kept
      this.stmt('expire', 'UPDATE api_keys SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)').run(oldExpiresAt, oldId, oldExpiresAt);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  async setKeyStatus(id: string, status: KeyStatus): Promise<void> {
    await this.locked(() => this.stmt('setStatus', 'UPDATE api_keys SET status = ? WHERE id = ?').run(status, id));
  }

  async touchKey(id: string, at: string): Promise<void> {
    await this.locked(() => this.stmt('touch', 'UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id));
  }

  async getPlan(name: string): Promise<Plan | null> {
    const r = this.stmt('getPlan', 'SELECT name, monthly_limit, per_minute_limit, private FROM plans WHERE name = ?').get(name);
    return r ? planRow(clean(r)) : null;
  }

  async listPlans(): Promise<Plan[]> {
    return (this.stmt('listPlans', 'SELECT name, monthly_limit, per_minute_limit, private FROM plans ORDER BY monthly_limit, name').all() as unknown[]).map((r) => planRow(clean(r)));
  }

  async deletePlan(name: string): Promise<DeletePlanResult> {
    return this.locked(() => {
      // one statement: the check and the delete cannot be split by another process's insert
      const r = this.stmt('deletePlan', 'DELETE FROM plans WHERE name = ? AND NOT EXISTS (SELECT 1 FROM api_keys WHERE plan = ?)').run(name, name);
      if (r.changes > 0) return { deleted: true } as const;
      const keys = (this.stmt('planKeys', 'SELECT count(*) AS n FROM api_keys WHERE plan = ?').get(name) as { n: number }).n;
      if (keys > 0) return { deleted: false, reason: 'in_use', keys } as const;
      return { deleted: false, reason: 'not_found' } as const;
    });
  }

  async upsertPlan(p: Plan): Promise<void> {
    const at = new Date().toISOString();
    await this.locked(() => this.stmt(
      'upsertPlan',
      `INSERT INTO plans (name, monthly_limit, per_minute_limit, updated_at, private) VALUES (?, ?, ?, ?, COALESCE(?, 0))
       ON CONFLICT (name) DO UPDATE SET monthly_limit = excluded.monthly_limit,
         per_minute_limit = excluded.per_minute_limit, updated_at = excluded.updated_at,
         private = COALESCE(?, plans.private)`,
    ).run(p.name, p.monthly_limit, p.per_minute_limit, at, p.private === undefined ? null : p.private ? 1 : 0, p.private === undefined ? null : p.private ? 1 : 0));
  }

  private pending: { keyId: string; period: string; limit: number; resolve: (r: ConsumeResult) => void; reject: (e: unknown) => void }[] = [];

  /**
   * Requests arriving in the same event-loop turn are counted in one transaction, grouped by key:
   * under the write lock (BEGIN IMMEDIATE, so exact also against other processes sharing the
   * file) each key's row is read and `min(n, limit - used)` of its waiting requests are admitted
   * and added. Every caller's promise settles only after the commit, so nothing is admitted before
   * its count is durable.
   */
  consumeMonthly(keyId: string, period: string, limit: number): Promise<ConsumeResult> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.flushConsumes());
      this.pending.push({ keyId, period, limit, resolve, reject });
    });
  }

  private async flushConsumes() {
    const batch = this.pending;
    this.pending = [];
    const groups = new Map<string, typeof batch>();
    for (const b of batch) {
      const id = `${b.keyId}\u0000${b.period}\u0000${b.limit}`;
      const g = groups.get(id);
      if (g) g.push(b);
      else groups.set(id, [b]);
    }
    const results = new Map<(typeof batch)[number], ConsumeResult>();
    try {
      // only taking the lock is retried: once BEGIN IMMEDIATE holds it, the rest cannot be busy
      await this.locked(() => this.db.exec('BEGIN IMMEDIATE'));
      try {
        const day = dayOf(new Date());
        for (const g of groups.values()) {
          const { period, limit } = g[0]!;
          const keyId = (this.stmt('owner', `SELECT ${OWNER_SQL} AS o`).get(g[0]!.keyId, g[0]!.keyId) as { o: string }).o;
          this.stmt('ensureUsage', 'INSERT OR IGNORE INTO monthly_usage (key_id, period, used) VALUES (?, ?, 0)').run(keyId, period);
          const before = (this.stmt('getUsage', 'SELECT used FROM monthly_usage WHERE key_id = ? AND period = ?').get(keyId, period) as { used: number }).used;
          const admit = Math.max(0, Math.min(g.length, limit - before));
          if (admit > 0) {
            this.stmt('addUsage', 'UPDATE monthly_usage SET used = used + ? WHERE key_id = ? AND period = ?').run(admit, keyId, period);
            this.stmt('addDaily', 'INSERT INTO daily_usage (key_id, day, used) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET used = used + excluded.used').run(keyId, day, admit);
          }
          g.forEach((b, i) => results.set(b, i < admit ? { admitted: true, used: before + i + 1 } : { admitted: false, used: before + admit }));
        }
        this.db.exec('COMMIT');
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
    } catch (e) {
      for (const b of batch) b.reject(e);
      return;
    }
    for (const b of batch) b.resolve(results.get(b)!);
  }

  async refundMonthly(keyId: string, period: string): Promise<void> {
    const day = dayOf(new Date());
    await this.locked(() => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const r = this.stmt('refund', `UPDATE monthly_usage SET used = used - 1 WHERE key_id = ${OWNER_SQL} AND period = ? AND used > 0`).run(keyId, keyId, period);
        if (r.changes > 0) this.stmt('refundDaily', `UPDATE daily_usage SET used = used - 1 WHERE key_id = ${OWNER_SQL} AND day = ? AND used > 0`).run(keyId, keyId, day);
        this.db.exec('COMMIT');
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
    });
  }

  /** Lease reservation (see LeaseReservations in ports.ts): one BEGIN IMMEDIATE transaction. */
  async reserveMonthly(r: LeaseReservation): Promise<LeaseGrant> {
    const day = dayOf(new Date());
    return this.locked(() => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const now = Date.now();
        const o = (this.stmt('owner', `SELECT ${OWNER_SQL} AS o`).get(r.keyId, r.keyId) as { o: string }).o;
        this.stmt('ensureUsage', 'INSERT OR IGNORE INTO monthly_usage (key_id, period, used) VALUES (?, ?, 0)').run(o, r.period);
        const before = (this.stmt('getUsage', 'SELECT used FROM monthly_usage WHERE key_id = ? AND period = ?').get(o, r.period) as { used: number }).used;
        const others = (this.stmt('leaseHolders', 'SELECT count(*) AS n FROM usage_leases WHERE key_id = ? AND period = ? AND holder <> ? AND updated_at > ?')
          .get(o, r.period, r.holder, now - LEASE_ROW_LIVE_MS) as { n: number }).n;
        const left = Math.max(0, r.limit - before);
        const need = Math.min(r.need, left);
        const extra = Math.max(0, Math.min(r.extra, Math.floor((left - need) / (Math.max(1, r.share) * (others + 1)))));
        const granted = need + extra;
        if (granted > 0) {
          this.stmt('addUsage', 'UPDATE monthly_usage SET used = used + ? WHERE key_id = ? AND period = ?').run(granted, o, r.period);
          this.stmt('addDaily', 'INSERT INTO daily_usage (key_id, day, used) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET used = used + excluded.used').run(o, day, granted);
        }
        if (extra > 0) {
          this.stmt('openLease', 'INSERT INTO usage_leases (key_id, period, holder, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, period, holder) DO UPDATE SET updated_at = excluded.updated_at')
            .run(o, r.period, r.holder, now);
        }
        this.db.exec('COMMIT');
        return { before, granted, holders: others + 1, day };
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
    });
  }

  async returnMonthly(holder: string, keyId: string, period: string, day: string, n: number): Promise<void> {
    await this.locked(() => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const o = (this.stmt('owner', `SELECT ${OWNER_SQL} AS o`).get(keyId, keyId) as { o: string }).o;
        if (n > 0) {
          this.stmt('returnUsage', 'UPDATE monthly_usage SET used = max(0, used - ?) WHERE key_id = ? AND period = ?').run(n, o, period);
          this.stmt('returnDaily', 'UPDATE daily_usage SET used = max(0, used - ?) WHERE key_id = ? AND day = ?').run(n, o, day);
        }
        this.stmt('closeLease', 'DELETE FROM usage_leases WHERE key_id = ? AND period = ? AND holder = ?').run(o, period, holder);
        this.db.exec('COMMIT');
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
    });
  }

  async getMonthly(keyId: string, period: string): Promise<number> {
    const row = this.stmt('getOwnerUsage', `SELECT used FROM monthly_usage WHERE key_id = ${OWNER_SQL} AND period = ?`).get(keyId, keyId, period) as { used: number } | undefined;
    return row?.used ?? 0;
  }

  async dailyUsage(keyId: string, from: string, to: string): Promise<DailyUsage[]> {
    return (this.stmt('daily', `SELECT day, used FROM daily_usage WHERE key_id = ${OWNER_SQL} AND day BETWEEN ? AND ? ORDER BY day`).all(keyId, keyId, from, to) as unknown[])
      .map((r) => clean<DailyUsage>(r));
  }
}
