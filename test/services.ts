// Support for tests that use real services and real processes: free ports, child processes
// (`node --import tsx …` with a cleaned environment, output collected, all killed on exit), bounded
// waits, the PostgreSQL admin connection and temp databases, Redis database URLs and flushing, JSON
// log lines, and a TCP relay that can stop passing data (a network fault made for real). The tests keep their own assertions; this module owns only the plumbing.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import { before, after } from 'node:test';
import pg from 'pg';
import { PostgresAccountStore } from '../src/store/postgres.ts';
import type { Plan } from '../src/store/ports.ts';
import { ROOT, sleep } from './helper.ts';

// ---- ports and waits ------------------------------------------------------------------------

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** `p`, or a rejection naming `what` if it has not settled within `ms`: a wait that cannot hang. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`${what}: not done in ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

/** Polls `fn` every 100 ms until it returns something truthy (resolved with it), for at most `ms`. */
export async function until<T>(what: string, ms: number, fn: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

// ---- child processes ------------------------------------------------------------------------

export interface SpawnedChild {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** exit code (or the signal name) */
  exited: Promise<number | string>;
}

const children = new Set<ChildProcess>();

/** SIGKILLs every child spawned here that is still running. */
export function killChildren() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
process.once('exit', killChildren); // last resort if the runner dies

/** SIGKILLs every child spawned here and waits (at most 5 s each) until they have exited. */
export async function stopChildren() {
  killChildren();
  await Promise.all([...children].map((c) => within(new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))), 5000, 'exit').catch(() => undefined)));
}

/** This process's environment without the settings a test passes explicitly, quiet logs, plus `extra`. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_URL|PORT|HOST|ENGINE_URL|CLUSTER_WORKERS|TRUST_PROXY|DEMO_.*|KEY_CACHE_TTL_MS|PUBLIC_BASE_URL|NODE_TEST_CONTEXT)$/.test(k)) delete env[k];
  }
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

/** Starts `node --import tsx …args` in the project root with a cleaned env; collects its output. */
export function spawnTsx(args: string[], env: Record<string, string>): SpawnedChild {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/** The JSON objects among the lines of `text` (pino log output); other lines are skipped. */
export const parseJsonLines = (text: string) =>
  text.split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, any>];
    } catch {
      return [];
    }
  });

// ---- PostgreSQL -----------------------------------------------------------------------------

/** The `test` database, through which temp databases are created and dropped. */
export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? `postgres://${process.env.PGUSER ?? os.userInfo().username}@127.0.0.1:5432/test`;

/** Runs one statement on a fresh connection to the admin database. */
export async function pgAdminQuery(sql: string) {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The URL of database `name` on the admin database's server. */
export function dbUrl(name: string) {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh random name for a temp database. */
export const tempDatabaseName = () => `dis_test_${crypto.randomBytes(6).toString('hex')}`;

export async function createDatabase(name: string) {
  await pgAdminQuery(`CREATE DATABASE ${name}`);
}

/** Drops database `name` if it exists, even with open connections. */
export async function dropDatabase(name: string) {
  await pgAdminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** A temporary database for the enclosing describe (or file): migrated, with `plans`; dropped after. */
export function migratedDatabase(plans: Plan[]): string {
  const db = tempDatabaseName();
  before(async () => {
    await createDatabase(db);
    const s = new PostgresAccountStore(dbUrl(db));
    await s.migrate();
    for (const p of plans) await s.upsertPlan(p);
    await s.close();
  });
  after(async () => {
    await dropDatabase(db);
  });
  return db;
}

// ---- Redis ----------------------------------------------------------------------------------

const REDIS_BASE = (process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');

/** The URL of Redis database `index` (each test file uses its own index). */
export const redisUrl = (index: number) => `${REDIS_BASE}/${index}`;

/** Empties the Redis database at `url`. */
export async function flushRedis(url: string) {
  const { Redis } = await import('ioredis');
  const r = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    await r.flushdb();
  } finally {
    r.disconnect();
  }
}

// ---- a TCP relay that can stop passing data -------------------------------------------------

/**
 * A TCP relay to a server on 127.0.0.1 (PostgreSQL in the fault tests) that can stop passing data:
 * `holdReplies()` keeps the server's answers on the connections open now (queries still reach the
 * server and commit); `holdAll()` also keeps everything on those and on new connections.
 * `resume()` delivers what was held. Point a client at `127.0.0.1:<relay.port>` after start().
 */
export class Relay {
  private server!: net.Server;
  private readonly conns = new Set<{ down: boolean; up: boolean; flush: () => void; close: () => void }>();
  private holdNew = false;
  port = 0;

  async start(target: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target, '127.0.0.1');
      const heldDown: Buffer[] = [];
      const heldUp: Buffer[] = [];
      const c = {
        down: this.holdNew,
        up: this.holdNew,
        flush: () => {
          c.down = c.up = false;
          for (const d of heldUp.splice(0)) upstream.write(d);
          for (const d of heldDown.splice(0)) client.write(d);
        },
        close: () => {
          client.destroy();
          upstream.destroy();
        },
      };
      this.conns.add(c);
      upstream.on('data', (d) => (c.down ? heldDown.push(d) : client.write(d)));
      client.on('data', (d) => (c.up ? heldUp.push(d) : upstream.write(d)));
      const end = () => {
        this.conns.delete(c);
        c.close();
      };
      client.on('close', end).on('error', end);
      upstream.on('close', end).on('error', end);
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  holdReplies() {
    for (const c of this.conns) c.down = true;
  }

  holdAll() {
    this.holdNew = true;
    for (const c of this.conns) c.down = c.up = true;
  }

  resume() {
    this.holdNew = false;
    for (const c of this.conns) c.flush();
  }

  async close() {
    for (const c of this.conns) c.close();
    await new Promise((r) => this.server.close(r));
  }
}

/** `url` (a PostgreSQL or Redis URL on 127.0.0.1) with its host:port replaced by the relay's. */
export function viaRelay(url: string, relay: Relay) {
  const u = new URL(url);
  u.host = `127.0.0.1:${relay.port}`;
  return u.toString();
}
