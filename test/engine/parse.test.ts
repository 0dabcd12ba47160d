// Reading a product line (issue 22, src/engine/parse.ts): twenty lines from several countries, with
// their spans, terms, vintage, implied grapes, and the rules that keep a confident answer right.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

function parse(text: string) {
  const r = sharedEngine().parse({ text });
  assert.equal(r.status, 200);
  return r.body as any;
}
const keyOf = (m: any) => (m ? sharedEngine().kb.byId.get(m.entity_id)!.key : null);

/** [line, primary key or null, state, vintage] */
const LINES: [string, string | null, string, number | null][] = [
  ['Brunello di Montalcino Casanova di Neri 2016', 'geo/brunello-di-montalcino', 'resolved', 2016],
  ['Louis Jadot Moulin-à-Vent 2019', 'geo/moulin-a-vent', 'resolved', 2019],
  ['Glenfiddich 12 Year Old Single Malt Scotch Whisky 70cl 40%', 'spirit/single-malt-scotch-whisky', 'resolved', null],
  ['Chablis Clotilde Davenne', 'geo/chablis', 'resolved', null],
  ['Côte-Rôtie Maison Rouge', 'geo/cote-rotie', 'resolved', null],
  ['Montecillo Rioja DOCa Crianza', 'geo/rioja', 'resolved', null],
  ['Marqués de Riscal Rioja Reserva 2018', 'geo/rioja', 'resolved', 2018],
  ['Dr. Loosen Riesling Kabinett Mosel 2021', 'geo/mosel', 'resolved', 2021],
  ['Cloudy Bay Sauvignon Blanc Marlborough 2022', 'geo/marlborough', 'resolved', 2022],
  ['Macán Benjamin de Rothschild Vega Sicilia', 'geo/sicilia', 'ambiguous', null],
  ['Penfolds Bin 389 Cabernet Shiraz', 'grape/syrah', 'ambiguous', null],
  ['Taittinger Brut Réserve', 'style/brut', 'ambiguous', null],
  ['Château Musar Bekaa Valley 2015', null, 'unresolved', 2015],
  ['Barolo DOCG Bartolo Mascarello 2017 75cl', 'geo/barolo', 'resolved', 2017],
  ['Domaine Huet Vouvray Le Mont Sec 2020', 'geo/vouvray', 'ambiguous', 2020],
  ['Sancerre Pascal Jolivet 2022 75 cl 13%', 'geo/sancerre', 'resolved', 2022],
  ['Taurasi Mastroberardino Radici 2015', 'geo/taurasi', 'resolved', 2015],
  ['Hermitage Jean-Louis Chave 2018', 'geo/hermitage', 'resolved', 2018],
  ['Guinness Draught Stout 440ml', null, 'unresolved', null],
  ['Quinta do Crasto Douro Reserva Vinhas Velhas 2019', 'geo/douro', 'resolved', 2019],
];

describe('twenty product lines', () => {
  for (const [line, key, state, vintage] of LINES) {
    test(`"${line}"`, () => {
      const b = parse(line);
      assert.equal(b.text, line);
      assert.equal(keyOf(b.primary), key, `primary of "${line}": ${b.primary?.canonical_name}`);
      assert.equal(b.state, state, `${line}: ${b.ambiguity_reasons.join('; ')}`);
      assert.equal(b.vintage, vintage);
      // every span is a slice of the line (UTF-16 offsets)
      for (const s of [...b.mentions, ...b.terms, ...b.unexplained]) assert.equal(line.slice(s.start, s.end), s.text, JSON.stringify(s));
    });
  }
});

