// PostgreSQL adapter (scale-out): keys, plans and monthly usage shared by every gateway process.
// The monthly counter is one conditional UPSERT: PostgreSQL locks the row and re-checks
// `used < limit` against its latest version, so concurrent processes never admit one past it.
import pg from 'pg';
import { STARTER_PLANS, type AccountStore, type ApiKeyRecord, type ConsumeResult, type KeyStatus, type Plan } from './ports.ts';

const MIGRATIONS: { version: string; sql: string }[] = [
  {
    version: '001_accounts',
    sql: `
      CREATE TABLE plans (
        name TEXT PRIMARY KEY,
        monthly_limit BIGINT NOT NULL CHECK (monthly_limit >= 0),
        per_minute_limit INTEGER NOT NULL CHECK (per_minute_limit >= 0),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
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
        used BIGINT NOT NULL,
        PRIMARY KEY (key_id, period)
      );`,
  },
  {
    version: '002_consume_function',
    // one round trip and one commit per group of requests: lock the row, admit what still fits
    sql: `
      CREATE FUNCTION dis_consume(p_key TEXT, p_period TEXT, p_limit BIGINT, p_n BIGINT)
      RETURNS TABLE (before_used BIGINT, admitted BIGINT) LANGUAGE plpgsql AS $$
      DECLARE b BIGINT; a BIGINT;
      BEGIN
        INSERT INTO monthly_usage (key_id, period, used) VALUES (p_key, p_period, 0) ON CONFLICT (key_id, period) DO NOTHING;
        SELECT used INTO b FROM monthly_usage WHERE key_id = p_key AND period = p_period FOR UPDATE;
        a := GREATEST(0, LEAST(p_n, p_limit - b));
        IF a > 0 THEN
          UPDATE monthly_usage SET used = used + a WHERE key_id = p_key AND period = p_period;
        END IF;
        RETURN QUERY SELECT b, a;
      END $$;`,
  },
];

/** Requests for one key and month waiting to be counted together. */
interface CountGroup {
  keyId: string;
  period: string;
  limit: number;
  waiting: ((r: ConsumeResult | Error) => void)[];
  busy: boolean;
}

