// Worst-case inputs of /v1/parse and /v1/pair-food (issue 31, item 7): the work a call does is counted,
// not timed (the times are `npm run bench:worst-case`'s). A run of digits made every span of two to six
// words a whole-name look-up ("1 " × 150: 735 of them), and a word repeated in a pair-food query that
// names no food was compared with the vocabulary once per repetition ("chocolatx" × 20). Each case here
// counts the look-ups or edit distances on the shipped knowledge base, and checks the answer is the
// one the input deserves.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

const engine = sharedEngine();

/** A parse answer and the whole-name look-ups it took. */
function parse(text: string) {
  const before = engine.resolver.wholeNameLookups;
  const r = engine.parse({ text });
  assert.equal(r.status, 200);
  return { body: r.body as any, lookups: engine.resolver.wholeNameLookups - before };
}

/** A pair-food answer and the edit distances its suggestions took. */
function pairFood(q: string) {
  const vocabulary = engine.food().vocabulary;
  const before = vocabulary.distancesComputed;
  const r = engine.pairFood({ q });
  return { r, body: r.body as any, distances: vocabulary.distancesComputed - before };
}

/** `word` × n, joined by six kinds of white space in turn. */
const spaced = (word: string, n: number) => Array.from({ length: n }, () => word).reduce((a, w, i) => a + [' ', '\t', '\u00a0', '\u2002', '\u2009', '\u3000'][i % 6] + w);

describe('parse: runs of numbers and repeated words', () => {
  test('no name of the shipped knowledge base is written in numerals alone (so a run of numbers is never looked up)', () => {
    assert.equal(engine.resolver.numeralNames, false);
  });

  for (const [label, text] of [
    ['"1 " × 150', '1 '.repeat(150)],
    ['"𝟏 " × 150 (mathematical digit)', '𝟏 '.repeat(150)],
    ['seven forms of 1, six kinds of space', ['1', '𝟏', '１', '𝟙', '①', '¹', '₁'].map((d) => spaced(d, 21)).join(' ')],
  ] as const) {
    test(`${label}: no whole-name look-up (735 before), nothing read but the numbers`, () => {
      const { body, lookups } = parse(text);
      assert.equal(lookups, 0);
      assert.equal(body.state, 'unresolved');
      assert.equal(body.primary, null);
      assert.deepEqual(body.mentions, []);
      assert.equal(body.vintage, null);
      assert.equal(body.unexplained.length, 1, 'one run of words nothing explains');
      assert.equal(body.unexplained[0].text, text.trim());
    });
  }

  test('"ন" × 150 with six kinds of space between (every span of it passes the neighbouring-word check): each distinct span looked up once', () => {
    const { body, lookups } = parse(spaced('ন', 150));
    // the spans of two to six words, one key each whatever the white space (735 look-ups before)
    assert.ok(lookups <= 5, `${lookups} look-ups`);
    assert.equal(body.state, 'unresolved');
    assert.deepEqual(body.mentions, []);
  });

  test('a walk through the neighbouring letters of Sinhala names, spaced out (some 680 look-ups before): at most 16 look-ups of spans of one- and two-letter words', () => {
    // found by a random walk over the letters that stand side by side in the knowledge base's names
    const walk = 'ට ය ව ක ව ස ල න ය ල ජ ර ස ප ත ය ව ල ජ ප ඤ ය ල ට න ග ර ම න ග ර ජ ප ර ම ක ය ක ර න ක ක ය ව න ඩ න ඩ ඩ ම ය න ග ව ක ව ක ර න ඩ න ට ව ක ව ක ක ව ක ස ය ව ව ක ර ල ක ව ස ර ස ර ම ස ත ග ව ක ට ව ල ඩ න ස ව ස ය ක ස ත ';
    const { body, lookups } = parse(walk);
    assert.ok(lookups <= 16, `${lookups} look-ups`);
    // Sinhala vowel signs are letters of the word since issue 32 (src/engine/normalize.ts): a name no
    // longer folds into the bare consonants spaced out here, so none of the walk is read as a name
    assert.deepEqual(body.mentions, []);
  });

  test('name words chained by a stop word ("best de dark de irish de …"): a span with a stop word is looked up only if its outer words share a name (some 210 look-ups before)', () => {
    const words = [...new Set([...engine.kb.entities].sort((a, b) => (a.key < b.key ? -1 : 1)).map((e) => e.name.split(' ')[0]!.toLowerCase()).filter((w) => /^[a-z]{3,5}$/.test(w)))];
    let text = words[0]!;
    for (let i = 1; text.length + words[i]!.length + 4 <= 300; i++) text += ` de ${words[i]}`;
    const { body, lookups } = parse(text);
    // each word alone and after "de" (a name may begin with "de"), never a span of two of them
    const distinct = new Set(text.split(' ').filter((w) => w !== 'de')).size;
    assert.ok(lookups <= 2 * distinct, `${lookups} look-ups for ${distinct} distinct words`);
    assert.ok(body.mentions.length > 0 && body.mentions.every((m: any) => !/\sde\s/.test(m.text)));
  });

  test('a name with a stop word is still read, in its own word order and in another ("Rhône du Côtes")', () => {
    const read = (t: string) => parse(t).body.mentions.map((m: any) => [m.text, engine.kb.byId.get(m.match.entity_id)!.key, m.match.matched_on]);
    assert.deepEqual(read('Domaine Machin Côte de Nuits-Villages 2019'), [['Côte de Nuits-Villages', 'geo/cote-de-nuits-villages', 'canonical']]);
    assert.deepEqual(read('Côtes du Rhône Villages 2020'), [['Côtes du Rhône Villages', 'geo/cotes-du-rhone-villages', 'canonical']]);
    assert.deepEqual(read('Rhône du Côtes'), [['Rhône du Côtes', 'geo/cotes-du-rhone', 'canonical_word_order']]);
  });

  test('"Rioja " × 50: one look-up (50 before), and every Rioja is still read', () => {
    const { body, lookups } = parse('Rioja '.repeat(50));
    assert.equal(lookups, 1);
    assert.equal(body.mentions.length, 50);
    for (const m of body.mentions) assert.equal(engine.kb.byId.get(m.match.entity_id)!.key, 'geo/rioja');
    assert.equal(engine.kb.byId.get(body.primary.entity_id)!.key, 'geo/rioja');
  });

  test('a name of two words written twice with other white space between its words: read both times, one look-up', () => {
    const { body, lookups } = parse('Pinot Noir, Pinot\u00a0Noir');
    assert.deepEqual(body.mentions.map((m: any) => [m.text, engine.kb.byId.get(m.match.entity_id)!.key]), [['Pinot Noir', 'grape/pinot-noir'], ['Pinot\u00a0Noir', 'grape/pinot-noir']]);
    assert.equal(lookups, 1);
  });

  test('a real line still takes its look-ups', () => {
    const { body, lookups } = parse('Brunello di Montalcino Casanova di Neri 2016');
    assert.equal(engine.kb.byId.get(body.primary.entity_id)!.key, 'geo/brunello-di-montalcino');
    assert.ok(lookups >= 1);
  });
});

