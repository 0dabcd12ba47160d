// @drinks-intelligence/client: a typed client for the Drinks Intelligence API. The types are
// generated from the service's OpenAPI document (schema.d.ts, `npm run client:generate`); the calls
// go through openapi-fetch. What this file adds is only what the document cannot: one method per
// endpoint, errors typed by `code`, the quota headers as numbers, and bounded retries on 429/503
// that honour Retry-After.
import createFetchClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { paths };

type Get<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
type Query<P extends keyof paths> = Get<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Ok<P extends keyof paths> = Get<P> extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type ErrorBodyOf<P extends keyof paths> = Get<P> extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 304 ? never : R[S] extends { content: { 'application/json': infer B } } ? B : never }[keyof R]
  : never;
type AnyErrorBody = { [P in keyof paths]: ErrorBodyOf<P> }[keyof paths];
/** Every error code the API documents (INVALID_REQUEST, UNAUTHORIZED, ENTITY_NOT_RESOLVED, ...). */
type CodeOf<B> = B extends { error: { code: infer C } } ? C : never;
export type ErrorCode = CodeOf<AnyErrorBody>;
/** The `demo` object of demo answers, as documented. */
export type DemoInfo = Ok<'/v1/demo/explain'> extends { demo: infer D } ? D : never;

export type ResolveQuery = Query<'/v1/resolve-entity'>;
export type EntitiesQuery = Query<'/v1/entities'>;
export type ResolveResult = Ok<'/v1/resolve-entity'>;
export type ExplainResult = Ok<'/v1/explain'>;
export type PairResult = Ok<'/v1/pair'>;
export type CompareResult = Ok<'/v1/compare'>;
export type ParseResult = Ok<'/v1/parse'>;
export type PairFoodQuery = Query<'/v1/pair-food'>;
export type PairFoodResult = Ok<'/v1/pair-food'>;
export type EntityResult = Ok<'/v1/entities/{entity_id}'>;
export type EntitiesResult = Ok<'/v1/entities'>;
export type UsageResult = Ok<'/v1/usage'>;
export type KbResult = Ok<'/v1/kb'>;
export type KbNotesResult = Ok<'/v1/kb/notes'>;

/** The quota headers of a keyed answer, as numbers (resets are UTC epoch seconds). */
export interface Quota {
  plan: string | null;
  monthlyLimit: number | null;
  monthlyRemaining: number | null;
  monthlyReset: number | null;
  minuteLimit: number | null;
  minuteRemaining: number | null;
  minuteReset: number | null;
}

export interface Answer<T> {
  data: T;
  /** quota headers; null on demo answers */
  quota: Quota | null;
  requestId: string | null;
  etag: string | null;
}

/** An error answer of the API, typed by its documented `code`. */
export class DrinksApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK_ERROR',
    message: string,
    readonly requestId: string | null,
    /** seconds, from Retry-After, where the answer gave one */
    readonly retryAfter: number | null,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'DrinksApiError';
  }
}

export interface ClientOptions {
  /** e.g. https://api.example.com (no trailing /v1) */
  baseUrl: string;
  /** the API key (dis_live_…); never use one in browser code: use `demo: true` there */
  apiKey?: string;
  /** call the keyless /v1/demo/ twins instead of the keyed endpoints */
  demo?: boolean;
  /** retries on 429 and 503 that honour Retry-After; `false` turns them off. Default 2 retries, waits up to 30 s */
  retry?: { retries?: number; maxDelayMs?: number } | false;
  fetch?: typeof globalThis.fetch;
}

const num = (h: Headers, name: string) => {
  const v = h.get(name);
  return v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);
};

