import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKnowledgeBaseOrThrow, type KnowledgeBase } from '../../src/engine/kb/load.ts';

// H6 (tag reg): taste profiles read in regulators' texts (Italian disciplinari in the Gazzetta
// Ufficiale, EU single documents, Spanish pliegos ...), loaded through the real KB loader.
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');
let cached: KnowledgeBase | undefined;
const kb = () => (cached ??= loadKnowledgeBaseOrThrow(DATA));
const regExpr = () =>
  kb().entities.flatMap((e) => e.sensory.filter((s) => s.expression_key.startsWith('reg_')).map((s) => ({ e, s })));
const expr = (entity: string, key: string) => {
  const x = kb().byKey.get(entity);
  assert.ok(x, `${entity} is served`);
  const s = x!.sensory.find((y) => y.expression_key === key);
  assert.ok(s, `${entity} carries ${key}`);
  return s!;
};

describe('regulator sensory expressions (reg)', () => {
  test('every reg expression rests on a regulator source; a copy caps it at 0.8', () => {
    const all = regExpr();
    assert.ok(all.length >= 20, `${all.length} reg expressions`);
    for (const { s } of all) {
      assert.equal(s.review_status, 'reviewed');
      for (const p of s.provenance) {
        const src = kb().sources.get(p.source);
        assert.ok(src, p.source);
        assert.equal(src!.authority, 'regulator', p.source);
        assert.equal(s.confidence, src!.retrieved_via ? 0.8 : 0.9, s.expression_key);
        assert.match(p.locator, /^https?:\/\//);
      }
    }
  });

  test('Soave: the 2019 disciplinare, Art. 6, read in the Gazzetta Ufficiale', () => {
    const s = expr('geo/soave', 'reg_soave_white');
    assert.equal(s.geography_scope, 'Soave');
    assert.equal(s.style_scope, 'still white');
    assert.equal(s.body, 'Medium-bodied.');
    const p = s.provenance[0]!;
    assert.equal(p.source, 'gu-soave-doc-2019');
    assert.match(p.locator, /gazzettaufficiale\.it\/.*codiceRedazionale=19A06806/);
    assert.match(p.locator, /idArticolo=6/);
    const src = kb().sources.get(p.source)!;
    assert.match(src.publisher, /Gazzetta Ufficiale/);
    assert.equal(src.retrieved_via, undefined);
    assert.equal(s.confidence, 0.9);
  });

  test('Valpolicella keeps the bitter-almond note of its specification', () => {
    const s = expr('geo/valpolicella', 'reg_valpolicella_red');
    assert.deepEqual(s.primary_aromas, ['bitter almond']);
    assert.equal(s.provenance[0]!.source, 'gu-valpolicella-doc-2019');
    assert.ok(s.provenance[0]!.supports.includes('primary_aromas'));
  });

  test('Bardolino holds a red and a chiaretto expression from one source', () => {
    const red = expr('geo/bardolino', 'reg_bardolino_red');
    const rose = expr('geo/bardolino', 'reg_bardolino_chiaretto_rose');
    assert.equal(red.provenance[0]!.source, rose.provenance[0]!.source);
    assert.match(rose.style_scope ?? '', /rosé/);
  });

  test('old texts say so: Montepulciano d\'Abruzzo rests on the 1992 disciplinare', () => {
    const s = expr('geo/montepulciano-d-abruzzo', 'reg_montepulciano_d_abruzzo_red_1992');
    assert.match(s.expression_name, /1992/);
    assert.match(kb().sources.get(s.provenance[0]!.source)!.notes ?? '', /1992/);
  });

  test('EU single documents read in a copy carry retrieved_via and the 0.8 cap', () => {
    const w = expr('geo/weinviertel', 'reg_weinviertel_gruner_veltliner');
    assert.deepEqual(w.primary_aromas, ['pepper']);
    const p = w.provenance[0]!;
    const src = kb().sources.get(p.source)!;
    assert.equal(src.authority, 'regulator');
    assert.match(src.url, /^https:\/\/eur-lex\.europa\.eu\//);
    assert.equal(src.retrieved_via?.kind, 'mirror');
    assert.equal(src.retrieved_via?.url, p.locator);
    assert.equal(w.confidence, 0.8);
    const roth = expr('geo/uhlen-roth-lay', 'reg_uhlen_roth_lay_riesling');
    assert.match(kb().sources.get(roth.provenance[0]!.source)!.retrieved_via?.note ?? '', /Polish/);
    assert.equal(roth.confidence, 0.8);
  });

  test('at least 35 entities carry a reg expression, across Italy, Germany, Austria and the Netherlands', () => {
    const ents = new Set(regExpr().map(({ e }) => e.key));
    assert.ok(ents.size >= 35, `${ents.size} entities`);
    for (const k of ['geo/soave', 'geo/uhlen-blaufusser-lay', 'geo/weinviertel', 'geo/achterhoek-winterswijk', 'geo/trento']) assert.ok(ents.has(k), k);
  });

  test('a regulation text read in a reprint says so: Vermentino di Gallura', () => {
    const s = expr('geo/vermentino-di-gallura', 'reg_vermentino_di_gallura_white');
    const src = kb().sources.get(s.provenance[0]!.source)!;
    assert.equal(src.retrieved_via?.kind, 'reprint');
    assert.match(src.notes ?? '', /not read/);
    assert.equal(s.confidence, 0.8);
    assert.deepEqual(s.development_aromas, ['vanilla']);
  });

  test('a single document read on EUR-Lex itself keeps 0.9: Würzburger Stein-Berg', () => {
    const s = expr('geo/wurzburger-stein-berg', 'reg_wurzburger_stein_berg_white');
    const src = kb().sources.get(s.provenance[0]!.source)!;
    assert.equal(src.retrieved_via, undefined);
    assert.match(src.url, /eur-lex\.europa\.eu/);
    assert.equal(s.provenance[0]!.locator, src.url);
    assert.equal(s.confidence, 0.9);
    assert.deepEqual(s.primary_aromas, ['flint']);
  });

  test('sensory fields sit where their source puts them (issue 24 audit): Sancerre\'s gunflint is a palate note, Mamertino\'s brick red belongs to the red riserva', () => {
    const sancerre = expr('geo/sancerre', 'euw_sancerre_blanc');
    assert.ok(!sancerre.primary_aromas.includes('flint'));
    assert.ok(sancerre.variation_notes.some((n) => /gunflint/.test(n)));
    const mamertino = expr('geo/mamertino', 'reg_mamertino_di_milazzo');
    const red = mamertino.variation_notes.find((n) => n.startsWith('Red:'))!;
    assert.match(red, /Red riserva: moving towards brick red with age/);
    assert.ok(!/^Red: ruby moving towards brick red/.test(red));
  });
});
