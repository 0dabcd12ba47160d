// The gateway's one door to the engine, with two implementations chosen by configuration:
// in-process (default) and HTTP to a separately started engine (`npm run engine`, ENGINE_URL).
// Bodies and engine errors pass through unchanged; an unreachable engine is EngineUnavailableError.
import { createRequire } from 'node:module';
import type { Client, Pool } from 'undici';

// undici is only needed with ENGINE_URL: load it on first use, so the embedded default does not
// pay for it at start-up (about 0.3 s of module loading on this machine).
let undiciModule: typeof import('undici') | undefined;
function undici(): typeof import('undici') {
  return (undiciModule ??= createRequire(import.meta.url)('undici') as typeof import('undici'));
}
import { LRUCache } from 'lru-cache';
import type { Engine, EngineResult } from '../engine/engine.ts';
import { kbNotes, kbSummary } from '../engine/kb-release.ts';

export const ENGINE_OPS = ['resolve-entity', 'explain', 'pair', 'pair-food', 'compare', 'parse', 'entity', 'entities', 'kb', 'kb-notes'] as const;
export type EngineOp = (typeof ENGINE_OPS)[number];
export type EngineParams = Record<string, string | number | undefined>;

export interface EngineHealth {
  ok: boolean;
  kb_version: string | null;
  detail?: string;
}

/** An engine answer with the knowledge-base version that produced it (for ETags). */
export type EngineAnswer = EngineResult & { version?: string };

/** Response header by which the engine server names its knowledge-base version. */
export const KB_VERSION_HEADER = 'x-kb-version';

export interface EngineClient {
  readonly mode: 'in-process' | 'http';
  /** The knowledge-base version of answers without their own `version` (in-process: the engine's). */
  readonly kbVersion: string | null;
  call(op: EngineOp, params: EngineParams): Promise<EngineAnswer>;
  /** call() without a promise, where the engine is in this process (the keyed request path uses it) */
  callSync?(op: EngineOp, params: EngineParams): EngineAnswer;
  /**
   * callSync for one request asked again and again (the keyed fast path): the memo key is built
   * once, and each call answers as callSync(op, params) would.
   */
  prepareSync?(op: EngineOp, params: EngineParams): () => EngineAnswer;
  health(): Promise<EngineHealth>;
  /**
   * Builds what the engine builds on first use (the pair-food index), where the engine is in this
   * process. Start-up calls it before listening; it throws, naming the file, when the food vocabulary
   * cannot be loaded.
   */
  warm?(): void;
  close(): Promise<void>;
}

export class EngineUnavailableError extends Error {
  constructor(detail: string) {
    super(`engine unavailable: ${detail}`);
    this.name = 'EngineUnavailableError';
  }
}

/** JSON of memoised engine bodies, kept beside them so a repeated answer is not serialized again. */
export const bodyJson = new WeakMap<object, string>();

const MEMO_BYTES = 32 * 1024 * 1024;
/**
 * Heap bytes of a memoised answer per character of its JSON: the JSON string itself (one or two
 * bytes a character) plus the body's object graph. Measured by `npm run bench:memo` (heap growth
 * after 20,000 distinct 180-character queries, over the estimate): 0.93 for resolve-entity answers
 * and 1.25 for explain profiles at 3 bytes a character, so 4 keeps the memo's real heap within its
 * 32 MB (issue 24, security review 8.2).
 */
const BYTES_PER_JSON_CHAR = 4;
const ENTRY_OVERHEAD = 256;

/** A term as the engine reads it: white space at the ends and runs of it inside do not matter. */
const normTerm = (v: string | number | undefined) => (typeof v === 'string' ? v.normalize('NFC').trim().replace(/\s+/g, ' ') : v);
const TERMS = ['q', 'left', 'right'] as const;

interface MemoEntry {
  result: EngineResult;
  /** the raw terms of the request that produced `result` (its bodies echo them) */
  raw: string;
  q: string | number | undefined;
  left: string | number | undefined;
  right: string | number | undefined;
}

/** One memo-key field: its kind, and a string's length before it, so no two field lists share a key. */
const keyField = (v: string | number | undefined) => (v === undefined ? '|u' : typeof v === 'number' ? `|n${v}` : `|s${v.length}:${v}`);

/**
 * Runs engine operations on a local Engine, shared by the in-process client and the engine server.
 * The knowledge base is immutable and the engine deterministic, so results are memoised in an LRU
 * bounded by an estimate of their size in memory (32 MB), so a client walking through many distinct
 * queries cannot grow memory; a repeated query costs a map look-up. The memo key is a structured
 * encoding of the operation and its parameters with terms normalised (white space), so no two
 * requests share a key by accident and variants of one term share one entry; an answer found under
 * another variant gets its echoed `query` fields set to the caller's own term.
 */
export class EngineRunner {
  private readonly memo = new LRUCache<string, MemoEntry>({
    maxSize: MEMO_BYTES,
    sizeCalculation: (m, key) => ENTRY_OVERHEAD + 2 * key.length + 2 * m.raw.length + BYTES_PER_JSON_CHAR * Math.max(1, bodyJson.get(m.result.body)?.length ?? 1),
  });
  constructor(readonly engine: Engine) {}

