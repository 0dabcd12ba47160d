// Issue 33, item 6 and "Done when": every explain and compare answer for the 100 most-asked entities
// (data/demand-prior.json) is at most 32 KB. Long lists are cut and linked (relations_more), so a
// client gets the whole of any list one /v1/entities query away.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

const LIMIT = 32 * 1024;

describe('bodies of the most-asked entities fit in 32 KB (issue 33)', () => {
  const e = sharedEngine();
  const top = Object.entries(e.kb.demandPrior.entities).sort((a, b) => b[1] - a[1]).map(([k]) => k).filter((k) => e.kb.byKey.has(k)).slice(0, 100);

  test('the demand prior names 100 served entities', () => {
    assert.equal(top.length, 100);
  });

  test('explain of each is at most 32 KB, and says what it cut', () => {
    const over: string[] = [];
    for (const k of top) {
      const body = e.explain({ q: k }).body as any;
      const bytes = Buffer.byteLength(JSON.stringify(body));
      if (bytes > LIMIT) over.push(`${k} ${bytes}`);
      const p = body.profile;
      const more = p.relations_more as Record<string, { total: number; shown: number }>;
      if (more.aliases) assert.equal(more.aliases.total, e.kb.byKey.get(k)!.aliases.length, k);
      if (more.appellations) assert.equal(p.relations.appellations.length, more.appellations.shown, k);
    }
    assert.deepEqual(over, []);
  });

  test('compare of each with the next most asked is at most 32 KB', () => {
    const over: string[] = [];
    for (let i = 0; i < top.length; i++) {
      const bytes = Buffer.byteLength(JSON.stringify(e.compare({ left: top[i]!, right: top[(i + 1) % top.length]! }).body));
      if (bytes > LIMIT) over.push(`${top[i]} ${bytes}`);
    }
    assert.deepEqual(over, []);
  });

  // issue 33, item 5: a compare body under 16 KB. The pairs: each of the top 100 with the next, the
  // two the issue names, and each of the top 100 with the ten whose sides weigh most (two appellations
  // with grape rules and sensory notes make the largest bodies).
  test('with provenance=by_key, compare of the top 100 with the next, with the ten heaviest, and pinot noir/gamay, barolo/barbaresco, is under 16 KB', () => {
    const COMPARE_LIMIT = 16 * 1024;
    const bytes = (l: string, r: string) => Buffer.byteLength(JSON.stringify(e.compare({ left: l, right: r, provenance: 'by_key' }).body));
    const sideBytes = new Map<string, number>();
    const pairs: [string, string][] = [['pinot noir', 'gamay'], ['barolo', 'barbaresco']];
    for (let i = 0; i < top.length; i++) {
      const b = e.compare({ left: top[i]!, right: top[(i + 1) % top.length]! }).body as any;
      sideBytes.set(top[i]!, Buffer.byteLength(JSON.stringify(b.left)));
      pairs.push([top[i]!, top[(i + 1) % top.length]!]);
    }
    const heaviest = [...sideBytes].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k]) => k);
    for (const h of heaviest) for (const k of top) if (k !== h) pairs.push([k, h]);
    const over: string[] = [];
    let max = 0;
    for (const [l, r] of pairs) {
      const n = bytes(l, r);
      max = Math.max(max, n);
      if (n > COMPARE_LIMIT) over.push(`${l} / ${r}: ${n}`);
    }
    assert.ok(pairs.length > 1000, `${pairs.length} pairs`);
    assert.deepEqual(over, [], `largest ${max} bytes`);
  });

  test('the entity endpoint still gives every alias', () => {
    const us = e.kb.byKey.get('geo/us')!;
    assert.ok(us.aliases.length > 25);
    assert.equal((e.entity({ id: us.key }).body as any).entity.aliases.length, us.aliases.length);
    assert.equal((e.explain({ q: us.key }).body as any).profile.aliases.length, 25);
  });
});
