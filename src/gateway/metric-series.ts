// The metrics' objects (a leaf module of the gateway): the prom-client registry and series of one
// gateway app, and the in-place series updates both the Fastify hooks and the keyed fast path use.
// Registration (hooks, the /metrics route, the metrics port) is metrics.ts.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'dis_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status', labelNames: ['route', 'method', 'status'] as const, registers: [this.registry] });
  readonly latency = new Histogram({ name: 'dis_http_request_duration_seconds', help: 'Time to answer, by route pattern', labelNames: ['route'] as const, buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry] });
  readonly refusals = new Counter({ name: 'dis_refusals_total', help: 'Requests refused by a limit, by error code (RATE_LIMITED, QUOTA_EXCEEDED, DEMO_RATE_LIMITED, DEMO_DAILY_CAP_REACHED)', labelNames: ['code'] as const, registers: [this.registry] });
  readonly errors = new Counter({ name: 'dis_errors_total', help: 'Error answers by error code (includes STORE_UNAVAILABLE and ENGINE_UNAVAILABLE)', labelNames: ['code'] as const, registers: [this.registry] });
  readonly storeErrors = new Counter({ name: 'dis_store_errors_total', help: 'Requests that met an unavailable account store or limiter', registers: [this.registry] });
  readonly demoCache = new Counter({ name: 'dis_demo_cache_lookups_total', help: 'Demo answer cache look-ups by result (hit, miss); hit ratio = hit / (hit + miss)', labelNames: ['result'] as const, registers: [this.registry] });
  readonly engineLatency = new Histogram({ name: 'dis_engine_call_duration_seconds', help: 'Engine call time by operation and outcome', labelNames: ['op', 'outcome'] as const, buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'dis_' });
  }
}

/**
 * One label set of a prom-client metric, updated in place. prom-client 15 (pinned) keeps a series
 * per label set in the metric's `hashMap` and hashes and validates the labels on every inc() or
 * observe(), also through a labels() child. The first update goes through the public call (which
 * creates the series); later ones add to that series object directly, exactly as inc()/observe()
 * would. If the map is replaced (reset()) or is not shaped as expected, the public call is used.
 */
type SeriesMap = Record<string, { labels: Record<string, string>; value?: number; sum?: number; count?: number; bucketValues?: Record<string, number> }>;
const mapOf = (metric: object) => (metric as { hashMap?: SeriesMap }).hashMap;
function seriesOf(metric: object, labels: Record<string, string>) {
  const map = mapOf(metric);
  if (!map) return { map: undefined, entry: undefined };
  const keys = Object.keys(labels);
  const entry = Object.values(map).find((e) => e && e.labels && Object.keys(e.labels).length === keys.length && keys.every((k) => e.labels[k] === labels[k]));
  return { map, entry };
}

export class CounterSeries {
  private map: SeriesMap | undefined;
  private entry: SeriesMap[string] | undefined;
  constructor(private readonly counter: Counter<string>, private readonly labels: Record<string, string>) {}

  inc() {
    if (this.entry !== undefined && this.map === mapOf(this.counter) && typeof this.entry.value === 'number') {
      this.entry.value += 1;
      return;
    }
    this.counter.inc(this.labels);
    ({ map: this.map, entry: this.entry } = seriesOf(this.counter, this.labels));
  }
}

export class HistogramSeries {
  private map: SeriesMap | undefined;
  private entry: SeriesMap[string] | undefined;
  private readonly bounds: number[];
  /** each bound as the property name prom-client's bucketValues holds it under (String(bound)) */
  private readonly keys: string[];
  constructor(private readonly histogram: Histogram<string>, private readonly labels: Record<string, string>) {
    this.bounds = ((histogram as unknown as { upperBounds?: number[] }).upperBounds ?? []).slice();
    this.keys = this.bounds.map(String);
  }

  observe(v: number) {
    const e = this.entry;
    if (e !== undefined && this.map === mapOf(this.histogram) && e.bucketValues && Number.isFinite(v)) {
      // as prom-client's observe: the first bound >= v gets the count (none beyond the last: +Inf is
      // the count); the bucket looked up by its kept name (no number-to-string per observation)
      const bounds = this.bounds;
      for (let i = 0; i < bounds.length; i++) {
        if (v <= bounds[i]!) {
          const k = this.keys[i]!;
          if (Object.prototype.hasOwnProperty.call(e.bucketValues, k)) e.bucketValues[k]! += 1;
          break;
        }
      }
      e.sum! += v;
      e.count! += 1;
      return;
    }
    this.histogram.observe(this.labels, v);
    ({ map: this.map, entry: this.entry } = seriesOf(this.histogram, this.labels));
  }
}

/**
 * Each label set's series is kept (bounded by routes × methods × statuses) and updated in place, so
 * a request costs no label hashing or validation in prom-client (see seriesOf).
 */
const answerSeries = new WeakMap<Metrics, { counters: Map<string, CounterSeries>; timers: Map<string, HistogramSeries> }>();

/**
 * One answered request in dis_http_requests_total and dis_http_request_duration_seconds: from the
 * onResponse hook, and from the keyed fast path (fast-keyed.ts), which answers outside Fastify.
 */
export function answerCounted(m: Metrics, route: string, method: string, status: number, seconds: number) {
  const s = answerSeriesOf(m, route, method, status);
  s.counter.inc();
  s.timer.observe(seconds);
}

/** The two series an answer of this route, method and status updates (kept; see answerCounted). */
export function answerSeriesOf(m: Metrics, route: string, method: string, status: number): { counter: CounterSeries; timer: HistogramSeries } {
  let s = answerSeries.get(m);
  if (!s) answerSeries.set(m, (s = { counters: new Map(), timers: new Map() }));
  const id = `${route} ${method} ${status}`;
  let c = s.counters.get(id);
  if (!c) s.counters.set(id, (c = new CounterSeries(m.requests, { route, method, status: String(status) })));
  let t = s.timers.get(route);
  if (!t) s.timers.set(route, (t = new HistogramSeries(m.latency, { route })));
  return { counter: c, timer: t };
}

