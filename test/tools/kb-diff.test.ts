// kb:diff (issue 36): the change notes between two knowledge bases. The comparison itself on made-up
// snapshots (added, removed with and without a tombstone, merged, a fact changed, pairing items),
// and between the last two real releases, read from git with each release's own loader: the issue
// 20 regions (Galicia, Andalucía) and the issue 21 New World geographies and appellation grape
// lists appear.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ROOT } from '../helper.ts';
import { changesMarkdown, diffKnowledgeBases, kbDiff } from '../../tools/kb-diff.ts';
import type { KbSnapshot } from '../../tools/kb-history.ts';

const ent = (key: string, facts: KbSnapshot['entities'][number]['facts'] = {}, pairing: Record<string, unknown>[] = []) => ({ key, name: key.split('/')[1]!, type: 'grape', facts, aliases: [], pairing });
const item = (pairing_key: string) => ({ pairing_key, pairing_relationship: 'recommended', food_item: pairing_key, source_key: 'src', geography_scope: null, style_scope: null, oak_scope: null, serving_scope: null, wine_age_scope: null, sweetness_scope: null });
function kbOf(s: Omit<KbSnapshot, 'problems'>) {
  return { version: s.version, entities: s.entities, byKey: new Map(s.entities.map((e) => [e.key, e])), tombstones: { byKey: new Map(s.tombstones.map((t) => [t.entity_key, t])) } };
}

describe('the comparison', () => {
  const a = kbOf({
    version: '1',
    tombstones: [],
    entities: [ent('grape/a', { berry_colour: { value: 'noir', source: 's1', locator: 'l1' } }, [item('lamb'), item('beef')]), ent('grape/gone'), ent('grape/merged'), ent('grape/lost')],
  });
  const b = kbOf({
    version: '2',
    tombstones: [
      { entity_key: 'grape/gone', kind: 'removed', date: '2099-01-01', reason: 'why' },
      { entity_key: 'grape/merged', kind: 'merged', replaced_by: 'grape/a', date: '2099-01-01', reason: 'one variety' },
    ],
    entities: [ent('grape/a', { berry_colour: { value: 'rouge', source: 's2', locator: 'l2' }, vivc_id: { value: '1', source: 's3' } }, [item('lamb'), item('cheese')]), ent('grape/new')],
  });
  const c = diffKnowledgeBases(a as never, b as never, { old: 'one', new: 'two' }, { old: 0, new: 0 });

  test('entities added, removed (with and without a tombstone), merged', () => {
    assert.deepEqual(c.added.map((x) => x.key), ['grape/new']);
    assert.deepEqual(c.removed.map((x) => [x.key, x.reason]), [['grape/gone', 'why'], ['grape/lost', null]]);
    assert.deepEqual(c.merged.map((x) => [x.key, x.replaced_by]), [['grape/merged', 'grape/a']]);
  });
  test('facts changed and added, with old and new value and the source', () => {
    assert.deepEqual(c.facts, [
      { entity: 'grape/a', field: 'berry_colour', change: 'changed', old: 'noir', new: 'rouge', source: 's2', locator: 'l2' },
      { entity: 'grape/a', field: 'vivc_id', change: 'added', old: null, new: '1', source: 's3', locator: null },
    ]);
  });
  test('pairing items added and removed', () => {
    assert.deepEqual(c.pairing.map((p) => [p.change, p.pairing_key]), [['added', 'cheese'], ['removed', 'beef']]);
  });
  test('the Markdown names each change; a removal without a tombstone is flagged', () => {
    const md = changesMarkdown(c);
    assert.match(md, /# Knowledge base 2: changes since 1/);
    assert.match(md, /`grape\/lost` lost: \*\*no tombstone\*\*/);
    assert.match(md, /`grape\/merged` merged → `grape\/a` \(merged, 2099-01-01; answers 301\)/);
    assert.match(md, /\| `grape\/a` \| berry_colour \| changed \| `noir` \| `rouge` \| s2: `l2` \|/);
    assert.match(md, /`grape\/a` recommended cheese: src/);
  });
});

const hasHistory = (() => {
  try {
    execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', '6cd8cad^{commit}'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('between the last two real releases, 2026.11.3 and 2026.11.4', { skip: !hasHistory && 'no git history of the releases here' }, () => {
  test('lists the issue 20 regions and the issue 21 New World geographies and appellation grape lists', () => {
    const c = kbDiff(ROOT, '2026.11.3', '2026.11.4');
    assert.equal(c.old.version, '2026.11.3');
    assert.equal(c.new.version, '2026.11.4');
    const added = new Set(c.added.map((x) => x.key));
    for (const k of ['geo/galicia', 'geo/andalucia', 'geo/queensland', 'geo/northern-territory']) assert.ok(added.has(k), `${k} added`);
    const irpinia = c.facts.find((f) => f.entity === 'geo/irpinia' && f.field === 'grapes');
    assert.ok(irpinia && irpinia.change === 'added' && Array.isArray(irpinia.new) && (irpinia.new as string[]).includes('grape/aglianico'), 'Irpinia gains its grapes from its rules');
    assert.ok(irpinia!.source, 'with its source');
    assert.ok(c.pairing.some((p) => p.change === 'added'));
    assert.equal(c.removed.length, 0);
    assert.equal(c.new.load_problems, 0, 'each release read by its own loader');
  });
});
