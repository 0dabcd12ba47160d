// Key and plan look-ups for the request path, behind a short cache so the hot path does not hit
// the store on every request. Entries live at most KEY_CACHE_TTL_MS (1 s by default), so a
// revocation, deactivation or plan change made by the admin CLI reaches a running server within
// 2 seconds without any notification channel. The key cache is an LRU of at most
// KEY_CACHE_MAX_ENTRIES keys, so a flood of distinct keys evicts the coldest entries one by one
// instead of wiping the cache whole (which would send every active key to the store at once).
// Busy keys never expire under their traffic (issue 14): a look-up that finds an entry past 3/4 of
// its lifetime answers from it and refreshes it in the background, so a steady stream of requests
// never meets a miss (which would send every request of that instant to the store together, a
// latency spike each second on PostgreSQL); an entry is still never used past its lifetime, so the
// 2-second bound holds. Concurrent misses of one key or plan share one store query.
import { LRUCache } from 'lru-cache';
import type { AccountStore, ApiKeyRecord, Plan } from '../store/ports.ts';

interface Entry<T> {
  value: T;
  at: number;
}

/** Keys (known or unknown hashes) the cache holds at most; also the bound of last-use records. */
export const KEY_CACHE_MAX_ENTRIES = 50_000;

export class AccountCache {
  private readonly keys = new LRUCache<string, Entry<ApiKeyRecord | null>>({ max: KEY_CACHE_MAX_ENTRIES });
  private readonly plans = new Map<string, Entry<Plan | null>>();
  private planList: Entry<Plan[]> | null = null;
  private readonly touched = new LRUCache<string, number>({ max: KEY_CACHE_MAX_ENTRIES });

  constructor(private readonly store: AccountStore, private readonly ttlMs: number) {}

  /** Keys held now (for tests and diagnostics). */
  get size() {
    return this.keys.size;
  }

  /**
   * The cached record of a key hash while it is fresh, without a promise (the request path's fast
   * path): the record, null for a hash known to match no key, or undefined when not cached or stale
   * (then keyByHash asks the store).
   */
  peekKey(hash: string, now: number): ApiKeyRecord | null | undefined {
    const hit = this.keys.get(hash);
    if (hit === undefined) return undefined;
    const age = now - hit.at;
    if (age >= this.ttlMs) return undefined;
    if (age * 4 >= this.ttlMs * 3) this.refreshKey(hash);
    return hit.value;
  }

  /** The cached plan while fresh (as peekKey): the plan, null for none, undefined when not cached. */
  peekPlan(name: string, now: number): Plan | null | undefined {
    const hit = this.plans.get(name);
    if (hit === undefined) return undefined;
    const age = now - hit.at;
    if (age >= this.ttlMs) return undefined;
    if (age * 4 >= this.ttlMs * 3) this.refreshPlan(name);
    return hit.value;
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const now = Date.now();
    const hit = this.keys.get(hash);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    return this.fetchKey(hash);
  }

  async plan(name: string): Promise<Plan | null> {
    const now = Date.now();
    const hit = this.plans.get(name);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    return this.fetchPlan(name);
  }

  private readonly keyFetches = new Map<string, Promise<ApiKeyRecord | null>>();
  private readonly planFetches = new Map<string, Promise<Plan | null>>();

  /** One store query per key hash at a time; its answer is cached as of when it was asked. */
  private fetchKey(hash: string): Promise<ApiKeyRecord | null> {
    return singleFlight(this.keyFetches, hash, () => this.store.findKeyByHash(hash), (value, at) => this.keys.set(hash, { value, at }));
  }

  private fetchPlan(name: string): Promise<Plan | null> {
    return singleFlight(this.planFetches, name, () => this.store.getPlan(name), (value, at) => this.plans.set(name, { value, at }));
  }

  /** A background refresh (a failure leaves the entry to expire as usual). */
  private refreshKey(hash: string) {
    if (!this.keyFetches.has(hash)) this.fetchKey(hash).catch(() => undefined);
  }

  private refreshPlan(name: string) {
    if (!this.planFetches.has(name)) this.fetchPlan(name).catch(() => undefined);
  }

  async allPlans(): Promise<Plan[]> {
    const now = Date.now();
    if (this.planList && now - this.planList.at < this.ttlMs) return this.planList.value;
    const value = await this.store.listPlans();
    this.planList = { value, at: now };
    return value;
  }

  /** Records last use at most once a minute per key (the openstatus habit). */
  touch(keyId: string) {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < 60_000) return;
    this.touched.set(keyId, now);
    this.store.touchKey(keyId, new Date(now).toISOString()).catch(() => undefined);
  }

  invalidate() {
    this.keys.clear();
    this.plans.clear();
    this.planList = null;
  }
}

/**
 * The look-up in flight for `id`, or a new one: callers at the same time share one store query; its
 * answer is kept (as of when it was asked) and a failure is shared but not kept.
 */
function singleFlight<T>(inFlight: Map<string, Promise<T>>, id: string, load: () => Promise<T>, keep: (value: T, at: number) => void): Promise<T> {
  let f = inFlight.get(id);
  if (f === undefined) {
    const at = Date.now();
    f = load().then(
      (value) => {
        inFlight.delete(id);
        keep(value, at);
        return value;
      },
      (e) => {
        inFlight.delete(id);
        throw e;
      },
    );
    inFlight.set(id, f);
  }
  return f;
}
