// Keys never reach a log: what the gateway and the engine server log of a request (its URL, its
// request id) is percent-decoded before it is searched for keys, so `dis%5Flive%5F…` or a secret
// written as `%41%42…` is caught as surely as a key written plainly. A line that held a key is
// logged in its decoded form with the key masked; any other line is logged as it came.
import { KEY_PREFIX } from './keys.ts';

const KEY_LIKE = /dis_live_[A-Za-z0-9_-]*/g;
const REDACTED = `${KEY_PREFIX}[redacted]`;

/** Percent-decodes runs of escapes, repeatedly (for double encoding); malformed runs stay as they are. */
export function decodeForLog(text: string): string {
  let out = text;
  for (let i = 0; i < 3 && out.includes('%'); i++) {
    const next = out.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        // not UTF-8: decode byte by byte, so an ASCII key inside still shows
        return run.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
      }
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Whether the text holds an API key prefix, plainly or percent-encoded. */
export function holdsKey(text: string): boolean {
  return text.includes(KEY_PREFIX) || decodeForLog(text).includes(KEY_PREFIX);
}

/** A key pasted into a URL by mistake never reaches the logs, encoded or not. */
export function redactKeys(text: string): string {
  if (text.includes('%')) {
    const decoded = decodeForLog(text);
    if (decoded.includes(KEY_PREFIX)) return decoded.replace(KEY_LIKE, REDACTED);
  }
  return text.includes(KEY_PREFIX) ? text.replace(KEY_LIKE, REDACTED) : text;
}
