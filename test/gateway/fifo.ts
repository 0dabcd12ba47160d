// FIFOs for the log tests: an output that nobody reads until the test does (mkfifo, real pipes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

/** A new FIFO in a temp directory: its path, and the directory to remove after. */
export function newFifo(): { dir: string; fifo: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-fifo-'));
  const fifo = path.join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  return { dir, fifo };
}

/** What a non-blocking descriptor holds now, read without waiting. */
export function readAvailable(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(65536);
  for (;;) {
    let n = 0;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw e;
    }
    if (n <= 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/** A FIFO nobody reads until `read()` (read and write ends on one non-blocking descriptor). */
export function stalledFifo() {
  const { dir, fifo } = newFifo();
  const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  const got: Buffer[] = [];
  return {
    fd,
    /** reads what the FIFO holds now; returns all that was read so far */
    read(): string {
      got.push(readAvailable(fd));
      return Buffer.concat(got).toString('utf8');
    },
    close() {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
