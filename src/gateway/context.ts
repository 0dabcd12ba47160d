// What the gateway's hooks and routes share: config, store, limiter, cache, engine client.
import type { Config } from '../config.ts';
import type { AccountStore, ApiKeyRecord, LimitResult, Plan, ResponseCache, WindowLimiter } from '../store/ports.ts';
import type { AccountCache } from './accounts.ts';
import type { EngineClient } from './engine-client.ts';
import type { Metrics } from './metric-series.ts';
import type { FastPathHandle } from './fast-route.ts';

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
  /** the keyed fast path of this gateway (set when the app is built) */
  fastPath?: FastPathHandle;
}

export interface CallerAccount {
  key: ApiKeyRecord;
  plan: Plan;
  period: string;
  counted: boolean;
  /** the per-minute window's answer, once admitted (for the quota headers) */
  minute: LimitResult | null;
  /** the month's count after this request, once admitted */
  used: number;
  /** every quota and standard header is set already: the standard-headers hook leaves the answer alone */
  headersSet?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: CallerAccount;
  }
}
