// `npm start`: the gateway (with the engine in-process unless ENGINE_URL is set).
// `startServer()` is also what each worker of `npm run start:cluster` (src/cluster.ts) runs.
import path from 'node:path';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { buildContext, closeContext } from './bootstrap.ts';
import { buildApp } from './app.ts';

/** Builds the gateway from the environment, listens, and closes cleanly on SIGINT/SIGTERM. */
export async function startServer(config: Config = loadConfig()) {
  const t0 = performance.now();
  steadyAllocation();
  const ctx = await buildContext(config);
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
  // the pair-food index (food vocabulary and placed guidance, some 0.2–0.4 s) is built now rather than
  // on the first /v1/pair-food request
  setImmediate(() => ctx.engine.warm?.());
  app.log.info({ startup_ms: Math.round(performance.now() - t0), engine: ctx.engine.mode, store: ctx.store.kind, limiter: ctx.limiter.kind }, 'drinks intelligence ready');
  return { app, ctx, close };
}

/**
 * Turns off V8's allocation-site pretenuring for this process (issue 25), unless it was started
 * with `--allocation-site-pretenuring` (as `npm run bench:pretenuring` does to compare). Objects
 * that lived through a collection while the service warmed up (requests waiting on the store's
 * first reservations) can make V8 allocate every later object of the same kind in the old
 * generation; our per-request objects then outlive scavenges, and a process stays in that state for
 * its whole life: about twice the CPU per request, scavenges of 4–5 ms instead of under 1.
 */
export function steadyAllocation() {
  if (process.execArgv.includes('--allocation-site-pretenuring')) return;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
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
