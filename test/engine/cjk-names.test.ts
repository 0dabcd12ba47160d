// Japanese, Chinese and Korean names (issue 32, item 2): how names in those scripts are folded
// (src/engine/normalize.ts), the names added in data/aliases/cjk-*.json with their sources, and lines
// written in those scripts (src/engine/parse.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { exactForm, fold, indexVariants, queryForms } from '../../src/engine/normalize.ts';
import { sharedEngine } from '../helper.ts';

const folded = (s: string) => fold(exactForm(s));

describe('CJK folding', () => {
  test('the middle dot, a space, no separator and half-width katakana fold to the same name', () => {
    const want = folded('ピノ・ノワール');
    assert.equal(folded('ピノノワール'), want);
    assert.equal(folded('ﾋﾟﾉ･ﾉﾜｰﾙ'), want);
    // a space splits the query into two words; the index also holds the name with a space there
    assert.ok(indexVariants('ピノ・ノワール').includes(folded('ピノ ノワール')));
  });

  test('kana voicing marks are kept (ブ is not フ), so ブルゴーニュ and フルコーニュ stay apart', () => {
    assert.notEqual(folded('ブルゴーニュ'), folded('フルコーニュ'));
    assert.match(folded('ブルゴーニュ'), /ブ/);
  });

  test('long-vowel marks, dashes typed for them, ヴ and small ョ spellings meet', () => {
    assert.equal(folded('メルロー'), folded('メルロ'));
    assert.equal(folded('ボルド-'), folded('ボルドー'));
    assert.equal(folded('ソーヴィニヨン・ブラン'), folded('ソービニヨン・ブラン'));
    assert.equal(folded('カベルネ・ソーヴィニョン'), folded('カベルネ・ソーヴィニヨン'));
  });

  test('a region suffix after a name is dropped: 地方, 河流域, 州, 種, 产区, 지방', () => {
    assert.equal(folded('ブルゴーニュ地方'), folded('ブルゴーニュ'));
    assert.equal(folded('ローヌ河流域'), folded('ローヌ'));
    assert.equal(folded('ロワール渓谷地方'), folded('ロワール渓谷'));
    assert.equal(folded('トスカーナ州'), folded('トスカーナ'));
    assert.equal(folded('ネッビオーロ種'), folded('ネッビオーロ'));
    assert.equal(folded('波尔多产区'), folded('波尔多'));
    assert.equal(folded('부르고뉴 지방'), folded('부르고뉴'));
  });

  test('a suffix after one ideograph is kept: 加州 is not 加', () => {
    assert.equal(folded('加州'), '加州');
  });

  test('a Korean name of two words is also indexed without its space', () => {
    assert.ok(indexVariants('피노 누아').includes('피노누아'));
  });

  test('Latin text takes the same path as before (no CJK rule applies)', () => {
    assert.equal(folded('Château Margaux'), 'chateau margaux');
    assert.deepEqual(queryForms('Grüner Veltliner').tokens, ['gruner', 'veltliner']);
  });
});

describe('CJK names resolve', () => {
  const e = sharedEngine();
  const keyOf = (q: string) => {
    const r = e.resolver.resolve(q, 3);
    return { state: r.state, key: r.candidates[0] ? e.kb.entities[r.candidates[0].entity]!.key : null };
  };
  // the examples first, then the most demanded grapes and regions in each script
  const CASES: [string, string][] = [
    ['シャルドネ', 'grape/chardonnay'],
    ['ピノ・ノワール', 'grape/pinot-noir'],
    ['シラー', 'grape/syrah'],
    ['ブルゴーニュ地方', 'geo/bourgogne'],
    ['ローヌ河流域', 'geo/vallee-du-rhone'],
    ['シャンパーニュ', 'geo/champagne'],
    ['カベルネ・ソーヴィニヨン', 'grape/cabernet-sauvignon'],
    ['メルロ', 'grape/merlot'],
    ['ソービニヨン・ブラン', 'grape/sauvignon-blanc'],
    ['甲州', 'grape/koshu'],
    ['ボルドー', 'geo/bordeaux'],
    ['コート・デュ・ローヌ地方', 'geo/cotes-du-rhone'],
    ['샤르도네', 'grape/chardonnay'],
    ['피노누아', 'grape/pinot-noir'],
    ['까베르네 쇼비뇽', 'grape/cabernet-sauvignon'],
    ['부르고뉴 지방', 'geo/bourgogne'],
    ['보르도', 'geo/bordeaux'],
    ['霞多丽', 'grape/chardonnay'],
    ['赤霞珠', 'grape/cabernet-sauvignon'],
    ['黑皮諾', 'grape/pinot-noir'],
    ['波尔多产区', 'geo/bordeaux'],
    ['勃艮第', 'geo/bourgogne'],
    // categories
    ['シャンパン', 'geo/champagne'],
    ['スパークリングワイン', 'style/sparkling-wine'],
    ['カバ', 'geo/cava'],
    ['샴페인', 'geo/champagne'],
    ['桃红葡萄酒', 'style/rose-wine'],
  ];
  for (const [q, key] of CASES) {
    test(`"${q}" resolves to ${key}`, () => assert.deepEqual(keyOf(q), { state: 'resolved', key }));
  }
});

