// filters/connective-words.ts: connectives written in another language, added or left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectiveIndex, connectiveKey } from '../../src/engine/filters/connective-words.ts';

const stop = new Set(['de', 'di', 'del', 'of']);
const isConnective = (t: string) => stop.has(t);

test('"fiano de avellino" and "fiano di avellino" share a key, with one connective each', () => {
  assert.deepEqual(connectiveKey(['fiano', 'de', 'avellino'], isConnective), { key: 'avellino fiano', connectives: 1 });
  const index = new ConnectiveIndex(isConnective);
  index.add(['fiano', 'di', 'avellino'], 7);
  index.add(['fiano', 'di', 'avellino'], 7);
  assert.deepEqual(index.lookup('avellino fiano'), [7, 1]);
});

test('names without connectives are left to the any-order index; a query of connectives only has no key', () => {
  const index = new ConnectiveIndex(isConnective);
  index.add(['friuli', 'colli', 'orientali'], 3);
  assert.equal(index.lookup('colli friuli orientali'), undefined);
  assert.equal(connectiveKey(['de', 'di'], isConnective), null);
  assert.deepEqual(connectiveKey(['colli', 'orientali', 'del', 'friuli'], isConnective), { key: 'colli friuli orientali', connectives: 1 });
});
