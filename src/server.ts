// `npm start`: the gateway (with the engine in-process unless ENGINE_URL is set).
import { loadConfig, ConfigError } from './config.ts';
import { buildContext, closeContext } from './bootstrap.ts';
import { buildApp } from './app.ts';

async function main() {
  const t0 = performance.now();
  const config = loadConfig();
  const ctx = await buildContext(config);
  const app = await buildApp(ctx);
  const close = async () => {
    await app.close();
    await closeContext(ctx);
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ startup_ms: Math.round(performance.now() - t0), engine: ctx.engine.mode, store: ctx.store.kind, limiter: ctx.limiter.kind }, 'drinks intelligence ready');
}

main().catch((e) => {
  if (e instanceof ConfigError) console.error(e.message);
  else console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
