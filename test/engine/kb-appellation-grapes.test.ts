// Appellation rules (issue 21): the grapes of each appellation with their role and shares, the reverse
// relation on grapes, compare's shared grapes, kb stats per country, the grapes the lists and rules name,
// and the loader's checks of rule sets.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedEngine, ROOT } from '../helper.ts';
import { loadKnowledgeBase } from '../../src/engine/kb/load.ts';
import { kbStats } from '../../src/engine/kb/stats.ts';

interface GrapeItem { canonical_name: string; entity_type: string; role: string; min_share: number | null; max_share: number | null; scope: string | null; source_key: string }

function grapesOf(q: string): GrapeItem[] {
  const r = sharedEngine().explain({ q });
  assert.equal(r.status, 200, q);
  const facts = (r.body as any).profile.facts;
  assert.ok(facts.grapes, `${q} has no grapes fact`);
  assert.ok(facts.grapes.provenance.source_key, `${q}: the grapes fact has its provenance`);
  return facts.grapes.value as GrapeItem[];
}

function has(items: GrapeItem[], name: string, role: string, min: number | null, max: number | null, scope: string | null = null) {
  const it = items.find((x) => x.canonical_name === name && x.scope === scope);
  assert.ok(it, `${name} (${scope}) in ${JSON.stringify(items.map((x) => [x.canonical_name, x.scope]))}`);
  assert.deepEqual([it!.role, it!.min_share, it!.max_share], [role, min, max], name);
}

describe('the grapes of ten appellations, with their roles and shares', () => {
  test('Barolo and Barbaresco: Nebbiolo alone', () => {
    has(grapesOf('Barolo'), 'Nebbiolo', 'required', 100, 100);
    has(grapesOf('Barbaresco'), 'Nebbiolo', 'required', 100, null);
  });
  test('Amarone della Valpolicella (2019 text): Corvina and/or Corvinone up to 95%, no 50% cap on Corvinone; Rondinella 5–30%', () => {
    const g = grapesOf('Amarone della Valpolicella');
    has(g, 'Corvina', 'principal', null, 95);
    has(g, 'Corvinone', 'principal', null, 95);
    has(g, 'Rondinella', 'required', 5, 30);
  });
  test('Brunello di Montalcino and Taurasi', () => {
    has(grapesOf('Brunello di Montalcino'), 'Sangiovese', 'required', 100, null);
    has(grapesOf('Taurasi'), 'Aglianico', 'required', 85, null);
  });
  test('Hermitage: the red with Syrah and accessory white varieties, the white with Marsanne and Roussanne', () => {
    const g = grapesOf('Hermitage');
    has(g, 'Syrah', 'required', 85, null, 'red');
    has(g, 'Marsanne', 'accessory', null, 15, 'red');
    has(g, 'Marsanne', 'permitted', null, null, 'white');
  });
  test('Sancerre: Sauvignon Blanc for the white, Pinot Noir for the red and rosé', () => {
    const g = grapesOf('Sancerre');
    has(g, 'Sauvignon Blanc', 'required', 100, null, 'white');
    // one entry for the red and the rosé rule sets, their colours joined (issue 33, item 1)
    has(g, 'Pinot Noir', 'required', 100, null, 'red; rosé');
    assert.equal(g.filter((x) => x.canonical_name === 'Pinot Noir').length, 1);
  });
  test('Cahors and Madiran', () => {
    has(grapesOf('Cahors'), 'Malbec', 'required', 70, null);
    has(grapesOf('Cahors'), 'Tannat', 'accessory', null, null);
    has(grapesOf('Madiran'), 'Tannat', 'required', 50, null);
  });
  test('Soave: Garganega at least 70%, Chardonnay up to 30%', () => {
    const g = grapesOf('Soave');
    has(g, 'Garganega', 'required', 70, null);
    has(g, 'Chardonnay', 'permitted', null, 30);
  });
  test('Chianti Classico Gran Selezione: Sangiovese 90–100%', () => {
    has(grapesOf('Chianti Classico'), 'Sangiovese', 'required', 90, 100, 'Gran Selezione');
  });
  test('the date a rule applies from and the text it superseded are served (issue 34, item 4)', () => {
    const cc = grapesOf('Chianti Classico') as (GrapeItem & { in_force_from?: string; in_force_basis?: string; supersedes?: string[] })[];
    const gs = cc.find((x) => x.canonical_name === 'Sangiovese' && x.scope === 'Gran Selezione')!;
    assert.equal(gs.in_force_from, '2027');
    assert.equal(gs.in_force_basis, 'stated');
    assert.deepEqual(gs.supersedes, ['gu-chianti-classico-2013-art2']);
    const amarone = grapesOf('Amarone della Valpolicella') as (GrapeItem & { in_force_from?: string; supersedes?: string[] })[];
    for (const it of amarone) {
      assert.equal(it.in_force_from, '2019-08-14', it.canonical_name);
      assert.deepEqual(it.supersedes, ['gu-amarone-2010-disciplinare']);
    }
    // the superseded text is listed among the profile's sources
    const r = sharedEngine().explain({ q: 'Amarone della Valpolicella' });
    assert.ok((r.body as any).profile.sources.some((s: { source_key: string }) => s.source_key === 'gu-amarone-2010-disciplinare'));
  });

  test('a set read only through a dataset extraction is never required and gives no shares', () => {
    const e = sharedEngine();
    const rioja = grapesOf('Rioja');
    assert.ok(rioja.length > 3);
    for (const it of rioja) {
      assert.notEqual(it.role, 'required');
      assert.equal(it.min_share, null);
      assert.equal(it.max_share, null);
      assert.equal(e.kb.sources.get(it.source_key)!.retrieved_via?.kind, 'dataset');
    }
  });

  test('an official text wins over the dataset extraction for the same appellation', () => {
    const e = sharedEngine();
    for (const it of grapesOf('Taurasi')) assert.notEqual(e.kb.sources.get(it.source_key)!.retrieved_via?.kind, 'dataset');
  });

  test('at least 1,000 appellations carry grapes, and so do the 18 named in the issue', () => {
    const e = sharedEngine();
    const withRules = e.kb.entities.filter((x) => x.grapeRules.length > 0).length;
    assert.ok(withRules >= 1000, `${withRules}`);
    const named = ['Barbaresco', 'Amarone della Valpolicella', 'Valpolicella', 'Rioja', 'Ribera del Duero', 'Rías Baixas', 'Priorat', 'Taurasi', 'Chablis', 'Sancerre', 'Beaujolais', 'Châteauneuf-du-Pape', 'Hermitage', 'Côte-Rôtie', 'Bandol', 'Cahors', 'Madiran', 'Tokaj'];
    const missing = named.filter((q) => !((sharedEngine().explain({ q }).body as any).profile?.facts?.grapes?.value?.length > 0));
    assert.deepEqual(missing, []);
  });
});

