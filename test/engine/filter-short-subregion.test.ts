// filters/short-subregion.ts: a short Latin-script word typed alone is no confident answer for a
// sub-region no one asks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortSubregionWord, SHORT_NAME_LETTERS } from '../../src/engine/filters/short-subregion.ts';

test('"ave" and "lima", alone, naming a sub-region no one asks for: short words', () => {
  assert.equal(shortSubregionWord(['ave'], true, false), true);
  assert.equal(shortSubregionWord(['lima'], true, false), true);
  assert.equal(SHORT_NAME_LETTERS, 4);
});

test('not when asked for, not another level, not longer, not two words, not another script', () => {
  assert.equal(shortSubregionWord(['lima'], true, true), false);
  assert.equal(shortSubregionWord(['gavi'], false, false), false);
  assert.equal(shortSubregionWord(['sousa'], true, false), false);
  assert.equal(shortSubregionWord(['verde', 'lima'], true, false), false);
  assert.equal(shortSubregionWord(['クナワラ'], true, false), false);
});
