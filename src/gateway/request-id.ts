// The request id of an answer (X-Request-Id): the caller's when it is short and printable (and not
// an API key, encoded or not), else a new UUID. Used by Fastify's genReqId and by the keyed fast
// path (fast-keyed.ts), so both give the same id for the same request.
import crypto from 'node:crypto';
import { holdsKey } from './redact.ts';

const SAFE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) && !holdsKey(header) ? header : crypto.randomUUID();
}
