// Grape names in Japanese, Korean and Chinese beyond the most demanded grapes (issue 32, item 2):
// data/aliases/cjk-grapes-complete.json, each name printed beside its Latin name (or tied to it by the
// page's own words) in a source of data/sources/cjk-grapes-complete.json, resolved by the real engine.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine } from '../helper.ts';

const DATA = path.join(import.meta.dirname, '..', '..', 'data');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8'));
type Alias = { name: string; lang: string; kind: string; source: string; locator: string };
const rows = read('aliases/cjk-grapes-complete.json') as { entity: string; aliases: Alias[] }[];
const sources = read('sources/cjk-grapes-complete.json') as { key: string; url: string; notes: string }[];

describe('CJK grape names (complete tables) resolve', () => {
  const e = sharedEngine();
  const keyOf = (q: string) => {
    const r = e.resolver.resolve(q, 3);
    return { state: r.state, key: r.candidates[0] ? e.kb.entities[r.candidates[0].entity]!.key : null };
  };
  // a sample per source and script: mainland and Taiwan forms, Japanese synonyms, Korean spellings
  const CASES: [string, string][] = [
    // the Chongqing Morning Post table (simplified)
    ['雷司令', 'grape/riesling'],
    ['长相思', 'grape/sauvignon-blanc'],
    ['赛美蓉', 'grape/semillon'],
    ['西万尼', 'grape/silvaner'],
    ['灰比诺', 'grape/pinot-gris'],
    ['品丽珠', 'grape/cabernet-franc'],
    ['蛇龙珠', 'grape/carmenere'],
    ['佳美娜', 'grape/carmenere'],
    ['歌海娜', 'grape/grenache'],
    ['梅鹿辄', 'grape/merlot'],
    ['莫尼耶比诺', 'grape/pinot-meunier'],
    // the mainland and Taiwan names side by side (traditional)
    ['卡本內蘇維濃', 'grape/cabernet-sauvignon'],
    ['卡本內-蘇維翁', 'grape/cabernet-sauvignon'],
    ['品麗珠', 'grape/cabernet-franc'],
    ['格那希', 'grape/grenache'],
    ['慕維得爾', 'grape/mourvedre'],
    ['希哈', 'grape/syrah'],
    ['設拉子', 'grape/syrah'],
    ['仙粉黛', 'grape/primitivo'],
    ['金芬黛', 'grape/primitivo'],
    // Chinese names of Spanish and Chinese-grown varieties
    ['丹魄', 'grape/tempranillo'],
    ['阿爾巴利諾', 'grape/albarino'],
    ['馬家婆', 'grape/macabeo'],
    ['贵人香', 'grape/welschriesling'],
    ['白玉霓', 'grape/trebbiano'],
    // Japanese
    ['ネッビオーロ', 'grape/nebbiolo'],
    ['スパンナ', 'grape/nebbiolo'],
    ['ゲヴュルツトラミネール', 'grape/gewurztraminer'],
    ['ゲヴルツトラミネール', 'grape/gewurztraminer'],
    ['テンプラニージョ', 'grape/tempranillo'],
    ['センシベル', 'grape/tempranillo'],
    ['シュペートブルグンダー', 'grape/pinot-noir'],
    ['サヴァニャン', 'grape/savagnin'],
    ['マスカットベーリーA', 'grape/muscat-bailey-a'],
    ['アルナイス', 'grape/arneis'],
    ['バルベーラ', 'grape/barbera'],
    ['カナイオーロ', 'grape/canaiolo-nero'],
    ['カラブレーゼ', 'grape/nero-d-avola'],
    // Korean
    ['까베르네 소비뇽', 'grape/cabernet-sauvignon'],
    ['산지오베제', 'grape/sangiovese'],
    ['진판델', 'grape/primitivo'],
    ['쇼비뇽 블랑', 'grape/sauvignon-blanc'],
    ['샤도네이', 'grape/chardonnay'],
    ['슈냉 블랑', 'grape/chenin-blanc'],
    ['그뤼너 벨트리너', 'grape/gruner-veltliner'],
    ['츠바이겔트', 'grape/zweigelt'],
    ['블라우프랜키슈', 'grape/blaufrankisch'],
    ['뮐러-투어가우', 'grape/muller-thurgau'],
    ['네비올로', 'grape/nebbiolo'],
    // more Japanese and Chinese spellings
    ['グリューナー・フェルトリーナー', 'grape/gruner-veltliner'],
    ['マルベック', 'grape/malbec'],
    ['ピノ・ド・ラ・ロワール', 'grape/chenin-blanc'],
    ['桑娇维塞', 'grape/sangiovese'],
    ['马尔贝克', 'grape/malbec'],
    ['味而多', 'grape/petit-verdot'],
    ['雪当利', 'grape/chardonnay'],
    ['梅鹿', 'grape/merlot'],
    // Italy, Greece, Portugal, the New World and Georgia
    ['ドルチェット', 'grape/dolcetto'],
    ['フィアーノ', 'grape/fiano'],
    ['クシノマヴロ', 'grape/xinomavro'],
    ['アシルティコ', 'grape/assyrtiko'],
    ['トウリガ・ナシオナル', 'grape/touriga-nacional'],
    ['アルヴァリーニョ', 'grape/albarino'],
    ['베르멘티노', 'grape/vermentino'],
    ['투리가 나시오날', 'grape/touriga-nacional'],
    ['틴타 로리즈', 'grape/tempranillo'],
    ['維蒂奇諾', 'grape/verdicchio'],
    ['特浓情', 'grape/torrontes'],
    ['晚红蜜', 'grape/saperavi'],
    ['皮诺塔吉', 'grape/pinotage'],
    ['神索', 'grape/cinsault'],
  ];
  for (const [q, key] of CASES) {
    test(`"${q}" resolves to ${key}`, () => assert.deepEqual(keyOf(q), { state: 'resolved', key }));
  }

  test('every added name resolves to the grape it was added to', () => {
    const wrong: string[] = [];
    for (const r of rows) for (const a of r.aliases) {
      const got = keyOf(a.name);
      if (got.state !== 'resolved' || got.key !== r.entity) wrong.push(`${a.name} -> ${got.key} (${got.state}), want ${r.entity}`);
    }
    assert.deepEqual(wrong, []);
  });

  test('the added names are on the served records (the alias file is merged at load)', () => {
    for (const r of rows) {
      const ent = e.kb.byKey.get(r.entity);
      assert.ok(ent, `${r.entity} is served`);
      for (const a of r.aliases) assert.ok(ent!.aliases.some((x) => x.name === a.name && x.source === a.source), `${r.entity}: ${a.name}`);
    }
  });
});

