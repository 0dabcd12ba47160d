// Builds the real app for tests: real SQLite in a temp dir, the real knowledge base, in-process engine.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { buildContext, closeContext } from '../src/bootstrap.ts';
import { buildApp } from '../src/app.ts';
import { Engine } from '../src/engine/engine.ts';
import { loadKnowledgeBaseOrThrow } from '../src/engine/kb/load.ts';
import { generateKey, newKeyId } from '../src/gateway/keys.ts';
import type { GatewayContext } from '../src/gateway/context.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let engine: Engine | undefined;
export function sharedEngine(): Engine {
  return (engine ??= new Engine(loadKnowledgeBaseOrThrow(process.env.KB_DATA_DIR ?? path.join(ROOT, 'data'))));
}

/** An entity of the shared engine's knowledge base by key, failing the test when it is not served. */
export function kbEntity(key: string) {
  const x = sharedEngine().kb.byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
}

/** An alias of `key` by its exact name, failing the test when the entity has no such alias. */
export function kbAlias(key: string, name: string) {
  const a = kbEntity(key).aliases.find((x) => x.name === name);
  assert.ok(a, `${key} has the alias "${name}"`);
  return a!;
}

export function tempDir(prefix = 'dis-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestAppOptions {
  env?: Record<string, string>;
  logStream?: NodeJS.WritableStream;
  now?: () => Date;
  /** the engine to serve (default: the shared engine on data/ or KB_DATA_DIR); e.g. one on a fixture knowledge base */
  engine?: Engine;
}

export async function buildTestApp(opts: TestAppOptions = {}) {
  const dir = tempDir();
  const config = loadConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'test.db')}`, LOG_LEVEL: opts.logStream ? 'info' : 'silent', ...opts.env }, ROOT);
  const ctx = await buildContext(config, { engine: config.engineUrl ? undefined : (opts.engine ?? sharedEngine()), now: opts.now });
  const app = await buildApp(ctx, opts.logStream ? { logStream: opts.logStream } : { logger: false });
  await app.ready();
  return {
    app,
    ctx,
    config,
    dir,
    async createKey(plan = 'free', client = 'test client') {
      return createKey(ctx, plan, client);
    },
    async close() {
      await app.close();
      await closeContext(ctx);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function createKey(ctx: GatewayContext, plan = 'free', client = 'test client') {
  const { key, hash, displayPrefix } = generateKey();
  const id = newKeyId();
  await ctx.store.insertKey({ id, key_hash: hash, display_prefix: displayPrefix, client, plan, status: 'active', created_at: new Date().toISOString(), last_used_at: null });
  return { id, key, auth: { authorization: `Bearer ${key}` } };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
