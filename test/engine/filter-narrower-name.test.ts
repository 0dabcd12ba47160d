// filters/narrower-name.ts: a match that leaves the name's last words uncovered names a narrower thing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leavesTrailingWords } from '../../src/engine/filters/narrower-name.ts';

const generic = (w: string) => w === 'beer';
const weightsOf = (tokens: string[]) => tokens.map((t) => (['de', 'del'].includes(t) ? 0 : 1));
const check = (tokens: string[], covered: number[], end = tokens.length) => {
  const mask = covered.reduce((m, i) => m | (1 << i), 0);
  return leavesTrailingWords(mask, covered.length, tokens, weightsOf(tokens), end, generic);
};

test('"Trappist" on "Trappist Single" and "Vin mousseux" on "Vin mousseux de qualité de Wallonie" leave trailing words', () => {
  assert.equal(check(['trappist', 'single'], [0]), true);
  assert.equal(check(['vin', 'mousseux', 'de', 'qualite', 'de', 'wallonie'], [0, 1]), true);
  assert.equal(check(['colli', 'orientali', 'del', 'friuli', 'picolit'], [0, 1, 3]), true);
});

test('a generic last word, a trailing stop word or a bracketed note is no narrower name', () => {
  assert.equal(check(['wild', 'specialty', 'beer'], [0, 1]), false);
  assert.equal(check(['rye', 'whisky', 'united', 'states', 'type'], [0, 1], 2), false);
  assert.equal(check(['cabernet', 'sauvignon'], [0, 1]), false);
});

test('an abbreviation hit, which covers words without marking them, tells nothing', () => {
  const tokens = ['american', 'style', 'india', 'pale', 'ale'];
  // "American IPA": "american" marked, "IPA" covered three words unmarked
  assert.equal(leavesTrailingWords(1, 4, tokens, [1, 1, 1, 1, 1], tokens.length, generic), false);
  assert.equal(leavesTrailingWords(0, 1, tokens, [1, 1, 1, 1, 1], tokens.length, generic), false);
});
