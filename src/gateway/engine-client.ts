// The gateway's one door to the engine, with two implementations chosen by configuration:
// in-process (default) and HTTP to a separately started engine (`npm run engine`, ENGINE_URL).
// Bodies and engine errors pass through unchanged; an unreachable engine is EngineUnavailableError.
import { Pool } from 'undici';
import { LRUCache } from 'lru-cache';
import type { Engine, EngineResult } from '../engine/engine.ts';

export const ENGINE_OPS = ['resolve-entity', 'explain', 'pair', 'compare', 'entity', 'entities'] as const;
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
  health(): Promise<EngineHealth>;
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
 * Runs engine operations on a local Engine, shared by the in-process client and the engine server.
 * The knowledge base is immutable and the engine deterministic, so results are memoised in an LRU
 * bounded by the size of their JSON (32 MB), so a client walking through many distinct queries
 * cannot grow memory; a repeated query costs a map look-up.
 */
export class EngineRunner {
  private readonly memo = new LRUCache<string, EngineResult>({
    maxSize: MEMO_BYTES,
    sizeCalculation: (r) => Math.max(1, bodyJson.get(r.body)?.length ?? 1),
  });
  constructor(readonly engine: Engine) {}
  run(op: EngineOp, p: EngineParams): EngineResult {
    const key =
      op === 'entities' || op === 'entity' || p.type !== undefined || p.domain !== undefined
        ? `${op}\u0000${JSON.stringify(p, Object.keys(p).sort())}`
        : `${op}\u0000${p.q ?? ''}\u0000${p.limit ?? ''}\u0000${p.left ?? ''}\u0000${p.right ?? ''}`;
    let r = this.memo.get(key);
    if (!r) {
      r = runEngineOp(this.engine, op, p);
      const json = JSON.stringify(r.body);
      if (json.length <= MEMO_BYTES / 64) {
        bodyJson.set(r.body, json);
        this.memo.set(key, r);
      }
    }
    return r;
  }
}

export function runEngineOp(engine: Engine, op: EngineOp, p: EngineParams): EngineResult {
  switch (op) {
    case 'resolve-entity':
      return engine.resolveEntity({
        q: String(p.q),
        limit: p.limit === undefined ? undefined : Number(p.limit),
        type: p.type === undefined ? undefined : String(p.type),
        domain: p.domain === undefined ? undefined : String(p.domain),
      });
    case 'entity':
      return engine.entity({ id: String(p.id) });
    case 'entities':
      return engine.listEntities({
        type: p.type === undefined ? undefined : String(p.type),
        domain: p.domain === undefined ? undefined : String(p.domain),
        country: p.country === undefined ? undefined : String(p.country),
        parent: p.parent === undefined ? undefined : String(p.parent),
        limit: p.limit === undefined ? undefined : Number(p.limit),
        cursor: p.cursor === undefined ? undefined : String(p.cursor),
      });
    case 'explain':
      return engine.explain({ q: String(p.q) });
    case 'pair':
      return engine.pair({ q: String(p.q) });
    case 'compare':
      return engine.compare({ left: String(p.left), right: String(p.right) });
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
  async health(): Promise<EngineHealth> {
    return { ok: true, kb_version: this.engine.version };
  }
  async close() {}
}

export class HttpEngineClient implements EngineClient {
  readonly mode = 'http' as const;
  private readonly pool: Pool;
  kbVersion: string | null = null;

  constructor(baseUrl: string, private readonly timeoutMs = 5000) {
    this.pool = new Pool(baseUrl, { connections: 64, pipelining: 1, connectTimeout: 1000, keepAliveTimeout: 10_000 });
  }

  private async get(path: string, timeoutMs: number): Promise<{ status: number; body: unknown; version: string | undefined }> {
    try {
      const res = await this.pool.request({ method: 'GET', path, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      const text = await res.body.text();
      const v = res.headers[KB_VERSION_HEADER];
      return { status: res.statusCode, body: JSON.parse(text), version: typeof v === 'string' ? v : undefined };
    } catch (e) {
      throw new EngineUnavailableError((e as Error).message);
    }
  }

  async call(op: EngineOp, params: EngineParams): Promise<EngineResult> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.set(k, String(v));
    const { status, body, version } = await this.get(`/engine/v1/${op}?${qs}`, this.timeoutMs);
    const b = body as { ok?: unknown; error?: { code?: unknown } } | null;
    const wellFormed =
      typeof b === 'object' && b !== null &&
      ((status === 200 && b.ok === true) || (status >= 400 && status < 500 && b.ok === false && typeof b.error?.code === 'string'));
    if (!wellFormed) throw new EngineUnavailableError(`unexpected engine answer (status ${status})`);
    if (version) this.kbVersion = version;
    return { status, body, version } as EngineAnswer;
  }

  async health(): Promise<EngineHealth> {
    try {
      const { status, body } = await this.get('/engine/health', 1000);
      const b = body as { kb_version?: string };
      if (b.kb_version) this.kbVersion = b.kb_version;
      return { ok: status === 200, kb_version: b.kb_version ?? null };
    } catch (e) {
      return { ok: false, kb_version: null, detail: (e as Error).message };
    }
  }

  async close() {
    await this.pool.close();
  }
}
