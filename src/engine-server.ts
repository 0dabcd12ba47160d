// `npm run engine`: the engine as its own HTTP process (PORT, HOST). The gateway reaches it with
// ENGINE_URL. Bodies are the engine's v1 bodies; the gateway passes them through unchanged.
import Fastify from 'fastify';
import { loadConfig, ConfigError } from './config.ts';
import { loadEngine } from './bootstrap.ts';
import { ENGINE_OPS, EngineRunner, type EngineOp } from './gateway/engine-client.ts';
import type { Engine } from './engine/engine.ts';

export function buildEngineServer(engine: Engine, logLevel = 'info') {
  const app = Fastify({ logger: { level: logLevel } });
  const runner = new EngineRunner(engine);
  app.get('/engine/health', async () => ({ status: 'ok', kb_version: engine.version }));
  for (const op of ENGINE_OPS) {
    app.get(`/engine/v1/${op}`, async (request, reply) => {
      const result = runner.run(op as EngineOp, request.query as Record<string, string>);
      reply.code(result.status);
      return result.body;
    });
  }
  return app;
}

async function main() {
  const config = loadConfig();
  const app = buildEngineServer(loadEngine(config), config.logLevel);
  await app.listen({ port: config.port, host: config.host });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e instanceof ConfigError ? e.message : e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
