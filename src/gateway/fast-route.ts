// What the keyed engine routes hand to the keyed fast path (a leaf module of the gateway: types
// only, so the context, the routes and fast-keyed.ts import it in one direction).

/** The engine's 200 for a remembered request, as the Fastify path would send it. */
export interface FastAnswer {
  /** the JSON body */
  bytes: Buffer;
  /** the strong ETag, quoted */
  etag: string;
}

/** A request line a keyed engine route answered 200 for. */
export interface FastRoute {
  /** the route pattern (for metrics), e.g. /v1/entity/:id */
  route: string;
  /**
   * the engine's answer now (its memo), or undefined when it is not a 200 at hand (then Fastify
   * answers); records nothing
   */
  answer(): FastAnswer | undefined;
  /** records the engine call of an answer the fast path gave (the engine-latency histogram), seconds */
  answered(engineSeconds: number): void;
}

/** The keyed fast path as the gateway context holds it (fast-keyed.ts implements it). */
export interface FastPathHandle {
  /** answers given by the fast path (diagnostics and tests) */
  readonly answered: number;
  /** requests that waited on the fast path for the limiter's minute tokens (diagnostics and tests) */
  readonly waited: number;
  /** request lines remembered now */
  readonly size: number;
  /** false: it remembers and answers nothing */
  readonly enabled: boolean;
  /** whether this request line is remembered */
  has(url: string): boolean;
  /** remembers a request line a keyed engine route answered 200 for */
  remember(url: string, route: FastRoute): void;
}
