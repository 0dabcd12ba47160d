// filters/stem-extension.ts: a reading that adds letters to the query word is only a prefix of the name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extendedShare } from '../../src/engine/filters/stem-extension.ts';
import { sharedEngine } from '../helper.ts';

test('"hell" read as the Norwegian "hellas" adds letters: a prefix share of 4/6', () => {
  assert.equal(extendedShare(['hell'], ['hellas']), 4 / 6);
});

test('an inflected query word read as its shorter base ("viskit" → "viski") and a compound split add nothing', () => {
  assert.equal(extendedShare(['viskit'], ['viski']), 0);
  assert.equal(extendedShare(['likorer'], ['likor']), 0);
  assert.equal(extendedShare(['maltwhisky'], ['malt', 'whisky']), 0);
  assert.equal(extendedShare(['hell'], ['hell']), 0);
});

test('"Hell" is never Greece resolved; "viskit" still reads as Viski', () => {
  const e = sharedEngine();
  const hell = e.resolveEntity({ q: 'Hell', limit: 5 }).body as { state: string; matches: { canonical_name: string; matched_on: string }[] };
  const greece = hell.matches.find((m) => m.canonical_name === 'Greece');
  assert.ok(!(hell.state === 'resolved' && hell.matches[0]!.canonical_name === 'Greece'), JSON.stringify(hell.matches[0]));
  if (greece) assert.match(greece.matched_on, /_prefix$/);
  const hellas = e.resolveEntity({ q: 'Hellas', limit: 5 }).body as { state: string; matches: { canonical_name: string }[] };
  assert.equal(hellas.matches[0]!.canonical_name, 'Greece');
});