  /** Entries and estimated bytes held (for tests and metrics). */
  get memoStats() {
    return { entries: this.memo.size, bytes: this.memo.calculatedSize, maxBytes: MEMO_BYTES };
  }

  static memoKey(op: EngineOp, p: EngineParams): string {
    // built by concatenation (no JSON.stringify per request); injective like the JSON array it replaces
    return (
      op + keyField(normTerm(p.q)) + keyField(p.limit) + keyField(normTerm(p.left)) + keyField(normTerm(p.right)) + keyField(p.type) +
      keyField(p.domain) + keyField(p.id) + keyField(p.country) + keyField(p.parent) + keyField(p.grape) + keyField(p.appellation) + keyField(p.cursor) + keyField(p.scope) + keyField(p.provenance)
    );
  }

  run(op: EngineOp, p: EngineParams): EngineResult {
    return this.runKeyed(EngineRunner.memoKey(op, p), op, p);
  }

  /** run() with its memo key already built (EngineRunner.memoKey(op, p)). */
  runKeyed(key: string, op: EngineOp, p: EngineParams): EngineResult {
    const hit = this.memo.get(key);
    if (hit) {
      if (hit.q === p.q && hit.left === p.left && hit.right === p.right) return hit.result;
      // another variant of the same terms: a 200 gets the caller's terms echoed; an error message
      // quotes the term, so it is computed afresh (a miss is not kept for variants)
      // (not for parse: its offsets belong to the exact text, white space included)
      if (hit.result.status === 200 && op !== 'parse') return withTerms(op, hit.result, p);
      return runEngineOp(this.engine, op, p);
    }
    const r = runEngineOp(this.engine, op, p);
    const json = JSON.stringify(r.body);
    if (json.length <= MEMO_BYTES / 64) {
      bodyJson.set(r.body, json);
      this.memo.set(key, { result: r, raw: JSON.stringify([p.q, p.left, p.right]), q: p.q, left: p.left, right: p.right });
    }
    return r;
  }
}

/** A memoised answer with the caller's own terms echoed (`query`, or each side's `query`). */
function withTerms(op: EngineOp, r: EngineResult, p: EngineParams): EngineResult {
  const b = r.body as Record<string, unknown>;
  if (op === 'compare') {
    return { status: 200, body: { ...b, left: { ...(b.left as object), query: p.left }, right: { ...(b.right as object), query: p.right } } };
  }
  return 'query' in b ? { status: 200, body: { ...b, query: p.q } } : r;
}

/** An optional engine parameter as a string, or undefined. */
const opt = (v: string | number | undefined) => (v === undefined ? undefined : String(v));
const optNum = (v: string | number | undefined) => (v === undefined ? undefined : Number(v));

/**
 * Every engine answer names the knowledge-base release that gave it (issue 36): a 200 body without
 * its own top-level `knowledge_base_version` gets it here, the one place every operation passes.
 */
export function runEngineOp(engine: Engine, op: EngineOp, p: EngineParams): EngineResult {
  const r = engineOp(engine, op, p);
  if (r.status === 200 && !('knowledge_base_version' in r.body)) r.body.knowledge_base_version = engine.version;
  return r;
}

function engineOp(engine: Engine, op: EngineOp, p: EngineParams): EngineResult {
  switch (op) {
    case 'resolve-entity':
      return engine.resolveEntity({ q: String(p.q), limit: optNum(p.limit), type: opt(p.type), domain: opt(p.domain) });
    case 'entity':
      return engine.entity({ id: String(p.id) });
    case 'entities':
      return engine.listEntities({ type: opt(p.type), domain: opt(p.domain), country: opt(p.country), parent: opt(p.parent), grape: opt(p.grape), appellation: opt(p.appellation), limit: optNum(p.limit), cursor: opt(p.cursor) });
    case 'explain':
      return engine.explain({ q: String(p.q) });
    case 'pair':
      return engine.pair({ q: String(p.q) });
    case 'pair-food':
      return engine.pairFood({ q: String(p.q), limit: optNum(p.limit), type: opt(p.type), domain: opt(p.domain), scope: opt(p.scope) });
    case 'compare':
      return engine.compare({ left: String(p.left), right: String(p.right), provenance: p.provenance === 'by_key' ? 'by_key' : undefined });
    case 'parse':
      return engine.parse({ text: String(p.q) });
    case 'kb':
      return kbSummary(engine.kb);
    case 'kb-notes':
      return kbNotes(engine.kb);
  }
}

export class InProcessEngineClient implements EngineClient {
  readonly mode = 'in-process' as const;
  private readonly runner: EngineRunner;
  get kbVersion() {
    return this.engine.version;
  }
  constructor(private readonly engine: Engine) {
    this.runner = new EngineRunner(engine);
  }
  async call(op: EngineOp, params: EngineParams) {
    return this.runner.run(op, params);
  }
  callSync(op: EngineOp, params: EngineParams): EngineAnswer {
    return this.runner.run(op, params);
  }
  prepareSync(op: EngineOp, params: EngineParams): () => EngineAnswer {
    const key = EngineRunner.memoKey(op, params);
    return () => this.runner.runKeyed(key, op, params);
  }
  async health(): Promise<EngineHealth> {
    return { ok: true, kb_version: this.engine.version };
  }
  warm() {
    this.engine.warmFood();
  }
  async close() {}
}

