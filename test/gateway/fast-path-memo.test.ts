// The keyed fast path's memo of request lines (issue 25): only short lines are remembered, within a
// byte budget and an entry count, and a full memo forgets its least recently used line, never
// everything (before: whole URLs of up to 16 KB, 10,000 of them, cleared for everyone when full).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';
import { FAST_PATH_BYTES, FAST_PATH_ENTRIES, FAST_PATH_MAX_URL, KeyedFastPath, type FastRoute } from '../../src/gateway/fast-keyed.ts';

const route: FastRoute = { route: '/v1/resolve-entity', answer: () => undefined, answered: () => undefined };

test('the bounds are the documented numbers', () => {
  assert.equal(FAST_PATH_ENTRIES, 6_000);
  assert.equal(FAST_PATH_MAX_URL, 512);
  assert.equal(FAST_PATH_BYTES, 16 * 1024 * 1024);
});

test('a long request line is never remembered; a full memo forgets the oldest lines, never all of them; its bytes stay within the budget', async () => {
  const t = await buildTestApp();
  try {
    const fast = new KeyedFastPath(t.ctx, true);
    const long = `/v1/resolve-entity?q=merlot&pad=${'x'.repeat(FAST_PATH_MAX_URL)}`;
    fast.remember(long, route);
    assert.equal(fast.has(long), false);
    assert.equal(fast.size, 0);
    const atLimit = `/v1/resolve-entity?q=${'y'.repeat(FAST_PATH_MAX_URL - '/v1/resolve-entity?q='.length)}`;
    assert.equal(atLimit.length, FAST_PATH_MAX_URL);
    fast.remember(atLimit, route);
    assert.equal(fast.has(atLimit), true);

    // lines of the longest length remembered: the byte budget binds before the entry count
    const line = (i: number) => `/v1/resolve-entity?q=${String(i).padStart(FAST_PATH_MAX_URL - 21, '0')}`;
    const n = 20_000;
    for (let i = 0; i < n; i++) fast.remember(line(i), route);
    assert.ok(fast.bytes <= FAST_PATH_BYTES, `${fast.bytes} bytes`);
    assert.ok(fast.size > 1000 && fast.size < FAST_PATH_ENTRIES, `${fast.size} lines`);
    assert.equal(fast.has(line(n - 1)), true, 'the newest line is kept');
    assert.equal(fast.has(line(n - fast.size)), true, 'every line since the oldest kept one is kept');
    assert.equal(fast.has(line(n - fast.size - 1)), false, 'older ones are forgotten');
    assert.equal(fast.has(atLimit), false);

    // short lines: the entry count binds, one line forgotten per line added
    const short = new KeyedFastPath(t.ctx, true);
    for (let i = 0; i < FAST_PATH_ENTRIES + 5; i++) short.remember(`/v1/resolve-entity?q=${i}`, route);
    assert.equal(short.size, FAST_PATH_ENTRIES);
    assert.equal(short.has('/v1/resolve-entity?q=4'), false);
    assert.equal(short.has('/v1/resolve-entity?q=5'), true);

    // a disabled fast path remembers nothing
    const off = new KeyedFastPath(t.ctx, false);
    off.remember('/v1/resolve-entity?q=1', route);
    assert.equal(off.size, 0);
  } finally {
    await t.close();
  }
});
