// `npm start`: the gateway (with the engine in-process unless ENGINE_URL is set).
// `startServer()` is also what each worker of `npm run start:cluster` (src/cluster.ts) runs.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { buildContext, closeContext } from './bootstrap.ts';
import { buildApp } from './app.ts';
import { steadyAllocation } from './steady-allocation.ts';

/** Builds the gateway from the environment, listens, and closes cleanly on SIGINT/SIGTERM. */
export async function startServer(config: Config = loadConfig()) {
  const t0 = performance.now();
  steadyAllocation();
  const ctx = await buildContext(config);
  // the pair-food index (food vocabulary and placed guidance, some 0.2–0.4 s) is built before listening:
  // a vocabulary that cannot be loaded is a start-up error naming the file (exit code 1), never a crash
  // after ready, and no request waits behind the build (issue 31, item 5)
  try {
    ctx.engine.warm?.();
  } catch (e) {
    await closeContext(ctx).catch(() => undefined);
    throw e;
  }
  const app = await buildApp(ctx);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      await closeContext(ctx);
    })());
  const onSignal = () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ startup_ms: Math.round(performance.now() - t0), engine: ctx.engine.mode, store: ctx.store.kind, limiter: ctx.limiter.kind }, 'drinks intelligence ready');
  return { app, ctx, close };
}

/** Prints a start-up failure (bad configuration, unmigrated database, …) and exits with code 1. */
export function exitOnStartupError(e: unknown): never {
  if (e instanceof ConfigError) console.error(e.message);
  else console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}

// Run only as the entry point itself: not when imported, and not when bundled into another entry
// (dist/cluster.mjs inlines this module, so there import.meta.url is the cluster's file).
const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href && /^server\.(ts|mjs|js)$/.test(path.basename(entry))) {
  startServer().catch(exitOnStartupError);
}
