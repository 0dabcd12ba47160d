// Issue 32, item 2: Japanese, Chinese and Korean lines and names.
// - Lines written in those scripts parse: vintage first, producer after a slash, and names written
//   together without spaces ("ブルゴーニュ・ピノ・ノワール", "勃艮第黑皮诺") are read one by one.
// - Names from complete sources (data/aliases/cjk-complete-2.json, sources in
//   data/sources/cjk-complete-2.json) resolve to their entity, and every one has a language and a source.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine } from '../helper.ts';

const e = sharedEngine();
const keyOf = (id: number) => e.kb.entities[id]!.key;

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


const DATA = path.join(import.meta.dirname, '..', '..', 'data');
const json = (f: string) => JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8'));
type Alias = { name: string; lang: string; kind: string; source: string; locator: string };

describe('CJK names from complete sources (data/aliases/cjk-complete-2.json)', () => {
  const rows = json('aliases/cjk-complete-2.json') as { entity: string; aliases: Alias[] }[];
  const sources = new Map((json('sources/cjk-complete-2.json') as { key: string }[]).map((s) => [s.key, s]));
  const resolve = (q: string) => {
    const r = e.resolver.resolve(q, 3);
    return { state: r.state, keys: r.candidates.map((c) => keyOf(c.entity)) };
  };

  test('every added name has a CJK language tag, a source of this file and a locator', () => {
    assert.ok(rows.length > 50);
    for (const row of rows) {
      for (const a of row.aliases) {
        assert.match(a.lang, /^(?:zh|zh-Hans|zh-Hant|ja|ko)$/, `${row.entity} ${a.name}`);
        assert.ok(sources.has(a.source), `${row.entity} ${a.name}: source ${a.source}`);
        assert.ok(a.locator.length > 0);
      }
    }
  });

  // CC-CEDICT (cjk-cc-cedict): simplified and traditional forms of one entry, grapes and places
  const CEDICT: [string, string][] = [
    ['佳丽酿', 'grape/carignan'],
    ['佳麗釀', 'grape/carignan'],
    ['灰皮諾', 'grape/pinot-gris'],
    ['馬爾貝克', 'grape/malbec'],
    ['西萬尼', 'grape/silvaner'],
    ['加州', 'geo/california'],
    ['加利福尼亚', 'geo/california'],
    ['俄勒冈', 'geo/oregon'],
    ['紐約', 'geo/new-york'],
    ['普羅旺斯', 'geo/provence'],
    ['符腾堡', 'geo/wurttemberg'],
    ['巴登', 'geo/baden'],
    ['蒙特雷', 'geo/monterey'],
    ['南岛', 'geo/south-island'],
    ['塔斯马尼亚', 'geo/tasmania'],
    ['卡斯蒂利亚·莱昂', 'geo/castilla-y-leon'],
    ['溫哥華島', 'geo/vancouver-island'],
    ['紐西蘭', 'geo/new-zealand'],
  ];
  for (const [q, key] of CEDICT) {
    test(`${q} resolves to ${key}`, () => {
      const r = resolve(q);
      assert.equal(r.keys[0], key, JSON.stringify(r));
      assert.equal(r.state, 'resolved', JSON.stringify(r));
    });
  }

  test('a name the dictionary gives to two places is declared shared, never dropped', () => {
    for (const q of ['喬治亞', '乔治亚']) {
      const r = resolve(q);
      assert.equal(r.state, 'ambiguous', q);
      assert.deepEqual(new Set(r.keys.slice(0, 2)), new Set(['geo/georgia', 'geo/georgia-country']), q);
    }
  });
});

describe('traditional Chinese folds to simplified (CC-CEDICT one-character entries)', () => {
  test('fold maps traditional characters to their simplified forms, leaving others as written', async () => {
    const { fold, exactForm } = await import('../../src/engine/normalize.ts');
    assert.equal(fold(exactForm('納帕谷')), fold(exactForm('纳帕谷')));
    assert.equal(fold(exactForm('里奧哈')), fold(exactForm('里奥哈')));
    // kana, Hangul and simplified text are unchanged by it
    assert.equal(fold(exactForm('甲州')), '甲州');
    assert.equal(fold(exactForm('보르도')), '보르도');
    assert.equal(fold(exactForm('黑皮诺')), '黑皮诺');
  });

  // each name is held in simplified characters only; typed in traditional ones it finds the same record
  const TRAD: [string, string][] = [
    ['納帕谷', 'geo/napa-valley'],
    ['里奧哈', 'geo/rioja'],
    ['瑪歌', 'geo/margaux'],
    ['馬爾堡', 'geo/marlborough'],
    ['索諾瑪', 'geo/sonoma-county'],
  ];
  for (const [q, key] of TRAD) {
    test(`${q} (traditional) resolves to ${key}`, () => {
      const r = e.resolver.resolve(q, 3);
      assert.equal(r.state, 'resolved');
      assert.equal(keyOf(r.candidates[0]!.entity), key);
    });
  }

  test('a line in traditional characters written without spaces is read too', () => {
    const r = read('2019 納帕谷赤霞珠 / 啸鹰');
    assert.deepEqual(r.mentions, [['納帕谷', 'geo/napa-valley'], ['赤霞珠', 'grape/cabernet-sauvignon']]);
    assert.equal(r.primary, 'geo/napa-valley');
  });
});

