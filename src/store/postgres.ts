// PostgreSQL adapter (scale-out): keys, plans and monthly usage shared by every gateway process.
// The monthly counter is one conditional UPSERT: PostgreSQL locks the row and re-checks
// `used < limit` against its latest version, so concurrent processes never admit one past it.
//
// Timeouts (issue 11, item 1): every statement carries a server-side `statement_timeout`
// (STORE_TIMEOUT_MS), shorter than the client's read timeout, so a count stuck behind a row lock is
// cancelled and rolled back by the server and the caller's 503 is true. When the client gives up
// anyway (the server or the network stopped answering), the outcome is unclear: the connection is
// discarded and the count group is settled by its id (see dis_settle), so that usage ends equal to
// the requests answered. Every call on the request path has one deadline, STORE_TIMEOUT_MS + 1 s
// (3 s by default), covering the wait for a pool connection, the statement and, for a count, settling
// in the foreground: a silent server (a network that stopped passing data) is a 503 within it, and a
// count still unclear then is settled in the background with its count given back.
import crypto from 'node:crypto';
import pg from 'pg';
import { STARTER_PLANS, withExpiry, type AccountStore, type ApiKeyRecord, type ConsumeResult, type DailyUsage, type DeletePlanResult, type KeyStatus, type LeaseGrant, type LeaseReservation, type Plan } from './ports.ts';

