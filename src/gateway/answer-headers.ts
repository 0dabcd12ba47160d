// What every engine answer's caching headers are made of, shared by the keyed route (Fastify) and
// the keyed fast path (fast-keyed.ts), so both write the same values and compare tags alike.

/** Cache lifetime of engine answers: the knowledge base only changes with a release (new ETag). */
export const MAX_AGE_SECONDS = 3600;
export const PUBLIC_CACHE = `public, max-age=${MAX_AGE_SECONDS}`;
export const PRIVATE_CACHE = `private, max-age=${MAX_AGE_SECONDS}`;
export const JSON_TYPE = 'application/json; charset=utf-8';

/** If-None-Match (a list of tags, or *) against the current tag; weak comparison, as RFC 9110 asks. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
