// Issue 34, item 6: the audit as a test. data/appellation-audit.json lists appellations whose grape rules
// were read in full in their official text, each with the passage read and the grapes, roles and shares
// it gives. `kb validate` checks the served rule sets against it (appellationAuditProblems); so does this
// test, and it checks that the API serves each expected variety with its role and shares.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sharedEngine, kbEntity } from '../helper.ts';
import { appellationAuditProblems, type AppellationAuditEntry } from '../../src/engine/kb/validate.ts';

const audit = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/appellation-audit.json'), 'utf8')) as { appellations: AppellationAuditEntry[] };

describe('the audit list of appellations read in full', () => {
  test('lists at least 30 appellations, each once, each with the passage read, its locator and a text source', () => {
    const apps = audit.appellations.map((a) => a.appellation);
    assert.equal(new Set(apps).size, apps.length, 'an appellation once');
    assert.ok(apps.length >= 30, `${apps.length} appellations`);
    for (const a of audit.appellations) {
      assert.ok(a.text.trim().length > 10 && a.locator.trim() && /^[a-z]{2}$/.test(a.text_lang) && /^\d{4}-\d{2}-\d{2}$/.test(a.read), a.appellation);
      const src = sharedEngine().kb.sources.get(a.source);
      assert.ok(src, `${a.appellation}: source ${a.source}`);
      assert.notEqual(src!.retrieved_via?.kind, 'dataset', `${a.appellation}: read in the text, not a dataset`);
    }
  });

  test('kb validate finds every served set as the texts give it', () => {
    assert.deepEqual(appellationAuditProblems(audit, sharedEngine().kb), []);
  });

  test('kb validate reports a served set that differs from the text (the 2010 Amarone cap on Corvinone)', () => {
    // the 2010 text read Corvinone "permitted, up to 50%": an audit expecting it no longer matches what is served
    const stale = structuredClone(audit);
    const amarone = stale.appellations.find((a) => a.appellation === 'geo/amarone-della-valpolicella')!;
    const corvinone = amarone.sets[0]!.grapes.find((g) => g.grape === 'grape/corvinone')!;
    Object.assign(corvinone, { role: 'permitted', max_share: 50 });
    const problems = appellationAuditProblems(stale, sharedEngine().kb);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0]!.record, 'geo/amarone-della-valpolicella');
    assert.match(problems[0]!.message, /grape\/corvinone permitted -\.\.50/);
    // and a partial set the audit calls complete
    const vouvray = structuredClone(audit);
    const v = vouvray.appellations.find((a) => a.appellation === 'geo/vouvray')!.sets[0]!;
    v.complete = true;
    delete v.unmapped;
    assert.equal(appellationAuditProblems(vouvray, sharedEngine().kb).length, 2);
  });

  for (const a of audit.appellations) {
    test(`${a.appellation}: the API serves each variety the text gives, with its role and shares`, () => {
      const e = kbEntity(a.appellation);
      const r = sharedEngine().explain({ q: e.name });
      assert.equal(r.status, 200);
      const profile = (r.body as any).profile;
      assert.equal(profile.entity_key, a.appellation, `"${e.name}" answers ${a.appellation}`);
      const fact = profile.facts.grapes;
      const items = fact.value as { entity_id: string; role: string; min_share: number | null; max_share: number | null; scope: string | null; source_key: string }[];
      for (const want of a.sets) {
        for (const g of want.grapes) {
          const id = kbEntity(g.grape).id;
          const it = items.find((x) => x.entity_id === id && x.source_key === a.source && x.role === g.role && x.min_share === g.min_share && x.max_share === g.max_share && (want.scope === null ? x.scope === null : (x.scope ?? '').split('; ').includes(want.scope)));
          assert.ok(it, `${a.appellation}: ${g.grape} ${g.role} ${g.min_share}-${g.max_share} (${want.scope}) served`);
        }
        // a partial set is never served as the whole list
        if (!want.complete) {
          assert.equal(fact.complete, false);
          for (const n of want.unmapped ?? []) assert.ok(fact.unmapped.some((u: { name: string }) => u.name === n), `${n} listed as unmapped`);
        }
      }
    });
  }
});
