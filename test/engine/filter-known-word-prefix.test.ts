// filters/known-word-prefix.ts: a word some name holds whole is not the start of a longer word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownWordAsPrefix } from '../../src/engine/filters/known-word-prefix.ts';

const index = new Set(['wheat', 'american', 'beer', 'wheatwine', 'chardonnay']);
const isIndexWord = (w: string) => index.has(w);

test('"wheat" reaching "Wheatwine" only as its start is a guess', () => {
  assert.equal(knownWordAsPrefix('wheat', true, 0, isIndexWord), true);
});

test('a word no name holds still reads as a start ("chard"), and a whole-word hit is not a prefix', () => {
  assert.equal(knownWordAsPrefix('chard', true, 0, isIndexWord), false);
  assert.equal(knownWordAsPrefix('wheat', false, 0, isIndexWord), false);
});