describe('CJK grape names (complete tables) in data', () => {
  const all = rows.flatMap((r) => r.aliases);
  const byLang = (re: RegExp) => all.filter((a) => re.test(a.lang)).length;

  test('names per language: Japanese, Korean, Chinese (simplified and traditional)', () => {
    const counts = { ja: byLang(/^ja$/), ko: byLang(/^ko$/), zhHans: byLang(/^zh-Hans$/), zhHant: byLang(/^zh-Hant$/) };
    assert.equal(counts.ja + counts.ko + counts.zhHans + counts.zhHant, all.length, 'no other language tag');
    assert.ok(counts.ja >= 75, `ja ${counts.ja}`);
    assert.ok(counts.ko >= 38, `ko ${counts.ko}`);
    assert.ok(counts.zhHans >= 45, `zh-Hans ${counts.zhHans}`);
    assert.ok(counts.zhHant >= 30, `zh-Hant ${counts.zhHant}`);
    assert.ok(rows.length >= 90, `${rows.length} grapes`);
  });

  test('every name cites a registered source with a locator; every source of the file is cited', () => {
    const keys = new Set([...sources.map((s) => s.key), 'cjk-wikipedia-ja-wine-grape-list']);
    for (const a of all) {
      assert.ok(keys.has(a.source), `${a.name}: ${a.source}`);
      assert.ok(a.locator.length > 5, a.name);
      assert.match(a.name, /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u, a.name);
    }
    const cited = new Set(all.map((a) => a.source));
    const uncited = sources.filter((s) => !cited.has(s.key) && !/nothing new taken/.test(s.notes)).map((s) => s.key);
    assert.deepEqual(uncited, []);
  });

  test('no name is given twice to one grape, and none repeats a name of cjk-grapes.json', () => {
    const older = new Set((read('aliases/cjk-grapes.json') as { entity: string; aliases: Alias[] }[])
      .flatMap((r) => r.aliases.map((a) => `${r.entity}|${a.name}`)));
    const seen = new Set<string>();
    for (const r of rows) for (const a of r.aliases) {
      const k = `${r.entity}|${a.name}`;
      assert.ok(!seen.has(k) && !older.has(k), k);
      seen.add(k);
    }
  });
});
