// Wires a GatewayContext from a Config: account store, limiter, cache and engine client.
import type { Config } from './config.ts';
import type { GatewayContext } from './gateway/context.ts';
import type { AccountStore } from './store/ports.ts';
import { AccountCache } from './gateway/accounts.ts';
import { HttpEngineClient, InProcessEngineClient, type EngineClient } from './gateway/engine-client.ts';
import { memoryLimiter } from './store/limiter.ts';
import { memoryCache } from './store/cache.ts';
import { SqliteAccountStore } from './store/sqlite.ts';
import { DEFAULT_LEASE_OPTIONS, withLeases } from './store/lease.ts';
import { loadKnowledgeBaseOrThrow } from './engine/kb/load.ts';
import { Engine } from './engine/engine.ts';
import { API_VERSION } from './routes/openapi.ts';

export async function openAccountStore(config: Config): Promise<AccountStore> {
  if (config.database.kind === 'sqlite') return new SqliteAccountStore(config.database.path, { lockWaitMs: config.storeTimeoutMs });
  const { PostgresAccountStore } = await import('./store/postgres.ts');
  return new PostgresAccountStore(config.database.url, { statementTimeoutMs: config.storeTimeoutMs });
}

export function loadEngine(config: Config): Engine {
  return new Engine(loadKnowledgeBaseOrThrow(config.dataDir));
}

export interface BuildContextOptions {
  engine?: Engine;
  now?: () => Date;
}

export async function buildContext(config: Config, opts: BuildContextOptions = {}): Promise<GatewayContext> {
  const store = await openAccountStore(config);
  if (store.kind === 'sqlite') {
    // the embedded default creates and migrates its own database on first run
    await store.migrate();
  } else {
    const pending = await store.pendingMigrations().catch(async (e: Error) => {
      await store.close().catch(() => undefined);
      throw new Error(`Cannot reach PostgreSQL at DATABASE_URL: ${e.message}`);
    });
    if (pending.length) {
      await store.close();
      throw new Error(`The database is not migrated (pending: ${pending.join(', ')}). Run: npm run --silent admin -- db migrate`);
    }
  }
  // usage leases: a block of the monthly allowance reserved ahead for a busy key (issue 14)
  const metered = withLeases(store, { ...DEFAULT_LEASE_OPTIONS, maxBlock: config.usageLease.maxBlock, minRate: config.usageLease.minRate });
  let limiter = memoryLimiter();
  let cache = memoryCache();
  if (config.redisUrl) {
    const { connectRedis } = await import('./store/redis.ts');
    const r = await connectRedis(config.redisUrl, { maxWaiters: config.limiterMaxWaiters });
    limiter = r.limiter;
    if (config.usageLease.maxBlock <= 0) {
      // leases off: minute windows counted per event-loop turn, without tokens reserved ahead
      const { redisLimiter } = await import('./store/limiter.ts');
      limiter = redisLimiter(r.redis, null, { maxWaiters: config.limiterMaxWaiters });
    }
    cache = r.cache;
  }
  let engine: EngineClient;
  if (config.engineUrl) engine = new HttpEngineClient(config.engineUrl, config.engineCall);
  else engine = new InProcessEngineClient(opts.engine ?? loadEngine(config));
  return {
    config,
    store: metered,
    accounts: new AccountCache(store, config.cacheTtlMs),
    limiter,
    cache,
    engine,
    version: API_VERSION,
    now: opts.now ?? (() => new Date()),
  };
}

export async function closeContext(ctx: GatewayContext) {
  await ctx.engine.close();
  await ctx.limiter.close();
  await ctx.store.close();
}