function quotaOf(h: Headers): Quota | null {
  if (!h.has('x-ratelimit-limit')) return null;
  return {
    plan: h.get('x-ratelimit-plan'),
    monthlyLimit: num(h, 'x-ratelimit-limit'),
    monthlyRemaining: num(h, 'x-ratelimit-remaining'),
    monthlyReset: num(h, 'x-ratelimit-reset'),
    minuteLimit: num(h, 'x-ratelimit-minute-limit'),
    minuteRemaining: num(h, 'x-ratelimit-minute-remaining'),
    minuteReset: num(h, 'x-ratelimit-minute-reset'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createClient(opts: ClientOptions) {
  const api = createFetchClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: opts.apiKey && !opts.demo ? { Authorization: `Bearer ${opts.apiKey}` } : {},
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const retries = opts.retry === false ? 0 : (opts.retry?.retries ?? 2);
  const maxDelayMs = opts.retry === false ? 0 : (opts.retry?.maxDelayMs ?? 30_000);
  const demo = opts.demo === true;

  async function call<T>(keyedPath: keyof paths, init: { params: { query?: object; path?: object } }, keyless = false): Promise<Answer<T>> {
    const path = demo && !keyless ? String(keyedPath).replace(/^\/v1\//, '/v1/demo/') : String(keyedPath);
    for (let attempt = 0; ; attempt++) {
      let result;
      try {
        result = await (api.GET as (p: string, i: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, init);
      } catch (e) {
        throw new DrinksApiError(0, 'NETWORK_ERROR', `Could not reach ${opts.baseUrl}: ${(e as Error).message}`, null, null, null);
      }
      const { data, error, response } = result;
      const requestId = response.headers.get('x-request-id');
      if (response.ok) return { data: data as T, quota: quotaOf(response.headers), requestId, etag: response.headers.get('etag') };
      const retryAfter = num(response.headers, 'retry-after');
      if ((response.status === 429 || response.status === 503) && attempt < retries && retryAfter !== null && retryAfter * 1000 <= maxDelayMs) {
        await sleep(retryAfter * 1000);
        continue;
      }
      const e = (error as { error?: { code?: ErrorCode; message?: string } } | undefined)?.error;
      throw new DrinksApiError(response.status, e?.code ?? 'INTERNAL_ERROR', e?.message ?? `HTTP ${response.status}`, requestId, retryAfter, error);
    }
  }

  return {
    /** free text → ranked entities (`limit` is keyed only) */
    resolveEntity: (query: ResolveQuery) => call<ResolveResult>('/v1/resolve-entity', { params: { query: demo ? { ...query, limit: undefined } : query } }),
    /** the sourced profile of the best match; `q` may be an entity_id */
    explain: (q: string) => call<ExplainResult>('/v1/explain', { params: { query: { q } } }),
    /** verified pairing guidance, or the boundary */
    pair: (q: string) => call<PairResult>('/v1/pair', { params: { query: { q } } }),
    /** from a food to drinks: the drinks verified sources pair with it, with the evidence (`limit` is keyed only) */
    pairFood: (query: PairFoodQuery) => call<PairFoodResult>('/v1/pair-food', { params: { query: demo ? { ...query, limit: undefined } : query } }),
    /** two entities side by side */
    compare: (left: string, right: string) => call<CompareResult>('/v1/compare', { params: { query: { left, right } } }),
    /** a product line (wine list, catalogue title, label) read into its primary entity, mentions, terms and vintage */
    parse: (text: string) => call<ParseResult>('/v1/parse', { params: { query: { text } } }),
    /** one entity by entity_id or permanent key */
    entity: (entityId: string) => call<EntityResult>('/v1/entities/{entity_id}', { params: { path: { entity_id: entityId } } }),
    /** a page of entities; pass `next_cursor` back as `cursor` */
    entities: (query: EntitiesQuery = {}) => call<EntitiesResult>('/v1/entities', { params: { query } }),
    /** every page of entities, one page at a time */
    async *allEntities(query: Omit<EntitiesQuery, 'cursor'> = {}) {
      let cursor: string | undefined;
      do {
        const page: Answer<EntitiesResult> = await call<EntitiesResult>('/v1/entities', { params: { query: { ...query, cursor } } });
        yield* page.data.entities;
        cursor = page.data.next_cursor ?? undefined;
      } while (cursor);
    },
    /** the knowledge-base release: version, date, counts, link to its notes (keyless, never counted) */
    kb: () => call<KbResult>('/v1/kb', { params: {} }, true),
    /** the change notes of the release, Markdown (keyless, never counted) */
    kbNotes: () => call<KbNotesResult>('/v1/kb/notes', { params: {} }, true),
    /** plan and monthly usage of the key (keyed only, never counted) */
    usage: () => {
      if (demo) throw new DrinksApiError(400, 'INVALID_REQUEST', 'usage needs a key: it has no demo twin', null, null, null);
      return call<UsageResult>('/v1/usage', { params: {} });
    },
  };
}

export type DrinksClient = ReturnType<typeof createClient>;