describe('the reverse relation: a grape lists the appellations whose rules name it', () => {
  // the whole relation, uncut: a profile cuts it at 50 (issue 33, item 6) and links to /v1/entities for the rest
  function appellationsOf(q: string) {
    const e = sharedEngine();
    const r = e.explain({ q });
    const key = (r.body as any).profile.entity_key as string;
    const rank: Record<string, number> = { required: 0, principal: 1, permitted: 2, accessory: 3 };
    return [...e.kb.byKey.get(key)!.appellations]
      .sort((x, y) => rank[x.role]! - rank[y.role]!)
      .map((a) => ({ canonical_name: e.kb.entities[a.geo]!.name, role: a.role, scope: a.scope }));
  }
  test('Nebbiolo: Barolo and Barbaresco, required, listed first', () => {
    const a = appellationsOf('Nebbiolo');
    assert.ok(a.some((x) => x.canonical_name === 'Barolo' && x.role === 'required'));
    assert.ok(a.some((x) => x.canonical_name === 'Barbaresco' && x.role === 'required'));
    assert.equal(a[0]!.role, 'required', 'strongest role first');
  });
  test('Corvina: Amarone and Valpolicella, principal (with Corvinone, 2019 text)', () => {
    const a = appellationsOf('Corvina');
    for (const n of ['Amarone della Valpolicella', 'Valpolicella', 'Valpolicella Ripasso', 'Recioto della Valpolicella']) assert.ok(a.some((x) => x.canonical_name === n && x.role === 'principal'), n);
  });
  test('Tannat: Madiran required, Cahors accessory', () => {
    const a = appellationsOf('Tannat');
    assert.ok(a.some((x) => x.canonical_name === 'Madiran' && x.role === 'required'));
    assert.ok(a.some((x) => x.canonical_name === 'Cahors' && x.role === 'accessory'));
  });
  test('a place has no appellations relation entries', () => {
    assert.deepEqual(appellationsOf('Barolo'), []);
  });
});

