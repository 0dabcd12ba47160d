// What buyers in other markets write (src/engine/market-words.ts and its use in the resolver):
// designation words around a name, inflected forms through each language's Snowball stemmer,
// compounds, unknown qualifier words, and the synonym-typo rule. Small synthetic indexes, so each
// rule is shown on its own; the real knowledge base is checked in kb-market-names.test.ts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resolver, type ResolvableName, type ResolverOptions, type EntityKind } from '../../src/engine/resolver.ts';
import { DesignationWords, Inflections, LIST_WORDS, listSides, listWords } from '../../src/engine/market-words.ts';

/** entities[i] = [canonical, ...aliases as [name, lang]]; entity i is index i. */
function build(entities: [string, ...[string, string][]][], options: ResolverOptions = {}) {
  const names: ResolvableName[] = [];
  const langs: (string | null)[] = [];
  entities.forEach(([canonical, ...aliases], entity) => {
    names.push({ entity, field: 'canonical', value: canonical });
    langs.push(null);
    for (const [value, lang] of aliases) {
      names.push({ entity, field: 'alias', value });
      langs.push(lang);
    }
  });
  return new Resolver(names, [], (a, b) => a - b, { aliasLanguages: langs, ...options });
}

const DESIGNATIONS = [
  { term: 'DO', kind: 'designation' },
  { term: 'DOCa', kind: 'designation' },
  { term: 'DOCG', kind: 'designation' },
  { term: 'IGP', kind: 'designation' },
  { term: 'WO', kind: 'designation' },
  { term: 'Vin de Pays', kind: 'designation' },
];

describe('designation words', () => {
  const r = build([['Ribera del Duero'], ['Rioja'], ['Porto', ['Vinho do Porto', 'pt']], ['Pays d\'Oc'], ['Western Cape']], { designations: DESIGNATIONS });

  test('a designation before or after a name is reported and the name resolves as if it were alone', () => {
    for (const [q, entity, value] of [['DO Ribera del Duero', 0, 'DO'], ['Rioja DOCa', 1, 'DOCa'], ["IGP Pays d'Oc", 3, 'IGP'], ['WO Western Cape', 4, 'WO']] as const) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'resolved', q);
      assert.equal(res.candidates[0]!.entity, entity, q);
      assert.equal(res.terms.length, 1, q);
      const t = res.terms[0]!;
      assert.equal(t.value, value);
      assert.equal(t.kind, 'designation');
      assert.equal(q.slice(t.start, t.end), t.text, 'offsets are JavaScript string indices');
    }
  });

  test('a designation alone names nothing', () => {
    for (const q of ['DOCG', 'DO', 'vin de pays']) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'unresolved', q);
      assert.equal(res.candidates.length, 0, q);
      assert.ok(res.terms.length >= 1, q);
    }
  });

  test('a two-letter designation counts only in capitals, so a preposition stays part of the name', () => {
    const res = r.resolve('vinho do porto', 5);
    assert.equal(res.candidates[0]!.entity, 2);
    assert.deepEqual(res.terms, []);
    const words = new DesignationWords(DESIGNATIONS, () => false);
    assert.equal(words.find('vinho do Porto'), null);
    assert.deepEqual(words.find('DO Rueda')!.terms.map((t) => t.value), ['DO']);
  });

  test('a longer designation wins over a shorter one it starts with, in any case', () => {
    const words = new DesignationWords([...DESIGNATIONS, { term: 'Vin', kind: 'designation' }], () => false);
    const found = words.find('vin de pays des Cévennes')!;
    assert.deepEqual(found.terms.map((t) => t.value), ['Vin de Pays']);
    assert.equal(found.rest.trim(), 'des Cévennes');
  });
});

describe('inflected forms (Snowball stemmers)', () => {
  const r = build([
    ['Rum', ['Rommi', 'fi'], ['Rom', 'sv']],
    ['Whisky', ['Viski', 'fi']],
    ['Liqueur', ['Likör', 'sv'], ['Likööri', 'fi']],
    ['Wine', ['Wein', 'de']],
    ['Malt Whisky'],
    ['Roma'],
  ]);

  test('Finnish plurals reach the Finnish alias', () => {
    for (const [q, entity] of [['viskit', 1], ['rommit', 0], ['liköörit', 2]] as const) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'resolved', q);
      assert.equal(res.candidates[0]!.entity, entity, q);
    }
  });

  test('Swedish plurals reach the Swedish alias', () => {
    const res = r.resolve('likörer', 5);
    assert.equal(res.candidates[0]!.entity, 2);
    assert.equal(res.state, 'resolved');
  });

  test('German plurals reach the German alias', () => {
    assert.equal(r.resolve('Weine', 5).candidates[0]!.entity, 3);
  });

  test('a stem never crosses languages: a Finnish plural does not reach an Italian place that shares its stem letters', () => {
    const res = r.resolve('rommit', 5);
    assert.ok(!res.candidates.some((c) => c.entity === 5), 'Roma is not a reading of "rommit"');
  });

  test('a compound of two indexed words is read as the two words', () => {
    const res = r.resolve('maltwhisky', 5);
    assert.equal(res.candidates[0]!.entity, 4);
  });

  test('readings keep words that some name holds', () => {
    const inf = new Inflections([{ value: 'Rommi', lang: 'fi' }], (w) => w === 'rommi' || w === 'rum');
    assert.deepEqual(inf.readings(['rum']), []);
    assert.deepEqual(inf.readings(['rommit']), ['rommi']);
  });
});

