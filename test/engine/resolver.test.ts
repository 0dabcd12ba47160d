// The resolver's rules (src/engine/resolver.ts header): tiers, folding, word boundaries, typo rules,
// states, limit and determinism. Small synthetic indexes where that is clearer, plus real-KB checks.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  Resolver, RESOLVE_THRESHOLD, AMBIGUITY_MARGIN, PARTIAL_AMBIGUITY_MARGIN, queryParts, type EntityKind, type ResolvableName, type Resolution,
} from '../../src/engine/resolver.ts';
import { damerau, deletes, deletionHashes, exactForm, fold, indexVariants, queryForms, typoBudget } from '../../src/engine/normalize.ts';
import { MATCHED_ON } from '../../src/routes/schemas.ts';
import { sharedEngine } from '../helper.ts';

/** entities[i] = [canonical, ...aliases]; entity i is index i; ties by index. */
function build(entities: string[][], shared: { term: string; entities: number[] }[] = [], order?: (names: ResolvableName[]) => ResolvableName[]) {
  let names: ResolvableName[] = entities.flatMap(([canonical, ...aliases], entity) => [
    { entity, field: 'canonical' as const, value: canonical! },
    ...aliases.map((value) => ({ entity, field: 'alias' as const, value })),
  ]);
  if (order) names = order(names);
  return new Resolver(names, shared, (a, b) => a - b);
}

const top = (r: Resolution) => r.candidates[0];
const entitiesOf = (r: Resolution) => r.candidates.map((c) => c.entity);

function kbResolve(q: string, limit = 10) {
  const e = sharedEngine();
  const r = e.resolver.resolve(q, limit);
  return { ...r, keys: r.candidates.map((c) => e.kb.entities[c.entity]!.key) };
}

describe('tiers', () => {
  const r = build([
    ['Mourvèdre', 'Monastrell'], // 0
    ['Pinot Blanc', 'Weißburgunder', 'Pinot Bianco'], // 1
    ['Napa Valley'], // 2
    ['Cabernet Sauvignon'], // 3
  ]);

  test('each tier has its score and matched_on, in the order of the issue', () => {
    const cases: [string, number, string][] = [
      ['Mourvèdre', 0, 'canonical'],
      ['monastrell', 0, 'alias'],
      ['mourvedre', 0, 'canonical_folded'],
      ['weissburgunder', 1, 'alias_folded'],
      ['Valley Napa', 2, 'canonical_word_order'],
      ['Bianco Pinot', 1, 'alias_word_order'],
      ['cab sauv', 3, 'canonical_prefix'],
      ['cabernet sauvingon', 3, 'canonical_typo'],
    ];
    const scores = cases.map(([q, entity, matchedOn]) => {
      const c = top(r.resolve(q, 5));
      assert.ok(c, q);
      assert.equal(c.entity, entity, q);
      assert.equal(c.matchedOn, matchedOn, q);
      return c.score;
    });
    assert.deepEqual(scores.slice(0, 6), [100, 97, 94, 92, 88, 86]);
    assert.ok(scores[6]! > RESOLVE_THRESHOLD && scores[6]! < 86, `prefix ${scores[6]}`);
    assert.ok(scores[7]! >= RESOLVE_THRESHOLD && scores[7]! < scores[6]!, `typo ${scores[7]}`);
  });

  test('one query, one entity per tier: canonical > alias > folded > word order > prefix', () => {
    const t = build([
      ['Rosso Conero'], // exact canonical
      ['Montepulciano', 'Rosso Conero'], // exact alias
      ['Rosso Cònero'], // folded
      ['Conero Rosso'], // word order
      ['Rosso Conero Riserva'], // prefix (both words, one more in the name)
    ]);
    const res = t.resolve('Rosso Conero', 10);
    assert.deepEqual(entitiesOf(res), [0, 1, 2, 3, 4]);
    assert.deepEqual(res.candidates.map((c) => c.matchedOn), ['canonical', 'alias', 'canonical_folded', 'canonical_word_order', 'canonical_prefix']);
    assert.deepEqual(res.candidates.slice(0, 4).map((c) => c.score), [100, 97, 94, 88]);
    assert.equal(res.state, 'resolved', `100 vs 97 is a gap of ${AMBIGUITY_MARGIN}`);
  });

  test('match_value is the name that matched, as written in the knowledge base', () => {
    assert.equal(top(r.resolve('weissburgunder', 1))!.value, 'Weißburgunder');
    assert.equal(top(r.resolve('cab sauv', 1))!.value, 'Cabernet Sauvignon');
  });

  test('partial matches: a prefix beats a typo on the same name; the canonical name beats an alias', () => {
    const t = build([['Tempranillo'], ['Tinta Roriz', 'Tempranillo Tinto']]);
    const prefix = top(t.resolve('Temprani', 1))!;
    const typo = top(t.resolve('Tempranilo', 1))!;
    assert.equal(prefix.matchedOn, 'canonical_prefix');
    assert.equal(typo.matchedOn, 'canonical_typo');
    assert.ok(prefix.score > typo.score);
    const both = t.resolve('tempr', 5);
    assert.deepEqual(entitiesOf(both), [0, 1], 'the canonical "Tempranillo" before the alias "Tempranillo Tinto"');
  });

  test('scores stay within 0..100 and matched_on is one of the documented values (real KB)', () => {
    for (const q of ['Syrah', 'shiraz', 'gewurztraminer', 'Valley Napa', 'cab sauv', 'Reisling', 'pinot', 'St-Estèphe', 'DIPA', 'valley']) {
      for (const c of kbResolve(q).candidates) {
        assert.ok(c.score >= 0 && c.score <= 100, `${q}: ${c.score}`);
        assert.ok((MATCHED_ON as readonly string[]).includes(c.matchedOn), `${q}: ${c.matchedOn}`);
      }
    }
  });
});

