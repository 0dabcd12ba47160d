// Issue 31, item 6: a stop while standard output does not drain. The server runs as its own process
// (as `npm start` runs it) with standard output on a FIFO that a reader holds open and never reads:
// the FIFO's 64 KB fill, every later write fails with EAGAIN (the server puts the descriptor in
// non-blocking mode), and SIGTERM must still end the process within the drain deadline
// (LOG_DRAIN_MS), the lines left then dropped. Before the fix the sink retried EAGAIN for ever and
// the process never exited. The only timing assertion is that deadline, with twice its margin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, sleep } from '../helper.ts';
import { freePort, within } from '../services.ts';
import { LOG_DRAIN_MS } from '../../src/gateway/log-sink.ts';
import { newFifo, readAvailable } from './fifo.ts';

test('SIGTERM with standard output on a FIFO nobody reads: the process exits within the drain deadline', { timeout: 120_000 }, async () => {
  const { dir, fifo } = newFifo();
  // the reader end, held open and never read while the server runs (O_NONBLOCK: the open does not wait for a writer)
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  // the writer end, an ordinary blocking descriptor as a shell's `> fifo` would give it
  const writer = fs.openSync(fifo, fs.constants.O_WRONLY);
  const port = await freePort();
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${path.join(dir, 'a.db')}` },
    stdio: ['ignore', writer, 'pipe'],
  });
  fs.closeSync(writer);
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<number | string>((r) => child.once('exit', (code, signal) => r(code ?? signal ?? 'unknown')));
  try {
    let up = false;
    for (let i = 0; i < 300 && !up; i++) {
      up = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      if (!up) await sleep(100);
    }
    assert.ok(up, `the service started: ${stderr}`);
    // 1,200 access lines of about 330 bytes: some 400 KB, six times what the FIFO holds
    const id = (i: number) => `stall-${String(i).padStart(5, '0')}-${'x'.repeat(100)}`;
    for (let i = 0; i < 1200; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/plans`, { headers: { 'x-request-id': id(i) } });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    }
    child.kill('SIGTERM');
    const code = await within(exited, 2 * LOG_DRAIN_MS, 'the exit after SIGTERM');
    assert.equal(code, 0, `a clean stop: ${stderr}`);
    // the output really was stalled: what the FIFO holds is far less than what was logged
    const got = readAvailable(reader).toString('utf8');
    const delivered = got.split('\n').filter((l) => l.includes('"reqId":"stall-')).length;
    assert.ok(delivered > 0 && delivered < 600, `most access lines could not be written (${delivered} of 1200 arrived)`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    fs.closeSync(reader);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
