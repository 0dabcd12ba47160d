// Keys never reach a log: what the gateway and the engine server log of a request (its URL, its
// request id, its Host and forwarded headers) is percent-decoded before it is searched for keys, so
// `dis%5Flive%5F…` or a secret written as `%41%42…`, encoded any number of times over, is caught as
// surely as a key written plainly. Decoding repeats until nothing changes; a value still changing
// after MAX_DECODE_ROUNDS rounds is logged as REDACTED_TOO_DEEP, whole (no client encodes a value
// that often, and the bound keeps the work per value small). A value that held a key is logged in
// its decoded form with the key masked; any other value is logged as it came. `redactLine` does the
// same for every field of a pino line (app.ts and engine-server.ts pass it as pino's streamWrite hook).
import { KEY_PREFIX } from './keys.ts';

const KEY_LIKE = /dis_live_[A-Za-z0-9_-]*/g;
const REDACTED = `${KEY_PREFIX}[redacted]`;
/** Rounds of percent-decoding at most; a value that would need more is redacted whole. */
export const MAX_DECODE_ROUNDS = 16;
/** What a value encoded more than MAX_DECODE_ROUNDS times over is logged as. */
export const REDACTED_TOO_DEEP = `[redacted: percent-encoded more than ${MAX_DECODE_ROUNDS} times]`;

/** One round: runs of escapes decoded; a run that is not UTF-8 byte by byte, so an ASCII key inside still shows. */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
  });
}

/**
 * The text percent-decoded until nothing changes (each round shortens it, so this ends), or
 * undefined when it still changes after MAX_DECODE_ROUNDS rounds.
 */
export function decodeForLog(text: string): string | undefined {
  let out = text;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    if (!out.includes('%')) return out;
    const next = decodeOnce(out);
    if (next === out) return out;
    out = next;
  }
  return !out.includes('%') || decodeOnce(out) === out ? out : undefined;
}

/** Whether the text holds an API key prefix, plainly or percent-encoded to any depth (past the bound: assumed so). */
export function holdsKey(text: string): boolean {
  if (text.includes(KEY_PREFIX)) return true;
  if (!text.includes('%')) return false;
  const decoded = decodeForLog(text);
  return decoded === undefined || decoded.includes(KEY_PREFIX);
}

/** A key pasted into a URL or a header by mistake never reaches the logs, encoded or not. */
export function redactKeys(text: string): string {
  if (text.includes('%')) {
    const decoded = decodeForLog(text);
    if (decoded === undefined) return REDACTED_TOO_DEEP;
    if (decoded.includes(KEY_PREFIX)) return decoded.replace(KEY_LIKE, REDACTED);
  }
  return text.includes(KEY_PREFIX) ? text.replace(KEY_LIKE, REDACTED) : text;
}

/**
 * A pino line (JSON, one line) with every string in it passed through redactKeys, names included;
 * a line holding no key, in any encoding, is returned as it came (the usual case: two searches).
 */
export function redactLine(line: string): string {
  if (!holdsKey(line)) return line;
  try {
    return JSON.stringify(redactValue(JSON.parse(line))) + '\n';
  } catch {
    // not one JSON value: nothing of it can be kept safely
    return `${JSON.stringify({ msg: 'a log line that held an API key was dropped' })}\n`;
  }
}

function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactKeys(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[redactKeys(k)] = redactValue(x);
  return out;
}
