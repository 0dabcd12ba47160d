// The log sink (src/gateway/log-sink.ts): lines kept in blocks and written in order, whole, on a
// real file and a real FIFO that stops draining; the bound on what waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { LogSink } from '../../src/gateway/log-sink.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dis-log-sink-'));

async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('lines stay in the block until it fills or is flushed, then reach the file in order, whole', async () => {
  const dir = tmp();
  const file = path.join(dir, 'out.log');
  const fd = fs.openSync(file, 'w');
  try {
    const sink = new LogSink(fd, { blockBytes: 1024 });
    sink.write('{"n":0}\n');
    assert.equal(fs.readFileSync(file, 'utf8'), '', 'a line under the block size waits for the flush');
    assert.equal(sink.pending, 8);
    const lines = ['{"n":0}'];
    // past several blocks, with multi-byte characters and one line longer than a block
    for (let i = 1; i < 400; i++) {
      const line = i === 200 ? `{"n":${i},"long":"${'x'.repeat(3000)}"}` : `{"n":${i},"name":"Grüner Veltliner – ${i}"}`;
      lines.push(line);
      sink.write(line + '\n');
    }
    sink.flush();
    const want = lines.join('\n') + '\n';
    await until(() => fs.readFileSync(file, 'utf8').length >= want.length - 100 && sink.pending === 0, 'the lines on disk');
    assert.equal(fs.readFileSync(file, 'utf8'), want);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('flushSync writes every line in hand before it returns', () => {
  const dir = tmp();
  const file = path.join(dir, 'out.log');
  const fd = fs.openSync(file, 'w');
  try {
    const sink = new LogSink(fd);
    for (let i = 0; i < 50; i++) sink.write(`line ${i}\n`);
    sink.flushSync();
    assert.equal(fs.readFileSync(file, 'utf8'), Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join(''));
    assert.equal(sink.pending, 0);
    sink.end();
    assert.equal(sink.write('after the end\n'), false);
    sink.flushSync();
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /after the end/);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a reader that stops: blocks wait up to maxQueued, later lines are dropped and counted, the rest arrive in order once it reads', async () => {
  const dir = tmp();
  const fifo = path.join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  // read and write ends on one non-blocking descriptor: nobody reads until the test does
  const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  try {
    const sink = new LogSink(fd, { blockBytes: 4096, maxQueued: 256 * 1024 });
    const line = (i: number) => `{"n":"${String(i).padStart(6, '0')}","pad":"${'p'.repeat(100)}"}\n`;
    let i = 0;
    // far more than the pipe (64 KB) and the bound (256 KB) hold
    for (; i < 6000; i++) sink.write(line(i));
    sink.flush();
    assert.ok(sink.dropped > 0, 'lines past the bound are dropped');
    assert.ok(sink.pending <= 256 * 1024 + 4096, `what waits stays bounded (${sink.pending})`);
    // now read everything; the sink retries after EAGAIN and drains
    let got = '';
    const buf = Buffer.alloc(65536);
    await until(() => {
      for (;;) {
        let n = 0;
        try {
          n = fs.readSync(fd, buf, 0, buf.length, null);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EAGAIN') break;
          throw e;
        }
        if (n <= 0) break;
        got += buf.toString('latin1', 0, n);
      }
      return sink.pending === 0;
    }, 'the queue to drain');
    const seen = got.split('\n').filter(Boolean);
    assert.equal(seen.length + sink.dropped, 6000, 'every line either arrived or was counted as dropped');
    // in order, each whole
    let last = -1;
    for (const l of seen) {
      const n = Number(JSON.parse(l).n);
      assert.ok(n > last, `line ${n} after ${last}`);
      last = n;
    }
    assert.equal(Number(JSON.parse(seen[0]!).n), 0);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