export class PostgresAccountStore implements AccountStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;

  constructor(url: string, poolSize = 10) {
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 2000, query_timeout: 5000 });
    this.pool.on('error', () => undefined); // a dropped idle client is replaced on next use
  }

  private async q<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(sql, params)).rows as T[];
  }

  async pendingMigrations(): Promise<string[]> {
    // read-only: several gateways start at once, and concurrent CREATE TABLE IF NOT EXISTS races
    // in PostgreSQL ("duplicate key value violates unique constraint pg_type_typname_nsp_index")
    const [exists] = await this.q<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
    if (!exists?.t) return MIGRATIONS.map((m) => m.version);
    const done = new Set((await this.q<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    return MIGRATIONS.filter((m) => !done.has(m.version)).map((m) => m.version);
  }

  async migrate(): Promise<string[]> {
    const client = await this.pool.connect();
    const applied: string[] = [];
    try {
      await client.query('SELECT pg_advisory_lock(7283641)');
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const done = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of MIGRATIONS.filter((x) => !done.has(x.version))) {
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
          if (m.version === '001_accounts') {
            for (const p of STARTER_PLANS) {
              await client.query('INSERT INTO plans (name, monthly_limit, per_minute_limit) VALUES ($1, $2, $3)', [p.name, p.monthly_limit, p.per_minute_limit]);
            }
          }
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK');
          throw e;
        }
        applied.push(m.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(7283641)').catch(() => undefined);
      client.release();
    }
    return applied;
  }

  async ping() {
    await this.q('SELECT 1');
  }

  async close() {
    await this.pool.end();
  }

  async findKeyByHash(hash: string) {
    return (await this.q<ApiKeyRecord>('SELECT * FROM api_keys WHERE key_hash = $1', [hash]))[0] ?? null;
  }

  async getKey(id: string) {
    return (await this.q<ApiKeyRecord>('SELECT * FROM api_keys WHERE id = $1', [id]))[0] ?? null;
  }

  async insertKey(k: ApiKeyRecord) {
    await this.q(
      'INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at, last_used_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)',
      [k.id, k.key_hash, k.display_prefix, k.client, k.plan, k.status, k.created_at, k.last_used_at],
    );
  }

  async listKeys() {
    return this.q<ApiKeyRecord>('SELECT * FROM api_keys ORDER BY created_at, id');
  }

  async setKeyStatus(id: string, status: KeyStatus) {
    await this.q('UPDATE api_keys SET status = $1 WHERE id = $2', [status, id]);
  }

  async touchKey(id: string, at: string) {
    await this.q('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
  }

  private plan(r: { name: string; monthly_limit: string | number; per_minute_limit: number }): Plan {
    return { name: r.name, monthly_limit: Number(r.monthly_limit), per_minute_limit: Number(r.per_minute_limit) };
  }

  async getPlan(name: string) {
    const r = (await this.q<any>('SELECT name, monthly_limit, per_minute_limit FROM plans WHERE name = $1', [name]))[0];
    return r ? this.plan(r) : null;
  }

  async listPlans() {
    return (await this.q<any>('SELECT name, monthly_limit, per_minute_limit FROM plans ORDER BY monthly_limit, name')).map((r) => this.plan(r));
  }

  async upsertPlan(p: Plan) {
    await this.q(
      `INSERT INTO plans (name, monthly_limit, per_minute_limit, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (name) DO UPDATE SET monthly_limit = EXCLUDED.monthly_limit, per_minute_limit = EXCLUDED.per_minute_limit, updated_at = now()`,
      [p.name, p.monthly_limit, p.per_minute_limit],
    );
  }

  private readonly groups = new Map<string, CountGroup>();

  /**
   * Requests for the same key and month that arrive while a count is being written are counted
   * together in the next transaction: one row lock and one commit for the whole group (the dis_consume
   * function of migration 002). Inside it the row is read FOR UPDATE, so the decision is exact against every other process, and no caller is
   * answered before the commit that counts it.
   */
  consumeMonthly(keyId: string, period: string, limit: number): Promise<ConsumeResult> {
    const id = `${keyId}\u0000${period}\u0000${limit}`;
    let g = this.groups.get(id);
    if (!g) this.groups.set(id, (g = { keyId, period, limit, waiting: [], busy: false }));
    const group = g;
    return new Promise((resolve, reject) => {
      group.waiting.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
      if (!group.busy) {
        group.busy = true;
        setImmediate(() => this.flushGroup(id, group));
      }
    });
  }

  private async flushGroup(id: string, g: CountGroup) {
    const batch = g.waiting;
    g.waiting = [];
    try {
      const results = await this.countBatch(g.keyId, g.period, g.limit, batch.length);
      batch.forEach((done, i) => done(results[i]!));
    } catch (e) {
      for (const done of batch) done(e as Error);
    }
    if (g.waiting.length) setImmediate(() => this.flushGroup(id, g));
    else {
      g.busy = false;
      this.groups.delete(id);
    }
  }

  private async countBatch(keyId: string, period: string, limit: number, n: number): Promise<ConsumeResult[]> {
    const rows = await this.q<{ before_used: string; admitted: string }>('SELECT before_used, admitted FROM dis_consume($1, $2, $3, $4)', [keyId, period, limit, n]);
    const before = Number(rows[0]!.before_used);
    const admit = Number(rows[0]!.admitted);
    return Array.from({ length: n }, (_, i) => (i < admit ? { admitted: true, used: before + i + 1 } : { admitted: false, used: before + admit }));
  }

  async refundMonthly(keyId: string, period: string) {
    await this.q('UPDATE monthly_usage SET used = used - 1 WHERE key_id = $1 AND period = $2 AND used > 0', [keyId, period]);
  }

  async getMonthly(keyId: string, period: string) {
    const r = (await this.q<{ used: string }>('SELECT used FROM monthly_usage WHERE key_id = $1 AND period = $2', [keyId, period]))[0];
    return r ? Number(r.used) : 0;
  }
}