describe('CJK names in data', () => {
  const dir = path.join(import.meta.dirname, '..', '..', 'data');
  const files = fs.readdirSync(path.join(dir, 'aliases')).filter((f) => f.startsWith('cjk-'));
  // the sources of every CJK alias file: sources/cjk-names.json and the later sources/cjk-*.json (cjk-appellations.json)
  const sources = new Set(fs.readdirSync(path.join(dir, 'sources')).filter((f) => f.startsWith('cjk-'))
    .flatMap((f) => (JSON.parse(fs.readFileSync(path.join(dir, 'sources', f), 'utf8')) as { key: string }[]).map((s) => s.key)));
  const aliases = files.flatMap((f) => (JSON.parse(fs.readFileSync(path.join(dir, 'aliases', f), 'utf8')) as { aliases: { name: string; lang: string; source: string; locator: string }[] }[]).flatMap((r) => r.aliases));

  test('every CJK alias has a ja, ko, zh, zh-Hans or zh-Hant tag, a source of the CJK source files and a locator', () => {
    assert.ok(files.length >= 3 && aliases.length > 150, `${files.length} files, ${aliases.length} aliases`);
    for (const a of aliases) {
      assert.match(a.lang, /^(ja|ko|zh|zh-Hans|zh-Hant)$/, a.name);
      assert.ok(sources.has(a.source), `${a.name}: ${a.source}`);
      assert.ok(a.locator.length > 5, a.name);
    }
  });
});

describe('CJK lines', () => {
  const e = sharedEngine();
  const parse = (text: string) => e.parse({ text }).body as any;
  const keyOf = (m: any) => (m ? e.kb.byId.get(m.entity_id)!.key : null);

  test('"2019 シャブリ / ドメーヌ・ラロッシュ": vintage first, the place, the producer after the slash unexplained', () => {
    const b = parse('2019 シャブリ / ドメーヌ・ラロッシュ');
    assert.equal(b.state, 'resolved');
    assert.equal(keyOf(b.primary), 'geo/chablis');
    assert.equal(b.vintage, 2019);
    assert.deepEqual(b.unexplained.map((u: any) => u.text), ['ドメーヌ・ラロッシュ']);
  });

  test('full-width digits and slash read as ASCII, spans keep the text as written', () => {
    const b = parse('２０１９ シャブリ／ドメーヌ・ラロッシュ');
    assert.equal(keyOf(b.primary), 'geo/chablis');
    assert.equal(b.vintage, 2019);
    assert.equal(b.terms.find((t: any) => t.kind === 'vintage').text, '２０１９');
    assert.deepEqual(b.unexplained.map((u: any) => u.text), ['ドメーヌ・ラロッシュ']);
  });

  test('"2018年 ブルゴーニュ ピノ・ノワール / ルイ・ジャド": the year mark, the region as primary, the grape mentioned', () => {
    const b = parse('2018年 ブルゴーニュ ピノ・ノワール / ルイ・ジャド');
    assert.equal(b.vintage, 2018);
    assert.equal(keyOf(b.primary), 'geo/bourgogne');
    assert.deepEqual(b.mentions.map((m: any) => m.text), ['ブルゴーニュ', 'ピノ・ノワール']);
    assert.deepEqual(b.unexplained.map((u: any) => u.text), ['ルイ・ジャド']);
  });

  test('a two-ideograph name is a word, not an abbreviation: "2020 甲州 / 中央葡萄酒"', () => {
    const b = parse('2020 甲州 / 中央葡萄酒');
    assert.equal(keyOf(b.primary), 'grape/koshu');
    assert.equal(b.vintage, 2020);
  });

  test('Korean and Chinese lines: "2019 부르고뉴 피노 누아 / 조셉 드루앵", "2015 波尔多 / 拉菲"', () => {
    const k = parse('2019 부르고뉴 피노 누아 / 조셉 드루앵');
    assert.equal(keyOf(k.primary), 'geo/bourgogne');
    assert.equal(k.vintage, 2019);
    const z = parse('2015 波尔多 / 拉菲');
    assert.equal(keyOf(z.primary), 'geo/bordeaux');
    assert.equal(z.vintage, 2015);
  });
});
