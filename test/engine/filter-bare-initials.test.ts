// filters/bare-initials.ts: an abbreviation that is only the first letters of a name's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spellsInitials } from '../../src/engine/filters/bare-initials.ts';

const ones = (n: number) => Array.from({ length: n }, () => 1);

test('"ipl" spells International Pale Lager, "apa" American Pale Ale', () => {
  assert.equal(spellsInitials('ipl', ['international', 'pale', 'lager'], ones(3)), true);
  assert.equal(spellsInitials('apa', ['american', 'pale', 'ale'], ones(3)), true);
});

test('"dipa" keeps a whole word of Double IPA: not bare initials; stop words are never initials', () => {
  assert.equal(spellsInitials('dipa', ['double', 'ipa'], ones(2)), false);
  assert.equal(spellsInitials('sdp', ['sambuca', 'di', 'pisa'], [1, 0, 1]), false);
  assert.equal(spellsInitials('x', ['xarel'], ones(1)), false);
});
