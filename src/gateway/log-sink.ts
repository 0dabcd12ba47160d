// Standard output for the logs (issue 25): every line, pino's and the access log's, is encoded at
// once into a 64 KB block; a full block is written to the file descriptor in the background, one
// write at a time and in order, and the block in hand is written every LOG_FLUSH_MS (app.ts), on
// close and at exit. It takes the place of pino.destination (sonic-boom), whose write() measures
// the UTF-8 length of its whole pending string for every line (bench/log-sink.ts measures both).
// Blocks waiting for the descriptor are bounded (maxQueued bytes); past that, lines are dropped
// and counted (`dropped`) rather than held without bound when standard output does not drain.
import fs from 'node:fs';

export interface LogSinkOptions {
  /** the block size in bytes (default 64 KB) */
  blockBytes?: number;
  /** bytes of full blocks waiting to be written at most; lines past it are dropped (default 16 MB) */
  maxQueued?: number;
}

const EAGAIN_RETRY_MS = 50;

export class LogSink {
  private readonly blockBytes: number;
  private readonly maxQueued: number;
  private block: Buffer;
  private used = 0;
  /** full blocks, oldest first, waiting for the descriptor */
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private writing = false;
  private closed = false;
  /** lines dropped because maxQueued bytes were already waiting */
  dropped = 0;

  constructor(
    private readonly fd: number,
    opts: LogSinkOptions = {},
  ) {
    this.blockBytes = opts.blockBytes ?? 64 * 1024;
    this.maxQueued = opts.maxQueued ?? 16 * 1024 * 1024;
    this.block = Buffer.allocUnsafe(this.blockBytes);
  }

  /** Adds one or more whole lines (pino's and the access log's end in a newline). */
  write(s: string): boolean {
    if (this.closed) return false;
    // a UTF-16 unit is at most 3 bytes of UTF-8
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

  /** Writes everything in hand before returning (at close and exit); a write in flight finishes on its own. */
  flushSync() {
    this.seal(false);
    // a block whose background write is under way is not written again
    const start = this.writing ? 1 : 0;
    while (this.queue.length > start) {
      const b = this.queue.splice(start, 1)[0]!;
      this.queued -= b.length;
      writeAllSync(this.fd, b);
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

  /** Queues the block in hand; `start`: and starts the background write when none is under way. */
  private seal(start = true) {
    if (this.used === 0) return;
    const full = this.block.subarray(0, this.used);
    this.block = Buffer.allocUnsafe(this.blockBytes);
    this.used = 0;
    this.enqueue(full, start);
  }

  private enqueue(b: Buffer, start = true) {
    if (this.queued + b.length > this.maxQueued) {
      let lines = 0;
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
      this.dropped += Math.max(1, lines);
      return;
    }
    this.queue.push(b);
    this.queued += b.length;
    if (start && !this.writing) this.next();
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
          setTimeout(() => this.next(), EAGAIN_RETRY_MS).unref();
          return;
        }
        // the descriptor is gone (a closed pipe): nothing more can be written
        this.queue.length = 0;
        this.queued = 0;
        this.closed = true;
        this.writing = false;
        return;
      }
      if (n < b.length) this.queue[0] = b.subarray(n);
      else this.queue.shift();
      this.queued -= n;
      this.next();
    });
  }
}

function writeAllSync(fd: number, b: Buffer) {
  let off = 0;
  while (off < b.length) {
    try {
      off += fs.writeSync(fd, b, off, b.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
