// Japanese names of appellations and regions outside the first CJK appellation round (issue 32, item 2):
// Portugal, Austria, Chile, Argentina, South Africa, Hungary, Greece, the United States beyond Napa and
// Sonoma, French appellations of Languedoc-Roussillon and Alsace, and two Lombard DOCGs. Each name is printed beside its
// Latin name by a cited page (data/sources/cjk-appellations-2.json); the real engine resolves each to
// its record and reads them in wine-list lines.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine } from '../helper.ts';

const DATA = path.join(import.meta.dirname, '..', '..', 'data');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8'));
type Row = { entity: string; aliases: { name: string; lang: string; kind: string; source: string; locator: string }[] };

describe('CJK appellation names, second round: resolution', () => {
  const e = sharedEngine();
  const keyOf = (q: string) => {
    const r = e.resolver.resolve(q, 3);
    return { state: r.state, key: r.candidates[0] ? e.kb.entities[r.candidates[0].entity]!.key : null };
  };
  // a sample per country and script form, then written variants the folding meets
  const CASES: [string, string][] = [
    ['ヴィーニョ・ヴェルデ', 'geo/vinho-verde'],
    ['バイラーダ', 'geo/bairrada'],
    ['ダン', 'geo/dao'],
    ['ヴァッハウ', 'geo/wachau'],
    ['カンプタール', 'geo/kamptal'],
    ['クレムスタール', 'geo/kremstal'],
    ['ノイジードラーゼー', 'geo/neusiedlersee'],
    ['マイポ・ヴァレー', 'geo/maipo-valley'],
    ['コルチャグア・ヴァレー', 'geo/valle-de-colchagua'],
    ['カサブランカ・ヴァレー', 'geo/valle-de-casablanca'],
    ['ルハン・デ・クージョ', 'geo/lujan-de-cuyo'],
    ['ウコ・バレー', 'geo/valle-de-uco'],
    ['ステレンボッシュ', 'geo/stellenbosch'],
    ['スラートランド', 'geo/swartland'],
    ['トカイ', 'geo/tokaj'],
    ['ヴィラーニ', 'geo/villany'],
    ['ウィラメット・ヴァレー', 'geo/willamette-valley'],
    ['ワラワラ・ヴァレー', 'geo/walla-walla-valley'],
    ['ローダイ', 'geo/lodi'],
    ['コルビエール', 'geo/corbieres'],
    ['バニュルス', 'geo/banyuls'],
    // folding: no separator, a space, ヴ written as ブ, half-width kana
    ['マイポヴァレー', 'geo/maipo-valley'],
    ['ウィラメット ヴァレー', 'geo/willamette-valley'],
    ['ビーニョ・ベルデ', 'geo/vinho-verde'],
    ['ｽﾃﾚﾝﾎﾞｯｼｭ', 'geo/stellenbosch'],
  ];
  for (const [q, key] of CASES) {
    test(`"${q}" resolves to ${key}`, () => assert.deepEqual(keyOf(q), { state: 'resolved', key }));
  }

  test('every name of the file resolves to its own record', () => {
    const rows = read('aliases/cjk-appellations-2.json') as Row[];
    const wrong = rows.flatMap((r) => r.aliases.map((a) => ({ q: a.name, want: r.entity, got: keyOf(a.name) })))
      .filter((x) => x.got.state !== 'resolved' || x.got.key !== x.want);
    assert.deepEqual(wrong, []);
  });

  test('the names are new: none was already a name of the same record in the first CJK files', () => {
    const before = new Set((['aliases/cjk-appellations.json', 'aliases/cjk-places.json'] as const)
      .flatMap((f) => (read(f) as Row[]).flatMap((r) => r.aliases.map((a) => `${r.entity} ${a.name}`))));
    const rows = read('aliases/cjk-appellations-2.json') as Row[];
    assert.deepEqual(rows.flatMap((r) => r.aliases.map((a) => `${r.entity} ${a.name}`)).filter((k) => before.has(k)), []);
  });
});

describe('CJK appellation names, second round: data', () => {
  const rows = read('aliases/cjk-appellations-2.json') as Row[];
  const sources = read('sources/cjk-appellations-2.json') as { key: string; url: string; notes: string; authority: string }[];
  const aliases = rows.flatMap((r) => r.aliases);

  test('each alias is Japanese, other_language, cites a source of this file and a locator quoting the page', () => {
    assert.ok(aliases.length >= 100, `${aliases.length} aliases`);
    const keys = new Set(sources.map((s) => s.key));
    for (const a of aliases) {
      assert.equal(a.lang, 'ja', a.name);
      assert.equal(a.kind, 'other_language', a.name);
      assert.ok(keys.has(a.source), `${a.name}: ${a.source}`);
      assert.ok(a.locator.includes(a.name.split(/[・=]/)[0]!) || a.locator.includes(a.name), `${a.name}: the locator quotes the name`);
      assert.match(a.name, /^[\u30a0-\u30ff\u3400-\u9fff=]+$/, `${a.name} is written in katakana or kanji`);
    }
  });

  test('the places are served, below country level, in the countries of this round', () => {
    const e = sharedEngine();
    const countries: Record<string, number> = {};
    for (const r of rows) {
      const x = e.kb.byKey.get(r.entity) as any;
      assert.ok(x, `${r.entity} is served`);
      assert.notEqual(x.facts?.level?.value, 'country', r.entity);
      const c = x.facts?.country?.value as string;
      assert.match(c, /^(PT|AT|CL|AR|ZA|HU|GR|US|FR|IT)$/, r.entity);
      countries[c] = (countries[c] ?? 0) + 1;
    }
    for (const c of ['PT', 'AT', 'CL', 'AR', 'ZA', 'HU', 'GR', 'US', 'FR']) assert.ok(countries[c]! >= 1, JSON.stringify(countries));
    assert.ok(countries.HU! >= 22, 'all 22 Hungarian wine regions');
  });

  test('every source is cited, and a body\'s own page is the only regional-body source', () => {
    const cited = new Set(aliases.map((a) => a.source));
    for (const s of sources) assert.ok(cited.has(s.key), `${s.key} is cited`);
    for (const s of sources) {
      assert.match(s.authority, /^(official_regional_wine_body|wine_press)$/, s.key);
      if (s.authority === 'official_regional_wine_body') assert.match(s.url, /austrianwine\.jp/, s.key);
    }
  });
});

describe('CJK appellation names, second round: wine-list lines', () => {
  const e = sharedEngine();
  const parse = (text: string) => e.parse({ text }).body as any;
  const keyOf = (m: any) => (m ? e.kb.byId.get(m.entity_id)!.key : null);

  for (const [text, key, year] of [
    ['2019 ヴァッハウ / ドメーヌ・X', 'geo/wachau', 2019],
    ['２０１８年 マイポ・ヴァレー／ビーニャ・Y', 'geo/maipo-valley', 2018],
    ['2017 トカイ', 'geo/tokaj', 2017],
    ['2020 ステレンボッシュ', 'geo/stellenbosch', 2020],
    ['2016 ウィラメット・ヴァレー', 'geo/willamette-valley', 2016],
  ] as const) {
    test(`"${text}": the vintage and the place`, () => {
      const b = parse(text);
      assert.equal(keyOf(b.primary), key, text);
      assert.equal(b.vintage, year, text);
    });
  }
});