describe('pair-food: suggestions for a query that names no food', () => {
  test('"chocolatx" × 20 takes the edit distances of one "chocolatx" (20 times them before) and suggests the same', () => {
    const one = pairFood('chocolatx');
    const twenty = pairFood(Array(20).fill('chocolatx').join(' '));
    assert.equal(one.r.status, 404);
    assert.equal(twenty.r.status, 404);
    assert.equal(twenty.body.error.code, 'FOOD_NOT_RESOLVED');
    assert.deepEqual(twenty.body.error.suggestions, one.body.error.suggestions);
    assert.ok(one.body.error.suggestions.includes('chocolate'));
    assert.ok(one.distances > 0);
    assert.equal(twenty.distances, one.distances);
  });

  test('22 distinct unknown words: names whose letters differ by more than two are passed over, no suggestion', () => {
    const q = Array.from({ length: 22 }, (_, i) => 's' + 'abcdefghijklmnopqrstuvwxyz'[i]!.repeat(7)).join(' ');
    const { r, body, distances } = pairFood(q);
    assert.equal(r.status, 404);
    assert.deepEqual(body.error.suggestions, []);
    // each word's five buckets hold some 450 names; the letter sets and counts leave few to compare
    assert.ok(distances < 22 * 20, `${distances} edit distances`);
  });

  test('a misspelling is still suggested ("salomn" → salmon, "chiken" → chicken)', () => {
    assert.ok(pairFood('salomn').body.error.suggestions.includes('salmon'));
    assert.ok(pairFood('chiken').body.error.suggestions.some((s: string) => /^chicken$/i.test(s)));
  });
});
