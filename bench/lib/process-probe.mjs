// Preloaded into a server under a benchmark (`node --import ./bench/lib/process-probe.mjs …`):
// every PROCESS_PROBE_MS (default 10 s) it appends one JSON line with resident memory and the
// event-loop delay percentiles since the previous line to PROCESS_PROBE_FILE. Benchmarks only:
// the service itself never reads these variables.
import fs from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.PROCESS_PROBE_FILE;
if (file) {
  const every = Number(process.env.PROCESS_PROBE_MS ?? 10_000);
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = Date.now();
  const mb = (b) => Math.round((b / 1048576) * 10) / 10;
  // heap in use just after each full (mark-compact) GC, read when the GC is reported (a little
  // allocation may come between): its lowest value per line approximates the live set
  let afterMajor = Infinity;
  let majors = 0;
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        majors++;
        afterMajor = Math.min(afterMajor, process.memoryUsage().heapUsed);
      }
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const m = process.memoryUsage();
    const line = {
      t: Date.now() - t0,
      pid: process.pid,
      rss_mb: mb(m.rss),
      heap_mb: mb(m.heapUsed),
      heap_total_mb: mb(m.heapTotal),
      external_mb: mb(m.external),
      array_buffers_mb: mb(m.arrayBuffers),
      heap_after_major_gc_mb: majors ? mb(afterMajor) : null,
      major_gcs: majors,
      gc_ms: Math.round(gcMs),
      loop_p50_ms: Math.round(h.percentile(50) / 1e4) / 100,
      loop_p99_ms: Math.round(h.percentile(99) / 1e4) / 100,
      loop_max_ms: Math.round(h.max / 1e4) / 100,
    };
    h.reset();
    afterMajor = Infinity;
    majors = 0;
    gcMs = 0;
    fs.appendFileSync(file, JSON.stringify(line) + '\n');
  }, every).unref();
}
