// Standard output for the logs (issue 25): every line, pino's and the access log's, is encoded at
// once into a 64 KB block; a full block is written to the file descriptor in the background, one
// write at a time and in order, and the block in hand is written every LOG_FLUSH_MS (app.ts), on
// close and at exit. It takes the place of pino.destination (sonic-boom), whose write() measures
// the UTF-8 length of its whole pending string for every line (bench/log-sink.ts measures both).
// When the descriptor does not drain (issue 31):
//   - what waits is bounded: past maxQueued bytes, lines at info and below (the access lines) are
//     dropped and counted; warn, error and fatal lines have reservedBytes more of their own, so
//     they are kept ahead of access lines (and past that dropped and counted too);
//   - the synchronous flushes of a stop (close and exit) wait for it at most drainMs in all
//     (LOG_DRAIN_MS), then drop what is left, counted: a stop never hangs on standard output.
//     That needs a descriptor in non-blocking mode (app.ts sees to standard output's), where a
//     full pipe answers EAGAIN; a blocking one would block the write itself.
import fs from 'node:fs';

export interface LogSinkOptions {
  /** the block size in bytes (default 64 KB) */
  blockBytes?: number;
  /** bytes waiting at most before lines at info and below are dropped (default 16 MB) */
  maxQueued?: number;
  /** bytes more that warn, error and fatal lines may use past maxQueued (default 1 MB) */
  reservedBytes?: number;
  /** ms that the synchronous flushes (close, exit) wait in all for a descriptor that does not drain (default LOG_DRAIN_MS) */
  drainMs?: number;
}

/** Lines dropped because the descriptor did not drain, by level: info and below, warn and above. */
export interface DroppedLines {
  info: number;
  warn: number;
}

/** How long a stop waits in all for standard output to take the lines in hand before dropping them. */
export const LOG_DRAIN_MS = 2000;
const EAGAIN_RETRY_MS = 50;
/** How a pino line begins; the access log writes its lines the same way (`{"level":30,…`). */
const LEVEL_PREFIX = '{"level":';
const WAIT = new Int32Array(new SharedArrayBuffer(4));

export class LogSink {
  private readonly blockBytes: number;
  private readonly maxQueued: number;
  private readonly reservedBytes: number;
  private readonly drainMs: number;
  private block: Buffer;
  private used = 0;
  /** full blocks, oldest first, waiting for the descriptor */
  private readonly queue: Buffer[] = [];
  private queued = 0;
  /** a background write is in flight, or waiting for its retry after EAGAIN (`retry`) */
  private writing = false;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** when the synchronous flushes stop waiting (set the first time one has to wait) */
  private drainDeadline: number | undefined;
  /** lines dropped: past the bound, at the drain deadline, or when the descriptor was gone */
  readonly droppedLines: DroppedLines = { info: 0, warn: 0 };

  constructor(
    private readonly fd: number,
    opts: LogSinkOptions = {},
  ) {
    this.blockBytes = opts.blockBytes ?? 64 * 1024;
    this.maxQueued = opts.maxQueued ?? 16 * 1024 * 1024;
    this.reservedBytes = opts.reservedBytes ?? 1024 * 1024;
    this.drainMs = opts.drainMs ?? LOG_DRAIN_MS;
    this.block = Buffer.allocUnsafe(this.blockBytes);
  }

  /** Lines dropped in all. */
  get dropped(): number {
    return this.droppedLines.info + this.droppedLines.warn;
  }

  /** Adds one or more whole lines (pino's and the access log's end in a newline). */
  write(s: string): boolean {
    if (this.closed) return false;
    // a UTF-16 unit is at most 3 bytes of UTF-8; the level is read only past the bound
    if (this.queued + this.used + s.length * 3 > this.maxQueued && !this.admitPastBound(s)) return true;
    if (this.used + s.length * 3 > this.blockBytes) {
      this.seal();
      if (s.length * 3 > this.blockBytes) {
        this.enqueue(Buffer.from(s, 'utf8'));
        return true;
      }
    }
    this.used += this.block.write(s, this.used);
    return true;
  }