describe('folding', () => {
  test('fold: é→e, ß→ss, æ→ae, ø→o, ł→l, œ→oe; case, hyphens, apostrophes and spaces normalised', () => {
    assert.equal(fold(exactForm('Sémillon')), 'semillon');
    assert.equal(fold(exactForm('Weißburgunder')), 'weissburgunder');
    assert.equal(fold(exactForm('Ærø')), 'aero');
    assert.equal(fold(exactForm('Søndre')), 'sondre');
    assert.equal(fold(exactForm('Łódź')), 'lodz');
    assert.equal(fold(exactForm('Bœuf')), 'boeuf');
    assert.equal(exactForm("  Nero d'Avola  "), 'nero davola');
    assert.equal(exactForm("Nero d'Avola", ' '), 'nero d avola');
    assert.equal(exactForm('Crozes-Hermitage'), 'crozes hermitage');
  });

  test('the ASCII and Latin fast paths give the strings the Unicode path gives', () => {
    // a trailing em dash (a word break, so it leaves the answer alone) sends a string down the Unicode path
    const slow = <T>(f: (s: string) => T, s: string) => f(`${s}\u2014`);
    const samples: string[] = ["Grüner Veltliner", "CÔTES-DU-RHÔNE", "Château d'Yquem", "  Straße  ", "ÆbleØl", "Þorri", "l'Œil", "AbCdÉf", "x`y", "A'B", 'Muškat momjanski', 'İzmir', 'aŀb', 'ŉa', 'Ĳssel'];
    for (let c = 0x80; c <= 0x17f; c++) {
      const ch = String.fromCharCode(c);
      samples.push(ch, `a${ch}b`, `${ch}${ch.toUpperCase()} x`, `x'${ch}`, `Gr${ch}Ve`);
    }
    for (const s of samples) {
      assert.equal(exactForm(s), slow(exactForm, s), `exactForm ${s}`);
      assert.equal(exactForm(s, ' '), slow((x) => exactForm(x, ' '), s), `exactForm/space ${s}`);
      assert.equal(fold(s), slow(fold, s), `fold ${s}`);
      const qf = queryForms(s);
      const qs = slow(queryForms, s);
      assert.deepEqual([qf.exact, qf.folded, qf.foldedAlt, qf.tokens, qf.cased], [qs.exact, qs.folded, qs.foldedAlt, qs.tokens, qs.cased], `queryForms ${s}`);
    }
  });

  test('folding applies to the query and to the index, in both directions', () => {
    const pairs: [string, string][] = [
      ['Sémillon', 'Semillon'],
      ['Weißburgunder', 'Weissburgunder'],
      ['Ærøskøbing', 'Aeroskobing'],
      ['Wałbrzych', 'Walbrzych'],
      ['Blaufränkisch', 'Blaufrankisch'],
    ];
    for (const [accented, plain] of pairs) {
      for (const [indexed, query] of [[accented, plain], [plain, accented]] as const) {
        const c = top(build([[indexed]]).resolve(query, 1));
        assert.ok(c, `${query} → ${indexed}`);
        assert.equal(c.matchedOn, 'canonical_folded', `${query} → ${indexed}`);
        assert.equal(c.score, 94);
      }
    }
  });

  test('"spät-" is found as "spat-" and "spaet-", on both sides', () => {
    assert.deepEqual(indexVariants('Spätburgunder').sort(), ['spaetburgunder', 'spatburgunder']);
    const umlaut = build([['Spätburgunder']]);
    for (const q of ['Spatburgunder', 'spaetburgunder', 'SPÄTBURGUNDER']) {
      assert.equal(top(umlaut.resolve(q, 1))?.entity, 0, q);
    }
    assert.equal(top(umlaut.resolve('spaet', 1))?.matchedOn, 'canonical_prefix');
    assert.equal(top(umlaut.resolve('spat', 1))?.matchedOn, 'canonical_prefix');
    // names written without the umlaut are found from a query with it
    for (const indexed of ['Spaetburgunder', 'Spatburgunder']) {
      const c = top(build([[indexed]]).resolve('Spätburgunder', 1));
      assert.equal(c?.matchedOn, 'canonical_folded', indexed);
    }
  });

  test('an exact (unfolded) match scores above a folded one', () => {
    const r = build([['Mâcon'], ['Macon']]);
    const accented = r.resolve('Mâcon', 5);
    assert.deepEqual(entitiesOf(accented), [0, 1]);
    assert.deepEqual(accented.candidates.map((c) => c.score), [100, 94]);
    assert.equal(accented.state, 'resolved');
    const plain = r.resolve('macon', 5);
    assert.deepEqual(entitiesOf(plain), [1, 0]);
    assert.deepEqual(plain.candidates.map((c) => c.score), [100, 94]);
  });

  test('St/Saint, Mt/Mount abbreviations match both ways', () => {
    const r = build([['Saint-Estèphe'], ['St. Vincent'], ['Mount Veeder']]);
    assert.equal(top(r.resolve('St-Estèphe', 1))?.entity, 0);
    assert.equal(top(r.resolve('st estephe', 1))?.entity, 0);
    assert.equal(top(r.resolve('Saint Vincent', 1))?.entity, 1);
    assert.equal(top(r.resolve('Mt. Veeder', 1))?.entity, 2);
    assert.deepEqual(kbResolve('St-Estèphe').keys.slice(0, 1), ['geo/saint-estephe']);
  });
});

