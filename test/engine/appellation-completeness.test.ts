// Issue 34, item 2: honest completeness. Every rule set records `complete`; a partial set lists the names
// it could not map (with the reason) and the API serves that mark with the appellation's grapes. No name
// of the dataset rows is dropped silently: checked here against the reference lead table itself.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, ROOT, sharedEngine } from '../helper.ts';
import { referenceFile } from '../reference.ts';
import { loadKnowledgeBase } from '../../src/engine/kb/load.ts';
import { kbStats } from '../../src/engine/kb/stats.ts';
import { exactForm, fold } from '../../src/engine/normalize.ts';
import { parseCsv } from '../../tools/derive/beer-styles.mjs';

type Grapes = { value: { canonical_name: string }[]; complete: boolean; unmapped: { name: string; reason: string; source_key: string }[]; completeness_note: string | null };
const grapesOf = (q: string): Grapes => {
  const r = sharedEngine().explain({ q });
  assert.equal(r.status, 200, q);
  return (r.body as any).profile.facts.grapes;
};
const unmappedNames = (g: Grapes) => g.unmapped.map((u) => u.name);

describe("the audit's dropped varieties are listed, and the set says it is partial", () => {
  test('Rioja: Mazuela (Mazuelo) and Maturana Tinta', () => {
    const g = grapesOf('Rioja');
    assert.equal(g.complete, false);
    assert.ok(unmappedNames(g).includes('Mazuela') && unmappedNames(g).includes('Maturana Tinta'), JSON.stringify(g.unmapped));
    assert.ok(g.unmapped.every((u) => u.reason && u.source_key));
  });
  test('Priorat: Mazuela (Cariñena)', () => {
    const g = grapesOf('Priorat');
    assert.equal(g.complete, false);
    assert.ok(unmappedNames(g).includes('Mazuela'));
  });
  test('Tokaj: Sárga Muskotály and Kövérszőlő', () => {
    const g = grapesOf('Tokaj');
    assert.equal(g.complete, false);
    assert.ok(unmappedNames(g).some((n) => /^s[aá]rga ?muskot[aá]ly$/i.test(n)), JSON.stringify(unmappedNames(g)));
    assert.ok(unmappedNames(g).some((n) => /^k[oö]v[eé]rsz[oöő]l[oöő]$/i.test(n)));
  });
  test('Douro: Bastardo among the names it could not map', () => {
    const g = grapesOf('Douro');
    assert.equal(g.complete, false);
    assert.ok(unmappedNames(g).includes('Bastardo'));
  });
  test('official texts: Chianti Classico Gran Selezione lists Colorino, Mammolo, Pugnitello and Sanforte; Sancerre and Barolo are complete', () => {
    const g = grapesOf('Chianti Classico');
    assert.equal(g.complete, false);
    for (const n of ['Colorino', 'Mammolo', 'Pugnitello', 'Sanforte']) assert.ok(unmappedNames(g).includes(n), n);
    for (const q of ['Sancerre', 'Barolo']) {
      const c = grapesOf(q);
      assert.equal(c.complete, true, q);
      assert.deepEqual(c.unmapped, [], q);
    }
  });
});

