// `npm run start:cluster`: N gateway workers on one port with node:cluster (CLUSTER_WORKERS, by
// default one per CPU). Every worker runs the same startServer() as `npm start`. Cluster mode needs
// REDIS_URL: with the embedded in-memory limiter each worker would keep its own per-minute and demo
// counts, so the limits would be N times too loose. Monthly usage is exact either way (SQLite's
// file lock or PostgreSQL's row lock), so SQLite is allowed for a one-machine trial.
//
// The primary restarts a worker that dies after it was serving; a worker that fails during start-up
// (bad configuration, unmigrated database) stops the whole cluster with exit code 1 instead of a
// restart loop. SIGINT/SIGTERM stop the workers gracefully, then the primary.
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { loadConfig, type Config } from './config.ts';
import { exitOnStartupError, startServer } from './server.ts';

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function primary(config: Config) {
  const minLevel = LEVELS[config.logLevel] ?? 30;
  // one JSON line per event, like the workers' pino logs
  const log = (level: 'info' | 'warn' | 'error', msg: string, extra: Record<string, unknown> = {}) => {
    if (LEVELS[level]! < minLevel) return;
    const line = JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, role: 'cluster-primary', ...extra, msg });
    (level === 'info' ? process.stdout : process.stderr).write(line + '\n');
  };

  const count = config.clusterWorkers || os.availableParallelism();
  const served = new Set<number>(); // worker ids that reached "listening"
  let stopping = false;

  const fork = () => cluster.fork();

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    for (const w of workers) w.process.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(code || 1);
    }, 10_000);
    force.unref();
    const check = () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        clearTimeout(force);
        process.exit(code);
      }
    };
    cluster.on('exit', check);
    check();
  };

  cluster.on('listening', (worker, address) => {
    served.add(worker.id);
    log('info', 'cluster worker listening', { worker_pid: worker.process.pid, port: address.port });
    if (served.size === count) log('info', `cluster ready: ${count} workers on http://${config.host}:${config.port}`, { workers: count });
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!served.has(worker.id)) {
      log('error', 'a cluster worker failed to start; stopping the cluster (see the message above)', { worker_pid: worker.process.pid, code, signal });
      stop(1);
      return;
    }
    log('warn', 'cluster worker died; starting a new one', { worker_pid: worker.process.pid, code, signal });
    setTimeout(() => {
      if (!stopping) fork();
    }, 500).unref();
  });

  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  for (let i = 0; i < count; i++) fork();
}

if (cluster.isPrimary) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    exitOnStartupError(e);
  }
  if (!config.redisUrl) {
    console.error(
      'Cluster mode refuses to start without REDIS_URL: the embedded in-memory limiter would keep separate per-minute and demo counts in every worker. ' +
        'Set REDIS_URL (e.g. REDIS_URL=redis://127.0.0.1:6379) and start again, or run one process with `npm start`.',
    );
    process.exit(1);
  }
  primary(config);
} else {
  startServer().catch(exitOnStartupError);
}
