// The engine answer memo (issue 11, items 10 and 13): keys are a structured encoding, so terms that
// contain the old separator cannot share an entry; white-space variants of a term share one entry
// and still echo the caller's own term; the memo's estimated size stays within its budget however
// many variants are asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineRunner } from '../../src/gateway/engine-client.ts';
import { sharedEngine } from '../helper.ts';

test('no memo-key collision between terms that contain a NUL', () => {
  const r = new EngineRunner(sharedEngine());
  const a = r.run('compare', { left: 'syrah\u0000merlot', right: 'grenache' });
  const b = r.run('compare', { left: 'syrah', right: 'merlot\u0000grenache' });
  assert.notEqual(EngineRunner.memoKey('compare', { left: 'syrah\u0000merlot', right: 'grenache' }), EngineRunner.memoKey('compare', { left: 'syrah', right: 'merlot\u0000grenache' }));
  // two different answers: each quotes its own terms (a 200 echoes them, a 404 names them)
  assert.notDeepEqual(a.body, b.body);
  if (a.status === 200) assert.equal((a.body as any).left.query, 'syrah\u0000merlot');
  if (b.status === 200) assert.equal((b.body as any).right.query, 'merlot\u0000grenache');
});

test('white-space variants share one entry and echo the caller\'s term', () => {
  const r = new EngineRunner(sharedEngine());
  const first = r.run('explain', { q: 'pinot noir' });
  const before = r.memoStats.entries;
  const variant = r.run('explain', { q: '  pinot   noir ' });
  assert.equal(r.memoStats.entries, before, 'no new entry for a white-space variant');
  assert.equal((variant.body as any).query, '  pinot   noir ');
  assert.equal((first.body as any).query, 'pinot noir');
  assert.deepEqual({ ...(variant.body as any), query: 'pinot noir' }, first.body);
  // a miss under a variant quotes the caller's own term
  r.run('explain', { q: 'zzqqxx' });
  const miss = r.run('explain', { q: ' zzqqxx' });
  assert.match((miss.body as any).error.message, /" zzqqxx"/);
});

test('the memo stays within its byte budget under 18,000 variants of one term', () => {
  const r = new EngineRunner(sharedEngine());
  const base = 'cabernet sauvignon';
  for (let i = 0; i < 18_000; i++) {
    let q = '';
    for (let j = 0; j < base.length; j++) q += (i >> j) & 1 ? base[j]!.toUpperCase() : base[j];
    r.run('explain', { q });
  }
  const s = r.memoStats;
  assert.ok(s.bytes <= s.maxBytes, `${s.bytes} > ${s.maxBytes}`);
  assert.ok(s.entries < 18_000, 'older variants were evicted');
});