describe('no name is dropped silently', () => {
  const leads = referenceFile('appellation-grapes-leads.csv');
  test('every dataset row of a served rule set is among its grapes or its unmapped names', { skip: !leads && 'the reference lead table is not here (set REFERENCE_DIR)' }, () => {
    const kb = sharedEngine().kb;
    const key = (s: string) => fold(exactForm(s.replace(/ue/g, 'ü').replace(/ae/g, 'ä').replace(/oe/g, 'ö').replace(/Ue/g, 'Ü')));
    const rows = parseCsv(fs.readFileSync(leads!, 'utf8')).filter((r: any) => r.source_publisher.startsWith('European Commission eAmbrosia'));
    // a name the variety crosswalk ties to a grape's VIVC number is a name of that grape (issue 34, item 1)
    const crosswalk = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'grape-crosswalk.json'), 'utf8')) as { name: string; vivc_number: string | null }[];
    const crosswalkNames = new Map<string, string[]>();
    for (const row of crosswalk) if (row.vivc_number) crosswalkNames.set(row.vivc_number, [...(crosswalkNames.get(row.vivc_number) ?? []), row.name]);
    // the dataset sets, by the file number in their locator
    const setByFile = new Map<string, { names: Set<string>; unmapped: Set<string>; appellation: string }>();
    for (const e of kb.entities) {
      for (const set of e.grapeRules) {
        const m = /file (\S+):/.exec(set.locator);
        if (!m || kb.sources.get(set.source)?.retrieved_via?.kind !== 'dataset') continue;
        const names = new Set<string>();
        for (const g of set.grapes) {
          const ge = kb.byKey.get(g.grape)!;
          for (const n of [ge.name, ...ge.aliases.map((a) => a.name), String(ge.facts.vivc_prime_name?.value ?? ''), ...(crosswalkNames.get(String(ge.facts.vivc_id?.value)) ?? [])]) if (n) names.add(key(n));
        }
        setByFile.set(m[1]!, { names, unmapped: new Set((set.unmapped ?? []).map((u) => u.name)), appellation: e.key });
      }
    }
    assert.ok(setByFile.size > 1000, `${setByFile.size} dataset sets`);
    let checked = 0;
    const dropped: string[] = [];
    for (const r of rows as any[]) {
      const set = setByFile.get(r.file_number);
      if (!set) continue;
      checked++;
      if (!set.unmapped.has(r.grape) && !set.names.has(key(r.grape.replace(/\s+/g, ' ')))) dropped.push(`${set.appellation}: ${r.grape}`);
    }
    assert.ok(checked > 20000, `${checked} rows checked`);
    assert.deepEqual(dropped.slice(0, 20), [], `${dropped.length} names dropped without being listed`);
  });

  test('the loader refuses a partial set without its names, and a complete set with unmapped names', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dis-completeness-'));
    try {
      fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
      const f = path.join(dir, 'appellation-grapes', 'official.json');
      const sets = JSON.parse(fs.readFileSync(f, 'utf8'));
      const i = sets.findIndex((s: any) => s.appellation === 'geo/barbaresco');
      const j = sets.findIndex((s: any) => s.appellation === 'geo/chateauneuf-du-pape');
      sets[i].complete = false; // partial, but lists nothing
      sets[j].complete = true; // complete, but lists Grenache gris and Picardan as unmapped
      fs.writeFileSync(f, JSON.stringify(sets));
      const { problems } = loadKnowledgeBase(dir);
      const mine = problems.filter((p) => p.file.includes('official'));
      assert.ok(mine.some((p) => p.record === 'geo/barbaresco' && /lists the names it could not map/.test(p.message)), JSON.stringify(mine));
      assert.ok(mine.some((p) => p.record === 'geo/chateauneuf-du-pape' && /not complete/.test(p.message)), JSON.stringify(mine));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('kb stats counts complete, partial and official sets per country', () => {
    const s = kbStats(path.join(ROOT, 'data')) as any;
    const ag = Object.values(s).find((v: any) => v && typeof v === 'object' && 'by_country' in v && 'rules_from_dataset' in v) as any;
    assert.ok(ag.partial > 0 && ag.complete > 0 && ag.official > 0);
    assert.equal(ag.complete + ag.partial, ag.rules + ag.rules_from_dataset);
    assert.ok(ag.by_country.FR.complete > 0 && ag.by_country.IT.partial > 0);
  });
});

describe('over HTTP', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => t.close());
  test('explain serves complete, unmapped and completeness_note on the grapes fact', async () => {
    const { auth } = await t.createKey('pro');
    const r = await t.app.inject({ method: 'GET', url: '/v1/explain?q=rioja', headers: auth });
    assert.equal(r.statusCode, 200);
    const g = r.json().profile.facts.grapes;
    assert.equal(g.complete, false);
    assert.ok(g.unmapped.some((u: any) => u.name === 'Maturana Tinta' && u.reason === 'no_vivc_match' && u.source_key));
    assert.ok('completeness_note' in g);
    const s = await t.app.inject({ method: 'GET', url: '/v1/explain?q=sancerre', headers: auth });
    assert.equal(s.json().profile.facts.grapes.complete, true);
  });
});