describe('word boundaries', () => {
  const r = build([['Malbec', 'Cot'], ['Apricot Brandy'], ['Cotton Candy Ale']]);

  test('a name never matches inside another word', () => {
    const cot = r.resolve('cot', 10);
    assert.equal(top(cot)?.entity, 0);
    assert.ok(!entitiesOf(cot).includes(1), '"cot" must not match "Apricot Brandy"');
    assert.ok(!entitiesOf(r.resolve('apricot', 10)).includes(0), '"apricot" must not match the alias "Cot"');
    assert.ok(!entitiesOf(r.resolve('cotton candy', 10)).includes(0), '"cotton candy" must not match the alias "Cot"');
    assert.equal(r.resolve('ricot', 10).state, 'unresolved', 'no match from the middle of a word');
  });

  test('a query word may be the start of a name word', () => {
    assert.equal(top(r.resolve('apri bran', 1))?.entity, 1);
    assert.equal(top(r.resolve('cotton', 1))?.entity, 2);
  });

  test('real KB: "cot" is Malbec; apricot and cotton candy resolve to nothing', () => {
    assert.equal(kbResolve('cot').keys[0], 'grape/malbec');
    for (const q of ['apricot', 'apricot jam', 'cotton candy']) {
      const res = kbResolve(q);
      assert.equal(res.state, 'unresolved', q);
      assert.ok(!res.keys.includes('grape/malbec'), q);
    }
  });

  test('two name words written together, and abbreviations typed in capitals', () => {
    const t = build([['English Barley Wine'], ['Double IPA', 'Imperial IPA'], ['American Pale Ale'], ['Grüner Veltliner'], ['New Zealand Pilsner']]);
    assert.equal(top(t.resolve('barleywine', 1))?.entity, 0);
    assert.equal(top(t.resolve('DIPA', 1))?.entity, 1);
    assert.equal(top(t.resolve('IIPA', 1))?.entity, 1);
    assert.equal(top(t.resolve('APA', 1))?.entity, 2);
    assert.equal(top(t.resolve('GrüVe', 1))?.entity, 3);
    assert.equal(top(t.resolve('NZ Pilsner', 1))?.entity, 4);
    assert.equal(t.resolve('apa', 1).state, 'unresolved', 'lower case is an ordinary word, not an abbreviation');
  });
});

