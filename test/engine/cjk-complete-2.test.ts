// Issue 32, item 2: Japanese, Chinese and Korean lines and names.
// - Lines written in those scripts parse: vintage first, producer after a slash, and names written
//   together without spaces ("ブルゴーニュ・ピノ・ノワール", "勃艮第黑皮诺") are read one by one.
// - Names from complete sources (data/aliases/cjk-complete-2.json, sources in
//   data/sources/cjk-complete-2.json) resolve to their entity, and every one has a language and a source.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

const e = sharedEngine();
const keyOf = (id: string) => e.kb.entities[id]!.key;

function read(line: string) {
  const r = e.parser.parse(line);
  return {
    state: r.state,
    primary: r.primary ? keyOf(r.primary.candidate.entity) : null,
    vintage: r.vintage,
    mentions: r.mentions.map((m) => [m.text, keyOf(m.candidate.entity)]),
    unexplained: r.unexplained.map((u) => u.text),
  };
}

describe('CJK lines: vintage first, producer after a slash, names written together', () => {
  test('katakana words parted by a middle dot are read as words: a place and a grape in one word', () => {
    const r = read('ブルゴーニュ・ピノ・ノワール 2019 / ドメーヌ・ルロワ');
    assert.equal(r.vintage, 2019);
    assert.deepEqual(r.mentions, [['ブルゴーニュ', 'geo/bourgogne'], ['ピノ・ノワール', 'grape/pinot-noir']]);
    assert.equal(r.primary, 'geo/bourgogne');
    // the producer stays one run, dot and all
    assert.deepEqual(r.unexplained, ['ドメーヌ・ルロワ']);
  });

  test('a region and a grape joined by a middle dot (Alsace Riesling)', () => {
    const r = read('2017 アルザス・リースリング / トリンバック');
    assert.equal(r.vintage, 2017);
    assert.deepEqual(r.mentions, [['アルザス', 'geo/alsace'], ['リースリング', 'grape/riesling']]);
    assert.deepEqual(r.unexplained, ['トリンバック']);
  });

  test('a katakana name of several dotted words is still read whole, not in pieces', () => {
    const r = read('2018 ジュヴレ・シャンベルタン / ドメーヌ・X');
    assert.deepEqual(r.mentions, [['ジュヴレ・シャンベルタン', 'geo/gevrey-chambertin']]);
    assert.equal(r.state, 'resolved');
  });

  test('Chinese written without spaces: a region and a grape in one run of ideographs', () => {
    const r = read('2016 勃艮第黑皮诺 / 路易亚都');
    assert.equal(r.vintage, 2016);
    assert.deepEqual(r.mentions, [['勃艮第', 'geo/bourgogne'], ['黑皮诺', 'grape/pinot-noir']]);
    assert.equal(r.primary, 'geo/bourgogne');
    assert.deepEqual(r.unexplained, ['路易亚都']);
  });

  test('Chinese: the words after the names stay unexplained, in one piece', () => {
    const r = read('2015 里奥哈丹魄干红葡萄酒 / 瑞格尔侯爵');
    assert.deepEqual(r.mentions, [['里奥哈', 'geo/rioja'], ['丹魄', 'grape/tempranillo']]);
    assert.deepEqual(r.unexplained, ['干红葡萄酒', '瑞格尔侯爵']);
  });

  test('Korean and Japanese lines with spaces keep working', () => {
    assert.deepEqual(read('2020 샤블리 / 도멘 라로슈').mentions, [['샤블리', 'geo/chablis']]);
    const j = read('2019年 シャブリ / ドメーヌ・ラロッシュ');
    assert.equal(j.vintage, 2019);
    assert.equal(j.primary, 'geo/chablis');
    assert.deepEqual(j.unexplained, ['ドメーヌ・ラロッシュ']);
  });
});
