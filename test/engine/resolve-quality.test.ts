// Resolution quality on the labelled query set (issue 4 targets). Quality, not timing: the same
// evaluation as `npm run bench:resolve-quality` (bench/lib/evaluate.ts), asserted.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateEngine, loadLabelledQueries, type Evaluation } from '../../bench/lib/evaluate.ts';
import { sharedEngine } from '../helper.ts';

const misses = (ev: Evaluation, pick: (o: Evaluation['outcomes'][number]) => boolean) =>
  ev.outcomes
    .filter(pick)
    .map((o) => `[${o.kind}] "${o.q}" expect ${o.acceptable.join('|') || 'unresolved'} → ${o.state} ${o.top ?? '-'}`)
    .join('\n');

describe('resolve quality on test/resolve/labelled-queries.json', () => {
  const queries = loadLabelledQueries();
  const ev = evaluateEngine(sharedEngine(), queries);

  test('the labelled set is large enough and spans every entity family and query kind', () => {
    assert.ok(queries.length >= 300, `${queries.length} queries`);
    const families = new Set(queries.flatMap((q) => [q.expect, ...(q.expect_any ?? [])]).filter(Boolean).map((k) => k!.split('/')[0]));
    assert.deepEqual([...families].sort(), ['beer', 'geo', 'grape', 'spirit', 'style']);
    for (const kind of ['ambiguous', 'must_stay_unresolved']) assert.ok(ev.byKind[kind], kind);
  });

  test('every labelled entity key exists in the knowledge base', () => {
    const kb = sharedEngine().kb;
    const missing = queries.flatMap((q) => [q.expect, ...(q.expect_any ?? [])]).filter((k): k is string => !!k && !kb.byKey.has(k));
    assert.deepEqual(missing, []);
  });

  test('precision@1 >= 0.97', () => {
    assert.ok(ev.overall.precisionAt1 >= 0.97, `precision@1 ${ev.overall.precisionAt1.toFixed(3)}; misses:\n${misses(ev, (o) => !o.correct1)}`);
  });

  test('resolved-but-wrong <= 1%', () => {
    assert.ok(
      ev.overall.resolvedButWrongRate <= 0.01,
      `resolved-but-wrong ${(ev.overall.resolvedButWrongRate * 100).toFixed(1)}%:\n${misses(ev, (o) => o.resolvedWrong)}`,
    );
  });

  test('every must-stay-unresolved query stays unresolved', () => {
    assert.ok(ev.overall.mustStayUnresolved > 0);
    assert.equal(ev.overall.mustStayUnresolvedPass, ev.overall.mustStayUnresolved, misses(ev, (o) => o.mustStayUnresolvedPass === false));
  });
});
