// The keyed fast path's header block, built as one string and handed to node:http's ServerResponse
// in place of writeHead (issue 25). writeHead checks every name and value against regular
// expressions, lower-cases each name to look for the ones it treats specially, and appends the
// Date, Connection and Keep-Alive lines; for the fast path's 15 headers that costs more than all of
// its own work. Here the same bytes are built from the same flat list by concatenation alone:
//   - the names are the fast path's own constants, and every value is one it made (numbers, the
//     entity tag, the request id, which request-id.ts only keeps when it is printable ASCII) or the
//     plan's name, which is checked here as writeHead would check it;
//   - Date, Connection: keep-alive and Keep-Alive: timeout=N[, max=M] follow, as writeHead writes
//     them, from the server's own keep-alive settings on the response;
//   - only for a response in the common state: HTTP/1.1 keep-alive, no Expect: 100-continue, the
//     connection's request limit not reached, nothing written or set yet (no setHeader). Anything else (and a Node
//     whose ServerResponse lacks the fields read here, checked once at start) goes through
//     writeHead as before.
// ServerResponse still writes the block with the body, and keeps keep-alive, pipelining, timeouts
// and the end of the response as they were. test/gateway/raw-head.test.ts compares the bytes on
// the wire with writeHead's for the same list, and the states that must fall back.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';

/** The fields of Node's OutgoingMessage and ServerResponse that writeHead sets or reads, read and set here. */
interface Outgoing {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _removedConnection: boolean;
  _defaultKeepAlive: boolean;
  _keepAliveTimeout?: number;
  _maxRequestsPerSocket?: number;
  _expect_continue: boolean;
  chunkedEncoding: boolean;
  useChunkedEncodingByDefault: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached?: boolean;
  sendDate: boolean;
  statusCode: number;
  statusMessage: string;
}

/** What writeHead refuses in a value (Node's checkInvalidHeaderChar). */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Node's own symbol for the headers set one by one (setHeader), found once; such a response goes through writeHead. */
let OUT_HEADERS: symbol | undefined;

/** Whether this Node's ServerResponse starts in the state read here (checked once). */
export const RAW_HEAD_SUPPORTED = (() => {
  try {
    const req = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as unknown as IncomingMessage;
    const probe = new http.ServerResponse(req);
    probe.setHeader('x-probe', '1');
    OUT_HEADERS = Object.getOwnPropertySymbols(probe).find((s) => s.description === 'kOutHeaders' && (probe as unknown as Record<symbol, unknown>)[s] != null);
    const res = new http.ServerResponse(req);
    const r = res as unknown as Outgoing;
    return (
      OUT_HEADERS !== undefined &&
      (res as unknown as Record<symbol, unknown>)[OUT_HEADERS] == null &&
      r._header === null &&
      r._headerSent === false &&
      r._hasBody === true &&
      r._removedConnection === false &&
      r._defaultKeepAlive === true &&
      r._expect_continue === false &&
      r.chunkedEncoding === false &&
      r.useChunkedEncodingByDefault === true &&
      r.shouldKeepAlive === true &&
      r.sendDate === true
    );
  } catch {
    return false;
  }
})();

let dateSecond = -1;
let dateLine = '';
/** The Date line for this second, as Node writes it (Date.prototype.toUTCString). */
function dateOf(nowMs: number): string {
  const s = Math.floor(nowMs / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateLine = 'Date: ' + new Date(s * 1000).toUTCString() + '\r\n';
  }
  return dateLine;
}

let tailTimeout = -1;
let tailMax = -1;
let tailLines = '';
/** Connection and Keep-Alive lines and the blank line, as writeHead writes them for a kept-alive response. */
function tailOf(r: Outgoing): string {
  const t = r._keepAliveTimeout ?? 0;
  const m = ~~(r._maxRequestsPerSocket ?? 0);
  if (t !== tailTimeout || m !== tailMax) {
    tailTimeout = t;
    tailMax = m;
    tailLines = 'Connection: keep-alive\r\n' + (t ? `Keep-Alive: timeout=${Math.floor(t / 1000)}${m > 0 ? `, max=${m}` : ''}\r\n` : '') + '\r\n';
  }
  return tailLines;
}

/**
 * Whether `res` is in the common state this module handles (see above) and `check` (a value from
 * outside this process's own making: the plan's name) is one writeHead would take.
 */
export function rawHeadFits(res: ServerResponse, status: 200 | 304, check: string): boolean {
  const r = res as unknown as Outgoing;
  return (
    RAW_HEAD_SUPPORTED &&
    r._header === null &&
    (res as unknown as Record<symbol, unknown>)[OUT_HEADERS!] == null &&
    r.shouldKeepAlive === true &&
    r.maxRequestsOnConnectionReached !== true &&
    !r._expect_continue &&
    r.sendDate === true &&
    !r.chunkedEncoding &&
    !r._removedConnection &&
    r._defaultKeepAlive === true &&
    r._hasBody === true &&
    (status === 200 || r.useChunkedEncodingByDefault === true) &&
    !INVALID_VALUE.test(check)
  );
}

/** The lines writeHead appends after the caller's headers (Date, Connection, Keep-Alive) and the blank line. */
export function headTail(res: ServerResponse, nowMs: number): string {
  return dateOf(nowMs) + tailOf(res as unknown as Outgoing);
}

/**
 * Sets the status and the header block of `res` (for which rawHeadFits answered true): `head` is
 * the status line and every header line, ending with headTail(res, now).
 */
export function setRawHead(res: ServerResponse, status: 200 | 304, head: string) {
  const r = res as unknown as Outgoing;
  r.statusCode = status;
  r.statusMessage = status === 200 ? 'OK' : 'Not Modified';
  if (status === 304) r._hasBody = false;
  r._header = head;
  r._headerSent = false;
}

/**
 * Sets the status and the header block of `res` from `list` ([name, value, …], no Date,
 * Connection or Keep-Alive among them, the 200's with content-length) exactly as
 * `res.writeHead(status, list)` would, and returns true; or returns false having changed nothing,
 * when the response is not in the common state (then call writeHead). `check` as for rawHeadFits.
 */
export function writeHeadRaw(res: ServerResponse, status: 200 | 304, list: readonly string[], check: string, nowMs: number): boolean {
  if (!rawHeadFits(res, status, check)) return false;
  let h = status === 200 ? 'HTTP/1.1 200 OK\r\n' : 'HTTP/1.1 304 Not Modified\r\n';
  for (let i = 0; i < list.length; i += 2) h += list[i] + ': ' + list[i + 1] + '\r\n';
  setRawHead(res, status, h + headTail(res, nowMs));
  return true;
}