export const MIGRATIONS: { version: string; sql: string }[] = [
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
  {
    version: '003_count_groups',
    // Each count group has an id, written in the same transaction as the count. dis_settle decides a
    // group whose outcome the client could not see: it writes a 'void' row under the same id, so
    // either the count had committed (the id is taken: report it, or give it back) or it can never
    // commit (its own INSERT of the id fails and rolls the whole count back).
    sql: `
      CREATE TABLE count_groups (
        id TEXT PRIMARY KEY,
        key_id TEXT,
        period TEXT,
        before_used BIGINT NOT NULL DEFAULT 0,
        admitted BIGINT NOT NULL DEFAULT 0,
        state TEXT NOT NULL CHECK (state IN ('counted','void','given_back')),
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX count_groups_created_at ON count_groups (created_at);
      CREATE FUNCTION dis_count(p_group TEXT, p_key TEXT, p_period TEXT, p_limit BIGINT, p_n BIGINT)
      RETURNS TABLE (before_used BIGINT, admitted BIGINT) LANGUAGE plpgsql AS $$
      DECLARE b BIGINT; a BIGINT;
      BEGIN
        INSERT INTO monthly_usage (key_id, period, used) VALUES (p_key, p_period, 0) ON CONFLICT (key_id, period) DO NOTHING;
        SELECT used INTO b FROM monthly_usage WHERE key_id = p_key AND period = p_period FOR UPDATE;
        a := GREATEST(0, LEAST(p_n, p_limit - b));
        IF a > 0 THEN
          UPDATE monthly_usage SET used = used + a WHERE key_id = p_key AND period = p_period;
        END IF;
        -- last, after the row lock: a settle that voided this id meanwhile makes this fail
        INSERT INTO count_groups (id, key_id, period, before_used, admitted, state) VALUES (p_group, p_key, p_period, b, a, 'counted');
        RETURN QUERY SELECT b, a;
      END $$;
      CREATE FUNCTION dis_settle(p_group TEXT, p_give_back BOOLEAN)
      RETURNS TABLE (state TEXT, before_used BIGINT, admitted BIGINT) LANGUAGE plpgsql AS $$
      DECLARE k TEXT; p TEXT; a BIGINT;
      BEGIN
        INSERT INTO count_groups (id, state) VALUES (p_group, 'void') ON CONFLICT (id) DO NOTHING;
        IF FOUND THEN
          RETURN QUERY SELECT 'void'::TEXT, 0::BIGINT, 0::BIGINT;
          RETURN;
        END IF;
        IF p_give_back THEN
          UPDATE count_groups g SET state = 'given_back' WHERE g.id = p_group AND g.state = 'counted'
            RETURNING g.key_id, g.period, g.admitted INTO k, p, a;
          IF FOUND THEN
            UPDATE monthly_usage u SET used = GREATEST(0, u.used - a) WHERE u.key_id = k AND u.period = p;
          END IF;
        END IF;
        RETURN QUERY SELECT g.state, g.before_used, g.admitted FROM count_groups g WHERE g.id = p_group;
      END $$;`,
  },
  {
    version: '004_key_lifecycle',
    // issue 12 §4: a rolled key counts toward its predecessor's usage (usage_key_id); the old key
    // stops at expires_at; private plans stay off /plans; daily counts are written by dis_count in
    // the same transaction as the monthly count (no extra round trip), and given back by dis_settle.
    // Counts go to the usage owner, which dis_count resolves by primary key inside the function.
    sql: `
      ALTER TABLE api_keys ADD COLUMN usage_key_id TEXT REFERENCES api_keys(id);
      ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
      ALTER TABLE plans ADD COLUMN private BOOLEAN NOT NULL DEFAULT false;
      CREATE TABLE daily_usage (
        key_id TEXT NOT NULL REFERENCES api_keys(id),
        day DATE NOT NULL,
        used BIGINT NOT NULL,
        PRIMARY KEY (key_id, day)
      );
      CREATE FUNCTION dis_owner(p_key TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
        SELECT COALESCE((SELECT COALESCE(k.usage_key_id, k.id) FROM api_keys k WHERE k.id = p_key), p_key)
      $$;
      CREATE OR REPLACE FUNCTION dis_count(p_group TEXT, p_key TEXT, p_period TEXT, p_limit BIGINT, p_n BIGINT)
      RETURNS TABLE (before_used BIGINT, admitted BIGINT) LANGUAGE plpgsql AS $$
      DECLARE b BIGINT; a BIGINT; o TEXT;
      BEGIN
        o := dis_owner(p_key);
        INSERT INTO monthly_usage (key_id, period, used) VALUES (o, p_period, 0) ON CONFLICT (key_id, period) DO NOTHING;
        SELECT used INTO b FROM monthly_usage WHERE key_id = o AND period = p_period FOR UPDATE;
        a := GREATEST(0, LEAST(p_n, p_limit - b));
        IF a > 0 THEN
          UPDATE monthly_usage SET used = used + a WHERE key_id = o AND period = p_period;
          INSERT INTO daily_usage AS d (key_id, day, used) VALUES (o, (now() AT TIME ZONE 'UTC')::date, a)
            ON CONFLICT (key_id, day) DO UPDATE SET used = d.used + EXCLUDED.used;
        END IF;
        -- last, after the row lock: a settle that voided this id meanwhile makes this fail
        INSERT INTO count_groups (id, key_id, period, before_used, admitted, state) VALUES (p_group, o, p_period, b, a, 'counted');
        RETURN QUERY SELECT b, a;
      END $$;
      CREATE OR REPLACE FUNCTION dis_settle(p_group TEXT, p_give_back BOOLEAN)
      RETURNS TABLE (state TEXT, before_used BIGINT, admitted BIGINT) LANGUAGE plpgsql AS $$
      DECLARE k TEXT; p TEXT; a BIGINT; c TIMESTAMPTZ;
      BEGIN
        INSERT INTO count_groups (id, state) VALUES (p_group, 'void') ON CONFLICT (id) DO NOTHING;
        IF FOUND THEN
          RETURN QUERY SELECT 'void'::TEXT, 0::BIGINT, 0::BIGINT;
          RETURN;
        END IF;
        IF p_give_back THEN
          UPDATE count_groups g SET state = 'given_back' WHERE g.id = p_group AND g.state = 'counted'
            RETURNING g.key_id, g.period, g.admitted, g.created_at INTO k, p, a, c;
          IF FOUND THEN
            UPDATE monthly_usage u SET used = GREATEST(0, u.used - a) WHERE u.key_id = k AND u.period = p;
            UPDATE daily_usage d SET used = GREATEST(0, d.used - a) WHERE d.key_id = k AND d.day = (c AT TIME ZONE 'UTC')::date;
          END IF;
        END IF;
        RETURN QUERY SELECT g.state, g.before_used, g.admitted FROM count_groups g WHERE g.id = p_group;
      END $$;`,
  },
  {
    version: '005_usage_leases',
    // issue 14: usage leases (src/store/lease.ts). dis_lease counts, in one transaction under the
    // usage row's lock, the waiting requests that still fit plus a block of headroom that shrinks
    // with what is left: floor((left - need) / (k × live holders)). Each process holding an open
    // block has a usage_leases row; dis_lease_return gives an unserved remainder back (month and
    // the grant's day) and closes the row.
    sql: `
      CREATE TABLE usage_leases (
        key_id TEXT NOT NULL,
        period TEXT NOT NULL,
        holder TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (key_id, period, holder)
      );
      CREATE FUNCTION dis_lease(p_holder TEXT, p_key TEXT, p_period TEXT, p_limit BIGINT, p_need BIGINT, p_extra BIGINT, p_share BIGINT)
      RETURNS TABLE (before_used BIGINT, granted BIGINT, holders BIGINT, lease_day TEXT) LANGUAGE plpgsql AS $$
      DECLARE b BIGINT; o TEXT; h BIGINT; l BIGINT; n BIGINT; e BIGINT; d DATE := (now() AT TIME ZONE 'UTC')::date;
      BEGIN
        o := dis_owner(p_key);
        INSERT INTO monthly_usage (key_id, period, used) VALUES (o, p_period, 0) ON CONFLICT (key_id, period) DO NOTHING;
        SELECT used INTO b FROM monthly_usage WHERE key_id = o AND period = p_period FOR UPDATE;
        SELECT count(*) INTO h FROM usage_leases u WHERE u.key_id = o AND u.period = p_period AND u.holder <> p_holder AND u.updated_at > now() - interval '30 seconds';
        l := GREATEST(0, p_limit - b);
        n := LEAST(p_need, l);
        e := GREATEST(0, LEAST(p_extra, (l - n) / (GREATEST(1, p_share) * (h + 1))));
        IF n + e > 0 THEN
          UPDATE monthly_usage SET used = used + n + e WHERE key_id = o AND period = p_period;
          INSERT INTO daily_usage AS du (key_id, day, used) VALUES (o, d, n + e)
            ON CONFLICT (key_id, day) DO UPDATE SET used = du.used + EXCLUDED.used;
        END IF;
        IF e > 0 THEN
          INSERT INTO usage_leases AS ul (key_id, period, holder) VALUES (o, p_period, p_holder)
            ON CONFLICT (key_id, period, holder) DO UPDATE SET updated_at = now();
        END IF;
        RETURN QUERY SELECT b, n + e, h + 1, to_char(d, 'YYYY-MM-DD');
      END $$;
      CREATE FUNCTION dis_lease_return(p_holder TEXT, p_key TEXT, p_period TEXT, p_day DATE, p_n BIGINT)
      RETURNS VOID LANGUAGE plpgsql AS $$
      DECLARE o TEXT;
      BEGIN
        o := dis_owner(p_key);
        IF p_n > 0 THEN
          UPDATE monthly_usage SET used = GREATEST(0, used - p_n) WHERE key_id = o AND period = p_period;
          UPDATE daily_usage SET used = GREATEST(0, used - p_n) WHERE key_id = o AND day = p_day;
        END IF;
        DELETE FROM usage_leases WHERE key_id = o AND period = p_period AND holder = p_holder;
      END $$;`,
  },
  {
    version: '006_lease_groups',
    // issue 11 §1 on the lease path: a reservation carries a count-group id too, written last in the
    // same transaction, so an outcome the client could not see is settled by dis_settle like a count
    // (the grant is given back from the month and from the grant's day); a hand-back carries one as
    // well, so it can be retried.
    sql: `
      CREATE FUNCTION dis_lease_g(p_group TEXT, p_holder TEXT, p_key TEXT, p_period TEXT, p_limit BIGINT, p_need BIGINT, p_extra BIGINT, p_share BIGINT)
      RETURNS TABLE (before_used BIGINT, granted BIGINT, holders BIGINT, lease_day TEXT) LANGUAGE plpgsql AS $$
      DECLARE b BIGINT; g BIGINT; h BIGINT; d TEXT;
      BEGIN
        SELECT l.before_used, l.granted, l.holders, l.lease_day INTO b, g, h, d
          FROM dis_lease(p_holder, p_key, p_period, p_limit, p_need, p_extra, p_share) l;
        -- last, under the usage row's lock: a settle that voided this id meanwhile makes this fail
        INSERT INTO count_groups (id, key_id, period, before_used, admitted, state) VALUES (p_group, dis_owner(p_key), p_period, b, g, 'counted');
        RETURN QUERY SELECT b, g, h, d;
      END $$;
      -- a hand-back applied once per id (a 'given_back' count-group row), so one whose answer was
      -- lost can be sent again without giving back twice
      CREATE FUNCTION dis_lease_return_g(p_group TEXT, p_holder TEXT, p_key TEXT, p_period TEXT, p_day DATE, p_n BIGINT)
      RETURNS VOID LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO count_groups (id, key_id, period, admitted, state) VALUES (p_group, dis_owner(p_key), p_period, p_n, 'given_back') ON CONFLICT (id) DO NOTHING;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        PERFORM dis_lease_return(p_holder, p_key, p_period, p_day, p_n);
      END $$;`,
  },
];