describe('typo rules', () => {
  const r = build([['Syrah'], ['Gamay'], ['Tempranillo'], ['Grenache'], ['Riesling'], ['Cava']]);

  test('Damerau distance: a swap of two letters is one edit', () => {
    assert.equal(damerau('reisling', 'riesling', 2), 1);
    assert.equal(damerau('syrha', 'syrah', 2), 1);
    assert.equal(damerau('tenpranilo', 'tempranillo', 2), 2);
    assert.equal(damerau('abcdef', 'badcfe', 2), 3, 'gives up past the maximum');
    assert.deepEqual([4, 5, 8, 9, 14].map(typoBudget), [0, 1, 1, 2, 2]);
  });

  test('the deletion neighbourhood hashes cover exactly the deletion strings', () => {
    for (const w of ['gamay', 'tempranillo']) {
      const fromStrings = new Set([...deletes(w, 2)].flatMap((d) => deletionHashes(d, 0)));
      assert.deepEqual(new Set(deletionHashes(w, 2)), fromStrings, w);
    }
  });

  test('one edit from 5 letters, none at 4', () => {
    for (const [q, entity] of [['Syrha', 0], ['Gamey', 1], ['Risling', 4]] as const) {
      const c = top(r.resolve(q, 1));
      assert.equal(c?.entity, entity, q);
      assert.equal(c?.matchedOn, 'canonical_typo', q);
    }
    assert.equal(r.resolve('Cavo', 5).state, 'unresolved', '4 letters: no typo allowed');
    assert.equal(r.resolve('Gamy', 5).state, 'unresolved', '4 letters: no typo allowed');
    assert.equal(r.resolve('Gamya', 5).candidates[0]?.entity, 1, '5 letters, one swap');
  });

  test('two edits from 9 letters, one below', () => {
    assert.equal(top(r.resolve('Tenpranilo', 1))?.entity, 2, '10 letters, 2 edits');
    assert.equal(top(r.resolve('Granache', 1))?.entity, 3, '8 letters, 1 edit');
    assert.equal(r.resolve('Granachi', 5).state, 'unresolved', '8 letters, 2 edits');
  });

  test('a swap costs the same as one substitution; more edits score lower', () => {
    const swap = top(r.resolve('Reisling', 1))!;
    const sub = top(r.resolve('Riesking', 1))!;
    assert.equal(swap.entity, 4);
    assert.equal(swap.score, sub.score);
    assert.ok(top(r.resolve('Tenpranilo', 1))!.score < top(r.resolve('Tempranilo', 1))!.score);
  });

  test('real KB typos', () => {
    assert.equal(kbResolve('Reisling').keys[0], 'grape/riesling');
    assert.equal(kbResolve('Cabernet Sauvingon').keys[0], 'grape/cabernet-sauvignon');
    assert.equal(kbResolve('Shwarzbeer').keys[0], 'beer/8b-schwarzbier');
  });
});

