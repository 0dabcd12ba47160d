// Issue 34, items 1 and 3: the variety crosswalk (data/grape-crosswalk.json) ties the names registers and
// single documents use to VIVC numbers, each row cited; the derivation uses it before the prime-name match;
// Malvasia, Moll and Mondet no longer become the wrong variety; kb validate refuses a white variety as the
// principal grape of a red.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sharedEngine } from '../helper.ts';
import { referenceFile } from '../reference.ts';
import { grapeColourProblems, redOrRoseScope } from '../../src/engine/kb/validate.ts';
import { parseCsv } from '../../tools/derive/beer-styles.mjs';

type Row = { name: string; country: string | null; vivc_number: string | null; vivc_prime_name?: string; reason?: string; source: string; locator: string; basis: string };
const crosswalk = (): Row[] => JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'grape-crosswalk.json'), 'utf8'));
const row = (name: string, country: string | null) => crosswalk().find((r) => r.name === name && r.country === country);
type DatasetSet = { appellation: string; locator: string; complete: boolean; unmapped?: { name: string; reason: string }[]; grapes: { grape: string; role: string; scope?: string | null }[] };
const datasetSets = (): DatasetSet[] => JSON.parse(fs.readFileSync(path.join(ROOT, 'data', 'appellation-grapes', 'eambrosia-datasets.json'), 'utf8'));
const datasetSet = (geo: string) => datasetSets().find((s) => s.appellation === geo)!;
const colourOf = (k: string) => sharedEngine().kb.byKey.get(k)?.facts.berry_colour?.value as string | undefined;

describe('the crosswalk', () => {
  test('Riesling Italico is Welschriesling; Malvasia nera, Alicante by country; every row cited', () => {
    assert.equal(row('Riesling Italico', 'IT')?.vivc_number, '13217');
    assert.equal(row('Riesling Italico', 'IT')?.vivc_prime_name, 'WELSCHRIESLING');
    assert.equal(row('Olasz Rizling', null)?.vivc_number, '13217');
    assert.equal(row('Malvasia Nera', 'IT')?.vivc_number, '7271');
    // Alicante: the Italian register's Alicante N. is Grenache (Garnacha Tinta); Spain's Garnacha Tintorera is Alicante Henri Bouschet
    assert.equal(row('Alicante', 'IT')?.vivc_number, '4461');
    assert.equal(row('Garnacha Tintorera', 'ES')?.vivc_number, '304');
    const kb = sharedEngine().kb;
    for (const r of crosswalk()) {
      assert.ok(kb.sources.has(r.source), `${r.name}: source ${r.source}`);
      assert.ok(r.locator.length > 10, r.name);
      assert.ok(r.vivc_number ? r.vivc_prime_name : r.reason, r.name);
    }
  });

  test('the numbers and prime names agree with the VIVC table', { skip: !referenceFile('vivc-prime-names-full.csv') && 'the VIVC table is not here (set REFERENCE_DIR)' }, () => {
    const vivc = new Map((parseCsv(fs.readFileSync(referenceFile('vivc-prime-names-full.csv')!, 'utf8')) as any[]).map((r) => [r.vivc_number, r.prime_name.replace(/\s+/g, ' ').trim()]));
    const wrong = crosswalk().filter((r) => r.vivc_number && vivc.get(r.vivc_number) !== r.vivc_prime_name).map((r) => `${r.name} ${r.vivc_number}`);
    assert.deepEqual(wrong, []);
    assert.equal(vivc.get('13217'), 'WELSCHRIESLING');
  });

  test('the derivation uses it: the 200 Riesling Italico rows serve Welschriesling', () => {
    const sets = datasetSets();
    assert.equal(sets.filter((s) => (s.unmapped ?? []).some((u) => u.name === 'Riesling Italico')).length, 0);
    assert.ok(sets.filter((s) => s.grapes.some((g) => g.grape === 'grape/welschriesling')).length >= 200);
    assert.equal(sets.filter((s) => (s.unmapped ?? []).some((u) => u.name === 'Alicante')).length, 0);
    assert.equal(sets.filter((s) => (s.unmapped ?? []).some((u) => u.name === 'Vernaccia Di S. Giminiano')).length, 0);
  });

  test('at least 89.5% of the dataset rows of served sets are mapped', { skip: !referenceFile('appellation-grapes-leads.csv') && 'the lead table is not here (set REFERENCE_DIR)' }, () => {
    const rows = (parseCsv(fs.readFileSync(referenceFile('appellation-grapes-leads.csv')!, 'utf8')) as any[]).filter((r) => r.source_publisher.startsWith('European Commission eAmbrosia'));
    const byFile = new Map<string, string[]>();
    for (const r of rows) byFile.set(r.file_number, [...(byFile.get(r.file_number) ?? []), r.grape]);
    let total = 0;
    let unmapped = 0;
    for (const s of datasetSets()) {
      const names = byFile.get(/file (\S+):/.exec(s.locator)![1]!) ?? [];
      const un = new Set((s.unmapped ?? []).map((u) => u.name));
      total += names.length;
      unmapped += names.filter((n) => un.has(n)).length;
    }
    assert.ok(total > 28000, `${total} rows`);
    const share = 1 - unmapped / total;
    assert.ok(share >= 0.895, `${(100 * share).toFixed(1)}% of ${total} rows mapped`);
  });
});

