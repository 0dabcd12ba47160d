// Japanese, Chinese and Korean names below region level (issue 32, item 2): the appellations, villages
// and grands crus of data/aliases/cjk-appellations.json, each printed beside its Latin name by a cited
// source (data/sources/cjk-appellations.json), resolved and read in wine-list lines by the real engine.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine } from '../helper.ts';

const DATA = path.join(import.meta.dirname, '..', '..', 'data');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8'));

describe('CJK appellation names resolve', () => {
  const e = sharedEngine();
  const keyOf = (q: string) => {
    const r = e.resolver.resolve(q, 3);
    return { state: r.state, key: r.candidates[0] ? e.kb.entities[r.candidates[0].entity]!.key : null };
  };
  // the examples first, then each district and script, then the written variants the folding meets
  const CASES: [string, string][] = [
    ['ジュヴレ・シャンベルタン', 'geo/gevrey-chambertin'],
    ['ヴォーヌ・ロマネ', 'geo/vosne-romanee'],
    ['ポイヤック', 'geo/pauillac'],
    ['サン・テミリオン', 'geo/saint-emilion'],
    ['シャブリ', 'geo/chablis'],
    ['バローロ', 'geo/barolo'],
    ['リオハ', 'geo/rioja'],
    // Burgundy: villages and grands crus
    ['ムルソー', 'geo/meursault'],
    ['ピュリニイ・モンラッシェ', 'geo/puligny-montrachet'],
    ['シャンボール=ミュジニー', 'geo/chambolle-musigny'],
    ['ニュイ・サン・ジョルジュ', 'geo/nuits-saint-georges'],
    ['コルトン・シャルルマーニュ', 'geo/corton-charlemagne'],
    ['ロマネ・コンティ', 'geo/romanee-conti'],
    ['クロ・ド・ヴジョ', 'geo/clos-de-vougeot'],
    ['ジュヴシャン', 'geo/gevrey-chambertin'],
    // Beaujolais crus, Rhône, Loire, Bordeaux
    ['ムーラン・ナ・ヴァン', 'geo/moulin-a-vent'],
    ['モルゴン', 'geo/morgon'],
    ['シャトー・ヌフ・デュ・パプ', 'geo/chateauneuf-du-pape'],
    ['クローズ・エルミタージュ', 'geo/crozes-hermitage'],
    ['サンセール', 'geo/sancerre'],
    ['プイィ・フュメ', 'geo/pouilly-fume'],
    ['マルゴー', 'geo/margaux'],
    ['ポムロール', 'geo/pomerol'],
    // Italy, Germany, the New World
    ['バルバレスコ', 'geo/barbaresco'],
    ['キャンティ・クラシコ', 'geo/chianti-classico'],
    ['アマローネ', 'geo/amarone-della-valpolicella'],
    ['モーゼル', 'geo/mosel'],
    ['ラインガウ', 'geo/rheingau'],
    ['ナパ・ヴァレー', 'geo/napa-valley'],
    ['バロッサ・バレー', 'geo/barossa-valley'],
    ['セントラル・オタゴ', 'geo/central-otago'],
    // Korean and Chinese
    ['리베라 델 두에로', 'geo/ribera-del-duero'],
    ['루에다', 'geo/rueda'],
    ['波亚克', 'geo/pauillac'],
    ['圣爱美隆', 'geo/saint-emilion'],
    ['波美侯', 'geo/pomerol'],
    ['梅鐸克', 'geo/medoc'],
    // folding: no separator, a space, a long-vowel mark, ヴ written as ブ, half-width kana
    ['ジュヴレシャンベルタン', 'geo/gevrey-chambertin'],
    ['ヴォーヌ ロマネ', 'geo/vosne-romanee'],
    ['ポムロル', 'geo/pomerol'],
    ['ジュブレ・シャンベルタン', 'geo/gevrey-chambertin'],
    ['ﾑﾙｿｰ', 'geo/meursault'],
  ];
  for (const [q, key] of CASES) {
    test(`"${q}" resolves to ${key}`, () => assert.deepEqual(keyOf(q), { state: 'resolved', key }));
  }

  test('every name of the file resolves to its own record', () => {
    const rows = read('aliases/cjk-appellations.json') as { entity: string; aliases: { name: string }[] }[];
    const wrong = rows.flatMap((r) => r.aliases.map((a) => ({ q: a.name, want: r.entity, got: keyOf(a.name) })))
      .filter((x) => x.got.state !== 'resolved' || x.got.key !== x.want);
    assert.deepEqual(wrong, []);
  });
});