describe('states', () => {
  test(`resolved: the top is clearly ahead`, () => {
    const res = kbResolve('Syrah');
    assert.equal(res.state, 'resolved');
    assert.equal(res.keys[0], 'grape/syrah');
    assert.equal(res.candidates[0]!.score, 100);
  });

  test(`ambiguous: runner-up within ${AMBIGUITY_MARGIN} points, or ${PARTIAL_AMBIGUITY_MARGIN} when the top is only a partial match`, () => {
    const r = build([['Savagnin', 'Traminer'], ['Gewürztraminer', 'Traminer'], ['Sonoma Coast'], ['Sonoma Mountain District']]);
    const tie = r.resolve('traminer', 5);
    assert.equal(tie.state, 'ambiguous');
    assert.deepEqual(tie.candidates.map((c) => c.score), [97, 97]);
    const partial = r.resolve('sonoma', 5);
    const gap = partial.candidates[0]!.score - partial.candidates[1]!.score;
    assert.ok(gap >= AMBIGUITY_MARGIN && gap < PARTIAL_AMBIGUITY_MARGIN, `gap ${gap}`);
    assert.equal(partial.state, 'ambiguous');
  });

  test('ambiguous: a declared shared term, "pinot"', () => {
    const r = build([['Pinot Noir'], ['Pinot Gris'], ['Pinotage']], [{ term: 'Pinot', entities: [0, 1] }]);
    const res = r.resolve('pinot', 5);
    assert.equal(res.state, 'ambiguous');
    assert.deepEqual(entitiesOf(res).slice(0, 2), [0, 1]);
    assert.equal(res.candidates[0]!.matchedOn, 'shared_term');
    const kb = kbResolve('pinot');
    assert.equal(kb.state, 'ambiguous');
    assert.deepEqual(kb.keys.slice(0, 4).sort(), ['grape/pinot-blanc', 'grape/pinot-gris', 'grape/pinot-meunier', 'grape/pinot-noir']);
  });

  test('unresolved: nonsense, generic words and empty input resolve to nothing', () => {
    for (const q of ['toyota corolla', 'asdfgh', 'wine', 'beer', 'the', 'red', '!!!', '   ', 'x']) {
      const res = kbResolve(q);
      assert.equal(res.state, 'unresolved', q);
      assert.deepEqual(res.candidates, [], q);
    }
    const r = build([['Porto', 'Port Wine']]);
    assert.equal(r.resolve('wine', 5).state, 'unresolved', 'a generic word alone does not pick a name that contains it');
    assert.equal(top(r.resolve('port wine', 5))?.score, 97, 'whole names still match');
  });
});

describe('limit and determinism', () => {
  test('limit caps the candidates; a smaller limit is a prefix of a larger one', () => {
    const ten = kbResolve('valley', 10);
    assert.equal(ten.candidates.length, 10);
    for (const limit of [1, 3, 5]) {
      const res = kbResolve('valley', limit);
      assert.equal(res.candidates.length, limit);
      assert.deepEqual(res.candidates, ten.candidates.slice(0, limit));
      assert.equal(res.state, ten.state);
    }
  });

  test('the same query twice gives identical output', () => {
    for (const q of ['valley', 'pinot', 'cab sauv', 'Reisling', 'stout', 'IPA', 'toyota corolla']) {
      assert.deepEqual(kbResolve(q, 20), kbResolve(q, 20), q);
    }
  });

  test('an answer does not depend on the queries resolved before it (per-query buffers are reused)', () => {
    const qs = ['valley', 'Gewurtztraminer', 'cab sauv', 'DIPA', 'Alsase', 'pinot', 'Cabernet Fran', 'Grüner Veltliner', 'stout', 'xyzzy', 'Eau-de-vie de vin', 'Pale Ale'];
    const first = new Map(qs.map((q) => [q, kbResolve(q, 10)]));
    // again in reverse order, each query after a different one
    for (const q of [...qs].reverse()) assert.deepEqual(kbResolve(q, 10), first.get(q), q);
    // and each one right after a heavy typo query and an abbreviation
    for (const q of qs) {
      kbResolve('Montepulchiano', 10);
      kbResolve('IPA', 10);
      assert.deepEqual(kbResolve(q, 10), first.get(q), q);
    }
  });

  test('build order does not change the ranking (shuffled names, same knowledge base)', () => {
    const kb = sharedEngine().kb;
    const names: ResolvableName[] = kb.entities.flatMap((e) => [
      { entity: e.idx, field: 'canonical' as const, value: e.name },
      ...e.aliases.map((a) => ({ entity: e.idx, field: 'alias' as const, value: a.name })),
    ]);
    const shared = kb.ambiguities.map((a) => ({ term: a.term, entities: a.entities.map((k) => kb.byKey.get(k)!.idx) }));
    const tie = (a: number, b: number) => {
      const ea = kb.entities[a]!;
      const eb = kb.entities[b]!;
      return ea.name.length - eb.name.length || (ea.key < eb.key ? -1 : ea.key > eb.key ? 1 : 0);
    };
    let seed = 42;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const shuffled = [...names];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const a = new Resolver(names, shared, tie);
    const b = new Resolver(shuffled, [...shared].reverse(), tie);
    for (const q of ['valley', 'pinot', 'cab sauv', 'Reisling', 'stout', 'IPA', 'burgunder', 'sonoma', 'chard', 'Kümmel', 'Temprani', 'DIPA']) {
      assert.deepEqual(b.resolve(q, 25), a.resolve(q, 25), q);
    }
  });
});

