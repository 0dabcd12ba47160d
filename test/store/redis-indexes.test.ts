// Each test file that uses the shared Redis server has its own database index (issue 24, 7.8): two
// files on one index see each other's keys, and one that flushes its index would wipe the other's
// windows mid-run (the files run one at a time under `npm test`, but not under a plain
// `node --test`, whose default runs files in parallel). This reads every test source for the
// index it passes to redisUrl(N) (test/services.ts) or writes into a Redis URL, and fails on an
// index used by two files; the benchmarks' default Redis URLs (bench/) are read too. Redis has 16 databases (0-15); past that, a file must use a key prefix of
// its own instead (and never FLUSHDB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../helper.ts';

function testSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testSources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

test('no Redis database index is used by two test files, or by a benchmark and a test file', () => {
  const byIndex = new Map<number, Set<string>>();
  const self = path.relative(ROOT, fileURLToPath(import.meta.url));
  // the benchmarks' defaults too: a bench run beside `npm test` must not flush a test's index
  for (const file of [...testSources(path.join(ROOT, 'test')), ...testSources(path.join(ROOT, 'bench'))]) {
    const rel = path.relative(ROOT, file);
    if (rel === self) continue;
    const src = fs.readFileSync(file, 'utf8');
    // redisUrl(N), and literal URLs on the shared server's port
    const found = [...src.matchAll(/\bredisUrl\((\d+)\)/g), ...src.matchAll(/redis:\/\/127\.0\.0\.1:6379\/(\d+)/g)].map((m) => Number(m[1]));
    for (const i of found) {
      assert.ok(i >= 0 && i <= 15, `${rel}: Redis index ${i} is outside 0-15`);
      if (!byIndex.has(i)) byIndex.set(i, new Set());
      byIndex.get(i)!.add(rel);
    }
  }
  assert.ok(byIndex.size > 0, 'the test sources name their Redis indexes');
  const shared = [...byIndex].filter(([, files]) => files.size > 1).map(([i, files]) => `${i}: ${[...files].join(', ')}`);
  assert.deepEqual(shared, [], 'each test file its own Redis database index');
});