describe('compare shows both sides\' grapes and which they share', () => {
  test('Barolo and Barbaresco share Nebbiolo; Barolo and Sancerre share none', () => {
    const b = sharedEngine().compare({ left: 'Barolo', right: 'Barbaresco' }).body as any;
    const g = b.comparison.shared.find((x: any) => x.field === 'grapes');
    assert.ok(g, JSON.stringify(b.comparison));
    assert.deepEqual(g.common, ['Nebbiolo']);
    const c = sharedEngine().compare({ left: 'Barolo', right: 'Sancerre' }).body as any;
    assert.ok(c.comparison.differences.some((x: any) => x.field === 'grapes' && x.relation === 'no_shared_values'));
  });
});

describe('every grape a list or a rule names', () => {
  test('at least 1,500 grapes are served, each with a VIVC number', () => {
    const grapes = sharedEngine().kb.entities.filter((e) => e.type === 'grape');
    assert.ok(grapes.length >= 1500, `${grapes.length}`);
    assert.ok(grapes.every((g) => typeof g.facts.vivc_id?.value === 'string'));
  });
  test('the Portuguese and German names missed on held-out data resolve', () => {
    const e = sharedEngine();
    for (const [q, key] of [['Trajadura', 'grape/trajadura'], ['Tinto Cão', 'grape/tinto-cao'], ['Solaris', 'grape/solaris'], ['Arinto', 'grape/arinto'], ['Trincadeira', 'grape/trincadeira']]) {
      const r = e.resolver.resolve(q!, 3);
      assert.equal(e.kb.entities[r.candidates[0]!.entity]!.key, key, q);
      assert.equal(r.state, 'resolved', q);
    }
  });
  test('a grape taken from the fuller VIVC table cites VIVC through the scrape (retrieved_via)', () => {
    const e = sharedEngine();
    const g = e.kb.byKey.get('grape/trajadura')!;
    const src = e.kb.sources.get(g.facts.vivc_id!.source)!;
    assert.match(src.url, /vivc\.de/);
    assert.ok(src.retrieved_via || g.facts.vivc_id!.source === 'vivc');
  });
});

describe('kb stats: appellations with and without grape rules, per country', () => {
  test('Italy has rules from texts and from the dataset; US AVAs have none', () => {
    const s = kbStats(path.join(ROOT, 'data'));
    const it = s.appellation_grapes.by_country.IT!;
    assert.ok(it.rules > 0 && it.rules_from_dataset > 0);
    const us = s.appellation_grapes.by_country.US!;
    assert.equal(us.none, us.appellations);
    assert.equal(s.appellation_grapes.appellations, s.appellation_grapes.rules + s.appellation_grapes.rules_from_dataset + s.appellation_grapes.listed + s.appellation_grapes.none);
  });
});

describe('the loader checks rule sets', () => {
  function withSet(set: unknown) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-rules-'));
    fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'appellation-grapes', 'zz-test.json'), JSON.stringify([set]));
    try {
      return loadKnowledgeBase(dir).problems;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  test('a grape that is no served grape, and an appellation that is no wine geography, are reported', () => {
    const p1 = withSet({ appellation: 'geo/barolo', source: 'hellotaste-barolo-disciplinare', locator: 'x', complete: true, grapes: [{ grape: 'grape/no-such-grape', role: 'required', min_share: null, max_share: null }] });
    assert.ok(p1.some((p) => /not a served grape/.test(p.message)), JSON.stringify(p1));
    const p2 = withSet({ appellation: 'grape/nebbiolo', source: 'hellotaste-barolo-disciplinare', locator: 'x', complete: true, grapes: [{ grape: 'grape/nebbiolo', role: 'required', min_share: null, max_share: null }] });
    assert.ok(p2.some((p) => /not a wine geography/.test(p.message)), JSON.stringify(p2));
  });
  test('a dataset-only set may not say required nor give shares', () => {
    const p = withSet({ appellation: 'geo/rioja', source: 'eambrosia-single-docs-candiago-2022', locator: 'x', complete: true, grapes: [{ grape: 'grape/tempranillo', role: 'required', min_share: 50, max_share: null }] });
    assert.ok(p.some((x) => /never "required"/.test(x.message)), JSON.stringify(p));
  });
});
