// One error envelope, one registry of codes. Every error body is
// {ok: false, error: {code, message, request_id, ...details}}.

export const ERROR_CODES = {
  INVALID_REQUEST: { status: 400, meaning: 'A query parameter is missing, empty, repeated, too long or out of range (or a keyed-only parameter was sent to the demo). The message names it.' },
  UNAUTHORIZED: { status: 401, meaning: 'The bearer key is missing, malformed, unknown, revoked or inactive.' },
  ENTITY_NOT_RESOLVED: { status: 404, meaning: 'Nothing in the knowledge base matches the term well enough to act on.' },
  FOOD_NOT_RESOLVED: { status: 404, meaning: 'pair-food: no food of the food vocabulary is named in q; `suggestions` lists near food names.' },
  NOT_FOUND: { status: 404, meaning: 'No endpoint at this path.' },
  GONE: { status: 410, meaning: '/v1/entities/{entity_id}: the entity was served by an earlier knowledge-base release and removed since; `reason`, `date` and `since_version` say why and when. Not counted.' },
  MOVED_PERMANENTLY: { status: 301, meaning: '/v1/entities/{entity_id}: the entity was merged into another or renamed; `replaced_by` names the successor and Location is its /v1/entities path. Not counted.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The path exists but not for this method; see the Allow header.' },
  RATE_LIMITED: { status: 429, meaning: "The key's per-minute request limit is reached; retry after Retry-After seconds." },
  QUOTA_EXCEEDED: { status: 429, meaning: "The key's monthly plan allowance is used up; it renews on the 1st (UTC) or with a larger plan." },
  DEMO_RATE_LIMITED: { status: 429, meaning: 'The demo per-IP limit (per minute or per hour) is reached; use a key for more.' },
  DEMO_DISABLED: { status: 503, meaning: 'The keyless demo is switched off on this deployment; use a key.' },
  DEMO_DAILY_CAP_REACHED: { status: 503, meaning: 'The demo daily cap across all callers is reached; it renews at 00:00 UTC.' },
  ENGINE_UNAVAILABLE: { status: 503, meaning: 'The engine process cannot be reached; retry shortly.' },
  STORE_UNAVAILABLE: { status: 503, meaning: 'The key and usage store (or the limiter store) cannot be reached, or did not answer within 2 s of the request\'s arrival, or too many requests already wait for it (Retry-After: 1); nothing was counted.' },
  INTERNAL_ERROR: { status: 500, meaning: 'An unexpected error; it is logged with the request id.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
  }
}

export function errorBody(code: string, message: string, requestId: string, details: Record<string, unknown> = {}) {
  return { ok: false as const, error: { code, message, request_id: requestId, ...details } };
}

/**
 * A wait said as a time and a duration, for people reading an error: "retry after 14:05 UTC, in
 * 51 min"; seconds under two minutes ("after 13:25:07 UTC, in 45 s"); the date for a day or more
 * ("after 2026-12-01 00:00 UTC, in 7 d 10 h").
 */
export function retryPhrase(now: Date, seconds: number): string {
  const at = new Date(now.getTime() + seconds * 1000);
  const iso = at.toISOString();
  let when: string;
  let dur: string;
  if (seconds < 120) {
    when = `${iso.slice(11, 19)} UTC`;
    dur = `${seconds} s`;
  } else if (seconds < 86_400) {
    when = `${iso.slice(11, 16)} UTC`;
    const h = Math.floor(seconds / 3600);
    const m = Math.round((seconds % 3600) / 60);
    dur = h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
  } else {
    when = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
    const d = Math.floor(seconds / 86_400);
    const h = Math.round((seconds % 86_400) / 3600);
    dur = `${d} d${h ? ` ${h} h` : ''}`;
  }
  return `retry after ${when}, in ${dur}`;
}