describe('CJK appellation names in data', () => {
  const rows = read('aliases/cjk-appellations.json') as { entity: string; aliases: { name: string; lang: string; kind: string; source: string; locator: string }[] }[];
  const sources = read('sources/cjk-appellations.json') as { key: string; url: string; notes: string; retrieved_via?: { url: string } }[];
  const keys = new Set([...sources.map((s) => s.key), ...(read('sources/cjk-names.json') as { key: string }[]).map((s) => s.key)]);
  const aliases = rows.flatMap((r) => r.aliases);

  test('each alias has a CJK language tag, a kind, a cited source of the CJK source files and a locator', () => {
    assert.ok(aliases.length >= 120, `${aliases.length} aliases`);
    for (const a of aliases) {
      assert.match(a.lang, /^(ja|ko|zh-Hans|zh-Hant)$/, a.name);
      assert.match(a.kind, /^(other_language|abbreviation|synonym)$/, a.name);
      assert.ok(keys.has(a.source), `${a.name}: ${a.source}`);
      assert.ok(a.locator.length > 10, a.name);
      assert.match(a.name, /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/, `${a.name} is written in a CJK script`);
    }
  });

  test('names of places below the regions already named: appellations, and the GI regions and subregions of Australia and New Zealand', () => {
    const e = sharedEngine();
    const levels: Record<string, number> = {};
    for (const r of rows) {
      const x = e.kb.byKey.get(r.entity);
      assert.ok(x, `${r.entity} is served`);
      const level = (x as any).facts?.level?.value as string;
      assert.match(level, /^(appellation|subregion|region)$/, r.entity);
      if (level !== 'appellation') assert.match((x as any).facts?.country?.value, /^(AU|NZ)$/, r.entity);
      levels[level] = (levels[level] ?? 0) + 1;
    }
    assert.ok(levels.appellation! >= 140, JSON.stringify(levels));
  });

  test('every new source is cited by an alias, and a source read in a copy names the copy', () => {
    const cited = new Set(aliases.map((a) => a.source));
    for (const s of sources) assert.ok(cited.has(s.key), `${s.key} is cited`);
    const copies = sources.filter((x) => x.notes.startsWith('Read in'));
    assert.ok(copies.length >= 3);
    for (const s of copies) assert.ok(s.retrieved_via?.url && s.retrieved_via.url !== s.url, s.key);
  });
});

describe('CJK appellation names in wine-list lines', () => {
  const e = sharedEngine();
  const parse = (text: string) => e.parse({ text }).body as any;
  const keyOf = (m: any) => (m ? e.kb.byId.get(m.entity_id)!.key : null);

  test('"2018 ジュヴレ・シャンベルタン / ドメーヌ・X": vintage, the village appellation, the producer unexplained', () => {
    const b = parse('2018 ジュヴレ・シャンベルタン / ドメーヌ・X');
    assert.equal(b.state, 'resolved');
    assert.equal(keyOf(b.primary), 'geo/gevrey-chambertin');
    assert.equal(b.vintage, 2018);
    assert.deepEqual(b.unexplained.map((u: any) => u.text), ['ドメーヌ・X']);
  });

  test('"２０１５年 ヴォーヌ・ロマネ／ドメーヌ・Y": full-width digits, 年 and slash', () => {
    const b = parse('２０１５年 ヴォーヌ・ロマネ／ドメーヌ・Y');
    assert.equal(keyOf(b.primary), 'geo/vosne-romanee');
    assert.equal(b.vintage, 2015);
  });

  test('Bordeaux, Rhône and Korean and Chinese lines: "2016 ポイヤック", "2017 シャトー・ヌフ・デュ・パプ", "2019 루에다", "2015 波美侯"', () => {
    for (const [text, key, year] of [
      ['2016 ポイヤック', 'geo/pauillac', 2016],
      ['2017 シャトー・ヌフ・デュ・パプ', 'geo/chateauneuf-du-pape', 2017],
      ['2019 루에다', 'geo/rueda', 2019],
      ['2015 波美侯', 'geo/pomerol', 2015],
    ] as const) {
      const b = parse(text);
      assert.equal(keyOf(b.primary), key, text);
      assert.equal(b.vintage, year, text);
    }
  });
});