describe('Korean tense-consonant trade spellings fold to the loanword rules’ spelling', () => {
  test('fold: ㄲ→ㅋ, ㄸ→ㅌ, ㅃ→ㅍ, ㅆ→ㅅ, ㅉ→ㅈ in the initial; finals, vowels and other syllables unchanged', async () => {
    const { fold, exactForm } = await import('../../src/engine/normalize.ts');
    assert.equal(fold(exactForm('까르메네르')), fold(exactForm('카르메네르')));
    assert.equal(fold(exactForm('쁘띠')), fold(exactForm('프티')));
    assert.equal(fold(exactForm('쎄미용')), fold(exactForm('세미용')));
    assert.equal(fold(exactForm('째즈')), fold(exactForm('재즈')));
    assert.equal(fold(exactForm('꼬뜨 뒤 론')), fold(exactForm('코트 뒤 론')));
    // a final ㄲ or ㅆ is no initial: unchanged ("밖" stays, "있" keeps its ㅆ final)
    assert.equal(fold(exactForm('밖')), '밖');
    assert.equal(fold(exactForm('있')), '있');
    assert.equal(fold(exactForm('보르도')), '보르도');
  });

  // each held in one spelling only; typed in the other it finds the same record
  const KO: [string, string][] = [
    ['까르메네르', 'grape/carmenere'],
    ['쎄미용', 'grape/semillon'],
    ['쏘비뇽 블랑', 'grape/sauvignon-blanc'],
    ['뽀이약', 'geo/pauillac'],
    ['끼안띠', 'geo/chianti'],
    ['코트 뒤 론', 'geo/cotes-du-rhone'],
  ];
  for (const [q, key] of KO) {
    test(`${q} resolves to ${key}`, () => {
      const r = e.resolver.resolve(q, 3);
      assert.equal(r.state, 'resolved');
      assert.equal(keyOf(r.candidates[0]!.entity), key);
    });
  }
});

test('the tense-initial fold touches the syllables of those five initials only (every Hangul syllable)', async () => {
  const { fold, exactForm } = await import('../../src/engine/normalize.ts');
  const tense: Record<number, number> = { 1: 15, 4: 16, 8: 17, 10: 9, 13: 12 };
  for (let c = 0xac00; c <= 0xd7a3; c++) {
    const i = c - 0xac00;
    const initial = Math.floor(i / 588);
    const want = tense[initial] === undefined ? c : 0xac00 + tense[initial]! * 588 + (i % 588);
    const got = fold(exactForm(String.fromCharCode(c)));
    if (got !== String.fromCharCode(want)) assert.fail(`U+${c.toString(16)} ${String.fromCharCode(c)} folds to ${got}`);
  }
});

describe('katakana words parted by a middle dot that are no name as one word', () => {
  test('"フランス・ボルドー" reads as "フランス ボルドー": Bordeaux first, as the words typed apart', () => {
    for (const q of ['フランス・ボルドー', 'スペイン・リオハ']) {
      const dotted = e.resolver.resolve(q, 3);
      const spaced = e.resolver.resolve(q.replace('・', ' '), 3);
      assert.notEqual(dotted.state, 'unresolved', q);
      assert.equal(dotted.state, spaced.state, q);
      assert.deepEqual(dotted.candidates.map((c) => keyOf(c.entity)), spaced.candidates.map((c) => keyOf(c.entity)), q);
    }
    assert.equal(keyOf(e.resolver.resolve('フランス・ボルドー', 3).candidates[0]!.entity), 'geo/bordeaux');
  });

  test('a dotted katakana name is still one name', () => {
    const r = e.resolver.resolve('カベルネ・ソーヴィニヨン', 3);
    assert.equal(r.state, 'resolved');
    assert.equal(keyOf(r.candidates[0]!.entity), 'grape/cabernet-sauvignon');
  });
});

describe('katakana doubled consonants written with or without the small ッ', () => {
  test('fold drops ッ as it drops ー', async () => {
    const { fold, exactForm } = await import('../../src/engine/normalize.ts');
    assert.equal(fold(exactForm('ネビオーロ')), fold(exactForm('ネッビオーロ')));
    assert.equal(fold(exactForm('ヴァルポリチェラ')), fold(exactForm('ヴァルポリチェッラ')));
    // hiragana っ is left alone
    assert.equal(fold(exactForm('いっぽん')), 'いっぽん');
  });
  const JA: [string, string][] = [
    ['ネビオーロ', 'grape/nebbiolo'],
    ['ブルネロ・ディ・モンタルチーノ', 'geo/brunello-di-montalcino'],
    ['ヴァルポリチェラ', 'geo/valpolicella'],
  ];
  for (const [q, key] of JA) {
    test(`${q} resolves to ${key}`, () => {
      const r = e.resolver.resolve(q, 3);
      assert.equal(r.state, 'resolved');
      assert.equal(keyOf(r.candidates[0]!.entity), key);
    });
  }
});

describe('a CJK line of names and qualifiers: its narrowest name, never resolved', () => {
  const CASES: [string, string][] = [
    ['ブルゴーニュ・ルージュ', 'geo/bourgogne'],
    ['シャブリ・プルミエ・クリュ', 'geo/chablis'],
    ['부르고뉴 루즈', 'geo/bourgogne'],
    ['샤블리 프리미에 크뤼', 'geo/chablis'],
    // broadest to narrowest, as catalogues list them: the narrowest name
    ['イタリア ピエモンテ バローロ', 'geo/barolo'],
    ['フランス ボルドー ルージュ', 'geo/bordeaux'],
  ];
  for (const [q, key] of CASES) {
    test(`${q}: ${key} first, ambiguous`, () => {
      const r = e.resolver.resolve(q, 3);
      assert.equal(r.state, 'ambiguous');
      assert.equal(keyOf(r.candidates[0]!.entity), key);
    });
  }
  test('a producer name nothing holds stays unresolved', () => {
    assert.equal(e.resolver.resolve('ドメーヌ・ルロワ', 3).state, 'unresolved');
  });
});
