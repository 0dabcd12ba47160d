// The access log (LOG_LEVEL info and below): one JSON line per request, written by the Fastify path
// (app.ts, onResponse) and by the keyed fast path (fast-keyed.ts) alike. The line is the one pino
// wrote for Fastify's "request completed" with the request's fields beside it, built here as one
// string (no serializer pass, no child logger per request):
//   {"level":30,"time":<ms>,"pid":<pid>,"hostname":"<host>","reqId":"<id>",
//    "req":{"method":"GET","url":"<url, keys redacted>","host":"<Host without port, keys redacted>",
//           "remoteAddress":"<address, keys redacted>","remotePort":<port>},
//    "res":{"statusCode":200},"responseTime":<ms>,"msg":"request completed"}
// A field with no value (a request without Host) is left out, as pino leaves out undefined.
import os from 'node:os';
import { redactKeys } from './redact.ts';

export interface LineSink {
  write(line: string): unknown;
}

export class AccessLog {
  private readonly head: string;
  constructor(private readonly out: LineSink) {
    this.head = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"reqId":`;
  }

  /** Writes the line of one answered request; `ms` is the time taken in milliseconds. */
  line(reqId: string, method: string, url: string, host: string | undefined, address: string | undefined, port: number | undefined, status: number, ms: number) {
    this.lineOf(reqId, method, urlField(url), peerFields(host, address, port), status, ms);
  }

  /**
   * The same line from parts a caller keeps (the keyed fast path keeps the URL field per request
   * line and the peer fields per connection): `url` from urlField, `peer` from peerFields.
   */
  lineOf(reqId: string, method: string, url: string, peer: string, status: number, ms: number) {
    this.out.write(
      `{"level":30,"time":${Date.now()}${this.head}${JSON.stringify(reqId)},"req":{"method":"${method}",${url}${peer}},"res":{"statusCode":${status}},"responseTime":${ms},"msg":"request completed"}\n`,
    );
  }
}

/** The URL field of a line, keys redacted: `"url":"…"`. */
export function urlField(url: string): string {
  return `"url":${JSON.stringify(redactKeys(url))}`;
}

/**
 * The peer fields of a line, each left out when it has no value: `,"host":…,"remoteAddress":…,"remotePort":…`.
 * The host is the client's Host header (or X-Forwarded-Host behind TRUST_PROXY) and the address may
 * be X-Forwarded-For's: keys redacted from both.
 */
export function peerFields(host: string | undefined, address: string | undefined, port: number | undefined): string {
  return `${host === undefined ? '' : `,"host":${JSON.stringify(redactKeys(host))}`}${address === undefined ? '' : `,"remoteAddress":${JSON.stringify(redactKeys(address))}`}${port === undefined ? '' : `,"remotePort":${port}`}`;
}
