// Issue 32: folding drops the accents of alphabetic scripts but keeps the vowel signs of the Indic and
// Southeast Asian scripts, which are letters of the word. Before, Hindi "मिस्र" (Egypt, CLDR territory EG)
// and "मिसौरी" (Missouri, CLDR subdivision usmo) folded to the same form and were declared ambiguous.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { fold, exactForm } from '../../src/engine/normalize.ts';
import { sharedEngine } from '../helper.ts';

describe('combining marks when folding', () => {
  test('Latin, Greek and decomposed accents are folded away', () => {
    assert.equal(fold(exactForm('Württemberg')), 'wurttemberg');
    assert.equal(fold(exactForm('Que\u0301bec')), fold(exactForm('Québec')));
    assert.equal(fold(exactForm('Ελλάδα')), fold(exactForm('Ελλαδα')));
  });

  test('Devanagari, Tamil and Thai vowel signs are kept, and do not split the word', () => {
    assert.notEqual(fold(exactForm('मिस्र')), fold(exactForm('मिसौरी')));
    assert.equal(fold(exactForm('मिस्र')).split(' ').length, 1);
    assert.notEqual(fold(exactForm('ஜார்ஜியா')), fold(exactForm('ஜோர்ஜியா')));
    assert.equal(fold(exactForm('ไทย')).split(' ').length, 1);
  });

  test('Hindi Egypt and Missouri each resolve to their own entity', () => {
    const e = sharedEngine();
    for (const [q, key] of [['मिस्र', 'geo/egypt'], ['मिसौरी', 'geo/missouri']] as const) {
      const r = e.resolver.resolve(q, 5);
      assert.equal(r.state, 'resolved', q);
      assert.equal(e.kb.entities[r.candidates[0]!.entity]!.key, key, q);
    }
  });
});
