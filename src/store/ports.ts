// Store ports: what the gateway needs from persistence, and nothing about SQL. Adapters: SQLite
// (embedded default), PostgreSQL (scale-out); limiters and caches: memory or Redis.

export type KeyStatus = 'active' | 'inactive' | 'revoked';

export interface Plan {
  name: string;
  monthly_limit: number;
  per_minute_limit: number;
  /** kept off the public /plans page (absent on write: a new plan is public, an existing one keeps its flag) */
  private?: boolean;
}

export interface ApiKeyRecord {
  id: string;
  key_hash: string;
  display_prefix: string;
  client: string;
  plan: string;
  status: KeyStatus;
  created_at: string;
  last_used_at: string | null;
  /**
   * The key whose monthly and daily usage this key counts toward (set on a key made by
   * `keys roll`: the usage owner of the key it replaces); null or absent: the key itself.
   */
  usage_key_id?: string | null;
  /**
   * After this instant (ISO 8601) the key stops working: findKeyByHash and getKey report it as
   * "inactive" (set on the old key of `keys roll` when the overlap ends).
   */
  expires_at?: string | null;
}

export interface DailyUsage {
  /** UTC day, e.g. "2026-11-23" */
  day: string;
  used: number;
}

export type DeletePlanResult = { deleted: true } | { deleted: false; reason: 'not_found' } | { deleted: false; reason: 'in_use'; keys: number };

export interface ConsumeResult {
  admitted: boolean;
  used: number;
}