/** How long a count group's id is kept: far longer than any statement can run (STORE_TIMEOUT_MS). */
const GROUP_RETENTION = '1 hour';
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 20_000;
/** Background settling of a group whose callers were answered 503 stops after this long. */
const SETTLE_FOR_MS = 30 * 60_000;

/** The server answered (with an error): the statement's transaction was rolled back. */
const serverAnswered = (e: unknown) => e instanceof pg.DatabaseError;

/** A store call's deadline passed before it could use a connection: nothing was sent. */
export class StoreDeadlineError extends Error {
  constructor(what: string) {
    super(`PostgreSQL: no connection within the deadline (${what}); nothing was sent`);
    this.name = 'StoreDeadlineError';
  }
}

/** Below this, an unclear count is settled in the background instead of while the caller waits. */
const MIN_SETTLE_MS = 50;
const msLeft = (deadline: number) => Math.max(0, deadline - Date.now());
/** A statement whose client-side read timeout is what is left until `deadline` (pg reads query_timeout per query). */
const timed = (text: string, values: unknown[], deadline: number) => ({ text, values, query_timeout: Math.max(1, msLeft(deadline)) }) as pg.QueryConfig;
/** How much longer than statement_timeout the client reads a count's answer; the rest of the deadline is for settling. */
const COUNT_READ_MARGIN_MS = 500;

