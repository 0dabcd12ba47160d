// Korean and Chinese place names (issue 32, item 2): the names of data/aliases/cjk-places-ko-zh.json,
// each printed beside its Latin or English name by a cited page (data/sources/cjk-places-ko-zh.json).
// Every added name must resolve, through the real resolver, to the entity it was given to, or be a
// term declared ambiguous (data/ambiguities/cjk-places-ko-zh.json) that offers that entity.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine } from '../helper.ts';

const dir = path.join(import.meta.dirname, '..', '..', 'data');
const read = (p: string) => JSON.parse(fs.readFileSync(path.join(dir, p), 'utf8'));
type Alias = { name: string; lang: string; kind: string; source: string; locator: string };
const records = read('aliases/cjk-places-ko-zh.json') as { entity: string; aliases: Alias[] }[];
const sources = read('sources/cjk-places-ko-zh.json') as { key: string; url: string; retrieved_via?: { url: string; kind: string } }[];
const ambiguities = read('ambiguities/cjk-places-ko-zh.json') as { term: string; entities: string[] }[];
const added = records.flatMap((r) => r.aliases.map((a) => ({ ...a, entity: r.entity })));
const declared = new Map(ambiguities.map((a) => [a.term, a.entities]));

describe('Korean and Chinese place names: data', () => {
  test('a count per language (Korean, simplified and traditional Chinese)', () => {
    const count = (re: RegExp) => added.filter((a) => re.test(a.lang)).length;
    assert.equal(count(/^ko$/), 104);
    assert.equal(count(/^zh-Hans$/), 28);
    assert.equal(count(/^zh-Hant$/), 4);
    assert.equal(added.length, 136);
  });

  test('every alias is Korean or Chinese script, tagged ko / zh-Hans / zh-Hant, cites a source of this file and a locator', () => {
    const keys = new Set(sources.map((s) => s.key));
    for (const a of added) {
      assert.match(a.lang, /^(ko|zh-Hans|zh-Hant)$/, a.name);
      assert.match(a.name, a.lang === 'ko' ? /^[\uac00-\ud7a3 \-]+$/ : /^[\u4e00-\u9fff\-]+$/, a.name);
      assert.ok(keys.has(a.source), `${a.name}: ${a.source}`);
      assert.ok(a.locator.length > 5, a.name);
    }
    // every source is used, and a source read in a copy names the copy
    for (const s of sources) assert.ok(added.some((a) => a.source === s.key), s.key);
    for (const s of sources.filter((x) => x.retrieved_via)) assert.notEqual(s.retrieved_via!.url, s.url, s.key);
  });

  test('a name given to two places is declared ambiguous with both', () => {
    const byName = new Map<string, Set<string>>();
    for (const a of added) byName.set(a.name, (byName.get(a.name) ?? new Set()).add(a.entity));
    for (const [name, entities] of byName) {
      if (entities.size > 1) assert.deepEqual(new Set(declared.get(name)), entities, name);
    }
    assert.deepEqual(declared.get('特伦托'), ['geo/trentino-alto-adige', 'geo/trentino']);
  });
});

describe('Korean and Chinese place names: the resolver', () => {
  const e = sharedEngine();
  const resolve = (q: string) => {
    const r = e.resolver.resolve(q, 5);
    return { state: r.state, keys: r.candidates.map((c) => e.kb.entities[c.entity]!.key) };
  };

  for (const a of added) {
    test(`"${a.name}" (${a.lang}) is ${a.entity}`, () => {
      const r = resolve(a.name);
      if (declared.has(a.name)) {
        assert.equal(r.state, 'ambiguous', a.name);
        assert.ok(r.keys.includes(a.entity), `${a.name}: ${r.keys}`);
      } else {
        assert.deepEqual({ state: r.state, key: r.keys[0] }, { state: 'resolved', key: a.entity });
      }
    });
  }

  test('region suffixes and spacing still reach the place: 霍克斯湾产区, 바로사밸리, 남호주 지방', () => {
    assert.deepEqual(resolve('霍克斯湾产区').keys[0], 'geo/hawke-s-bay');
    assert.deepEqual(resolve('바로사밸리').keys[0], 'geo/barossa-valley');
    assert.deepEqual(resolve('남호주 지방').keys[0], 'geo/south-australia');
  });

  test('호주, the everyday Korean name of Australia, and the Rhône crus in Sopexa Korea\'s spelling resolve', () => {
    assert.deepEqual(resolve('호주'), { state: 'resolved', keys: ['geo/australia'] });
    assert.equal(resolve('샤또뇌프 뒤 빠쁘').keys[0], 'geo/chateauneuf-du-pape');
    assert.equal(resolve('샤토네프 뒤 파프').keys[0], 'geo/chateauneuf-du-pape');
  });

  test('본 (Beaune, also an everyday Korean word) was not added and does not resolve to Beaune', () => {
    assert.ok(!added.some((a) => a.name === '본'));
    const r = resolve('본');
    assert.ok(!(r.state === 'resolved' && r.keys[0] === 'geo/beaune'));
  });
});
