// kb validate cross-checks records derived from the register exports against those exports: a file
// number that is not a registered GI, a name the file does not protect, a country or class that
// disagrees with the file number, and a VIVC prime name that is not the one of its number.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateKnowledgeBase } from '../../src/engine/kb/validate.ts';
import { REF, referenceFile } from '../reference.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const haveRef = ['eu-gi-wines-eambrosia-2020.csv', 'vivc-prime-names.csv', 'vivc-prime-names-full.csv', 'us-avas.csv', 'bjcp-2021-beer-styles.csv', 'vivc-grape-index.csv'].every((f) => referenceFile(f) !== undefined);

/** A copy of data/ in which `mutate` changes the first record of `file` that `pick` accepts. */
function mutated(file: string, pick: (r: any) => boolean, mutate: (r: any) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-'));
  fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
  const p = path.join(dir, file);
  const recs = JSON.parse(fs.readFileSync(p, 'utf8'));
  const r = recs.find(pick);
  assert.ok(r, `no record to mutate in ${file}`);
  mutate(r);
  fs.writeFileSync(p, JSON.stringify(recs));
  return { dir, rec: r };
}

describe('kb validate: cross-checks against the register exports', { skip: !haveRef && 'reference tables not beside the repo' }, () => {
  test('the knowledge base as shipped passes', () => {
    const rep = validateKnowledgeBase(path.join(ROOT, 'data'), REF);
    assert.deepEqual(rep.problems, []);
  });

  test('an EU GI whose file number is not registered, or protects another name, or is of another country, is reported', () => {
    const isGi = (r: any) => /^PDO-(FR|IT)-A/.test(r.facts?.file_number?.value ?? '') && r.facts.country;
    const cases: [(r: any) => void, RegExp][] = [
      [(r) => (r.facts.file_number.value = 'PDO-FR-A9999'), /not in the eAmbrosia exports/],
      [(r) => { r.name = 'Nowhere Hills'; r.aliases = []; }, /none of which is a name of this record/],
      [(r) => (r.facts.country.value = 'ES'), /but file PDO-.. is a GI of|is a GI of/],
      [(r) => (r.facts.classification = { ...r.facts.file_number, value: 'PGI' }), /but the file number is PDO/],
    ];
    for (const [mutate, expected] of cases) {
      const { dir, rec } = mutated('geographies/eu-wine-gis.json', isGi, mutate);
      try {
        const rep = validateKnowledgeBase(dir, REF);
        assert.ok(rep.problems.some((p) => p.record === rec.key && expected.test(p.message)), `${expected}: ${JSON.stringify(rep.problems.slice(0, 3))}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test('a grape whose VIVC prime name is not the one of its number is reported', () => {
    const { dir, rec } = mutated('grapes/vivc.json', (r) => r.facts?.vivc_id?.value === '2455', (r) => (r.facts.vivc_prime_name.value = 'NOT A PRIME NAME'));
    try {
      const rep = validateKnowledgeBase(dir, REF);
      assert.ok(rep.problems.some((p) => p.record === rec.key && p.field === 'facts.vivc_prime_name'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('every alias needs a language code, a known source and a locator; an other-language name needs its language', () => {
    const cases: [any, RegExp][] = [
      [{ name: 'Xyzzy Blanc', lang: 'und', kind: 'other_language', source: 'vivc', locator: 'passport' }, /say which language/],
      [{ name: 'Xyzzy Blanc', lang: 'fr', kind: 'synonym', source: 'no-such-source', locator: 'passport' }, /unknown source|needs a source/],
      [{ name: 'Xyzzy Blanc', kind: 'synonym', source: 'vivc', locator: 'passport' }, /lang|language/],
    ];
    for (const [alias, expected] of cases) {
      const { dir, rec } = mutated('grapes/vivc.json', (r) => r.facts?.vivc_id?.value === '2455', (r) => r.aliases.push(alias));
      try {
        const rep = validateKnowledgeBase(dir, REF);
        assert.ok(rep.problems.some((p) => p.record === rec.key && /aliases/.test(p.field) && (expected.test(p.message) || expected.test(p.field))), `${expected}: ${JSON.stringify(rep.problems.slice(0, 3))}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