describe('demand rules (issue 8): no confident wrong answers', () => {
  /** entities[i] = [kind, canonical, ...aliases] */
  function buildKinds(entities: [EntityKind, ...string[]][], outOfScope: string[] = []) {
    const names: ResolvableName[] = entities.flatMap(([, canonical, ...aliases], entity) => [
      { entity, field: 'canonical' as const, value: canonical! },
      ...aliases.map((value) => ({ entity, field: 'alias' as const, value })),
    ]);
    return new Resolver(names, [], (a, b) => a - b, { kindOf: (i) => entities[i]![0], outOfScope });
  }

  test('a place name that is only the start or a later word of a longer name is never resolved to it', () => {
    const r = buildKinds([['other', 'Australian Sparkling Ale'], ['place', 'New Mexico'], ['place', 'Chiles Valley'], ['place', 'Napa Valley']]);
    for (const q of ['australia', 'mexico', 'chile']) {
      const res = r.resolve(q, 5);
      assert.notEqual(res.state, 'resolved', q);
    }
    // the first word of a name, whole, is still evidence
    assert.equal(r.resolve('napa', 5).state, 'resolved');
    assert.equal(top(r.resolve('napa', 5))!.entity, 3);
    // several words are judged as before
    assert.equal(r.resolve('new mex', 5).state, 'resolved');
  });

  test('places beat synonyms: a grape synonym that is also a place name loses to the place', () => {
    const r = buildKinds([['grape', 'Malbec', 'Cahors', 'Cot'], ['place', 'Cahors'], ['grape', 'Tempranillo', 'Toro']]);
    const res = r.resolve('Cahors', 5);
    assert.equal(res.state, 'resolved');
    assert.deepEqual(entitiesOf(res), [1, 0]);
    assert.ok(res.candidates[0]!.score - res.candidates[1]!.score >= AMBIGUITY_MARGIN);
    // without a place of that name the synonym still answers
    assert.equal(top(r.resolve('Toro', 5))!.entity, 2);
  });

  test('"A / B" names, bracketed abbreviations and plurals are resolved part by part', () => {
    const r = buildKinds([['other', 'Saison', 'Farmhouse Ale'], ['other', 'American Pale Ale'], ['other', 'Märzen'], ['other', 'Festbier', 'Oktoberfest Lager'], ['other', 'Canadian Whisky']]);
    for (const [q, e] of [['Saison / Farmhouse Ale', 0], ['American Pale Ale (APA)', 1], ['Märzen / Oktoberfest', 2], ['CANADIAN WHISKIES', 4]] as const) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'resolved', q);
      assert.equal(top(res)!.entity, e, q);
    }
    // two parts naming two different entities is a blend: never resolved
    assert.notEqual(r.resolve('Saison / American Pale Ale', 5).state, 'resolved');
    assert.deepEqual(queryParts('Saison / Farmhouse Ale', ['saison', 'farmhouse', 'ale'], () => false), ['Saison', 'Farmhouse Ale', 'Saison Ale']);
    assert.deepEqual(queryParts('American Pale Ale (APA)', ['american', 'pale', 'ale', 'apa'], () => false), ['American Pale Ale  ', 'APA']);
    assert.deepEqual(queryParts('STRAIGHT BOURBON WHISKIES', ['straight', 'bourbon', 'whiskies'], (w) => w === 'whisky'), ['straight bourbon whisky']);
  });

  test('the family noun after the last side of "A / B" belongs to every side', () => {
    const r = buildKinds([['other', 'Fruit Beer'], ['other', 'Vegetable Beer Blend'], ['other', 'American Amber Ale'], ['other', 'International Amber Lager', 'American Amber Lager']]);
    // "Fruit / Vegetable Beer" is also "Fruit Beer"; "American Amber / Red Lager" is "American Amber Lager", not the ale
    assert.equal(top(r.resolve('Fruit / Vegetable Beer', 5))!.entity, 0);
    const amber = r.resolve('American Amber / Red Lager', 5);
    assert.equal(top(amber)!.entity, 3);
    assert.deepEqual(queryParts('American Amber / Red Lager', ['american', 'amber', 'red', 'lager'], () => false), ['American Amber', 'Red Lager', 'American Amber Lager']);
    // a side that already ends with the noun, or a one-word last side, adds nothing
    assert.deepEqual(queryParts('Sweet Stout / Cream Stout', ['sweet', 'stout', 'cream', 'stout'], () => false), ['Sweet Stout', 'Cream Stout']);
    assert.deepEqual(queryParts('Märzen / Oktoberfest', ['marzen', 'oktoberfest'], () => false), ['Märzen', 'Oktoberfest']);
  });

  test('Pilsener and Pilsner are one spelling', () => {
    const r = buildKinds([['other', 'German Pilsner'], ['other', 'Pilsener Urquell Style']]);
    assert.equal(top(r.resolve('German Pilsener', 5))!.entity, 0);
    assert.equal(top(r.resolve('pilsner urquell style', 5))!.entity, 1);
  });

  test('unresolved answers carry coverage and the nearest names below the threshold', () => {
    const r = buildKinds([['other', 'Cider and perry spirit'], ['grape', 'Sakura Blanc'], ['grape', 'Chardonnay Musqué']], ['cider', 'sake', 'hard seltzer']);
    for (const q of ['cider', 'Sake', 'hard seltzer', 'junmai sake']) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'unresolved', q);
      assert.equal(res.coverage, 'out_of_scope', q);
    }
    // the covered spirit is still found by its name
    assert.equal(top(r.resolve('Cider and perry spirit', 5))!.entity, 0);
    const unknown = r.resolve('zzzz qqqq', 5);
    assert.equal(unknown.coverage, 'unknown_term');
    assert.deepEqual(unknown.suggestions, []);
    // a typo covering half of a name scores below the threshold: offered as a suggestion
    const near = r.resolve('chardonay', 5);
    assert.equal(near.state, 'unresolved');
    assert.equal(near.suggestions[0]?.entity, 2);
    assert.ok(near.suggestions[0]!.score < RESOLVE_THRESHOLD);
  });

  test('a country name is answered only by a name equal to it', () => {
    const names: ResolvableName[] = [{ entity: 0, field: 'canonical', value: 'Indiana' }, { entity: 1, field: 'canonical', value: 'Colli Perugini' }];
    const withPlaces = new Resolver(names, [], (a, b) => a - b, { placeNames: ['India', 'Peru'] });
    for (const q of ['India', 'peru']) {
      const r = withPlaces.resolve(q, 5);
      assert.equal(r.state, 'unresolved', q);
      assert.equal(r.coverage, 'unknown_term');
    }
    assert.equal(top(withPlaces.resolve('indiana', 5))!.entity, 0);
    // without the place list a near-complete prefix of a one-word name is still never resolved
    const bare = new Resolver(names, [], (a, b) => a - b);
    assert.notEqual(bare.resolve('India', 5).state, 'resolved');
  });

  test('a partial match that leaves out an inner word of the name is never resolved', () => {
    const r = buildKinds([['other', 'Wild Specialty Beer'], ['other', 'Belgian Dark Strong Ale'], ['other', 'Cabernet Sauvignon']]);
    for (const q of ['Wild Beer', 'Belgian Dark Ale']) assert.notEqual(r.resolve(q, 5).state, 'resolved', q);
    assert.equal(r.resolve('wild specialty', 5).state, 'resolved');
    assert.equal(r.resolve('cab sauv', 5).state, 'resolved');
  });

  test('retail qualifiers and the head noun are a last resort, and never resolved', () => {
    const r = buildKinds([['other', 'Vodka'], ['other', 'Gin'], ['other', 'London Gin', 'London Dry Gin'], ['other', 'Rum'], ['other', 'Munich Helles']]);
    const cases: [string, number][] = [['AMERICAN VODKAS', 0], ['80 PROOF VODKA', 0], ['IMPORTED DRY GINS', 1], ['SPICED RUM', 3], ['PUERTO RICO & VIRGIN ISLANDS RUM', 3], ['Munich Helles Lager', 4]];
    for (const [q, e] of cases) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'ambiguous', q);
      assert.equal(top(res)!.entity, e, q);
      assert.ok(top(res)!.score <= 92, q);
    }
    // a name found whole never goes through the fallback
    assert.equal(r.resolve('London Dry Gin', 5).state, 'resolved');
    // nothing to keep: unresolved
    assert.equal(r.resolve('AMERICAN IMPORTED', 5).state, 'unresolved');
  });

  test('real KB: country names and codes people write', () => {
    assert.equal(kbResolve('US').keys[0], 'geo/us');
    assert.equal(kbResolve('US').state, 'resolved');
    const cz = kbResolve('Czech Republic');
    assert.equal(cz.state, 'resolved');
    assert.equal(cz.keys[0], 'geo/czechia');
    const alias = sharedEngine().kb.byKey.get('geo/czechia')!.aliases.find((a) => a.name === 'Czech Republic')!;
    assert.equal(alias.source, 'iso-3166-1');
    assert.ok(sharedEngine().kb.sources.get('iso-3166-1')!.retrieved_via, 'the ISO list was read in a copy and says so');
    // a country name without a record answers nothing rather than a neighbour (Egypt: no official source read yet)
    const eg = kbResolve('Egypt');
    assert.ok(eg.state !== 'resolved' || eg.keys[0] === 'geo/egypt', `Egypt → ${eg.keys[0]}`);
  });

  test('real KB: cross-domain guesses are gone and out-of-scope drinks are named so', () => {
    for (const q of ['australia', 'mexico', 'chile']) assert.notEqual(kbResolve(q).state === 'resolved' && !kbResolve(q).keys[0]!.startsWith('geo/') ? 'bad' : 'ok', 'bad', q);
    for (const q of ['cider', 'sake', 'soju', 'mead', 'cocktails']) {
      const r = kbResolve(q);
      assert.equal(r.state, 'unresolved', q);
      assert.equal(r.coverage, 'out_of_scope', q);
    }
  });
});