/** Keys, plans and monthly usage: the durable, exact part. */
export interface AccountStore {
  readonly kind: 'sqlite' | 'postgres';
  migrate(): Promise<string[]>;
  pendingMigrations(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  insertKey(k: ApiKeyRecord): Promise<void>;
  listKeys(): Promise<ApiKeyRecord[]>;
  setKeyStatus(id: string, status: KeyStatus): Promise<void>;
  touchKey(id: string, at: string): Promise<void>;
  /** Moves the key, and every key sharing its usage (a rolled pair), to `plan`; usage is kept. */
  setKeyPlan(id: string, plan: string): Promise<void>;
  /**
   * `keys roll`: in one transaction inserts `next` (counting toward the old key's usage owner, on
   * its plan) and sets the old key's `expires_at`.
   */
  rollKey(oldId: string, next: ApiKeyRecord, oldExpiresAt: string): Promise<void>;

  getPlan(name: string): Promise<Plan | null>;
  listPlans(): Promise<Plan[]>;
  upsertPlan(p: Plan): Promise<void>;
  /** Deletes a plan no key refers to (whatever the key's status); refuses otherwise. */
  deletePlan(name: string): Promise<DeletePlanResult>;

  /** Atomically count one request if `used < limit`; never admits past the limit. */
  consumeMonthly(keyId: string, period: string, limit: number): Promise<ConsumeResult>;
  /**
   * consumeMonthly without a promise, where the answer is at hand in this process (a usage lease's
   * block, src/store/lease.ts): the result, or undefined with nothing counted or changed, where only
   * the store can answer (then call consumeMonthly). Optional: adapters without leases leave it out.
   */
  consumeMonthlyNow?(keyId: string, period: string, limit: number): ConsumeResult | undefined;
  /** Give back one counted request (used when the request failed on our side). */
  refundMonthly(keyId: string, period: string): Promise<void>;
  getMonthly(keyId: string, period: string): Promise<number>;
  /**
   * Daily counts of the key's usage owner for UTC days `from`..`to` inclusive ("YYYY-MM-DD"); days
   * without requests are absent. Written in the same transaction as the monthly count.
   */
  dailyUsage(keyId: string, from: string, to: string): Promise<DailyUsage[]>;
}

/** One reservation of monthly allowance for a lease (src/store/lease.ts); see reserveMonthly. */
export interface LeaseReservation {
  /** the process holding the lease (host:pid:random), for the usage_leases row */
  holder: string;
  keyId: string;
  period: string;
  limit: number;
  /** requests waiting now: admitted first, up to the allowance left */
  need: number;
  /** headroom wanted beyond them (0: exact per request, as consumeMonthly) */
  extra: number;
  /** k of the shrinking rule: headroom <= floor((left after need) / (k × live holders)) */
  share: number;
  /** arrival (epoch ms) of the earliest waiting request: the store's deadline runs from it */
  since?: number;
}

export interface LeaseGrant {
  /** used (counted plus every live block) before this reservation */
  before: number;
  /** requests counted by this reservation: min(need, left) plus the headroom granted */
  granted: number;
  /** holders of open blocks on this key and month, this one included */
  holders: number;
  /** UTC day (the store's clock) whose daily row the grant went to, "YYYY-MM-DD" */
  day: string;
}

/**
 * Optional reservation methods for leases. reserveMonthly counts `granted` requests in one
 * transaction (monthly and daily rows, as consumeMonthly does for each request); returnMonthly
 * takes `n` unserved ones back from the month and from `day`, and closes the holder's block.
 */
export interface LeaseReservations {
  reserveMonthly(r: LeaseReservation): Promise<LeaseGrant>;
  /**
   * `id` names this hand-back: a store whose outcome can be unclear (PostgreSQL) applies one id at
   * most once, so a hand-back whose answer was lost can be sent again.
   */
  returnMonthly(holder: string, keyId: string, period: string, day: string, n: number, id?: string): Promise<void>;
}

export const hasLeaseReservations = (s: AccountStore): s is AccountStore & LeaseReservations =>
  typeof (s as Partial<LeaseReservations>).reserveMonthly === 'function' && typeof (s as Partial<LeaseReservations>).returnMonthly === 'function';

export interface LimitResult {
  allowed: boolean;
  remaining: number;
  /** epoch milliseconds when the window resets */
  resetAt: number;
  limit: number;
  /**
   * the window's identity where the store keeps windows elsewhere (Redis: its end in Redis' clock,
   * epoch ms): a give-back reaches only this window, never one made after it
   */
  window?: number;
}

/** Fixed-window counters: per-minute key limits, demo per-IP minute/hour limits and the daily cap. */
export interface WindowLimiter {
  readonly kind: 'memory' | 'redis';
  /** Count one hit in the window of `windowMs` for `key`; allowed while the count stays <= limit. */
  hit(key: string, limit: number, windowMs: number): Promise<LimitResult>;
  /**
   * hit() without a promise, where the answer is at hand in this process (in-memory windows, or
   * tokens reserved ahead in Redis): the result, or undefined with nothing counted or changed,
   * where only the store can answer (then call hit). Optional.
   */
  hitNow?(key: string, limit: number, windowMs: number): LimitResult | undefined;
  /** Count one hit in several windows at once; any refusal refuses all (and counts nothing). */
  hitAll(checks: { key: string; limit: number; windowMs: number }[]): Promise<LimitResult[]>;
  peek(key: string, limit: number, windowMs: number): Promise<LimitResult>;
  /**
   * Give back `hit`, one hit counted by `hit()` or `hitNow()` (for a request refused later for another
   * reason): only into the window that counted it, while it lasts; a window that has ended, or was
   * lost and made again, is left alone (a late give-back never lets a window admit over its limit).
   * Never fails.
   */
  refund(key: string, limit: number, windowMs: number, hit: LimitResult): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ResponseCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

export const STARTER_PLANS: Plan[] = [
  { name: 'free', monthly_limit: 1_000, per_minute_limit: 10 },
  { name: 'starter', monthly_limit: 50_000, per_minute_limit: 60 },
  { name: 'pro', monthly_limit: 1_000_000, per_minute_limit: 600 },
];

/** Calendar month in UTC, e.g. "2026-11". */
export function monthPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** UTC day of `now`, e.g. "2026-11-23" (the daily usage row a count goes to). */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The record as seen at `now`: a key past its `expires_at` reads as inactive. */
export function withExpiry<T extends ApiKeyRecord | null>(k: T, now = new Date()): T {
  if (k && k.expires_at && k.status === 'active' && k.expires_at <= now.toISOString()) return { ...k, status: 'inactive' };
  return k;
}

export function monthBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}