export interface HttpEngineOptions {
  /** deadline of one call, queue time included (ms) */
  timeoutMs?: number;
  /** calls waiting or running at once; beyond this a call fails at once instead of queueing */
  maxInFlight?: number;
  /** consecutive failures (unreachable, timed out, malformed answer) that open the circuit */
  breakerFailures?: number;
  /** how long an open circuit refuses calls before one probe is let through (ms) */
  breakerCooldownMs?: number;
}

/**
 * The engine over HTTP, never a hang: every call has one deadline that includes its time in the
 * connection queue; a call beyond `maxInFlight` fails at once; after `breakerFailures` failures in a
 * row the circuit opens and calls fail at once for `breakerCooldownMs`, then one probe is let
 * through (half-open) and its success closes the circuit. `/health` uses its own connection, so a
 * full pool never delays it.
 */
export class HttpEngineClient implements EngineClient {
  readonly mode = 'http' as const;
  private readonly pool: Pool;
  private readonly healthClient: Client;
  kbVersion: string | null = null;
  private readonly timeoutMs: number;
  private readonly maxInFlight: number;
  private readonly breakerFailures: number;
  private readonly breakerCooldownMs: number;
  private inFlight = 0;
  private failures = 0;
  private openUntil = 0;
  private probing = false;

  constructor(baseUrl: string, opts: HttpEngineOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 2000;
    this.maxInFlight = opts.maxInFlight ?? 256;
    this.breakerFailures = opts.breakerFailures ?? 5;
    this.breakerCooldownMs = opts.breakerCooldownMs ?? 2000;
    this.pool = new (undici().Pool)(baseUrl, { connections: 64, pipelining: 1, connectTimeout: Math.min(1000, this.timeoutMs), keepAliveTimeout: 10_000 });
    this.healthClient = new (undici().Client)(baseUrl, { pipelining: 1, connectTimeout: 1000, keepAliveTimeout: 10_000 });
  }

  /** Circuit state: closed (calls go through), open (calls fail at once), half-open (one probe). */
  get circuit(): 'closed' | 'open' | 'half-open' {
    if (this.failures < this.breakerFailures) return 'closed';
    return Date.now() < this.openUntil ? 'open' : 'half-open';
  }

  private async get(dispatcher: Pool | Client, path: string, timeoutMs: number): Promise<{ status: number; body: unknown; version: string | undefined }> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await dispatcher.request({ method: 'GET', path, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      const text = await res.body.text();
      const v = res.headers[KB_VERSION_HEADER];
      return { status: res.statusCode, body: JSON.parse(text), version: typeof v === 'string' ? v : undefined };
    } catch (e) {
      throw new EngineUnavailableError(signal.aborted ? `no answer within ${timeoutMs} ms` : (e as Error).message);
    }
  }

  async call(op: EngineOp, params: EngineParams): Promise<EngineAnswer> {
    const state = this.circuit;
    if (state === 'open') throw new EngineUnavailableError('circuit open after repeated failures');
    if (state === 'half-open') {
      if (this.probing) throw new EngineUnavailableError('circuit half-open: a probe is under way');
      this.probing = true;
    }
    if (this.inFlight >= this.maxInFlight) {
      if (state === 'half-open') this.probing = false;
      throw new EngineUnavailableError(`${this.inFlight} calls already waiting for the engine`);
    }
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.set(k, String(v));
    this.inFlight++;
    try {
      const { status, body, version } = await this.get(this.pool, `/engine/v1/${op}?${qs}`, this.timeoutMs);
      const b = body as { ok?: unknown; error?: { code?: unknown } } | null;
      const wellFormed =
        typeof b === 'object' && b !== null &&
        ((status === 200 && b.ok === true) || (((status >= 400 && status < 500) || status === 301) && b.ok === false && typeof b.error?.code === 'string'));
      if (!wellFormed) throw new EngineUnavailableError(`unexpected engine answer (status ${status})`);
      this.failures = 0;
      if (version) this.kbVersion = version;
      return { status, body, version } as EngineAnswer;
    } catch (e) {
      this.failures++;
      if (this.failures >= this.breakerFailures) this.openUntil = Date.now() + this.breakerCooldownMs;
      throw e;
    } finally {
      this.inFlight--;
      if (state === 'half-open') this.probing = false;
    }
  }

  async health(): Promise<EngineHealth> {
    try {
      const { status, body } = await this.get(this.healthClient, '/engine/health', 1000);
      const b = body as { kb_version?: string };
      if (b.kb_version) this.kbVersion = b.kb_version;
      return { ok: status === 200, kb_version: b.kb_version ?? null };
    } catch (e) {
      return { ok: false, kb_version: null, detail: (e as Error).message };
    }
  }

  async close() {
    await Promise.all([this.pool.destroy(), this.healthClient.destroy()]);
  }
}