describe('catalogue forms (issue 8, second round)', () => {
  test('"India Pale Ale" and "IPA" are one spelling, on both sides', () => {
    const names: ResolvableName[] = [
      { entity: 0, field: 'canonical', value: 'English IPA' },
      { entity: 1, field: 'canonical', value: 'American-Style India Pale Ale' },
    ];
    const r = new Resolver(names, [], (a, b) => a - b);
    assert.equal(top(r.resolve('English India Pale Ale', 5))!.entity, 0);
    assert.equal(top(r.resolve('American IPA', 5))!.entity, 1);
    assert.equal(r.resolve('American IPA', 5).state, 'resolved');
  });

  test('origin words are dropped before style words; the head noun never outranks a partial match', () => {
    const names: ResolvableName[] = [
      { entity: 0, field: 'canonical', value: 'White IPA' },
      { entity: 1, field: 'canonical', value: 'IPA Argenta' },
      { entity: 2, field: 'canonical', value: 'Whiskey' },
      { entity: 3, field: 'canonical', value: 'Malt Irish Whiskey' },
    ];
    const r = new Resolver(names, [], (a, b) => a - b);
    const white = r.resolve('American White IPA', 5);
    assert.equal(top(white)!.entity, 0);
    assert.equal(white.state, 'ambiguous');
    // "malt whiskey" reaches a partial name: the bare head noun "Whiskey" does not jump above it
    assert.equal(top(r.resolve('Malt whiskey', 5))!.entity, 3);
  });
});
