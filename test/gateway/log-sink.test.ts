// The log sink (src/gateway/log-sink.ts): lines kept in blocks and written in order, whole, on a
// real file and a real FIFO that stops draining; the bound on what waits, and the reserve that keeps
// warn and error lines ahead of access lines (issue 31).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { LogSink } from '../../src/gateway/log-sink.ts';
import { AccessLog } from '../../src/gateway/access-log.ts';
import { buildTestApp } from '../helper.ts';
import { stalledFifo } from './fifo.ts';

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
  const out = stalledFifo();
  try {
    const sink = new LogSink(out.fd, { blockBytes: 4096, maxQueued: 256 * 1024 });
    const line = (i: number) => `{"n":"${String(i).padStart(6, '0')}","pad":"${'p'.repeat(100)}"}\n`;
    let i = 0;
    // far more than the pipe (64 KB) and the bound (256 KB) hold
    for (; i < 6000; i++) sink.write(line(i));
    sink.flush();
    assert.ok(sink.dropped > 0, 'lines past the bound are dropped');
    assert.ok(sink.pending <= 256 * 1024 + 4096, `what waits stays bounded (${sink.pending})`);
    // now read everything; the sink retries after EAGAIN and drains
    await until(() => (out.read(), sink.pending === 0), 'the queue to drain');
    const seen = out.read().split('\n').filter(Boolean);
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
    out.close();
  }
});

test('past the bound, warn and error lines are kept (a reserve of their own) while access lines are dropped, each counted by kind', async () => {
  const out = stalledFifo();
  try {
    const sink = new LogSink(out.fd, { blockBytes: 4096, maxQueued: 128 * 1024, reservedBytes: 32 * 1024 });
    // the gateway's two writers: pino (every level) and the access log
    const log = pino({ level: 'info', base: null }, sink);
    const access = new AccessLog(sink);
    let warns = 0;
    // some 750 KB of access lines, many times the FIFO (64 KB) and the bound (128 KB), with a warn
    // line every 100 access lines and an error line every 300 (some 6 KB of them)
    for (let i = 0; i < 3000; i++) {
      access.line(`a-${i}`, 'GET', `/v1/explain?q=${'syrah'.repeat(20)}`, 'api.example', '203.0.113.9', 5555, 200, 0.25);
      if (i % 100 === 99) log.warn({ n: warns++ }, 'a warning');
      if (i % 300 === 299) log.error({ n: warns++ }, 'an error');
    }
    sink.flush();
    assert.ok(sink.pending <= 128 * 1024 + 32 * 1024, `what waits stays within the bound and the reserve (${sink.pending})`);
    await until(() => (out.read(), sink.pending === 0), 'the queue to drain');
    const lines = out.read().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const kept = lines.filter((l) => l.level >= 40).map((l) => l.n);
    assert.deepEqual(kept, Array.from({ length: warns }, (_, i) => i), 'every warn and error line arrived, in order');
    const accessLines = lines.filter((l) => l.msg === 'request completed').length;
    assert.deepEqual(sink.droppedLines, { info: 3000 - accessLines, warn: 0 }, 'the dropped lines were access lines, all counted');
    assert.ok(accessLines < 3000, 'access lines were dropped');

    // the reserve is bounded too: warn lines past it are dropped and counted as such
    for (let i = 0; i < 3000; i++) log.warn({ pad: 'w'.repeat(200) }, 'a flood of warnings');
    sink.flush();
    assert.ok(sink.pending <= 128 * 1024 + 32 * 1024, `what waits stays within the bound and the reserve (${sink.pending})`);
    assert.ok(sink.droppedLines.warn > 0, 'warn lines past the reserve are counted as warn lines');
  } finally {
    out.close();
  }
});

test('the dropped-lines metric says which kind was dropped', async () => {
  const out = stalledFifo();
  const sink = new LogSink(out.fd, { blockBytes: 4096, maxQueued: 16 * 1024, reservedBytes: 16 * 1024 });
  const token = 'metrics-token-0123456789';
  const t = await buildTestApp({ logStream: sink as unknown as NodeJS.WritableStream, env: { LOG_LEVEL: 'info', METRICS_TOKEN: token } });
  try {
    // about 500 access lines of 250 bytes: far past the FIFO (64 KB) and the bound
    for (let i = 0; i < 500; i++) await t.app.inject({ url: '/plans' });
    t.app.log.warn('kept past the bound');
    sink.flush();
    // the scrape's own access line comes after its answer
    const dropped = sink.droppedLines.info;
    const m = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    const info = Number(/^dis_log_lines_dropped_total\{severity="info_or_below"\} (\d+)$/m.exec(m.body)?.[1]);
    const warn = Number(/^dis_log_lines_dropped_total\{severity="warn_or_above"\} (\d+)$/m.exec(m.body)?.[1]);
    assert.ok(info > 0 && info === dropped, `access lines dropped and counted (${info} of ${dropped})`);
    assert.equal(warn, 0, 'no warn line dropped');
    await until(() => (out.read(), sink.pending === 0), 'the queue to drain');
    assert.match(out.read(), /"level":40,[^\n]*"msg":"kept past the bound"/);
  } finally {
    await t.close();
    out.close();
  }
});
