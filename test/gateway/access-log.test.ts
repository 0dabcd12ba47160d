// The access log of the default configuration (LOG_LEVEL=info, issue 25): `npm start`'s process
// writes one "request completed" line per request to standard output, buffered in 4 KB blocks, and a
// quiet service still shows its lines within LOG_FLUSH_MS; a stop writes what is buffered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, tempDir, sleep } from '../helper.ts';
import { AccessLog } from '../../src/gateway/access-log.ts';

test('the access line: the fields pino wrote for "request completed", keys in the URL redacted, absent fields left out', () => {
  const out: string[] = [];
  const a = new AccessLog({ write: (s: string) => out.push(s) });
  a.line('id-1', 'GET', '/v1/explain?q=syrah&api_key=dis_live_abcdefghijklmnopqrstuvwxyz012345', 'api.example', '203.0.113.9', 5555, 200, 0.25);
  a.line('id-2', 'HEAD', '/health', undefined, undefined, undefined, 503, 1);
  assert.equal(out.length, 2);
  assert.ok(out.every((l) => l.endsWith('\n')));
  const [x, y] = out.map((l) => JSON.parse(l));
  assert.deepEqual(Object.keys(x), ['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg']);
  assert.deepEqual(x.req, { method: 'GET', url: '/v1/explain?q=syrah&api_key=dis_live_[redacted]', host: 'api.example', remoteAddress: '203.0.113.9', remotePort: 5555 });
  assert.deepEqual([x.level, x.pid, x.reqId, x.res, x.responseTime, x.msg], [30, process.pid, 'id-1', { statusCode: 200 }, 0.25, 'request completed']);
  assert.ok(Math.abs(x.time - Date.now()) < 60_000);
  assert.deepEqual(y.req, { method: 'HEAD', url: '/health' });
  assert.ok(!out.join('').includes('abcdefghijklmnop'));
});

test('npm start at LOG_LEVEL=info: a single request\'s line reaches standard output though the buffer is not full, and SIGTERM leaves nothing behind', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${path.join(dir, 'a.db')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.on('data', (c) => (stdout += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    let up = false;
    for (let i = 0; i < 300 && !up; i++) {
      up = await fetch(`http://127.0.0.1:${port}/health`, { headers: { 'x-request-id': `probe-${i}` } }).then((r) => r.ok, () => false);
      if (!up) await sleep(100);
    }
    assert.ok(up, 'the service started');
    await fetch(`http://127.0.0.1:${port}/plans`, { headers: { 'x-request-id': 'one-quiet-request' } });
    // well under 4 KB of lines: only the periodic flush can write them
    let line: any;
    for (let i = 0; i < 50 && !line; i++) {
      line = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.reqId === 'one-quiet-request');
      if (!line) await sleep(100);
    }
    assert.ok(line, 'the line was written by the periodic flush');
    assert.equal(line.msg, 'request completed');
    assert.deepEqual(line.res, { statusCode: 200 });
    // a request answered just before SIGTERM is written by the flush on close
    await fetch(`http://127.0.0.1:${port}/plans`, { headers: { 'x-request-id': 'just-before-stop' } });
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(stdout.includes('"reqId":"just-before-stop"'), 'flushed at stop');
    assert.ok(!stdout.includes('incoming request'), "Fastify's own request line is off");
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
