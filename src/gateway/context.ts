// What the gateway's hooks and routes share: config, store, limiter, cache, engine client.
import type { Config } from '../config.ts';
import type { AccountStore, ApiKeyRecord, Plan, ResponseCache, WindowLimiter } from '../store/ports.ts';
import type { AccountCache } from './accounts.ts';
import type { EngineClient } from './engine-client.ts';
import type { Metrics } from './metrics.ts';

export interface GatewayContext {
  config: Config;
  store: AccountStore;
  accounts: AccountCache;
  limiter: WindowLimiter;
  cache: ResponseCache;
  engine: EngineClient;
  version: string;
  now: () => Date;
  /** Prometheus metrics of this gateway (set by registerMetrics when the app is built) */
  metrics?: Metrics;
}

export interface CallerAccount {
  key: ApiKeyRecord;
  plan: Plan;
  period: string;
  counted: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: CallerAccount;
  }
}