describe('words no name holds', () => {
  const r = build([['Rum', ['Rom', 'sv']], ['Candy Mountain']]);

  test('a qualifier in another language is dropped as a last resort, never resolved', () => {
    const res = r.resolve('mörk rom', 5);
    assert.equal(res.candidates[0]!.entity, 0);
    assert.equal(res.state, 'ambiguous');
  });

  test('with unknown words dropped, only a whole name counts', () => {
    assert.equal(r.resolve('cotton candy', 5).state, 'unresolved');
  });
});

describe('a one-word misspelling of a grape synonym', () => {
  const kinds: EntityKind[] = ['grape', 'other'];
  const r = build([['Mourvèdre', ['Negron', 'es']], ['Gin']], { kindOf: (i) => kinds[i]! });

  test('is at most ambiguous', () => {
    const res = r.resolve('negroni', 5);
    assert.equal(res.candidates[0]!.entity, 0);
    assert.equal(res.candidates[0]!.matchedOn, 'alias_typo');
    assert.equal(res.state, 'ambiguous');
  });

  test('the same misspelling of a name of another kind still resolves', () => {
    const other = build([['Negron'], ['Gin']], { kindOf: () => 'other' });
    assert.equal(other.resolve('negroni', 5).state, 'resolved');
  });

  test('the synonym typed correctly still resolves', () => {
    const res = r.resolve('negron', 5);
    assert.equal(res.candidates[0]!.entity, 0);
    assert.equal(res.state, 'resolved');
  });

  test('a misspelt canonical grape name still resolves', () => {
    const res = r.resolve('mourvedr', 5);
    assert.equal(res.candidates[0]!.entity, 0);
  });
});

describe('a list of names ("dortmunder och helles")', () => {
  const r = build([['German Helles Exportbier', ['Dortmunder', 'en']], ['Munich Helles'], ['Märzen'], ['Rock and Rye'], ['Porter'], ['Stout']]);

  test('the joining words are CLDR\'s list words of the catalogue languages, read from ICU', () => {
    const words = listWords();
    for (const w of ['and', 'or', 'och', 'eller', 'ja', 'tai', 'og', 'und', 'oder']) assert.ok(words.has(w), w);
    // the resolver's constant is exactly what ICU's CLDR data gives
    assert.deepEqual([...LIST_WORDS].sort(), [...words].sort());
    // one-letter words (Spanish "y", Italian "e") are never list words: they sit inside names
    assert.ok(!listWords(['es', 'it']).has('y') && !listWords(['es', 'it']).has('e'));
    assert.deepEqual(listSides(['dortmunder', 'och', 'helles'], words), ['dortmunder', 'helles']);
    assert.equal(listSides(['och', 'helles'], words), null);
    assert.equal(listSides(['porter', 'stout'], words), null);
  });

  test('each side is looked up, and the answer is ambiguous, never one side for sure', () => {
    for (const [q, first] of [['dortmunder och helles', 0], ['porter ja stout', 4], ['Porter und Stout', 4]] as const) {
      const res = r.resolve(q, 5);
      assert.equal(res.state, 'ambiguous', q);
      assert.equal(res.candidates[0]!.entity, first, q);
      assert.ok(res.candidates.length >= 2, q);
    }
  });

  test('a name that holds a list word is still the name', () => {
    const res = r.resolve('Rock and Rye', 5);
    assert.equal(res.state, 'resolved');
    assert.equal(res.candidates[0]!.entity, 3);
  });
});

describe('part of a name in another language', () => {
  const names: ResolvableName[] = [
    { entity: 0, field: 'canonical', value: 'North Macedonia' },
    { entity: 0, field: 'alias', value: 'Makedonia Utara' },
    { entity: 1, field: 'canonical', value: 'Côtes du Rhône' },
    { entity: 1, field: 'alias', value: 'Rhone Valley Wines' },
  ];
  const r = new Resolver(names, [], (a, b) => a - b, { aliasKinds: [null, 'other_language', null, 'synonym'], aliasLanguages: [null, 'ms', null, 'en'] });

  test('is no evidence: the start of a foreign name answers at most ambiguous', () => {
    const res = r.resolve('Makedonia', 5);
    assert.equal(res.candidates[0]!.entity, 0);
    assert.equal(res.state, 'ambiguous');
  });

  test('the whole foreign name still resolves, and part of a name in the same language still may', () => {
    assert.equal(r.resolve('Makedonia Utara', 5).state, 'resolved');
    assert.equal(r.resolve('Rhone Valley', 5).state, 'resolved');
  });
});

describe('an alias that other entities\' official names extend', () => {
  const r = build([['Blended whiskey (US)', ['Blended whisky', 'en']], ['Blended Scotch Whisky'], ['Blended Malt Scotch Whisky'], ['Syrah', ['Shiraz', 'en']], ['Sparkling Red']]);

  test('is a generic term: ambiguous, its holder first', () => {
    const res = r.resolve('blended whisky', 5);
    assert.equal(res.candidates[0]!.entity, 0);
    assert.equal(res.state, 'ambiguous');
  });

  test('an alias no other name extends still resolves', () => {
    const res = r.resolve('Shiraz', 5);
    assert.equal(res.candidates[0]!.entity, 3);
    assert.equal(res.state, 'resolved');
  });

  test('with one other name that extends it, it still resolves', () => {
    const one = build([['Blended whiskey (US)', ['Blended whisky', 'en']], ['Blended Scotch Whisky']]);
    assert.equal(one.resolve('blended whisky', 5).state, 'resolved');
  });
});