describe('spans, terms and implied grapes', () => {
  test('Brunello: the appellation, the producer unexplained, the vintage, Sangiovese implied by the rules', () => {
    const b = parse('Brunello di Montalcino Casanova di Neri 2016');
    assert.deepEqual(b.mentions.map((m: any) => [m.start, m.end, m.role]), [[0, 22, 'appellation']]);
    assert.deepEqual(b.unexplained.map((u: any) => u.text), ['Casanova di Neri']);
    assert.deepEqual(b.terms.map((t: any) => [t.kind, t.value, t.start, t.end]), [['vintage', '2016', 40, 44]]);
    assert.equal(b.implied.length, 1);
    assert.equal(b.implied[0].canonical_name, 'Sangiovese');
    assert.equal(b.implied[0].role, 'required');
    assert.equal(b.implied[0].basis, 'appellation_rules');
    assert.ok(b.implied[0].provenance.source_key);
  });

  test('a spirit line: age, volume and ABV terms with their values', () => {
    const b = parse('Glenfiddich 12 Year Old Single Malt Scotch Whisky 70cl 40%');
    assert.deepEqual(b.terms.map((t: any) => [t.kind, t.value]), [['age', '12 years'], ['volume', '70 cl'], ['abv', '40%']]);
    assert.deepEqual(b.unexplained.map((u: any) => u.text), ['Glenfiddich']);
  });

  test('designation words and traditional terms, each with the source of its list', () => {
    const b = parse('Montecillo Rioja DOCa Crianza');
    const kinds = b.terms.map((t: any) => [t.kind, t.value]);
    assert.deepEqual(kinds, [['designation', 'DOCa'], ['traditional_term', 'Crianza']]);
    for (const t of b.terms) assert.ok(sharedEngine().kb.sources.has(t.source_key), t.value);
  });

  test('a multi-script and accented line keeps JavaScript offsets', () => {
    const line = 'Weingut Prüm Wehlener Sonnenuhr Riesling Spätlese Mosel 2019';
    const b = parse(line);
    for (const s of [...b.mentions, ...b.terms, ...b.unexplained]) assert.equal(line.slice(s.start, s.end), s.text);
    assert.ok(b.terms.some((t: any) => t.kind === 'traditional_term' && t.value.toLowerCase() === 'spätlese'));
  });

  test('"NV" is no vintage, and is reported as a term', () => {
    const b = parse('Bollinger Special Cuvée Brut Champagne NV');
    assert.equal(b.vintage, null);
    assert.ok(b.terms.some((t: any) => t.kind === 'vintage' && t.value === 'NV'));
  });

  test('a producer word never becomes a place by a prefix or a typo', () => {
    const b = parse('Casanova di Neri Tenuta Nuova 2016');
    assert.equal(b.primary, null);
    assert.equal(b.state, 'unresolved');
  });
});

describe('the ambiguous rules', () => {
  test('a one-word place right after an unexplained capitalised word may be part of a name', () => {
    const b = parse('Macán Benjamin de Rothschild Vega Sicilia');
    assert.equal(b.state, 'ambiguous');
    assert.ok(b.ambiguity_reasons.some((r: string) => /capitalised word/.test(r)));
    assert.deepEqual(b.implied, [], 'no grapes implied for a line read ambiguously');
  });

  test('a designation word after the name confirms it', () => {
    assert.equal(parse('Montecillo Rioja DOCa Crianza').state, 'resolved');
  });

  test('two places neither of which contains the other', () => {
    const b = parse('Barolo Chianti Classico 2015');
    assert.equal(b.state, 'ambiguous');
    assert.ok(b.ambiguity_reasons.some((r: string) => /two places/.test(r)));
  });

  test('a place inside another mentioned place is the primary, and the line stays resolved', () => {
    const b = parse('Italy Barolo 2015');
    assert.equal(keyOf(b.primary), 'geo/barolo');
    assert.equal(b.state, 'resolved');
  });

  test('a grape the appellation\'s rules leave out', () => {
    const b = parse('Barolo Merlot 2018');
    assert.equal(keyOf(b.primary), 'geo/barolo');
    assert.equal(b.state, 'ambiguous');
    assert.ok(b.ambiguity_reasons.some((r: string) => /not among the grapes/.test(r)));
  });

  test('a grape the rules require keeps the line resolved', () => {
    assert.equal(parse('Barolo Nebbiolo 2018').state, 'resolved');
  });
});

describe('every endpoint understands a line', () => {
  test('resolve: a line that names nothing as a whole answers with its mentions, matched_on mention, scoring lower', () => {
    const e = sharedEngine();
    const b = e.resolveEntity({ q: 'Cloudy Bay Sauvignon Blanc Marlborough 2022' }).body as any;
    assert.notEqual(b.state, 'unresolved');
    assert.equal(b.matches[0].matched_on, 'mention');
    assert.equal(b.matches[0].canonical_name, 'Marlborough');
    assert.ok(b.matches.some((m: any) => m.canonical_name === 'Sauvignon Blanc'));
    assert.ok(b.matches[0].match_score < 97);
  });

  test('pair and explain act on the line\'s primary', () => {
    const e = sharedEngine();
    const p = e.pair({ q: 'Brunello di Montalcino Casanova di Neri 2016' });
    assert.equal(p.status, 200);
    assert.equal((p.body as any).resolution.canonical_name, 'Brunello di Montalcino');
    assert.equal((p.body as any).resolution.matched_on, 'mention');
  });

  test('a line with no entity stays unresolved (404 on explain)', () => {
    assert.equal(sharedEngine().explain({ q: 'Casanova di Neri Tenuta Nuova' }).status, 404);
  });
});
