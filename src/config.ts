// Config: the one module that reads process.env. It turns the environment into a typed, validated
// object and fails with a message naming the bad variable. Everything else takes a Config.
import net from 'node:net';
import path from 'node:path';

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  redisUrl: string | null;
  /** false: ignore X-Forwarded-For; true: trust the last hop; a list: trust these proxy addresses/CIDRs */
  trustProxy: boolean | string[];
  engineUrl: string | null;
  /** GET /metrics: served only with this bearer token, or on metricsPort; never public by default */
  metrics: { token: string | null; port: number | null; host: string };
  /** ENGINE_URL mode: deadline of one engine call including queue time, queue bound, circuit breaker */
  engineCall: { timeoutMs: number; maxInFlight: number; breakerFailures: number; breakerCooldownMs: number };
  dataDir: string;
  referenceDir: string;
  publicBaseUrl: string;
  logLevel: string;
  clusterWorkers: number;
  cacheTtlMs: number;
  /** failed authentications (unknown, revoked, inactive or malformed key) per client IP per minute */
  authFailuresPerIpPerMinute: number;
  /** HTTP server: header and whole-request deadlines, open connections (0: no limit) */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; maxConnections: number };
  /** longest wait of one account-store operation: PostgreSQL statement_timeout, SQLite lock wait */
  storeTimeoutMs: number;
  /** requests waiting for Redis' minute windows at most, per process; past it, 503 at once */
  limiterMaxWaiters: number;
  /** usage leases (src/store/lease.ts): most requests reserved ahead per block (0: off), and the per-process rate per key below which none are */
  usageLease: { maxBlock: number; minRate: number };
  /** keyed fast path (src/gateway/fast-keyed.ts): repeated keyed 200s answered before Fastify's routing (KEYED_FAST_PATH, default on) */
  keyedFastPath: boolean;
  demo: {
    enabled: boolean;
    perIpPerMinute: number;
    perIpPerHour: number;
    /** per IPv4 /24 and per IPv6 /56, per hour */
    perSubnetPerHour: number;
    /** per IPv6 /48, per hour */
    perSitePerHour: number;
    /** the most one IPv4 /24 or IPv6 /48 may take of dailyCap in a UTC day, in percent */
    networkDailySharePercent: number;
    dailyCap: number;
    cacheTtlSeconds: number;
    maxQueryLength: number;
    resolveResultLimit: number;
  };
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function boolVar(env: Env, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function urlVar(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${u.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function databaseVar(env: Env, cwd: string): DatabaseConfig {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return { kind: 'sqlite', path: path.resolve(cwd, 'var/drinks.db') };
  if (raw.startsWith('sqlite:')) {
    const p = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!p) throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./var/drinks.db');
    return { kind: 'sqlite', path: p === ':memory:' ? p : path.resolve(cwd, p) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return { kind: 'postgres', url: raw };
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got "${raw.split(':')[0]}:…"`);
}

function trustProxyVar(env: Env): boolean | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return false;
  if (/^(1|true|yes|on|0|false|no|off)$/i.test(raw)) return boolVar(env, 'TRUST_PROXY', false);
  const list = raw.split(',').map((x) => x.trim()).filter(Boolean);
  for (const item of list) {
    const [addr, bits, extra] = item.split('/');
    const family = net.isIP(addr ?? '');
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!family || !bitsOk || extra !== undefined) {
      throw new ConfigError('TRUST_PROXY', `must be true, false or a comma-separated list of proxy addresses/CIDRs, got "${item}"`);
    }
  }
  return list;
}

function metricsVar(env: Env): Config['metrics'] {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 printable characters without spaces');
  }
  const rawPort = env.METRICS_PORT?.trim();
  const port = rawPort ? intVar(env, 'METRICS_PORT', 0, 1, 65535) : null;
  return { token, port, host: env.METRICS_HOST?.trim() || '127.0.0.1' };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The oldest Node this service runs on: key checksums use zlib.crc32, added in Node 20.15.0. */
export const MIN_NODE = [20, 15] as const;

/** Throws a ConfigError naming the version when Node is older than MIN_NODE (checked before anything else). */
export function checkNodeVersion(version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split('.').map((x) => Number.parseInt(x, 10));
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    throw new ConfigError('Node.js', `${version} is too old: this service needs Node ${MIN_NODE.join('.')} or newer (key checksums use zlib.crc32)`);
  }
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  checkNodeVersion();
  const port = intVar(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const publicBaseUrl =
    urlVar(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const logLevel = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  const maxQueryLength = intVar(env, 'DEMO_MAX_QUERY_LENGTH', 80, 1, 200);
  const headersTimeoutMs = intVar(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000);
  const requestTimeoutMs = intVar(env, 'HTTP_REQUEST_TIMEOUT_MS', 10_000, 1000, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got ${headersTimeoutMs}`);
  }
  return {
    port,
    host,
    database: databaseVar(env, cwd),
    redisUrl: urlVar(env, 'REDIS_URL', ['redis:', 'rediss:']),
    trustProxy: trustProxyVar(env),
    engineUrl: urlVar(env, 'ENGINE_URL', ['http:', 'https:']),
    metrics: metricsVar(env),
    engineCall: {
      timeoutMs: intVar(env, 'ENGINE_TIMEOUT_MS', 2000, 50, 60_000),
      maxInFlight: intVar(env, 'ENGINE_MAX_IN_FLIGHT', 256, 1, 100_000),
      breakerFailures: intVar(env, 'ENGINE_BREAKER_FAILURES', 5, 1, 1000),
      breakerCooldownMs: intVar(env, 'ENGINE_BREAKER_COOLDOWN_MS', 2000, 100, 600_000),
    },
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || 'data'),
    referenceDir: path.resolve(cwd, env.REFERENCE_DIR?.trim() || '../shared/reference'),
    publicBaseUrl,
    logLevel,
    clusterWorkers: intVar(env, 'CLUSTER_WORKERS', 0, 0, 64),
    cacheTtlMs: intVar(env, 'KEY_CACHE_TTL_MS', 1000, 0, 1500),
    authFailuresPerIpPerMinute: intVar(env, 'AUTH_FAILURES_PER_IP_PER_MINUTE', 30, 1, 1_000_000),
    http: {
      headersTimeoutMs,
      requestTimeoutMs,
      maxConnections: intVar(env, 'HTTP_MAX_CONNECTIONS', 10_000, 0, 1_000_000),
    },
    storeTimeoutMs: intVar(env, 'STORE_TIMEOUT_MS', 2000, 100, 60_000),
    limiterMaxWaiters: intVar(env, 'LIMITER_MAX_WAITERS', 5000, 1, 1_000_000),
    usageLease: { maxBlock: intVar(env, 'USAGE_LEASE_MAX_BLOCK', 500, 0, 1_000_000), minRate: intVar(env, 'USAGE_LEASE_MIN_RATE', 200, 1, 1_000_000) },
    keyedFastPath: boolVar(env, 'KEYED_FAST_PATH', true),
    demo: {
      enabled: boolVar(env, 'DEMO_ENABLED', true),
      perIpPerMinute: intVar(env, 'DEMO_PER_IP_PER_MINUTE', 8, 1, 1_000_000),
      perIpPerHour: intVar(env, 'DEMO_PER_IP_PER_HOUR', 20, 1, 1_000_000),
      perSubnetPerHour: intVar(env, 'DEMO_PER_SUBNET_PER_HOUR', 200, 1, 1_000_000),
      perSitePerHour: intVar(env, 'DEMO_PER_SITE_PER_HOUR', 400, 1, 1_000_000),
      networkDailySharePercent: intVar(env, 'DEMO_NETWORK_DAILY_SHARE_PERCENT', 10, 1, 100),
      dailyCap: intVar(env, 'DEMO_DAILY_CAP', 5000, 1, 1_000_000_000),
      cacheTtlSeconds: intVar(env, 'DEMO_CACHE_TTL_SECONDS', 300, 0, 86_400),
      maxQueryLength,
      resolveResultLimit: 5,
    },
  };
}