export interface PostgresStoreOptions {
  poolSize?: number;
  /**
   * server-side statement_timeout. Every call of the request path (connection wait, statement and,
   * for a count, settling an unclear outcome) ends within a deadline 1 s longer, measured from the
   * call (for a count, from each caller's arrival), so a silent server is a 503 in about 3 s.
   */
  statementTimeoutMs?: number;
  /**
   * How often count-group ids older than GROUP_RETENTION (1 hour) are deleted, in batches (default
   * 60 s). A test sets it short to see old ids pruned and newer ones kept without waiting a minute.
   */
  pruneEveryMs?: number;
}

/** Requests for one key and month waiting to be counted together. */
interface CountGroup {
  keyId: string;
  period: string;
  limit: number;
  waiting: ((r: ConsumeResult | Error) => void)[];
  /** each waiter's deadline (arrival + the call deadline), in the order of `waiting` */
  deadlines: number[];
  busy: boolean;
}

export class PostgresAccountStore implements AccountStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;

  private readonly url: string;
  private readonly pruneTimer: NodeJS.Timeout;
  /** count groups whose callers were answered 503 and whose outcome is not settled yet */
  private readonly unsettled = new Map<string, NodeJS.Timeout>();
  private closed = false;
  /** the whole budget of one call on the request path (statement_timeout + 1 s) */
  private readonly deadlineMs: number;
  private readonly statementTimeoutMs: number;

  constructor(url: string, opts: PostgresStoreOptions = {}) {
    const statementTimeoutMs = opts.statementTimeoutMs ?? 2000;
    this.url = url;
    this.deadlineMs = statementTimeoutMs + 1000;
    this.statementTimeoutMs = statementTimeoutMs;
    this.pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 2000,
      // the server cancels first (and rolls back); the client's timeout is for a silent server
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + 1000,
    });
    this.pool.on('error', () => undefined); // a dropped idle client is replaced on next use
    this.pruneTimer = setInterval(() => void this.pruneGroups(), opts.pruneEveryMs ?? PRUNE_EVERY_MS).unref();
  }

  /** Count groups still being settled in the background (for tests and the soak benchmark). */
  get unsettledGroups(): number {
    return this.unsettled.size;
  }

  private async q<T = Record<string, unknown>>(sql: string, params: unknown[] = [], deadline = Date.now() + this.deadlineMs): Promise<T[]> {
    const client = await this.acquire(deadline);
    try {
      const r = await client.query(timed(sql, params, deadline));
      client.release();
      return r.rows as T[];
    } catch (e) {
      client.release(serverAnswered(e) ? undefined : true); // never reuse a connection in an unknown state
      throw e;
    }
  }

  /**
   * A pool connection by `deadline`, or StoreDeadlineError. The pool's own connectionTimeoutMillis
   * (2 s) starts again for every wait; this bounds the wait for the call as a whole. A connection
   * that arrives after the caller gave up goes back to the pool.
   */
  private async acquire(deadline: number): Promise<pg.PoolClient> {
    if (msLeft(deadline) === 0) throw new StoreDeadlineError('spent before the call'); // e.g. queued behind a stuck count
    const pending = this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StoreDeadlineError('waiting for a connection')), msLeft(deadline));
        }),
      ]);
    } catch (e) {
      pending.then((c) => c.release(), () => undefined);
      throw e;
    } finally {
      clearTimeout(timer);
    }
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
    // its own connection, without the statement timeouts: the advisory lock may wait for another
    // gateway's migration, and a migration may take longer than one request should
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
    await client.connect();
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
      await client.end().catch(() => undefined);
    }
    return applied;
  }

  async ping() {
    await this.q('SELECT 1');
  }

  async close() {
    this.closed = true;
    clearInterval(this.pruneTimer);
    // one last attempt for groups still unsettled; what stays unsettled stays counted (at-least-once)
    const ids = [...this.unsettled.keys()];
    for (const t of this.unsettled.values()) clearTimeout(t);
    this.unsettled.clear();
    await Promise.all(ids.map((id) => this.settle(id, true).catch(() => undefined)));
    await this.pool.end();
  }

  /** Deletes expired group ids in batches (each well inside the statement timeout) until none is left. */
  private async pruneGroups() {
    for (let i = 0; i < 100 && !this.closed; i++) {
      const r = await this.pool
        .query(`DELETE FROM count_groups WHERE id IN (SELECT id FROM count_groups WHERE created_at < now() - interval '${GROUP_RETENTION}' LIMIT ${PRUNE_BATCH})`)
        .catch(() => null);
      if (!r || (r.rowCount ?? 0) < PRUNE_BATCH) return;
    }
  }

  async findKeyByHash(hash: string) {
    return withExpiry((await this.q<ApiKeyRecord>('SELECT * FROM api_keys WHERE key_hash = $1', [hash]))[0] ?? null);
  }

  async getKey(id: string) {
    return withExpiry((await this.q<ApiKeyRecord>('SELECT * FROM api_keys WHERE id = $1', [id]))[0] ?? null);
  }

  async insertKey(k: ApiKeyRecord) {
    await this.q(
      'INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at, last_used_at, usage_key_id, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)',
      [k.id, k.key_hash, k.display_prefix, k.client, k.plan, k.status, k.created_at, k.last_used_at, k.usage_key_id ?? null, k.expires_at ?? null],
    );
  }

  async listKeys() {
    const now = new Date();
    return (await this.q<ApiKeyRecord>('SELECT * FROM api_keys ORDER BY created_at, id')).map((k) => withExpiry(k, now));
  }

  async setKeyPlan(id: string, plan: string) {
    await this.q('UPDATE api_keys SET plan = $1 WHERE COALESCE(usage_key_id, id) = dis_owner($2)', [plan, id]);
  }

  async rollKey(oldId: string, next: ApiKeyRecord, oldExpiresAt: string) {
    // one statement, so one transaction: the new key copies the old key's client, plan and usage owner
    await this.pool.query(
      `WITH old AS (SELECT * FROM api_keys WHERE id = $1 FOR UPDATE),
         ins AS (INSERT INTO api_keys (id, key_hash, display_prefix, client, plan, status, created_at, last_used_at, usage_key_id, expires_at)
                 SELECT $2, $3, $4, old.client, old.plan, $5, $6, NULL, COALESCE(old.usage_key_id, old.id), $7 FROM old RETURNING id)
       UPDATE api_keys k SET expires_at = $8 FROM ins WHERE k.id = $1 AND (k.expires_at IS NULL OR k.expires_at > $8)`,
      [oldId, next.id, next.key_hash, next.display_prefix, next.status, next.created_at, next.expires_at ?? null, oldExpiresAt],
    );
    if (!(await this.q('SELECT 1 FROM api_keys WHERE id = $1', [next.id])).length) throw new Error(`no key with id "${oldId}"`);
  }

  async setKeyStatus(id: string, status: KeyStatus) {
    await this.q('UPDATE api_keys SET status = $1 WHERE id = $2', [status, id]);
  }

  async touchKey(id: string, at: string) {
    await this.q('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
  }

  private plan(r: { name: string; monthly_limit: string | number; per_minute_limit: number }): Plan {
    const p: Plan = { name: r.name, monthly_limit: Number(r.monthly_limit), per_minute_limit: Number(r.per_minute_limit) };
    if ((r as { private?: boolean }).private) p.private = true;
    return p;
  }

  async getPlan(name: string) {
    const r = (await this.q<any>('SELECT name, monthly_limit, per_minute_limit, private FROM plans WHERE name = $1', [name]))[0];
    return r ? this.plan(r) : null;
  }

  async listPlans() {
    return (await this.q<any>('SELECT name, monthly_limit, per_minute_limit, private FROM plans ORDER BY monthly_limit, name')).map((r) => this.plan(r));
  }

  async upsertPlan(p: Plan) {
    await this.q(
      `INSERT INTO plans (name, monthly_limit, per_minute_limit, updated_at, private) VALUES ($1, $2, $3, now(), COALESCE($4::boolean, false))
       ON CONFLICT (name) DO UPDATE SET monthly_limit = EXCLUDED.monthly_limit, per_minute_limit = EXCLUDED.per_minute_limit, updated_at = now(),
         private = COALESCE($4::boolean, plans.private)`,
      [p.name, p.monthly_limit, p.per_minute_limit, p.private ?? null],
    );
  }

  async deletePlan(name: string): Promise<DeletePlanResult> {
    // one statement: the check and the delete see the same snapshot, and the foreign key refuses
    // a key inserted meanwhile (the insert or this delete then fails)
    const r = await this.pool.query('DELETE FROM plans WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM api_keys WHERE plan = $1)', [name]);
    if ((r.rowCount ?? 0) > 0) return { deleted: true };
    const [c] = await this.q<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE plan = $1', [name]);
    if (Number(c!.n) > 0) return { deleted: false, reason: 'in_use', keys: Number(c!.n) };
    return { deleted: false, reason: 'not_found' };
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
    if (!g) this.groups.set(id, (g = { keyId, period, limit, waiting: [], deadlines: [], busy: false }));
    const group = g;
    return new Promise((resolve, reject) => {
      group.waiting.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
      group.deadlines.push(Date.now() + this.deadlineMs);
      if (!group.busy) {
        group.busy = true;
        setImmediate(() => this.flushGroup(id, group));
      }
    });
  }

  private async flushGroup(id: string, g: CountGroup) {
    const batch = g.waiting;
    // the batch keeps its earliest caller's deadline: time spent waiting behind the previous batch counts
    const deadline = g.deadlines.reduce((m, d) => Math.min(m, d), Infinity);
    g.waiting = [];
    g.deadlines = [];
    try {
      const results = await this.countBatch(g.keyId, g.period, g.limit, batch.length, deadline);
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

  /**
   * Counts one group in one statement. A server error (the statement timeout included) means the
   * transaction rolled back: nothing was counted. Any other failure after the statement was sent
   * (the client's read timeout, a dropped connection) leaves the outcome unclear: the connection is
   * discarded and the group is settled by its id. Counted: the callers get their results. Void: they
   * get the error, truly uncounted. Settling failed too: they get the error and the group is settled
   * in the background with its count given back, so usage ends equal to the requests answered.
   */
  private async countBatch(keyId: string, period: string, limit: number, n: number, deadline: number): Promise<ConsumeResult[]> {
    const group = crypto.randomUUID();
    const client = await this.acquire(deadline); // failing here: nothing was sent
    let row: { before_used: string; admitted: string };
    try {
      // the server cancels a statement stuck behind a lock first (a clear outcome); the client reads a
      // little longer, and keeps the rest of the deadline to settle an unclear outcome by the group's id
      const readBy = Math.min(deadline, Date.now() + this.statementTimeoutMs + COUNT_READ_MARGIN_MS);
      row = (await client.query(timed('SELECT before_used, admitted FROM dis_count($1, $2, $3, $4, $5)', [group, keyId, period, limit, n], readBy))).rows[0];
      client.release();
    } catch (e) {
      client.release(true); // never reuse a connection in an unknown state
      if (serverAnswered(e)) throw e;
      let settled;
      try {
        // within what is left of the callers' deadline; past it, in the background (given back)
        if (msLeft(deadline) < MIN_SETTLE_MS) throw e;
        settled = await this.settle(group, false, deadline);
      } catch {
        this.settleLater(group, Date.now());
        throw e;
      }
      if (settled.state !== 'counted') throw e;
      row = settled;
    }
    const before = Number(row.before_used);
    const admit = Number(row.admitted);
    return Array.from({ length: n }, (_, i) => (i < admit ? { admitted: true, used: before + i + 1 } : { admitted: false, used: before + admit }));
  }

  private async settle(group: string, giveBack: boolean, deadline?: number) {
    const [r] = await this.q<{ state: string; before_used: string; admitted: string }>('SELECT state, before_used, admitted FROM dis_settle($1, $2)', [group, giveBack], deadline);
    return r!;
  }

  /** Retries settling (and giving back) a group whose callers were answered 503, with back-off. */
  private settleLater(group: string, since: number, delayMs = 250) {
    if (this.closed || Date.now() - since > SETTLE_FOR_MS) {
      this.unsettled.delete(group);
      return;
    }
    const t = setTimeout(async () => {
      try {
        await this.settle(group, true);
        this.unsettled.delete(group);
      } catch {
        if (this.unsettled.has(group)) this.settleLater(group, since, Math.min(delayMs * 2, 10_000));
      }
    }, delayMs).unref();
    this.unsettled.set(group, t);
  }

  async refundMonthly(keyId: string, period: string) {
    // one statement (one transaction): the month and today's count go down together
    await this.q(
      `WITH m AS (UPDATE monthly_usage SET used = used - 1 WHERE key_id = dis_owner($1) AND period = $2 AND used > 0 RETURNING key_id)
       UPDATE daily_usage d SET used = d.used - 1 FROM m WHERE d.key_id = m.key_id AND d.day = (now() AT TIME ZONE 'UTC')::date AND d.used > 0`,
      [keyId, period],
    );
  }

  /**
   * Lease reservation (see LeaseReservations in ports.ts): one statement, one transaction, with a
   * count-group id like a count. A server error means nothing was reserved. An unclear outcome (the
   * client gave up on a statement it had sent) is settled by the id and given back: the waiting
   * callers get the error, so nothing of the grant was served, and usage ends equal to the requests
   * answered. Settling that cannot reach the server goes on in the background.
   */
  async reserveMonthly(r: LeaseReservation): Promise<LeaseGrant> {
    // time spent queued behind an earlier reservation counts: a silent server is still a 503 within the deadline
    const deadline = (r.since ?? Date.now()) + this.deadlineMs;
    const group = crypto.randomUUID();
    const client = await this.acquire(deadline); // failing here: nothing was sent
    let row: { before_used: string; granted: string; holders: string; lease_day: string };
    try {
      const readBy = Math.min(deadline, Date.now() + this.statementTimeoutMs + COUNT_READ_MARGIN_MS);
      row = (
        await client.query(
          timed('SELECT before_used, granted, holders, lease_day FROM dis_lease_g($1, $2, $3, $4, $5, $6, $7, $8)', [group, r.holder, r.keyId, r.period, r.limit, r.need, r.extra, r.share], readBy),
        )
      ).rows[0];
      client.release();
    } catch (e) {
      client.release(true); // never reuse a connection in an unknown state
      if (serverAnswered(e)) throw e;
      try {
        if (msLeft(deadline) < MIN_SETTLE_MS) throw e;
        await this.settle(group, true, deadline);
      } catch {
        this.settleLater(group, Date.now());
      }
      throw e;
    }
    return { before: Number(row.before_used), granted: Number(row.granted), holders: Number(row.holders), day: row.lease_day };
  }

  async returnMonthly(holder: string, keyId: string, period: string, day: string, n: number, id?: string) {
    if (id) await this.q('SELECT dis_lease_return_g($1, $2, $3, $4, $5::date, $6)', [id, holder, keyId, period, day, n]);
    else await this.q('SELECT dis_lease_return($1, $2, $3, $4::date, $5)', [holder, keyId, period, day, n]);
  }

  async getMonthly(keyId: string, period: string) {
    const r = (await this.q<{ used: string }>('SELECT used FROM monthly_usage WHERE key_id = dis_owner($1) AND period = $2', [keyId, period]))[0];
    return r ? Number(r.used) : 0;
  }

  async dailyUsage(keyId: string, from: string, to: string): Promise<DailyUsage[]> {
    const rows = await this.q<{ day: string; used: string }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, used FROM daily_usage WHERE key_id = dis_owner($1) AND day BETWEEN $2::date AND $3::date ORDER BY day",
      [keyId, from, to],
    );
    return rows.map((r) => ({ day: r.day, used: Number(r.used) }));
  }
}
