// A food vocabulary that cannot be loaded is a start-up error (issue 31, item 5): the pair-food index
// is built before the process listens, so a truncated data/food/vocabulary.json stops `npm start`, the
// engine server (ENGINE_URL) and `npm run start:cluster` with exit code 1 and a message naming the
// file, before anything listens or says it is ready; never a crash after ready, and under the cluster
// never a restart loop. Each case starts the real process on a copy of data/ whose vocabulary is cut
// in half (Fastify logs "Server listening" at info level when it listens).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir } from './helper.ts';
import { flushRedis, freePort, redisUrl, spawnTsx, stopChildren, within } from './services.ts';

const REDIS_URL = redisUrl(5); // this file's own Redis database index (nothing is written: no worker gets that far)
let dir: string;
let dataDir: string;

before(() => {
  dir = tempDir('dis-food-vocab-');
  dataDir = path.join(dir, 'data');
  fs.cpSync(path.join(ROOT, 'data'), dataDir, { recursive: true });
  const file = path.join(dataDir, 'food', 'vocabulary.json');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
});

after(async () => {
  await stopChildren();
  await flushRedis(REDIS_URL).catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

const MESSAGE = /food\/vocabulary\.json is not valid JSON: /;

/** Whether anything answers HTTP on the port. */
const answers = (port: number) => fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) }).then(() => true, () => false);

test('npm start with a truncated food vocabulary: exit code 1 naming the file, before listening or reporting ready', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const r = spawnTsx(['src/server.ts'], { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dir, 'server.db')}`, LOG_LEVEL: 'info' });
  assert.equal(await within(r.exited, 45_000, 'server with a truncated vocabulary'), 1, r.stderr().slice(-3000));
  assert.match(r.stderr(), MESSAGE);
  assert.doesNotMatch(r.stdout(), /Server listening/, 'it never listened');
  assert.doesNotMatch(r.stdout(), /drinks intelligence ready/, 'it never said it was ready');
  assert.equal(await answers(port), false);
});

test('the engine as its own process (ENGINE_URL) with a truncated food vocabulary: exit code 1 naming the file, never listening', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const r = spawnTsx(['src/engine-server.ts'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  assert.equal(await within(r.exited, 45_000, 'engine server with a truncated vocabulary'), 1, r.stderr().slice(-3000));
  assert.match(r.stderr(), MESSAGE);
  assert.doesNotMatch(r.stdout(), /Server listening/, 'it never listened');
  assert.equal(await answers(port), false);
});

test('npm run start:cluster with a truncated food vocabulary: stops once with exit code 1, no restart loop', { timeout: 90_000 }, async () => {
  const port = await freePort();
  const r = spawnTsx(['src/cluster.ts'], { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dir, 'cluster.db')}`, REDIS_URL, CLUSTER_WORKERS: '2', LOG_LEVEL: 'info' });
  assert.equal(await within(r.exited, 75_000, 'cluster with a truncated vocabulary'), 1, r.stderr().slice(-3000));
  assert.match(r.stderr(), MESSAGE);
  assert.match(r.stderr(), /a cluster worker failed to start; stopping the cluster/);
  assert.doesNotMatch(r.stdout(), /cluster worker listening/, 'no worker ever listened');
  assert.doesNotMatch(r.stderr(), /cluster worker died; starting a new one/, 'no worker was restarted');
});