describe('right varieties', () => {
  test("Malvasia: Gioia del Colle's red Malvasia is not Malvasia Istriana (white), and no red lists it", () => {
    const gioia = datasetSet('geo/gioia-del-colle');
    assert.ok(!gioia.grapes.some((g) => g.grape === 'grape/malvasia'), JSON.stringify(gioia.grapes.map((g) => g.grape)));
    assert.deepEqual(gioia.unmapped?.find((u) => u.name === 'Malvasia'), { name: 'Malvasia', reason: 'several_vivc_numbers' });
    const malvasia = sharedEngine().kb.byKey.get('grape/malvasia')!;
    const reds = malvasia.appellations.filter((a) => redOrRoseScope(a.scope) === 'red');
    assert.deepEqual(reds, []);
  });

  test('Moll (Binissalem) is Prensal (Pensal Blanca, VIVC 9113), not Xarel·lo', () => {
    const binissalem = datasetSet('geo/binissalem');
    assert.ok(binissalem.grapes.some((g) => g.grape === 'grape/pensal-blanca'));
    assert.ok(!binissalem.grapes.some((g) => g.grape === 'grape/xarel-lo'));
    const kb = sharedEngine().kb;
    assert.equal(kb.byKey.get('grape/pensal-blanca')!.facts.vivc_id?.value, '9113');
    assert.ok(kb.byKey.get('grape/pensal-blanca')!.aliases.some((a) => a.name === 'Moll'));
    assert.ok(!kb.byKey.get('grape/xarel-lo')!.aliases.some((a) => a.name === 'Moll'));
  });

  test('Mondet (Douro) is not Durif: it is listed as unmapped', () => {
    const douro = datasetSet('geo/douro');
    assert.ok(!douro.grapes.some((g) => g.grape === 'grape/petite-sirah'));
    assert.ok(douro.unmapped?.some((u) => u.name === 'Mondet'));
  });
});

describe('kb validate: berry colour against the wine colours a rule allows', () => {
  const set = (grapes: { grape: string; role: string; scope: string | null }[], scope: string | null = null) => [{ file: 'crafted.json', rec: { appellation: 'geo/crafted', scope, grapes } }];

  test('refuses a white variety as principal of a red (the old Gioia del Colle set)', () => {
    const bad = grapeColourProblems(set([
      { grape: 'grape/primitivo', role: 'principal', scope: 'Red; Rosé' },
      { grape: 'grape/malvasia', role: 'principal', scope: 'Red; Rosé' },
    ]), colourOf);
    assert.equal(bad.problems.length, 1);
    assert.match(bad.problems[0]!.message, /grape\/malvasia/);
    // the set's own scope counts as well
    assert.equal(grapeColourProblems(set([{ grape: 'grape/chardonnay', role: 'required', scope: null }], 'rosso'), colourOf).problems.length, 1);
  });

  test('a rosé may blend white varieties in, a white may be made of black grapes; an all-white rosé is refused', () => {
    assert.equal(grapeColourProblems(set([
      { grape: 'grape/grenache', role: 'principal', scope: 'Rosé' },
      { grape: 'grape/clairette', role: 'principal', scope: 'Rosé' },
    ]), colourOf).problems.length, 0);
    assert.equal(grapeColourProblems(set([{ grape: 'grape/pinot-noir', role: 'principal', scope: 'White sparkling wine' }]), colourOf).problems.length, 0);
    assert.equal(grapeColourProblems(set([{ grape: 'grape/clairette', role: 'principal', scope: 'Rosé' }]), colourOf).problems.length, 1);
    // permitted varieties and scopes of no colour are not checked
    assert.equal(grapeColourProblems(set([{ grape: 'grape/malvasia', role: 'permitted', scope: 'Red' }]), colourOf).problems.length, 0);
    assert.equal(grapeColourProblems(set([{ grape: 'grape/malvasia', role: 'principal', scope: 'Riserva' }]), colourOf).problems.length, 0);
  });

  test('the sets we hold pass, with their exceptions', () => {
    const dir = path.join(ROOT, 'data', 'appellation-grapes');
    const sets = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).map((rec: any) => ({ file: f, rec })));
    const r = grapeColourProblems(sets, colourOf);
    assert.deepEqual(r.problems.map((p) => `${p.record} ${p.field}`), []);
    assert.ok(r.excepted <= 20, `${r.excepted} excepted`);
  });
});
