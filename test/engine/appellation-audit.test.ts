// Issue 34, item 6: the audit as a test. test/engine/appellation-audit.json lists appellations whose grape
// rules were read in full in their official text, each with the passage read and the grapes, roles and
// shares it gives. The served rule sets (and the `grapes` fact the API shows) must match it exactly.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sharedEngine, kbEntity } from '../helper.ts';

interface Expected { grape: string; role: string; min_share: number | null; max_share: number | null }
interface AuditSet { scope: string | null; complete: boolean; unmapped?: string[]; grapes: Expected[] }
interface AuditEntry { appellation: string; source: string; locator: string; text: string; text_lang: string; read: string; sets: AuditSet[] }

const audit = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/engine/appellation-audit.json'), 'utf8')) as { appellations: AuditEntry[] };
const norm = (gs: Expected[]) => gs.map((g) => `${g.grape}|${g.role}|${g.min_share}|${g.max_share}`).sort();

describe('the audit list of appellations read in full', () => {
  test('lists at least 30 appellations, each once, each with the passage read and its locator', () => {
    const apps = audit.appellations.map((a) => a.appellation);
    assert.equal(new Set(apps).size, apps.length, 'an appellation once');
    assert.ok(apps.length >= 30, `${apps.length} appellations`);
    for (const a of audit.appellations) {
      assert.ok(a.text.trim().length > 10 && a.locator.trim() && /^[a-z]{2}$/.test(a.text_lang), a.appellation);
      const src = sharedEngine().kb.sources.get(a.source);
      assert.ok(src, `${a.appellation}: source ${a.source}`);
      assert.notEqual(src!.retrieved_via?.kind, 'dataset', `${a.appellation}: read in the text, not a dataset`);
    }
  });

  for (const a of audit.appellations) {
    test(`${a.appellation}: the served sets are the ones the text gives`, () => {
      const e = kbEntity(a.appellation);
      for (const want of a.sets) {
        const got = e.grapeRules.filter((s) => s.source === a.source && (s.scope ?? null) === want.scope);
        assert.equal(got.length, 1, `${a.appellation} (${want.scope}): one served set from ${a.source}, got ${e.grapeRules.map((s) => `${s.source}/${s.scope}`).join(', ')}`);
        const set = got[0]!;
        assert.deepEqual(norm(set.grapes.map((g) => ({ ...g, scope: undefined }) as Expected)), norm(want.grapes), `${a.appellation} (${want.scope})`);
        assert.equal(set.complete, want.complete, `${a.appellation} (${want.scope}) complete`);
        assert.deepEqual((set.unmapped ?? []).map((u) => u.name).sort(), [...(want.unmapped ?? [])].sort(), `${a.appellation} (${want.scope}) unmapped`);
      }
      // the API shows each expected variety with its role and shares, from this source
      const r = sharedEngine().explain({ q: e.name });
      const items = ((r.body as any).profile?.facts?.grapes?.value ?? []) as { entity_id: string; role: string; min_share: number | null; max_share: number | null; scope: string | null; source_key: string }[];
      if ((r.body as any).profile?.entity_key !== a.appellation) return; // a name another entity answers first: the sets above are what is served
      for (const want of a.sets) {
        for (const g of want.grapes) {
          const id = kbEntity(g.grape).id;
          const it = items.find((x) => x.entity_id === id && x.source_key === a.source && x.role === g.role && x.min_share === g.min_share && x.max_share === g.max_share && (want.scope === null ? x.scope === null : (x.scope ?? '').split('; ').includes(want.scope)));
          assert.ok(it, `${a.appellation}: ${g.grape} ${g.role} ${g.min_share}-${g.max_share} (${want.scope}) served`);
        }
      }
    });
  }
});