  /** Writes the block in hand in the background (after the blocks already waiting). */
  flush() {
    this.seal();
  }

  /**
   * Writes everything in hand before returning (at close and exit), waiting for a descriptor that
   * does not drain until the drain deadline (drainMs after the first wait of any call); what is
   * left then is dropped, counted. A background write in flight finishes on its own.
   */
  flushSync() {
    this.seal(false);
    // a block waiting for its retry after EAGAIN is written here, first
    if (this.retry !== undefined) {
      clearTimeout(this.retry);
      this.retry = undefined;
      this.writing = false;
    }
    // a block whose background write is under way is not written again
    const start = this.writing ? 1 : 0;
    while (this.queue.length > start) {
      const b = this.queue[start]!;
      const n = this.writeSyncWithin(b);
      this.queued -= n;
      if (n < b.length) {
        this.queue[start] = b.subarray(n);
        this.dropFrom(start);
        return;
      }
      this.queue.splice(start, 1);
    }
  }

  /** Stops taking lines, having written those in hand. */
  end() {
    this.flushSync();
    this.closed = true;
  }

  /** Bytes taken but not yet handed to the descriptor (for tests and diagnostics). */
  get pending(): number {
    return this.used + this.queued;
  }

  /** Past maxQueued: a warn, error or fatal line is taken while the reserve lasts; any other is dropped, counted. */
  private admitPastBound(s: string): boolean {
    const warn = s.charCodeAt(9) >= 0x34 && s.charCodeAt(9) <= 0x39 && s.startsWith(LEVEL_PREFIX);
    if (warn && this.queued + this.used + s.length * 3 <= this.maxQueued + this.reservedBytes) return true;
    let lines = 0;
    for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) lines++;
    this.droppedLines[warn ? 'warn' : 'info'] += Math.max(1, lines);
    return false;
  }

  /** Queues the block in hand; `start`: and starts the background write when none is under way. */
  private seal(start = true) {
    if (this.used === 0) return;
    const full = this.block.subarray(0, this.used);
    this.block = Buffer.allocUnsafe(this.blockBytes);
    this.used = 0;
    this.enqueue(full, start);
  }

  private enqueue(b: Buffer, start = true) {
    this.queue.push(b);
    this.queued += b.length;
    if (start && !this.writing) this.next();
  }

  /** Drops the blocks from `start` on, counting their lines by level. */
  private dropFrom(start: number) {
    for (const b of this.queue.splice(start)) {
      this.queued -= b.length;
      for (let from = 0, end = b.indexOf(10); end !== -1; from = end + 1, end = b.indexOf(10, from)) {
        const warn = b[from + 9]! >= 0x34 && b[from + 9]! <= 0x39 && b.toString('latin1', from, from + 9) === LEVEL_PREFIX;
        this.droppedLines[warn ? 'warn' : 'info']++;
      }
    }
  }

  /** Writes as much of `b` as the descriptor takes by the drain deadline; the bytes written. */
  private writeSyncWithin(b: Buffer): number {
    let off = 0;
    while (off < b.length) {
      try {
        off += fs.writeSync(this.fd, b, off, b.length - off);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') {
          // the descriptor is gone (a closed pipe): nothing more can be written
          this.closed = true;
          return off;
        }
        const now = Date.now();
        const deadline = (this.drainDeadline ??= now + this.drainMs);
        if (now >= deadline) return off;
        Atomics.wait(WAIT, 0, 0, Math.min(10, deadline - now));
      }
    }
    return off;
  }

  private next() {
    const b = this.queue[0];
    if (b === undefined) {
      this.writing = false;
      return;
    }
    this.writing = true;
    fs.write(this.fd, b, 0, b.length, null, (err, n) => {
      if (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.retry = setTimeout(() => {
            this.retry = undefined;
            this.next();
          }, EAGAIN_RETRY_MS).unref();
          return;
        }
        // the descriptor is gone (a closed pipe): nothing more can be written
        this.closed = true;
        this.writing = false;
        this.dropFrom(0);
        return;
      }
      if (n < b.length) this.queue[0] = b.subarray(n);
      else this.queue.shift();
      this.queued -= n;
      this.next();
    });
  }
}
