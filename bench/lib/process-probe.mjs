// Preloaded into a server under a benchmark (`node --import ./bench/lib/process-probe.mjs …`):
// every PROCESS_PROBE_MS (default 10 s) it appends one JSON line with resident memory and the
// event-loop delay percentiles since the previous line to PROCESS_PROBE_FILE. Benchmarks only:
// the service itself never reads these variables.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.PROCESS_PROBE_FILE;
if (file) {
  const every = Number(process.env.PROCESS_PROBE_MS ?? 10_000);
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = Date.now();
  setInterval(() => {
    const line = {
      t: Date.now() - t0,
      pid: process.pid,
      rss_mb: Math.round((process.memoryUsage().rss / 1048576) * 10) / 10,
      heap_mb: Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10,
      loop_p50_ms: Math.round(h.percentile(50) / 1e4) / 100,
      loop_p99_ms: Math.round(h.percentile(99) / 1e4) / 100,
      loop_max_ms: Math.round(h.max / 1e4) / 100,
    };
    h.reset();
    fs.appendFileSync(file, JSON.stringify(line) + '\n');
  }, every).unref();
}
