// Issue 32 item 4, words that translate: nationality adjectives in category names point to the GI they
// name, and a generic category name in another language is the category, not a GI containing the word.
// Real resolver behaviour on the knowledge base as shipped (data/aliases/words-that-translate.json).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedEngine, kbAlias, ROOT } from '../helper.ts';

function resolve(q: string) {
  const e = sharedEngine();
  const r = e.resolver.resolve(q, 10);
  const keys = r.candidates.map((c) => e.kb.entities[c.entity]!.key);
  return { state: r.state, keys, top: keys[0] ?? null };
}

/** q resolves (state `resolved`) to key. */
function resolvesTo(q: string, key: string) {
  const r = resolve(q);
  assert.equal(r.top, key, `${q}: top ${r.top} (${r.state})`);
  assert.equal(r.state, 'resolved', `${q}: ${r.state}`);
}

/** q is never resolved to anything but `right` (unresolved or ambiguous is fine). */
function neverResolvedElsewhere(q: string, right: string | null) {
  const r = resolve(q);
  assert.ok(r.state !== 'resolved' || r.top === right, `${q}: resolved to ${r.top}`);
}

describe('nationality adjectives name the GI (Scotch Whisky, Irish Whiskey)', () => {
  test('French names in the Canadian Spirit Drinks Trade Act: whisky écossais, whisky irlandais', () => {
    resolvesTo('Whisky écossais', 'spirit/scotch-whisky');
    resolvesTo('whisky ecossais', 'spirit/scotch-whisky');
    resolvesTo('Whisky irlandais', 'spirit/irish-whiskey');
    for (const [key, name] of [['spirit/scotch-whisky', 'Whisky écossais'], ['spirit/irish-whiskey', 'Whisky irlandais']] as const) {
      const a = kbAlias(key, name);
      assert.equal(a.lang, 'fr');
      assert.equal(a.source, 'wtt-ca-spirit-drinks-trade-act-fr');
    }
  });

  test('Scotch whisky in Czech, Polish and Greek (CN explanatory notes) and Danish', () => {
    for (const q of ['Skotská whisky', 'szkocka whisky', 'Σκωτσέζικο ουίσκι', 'Skotsk whisky']) resolvesTo(q, 'spirit/scotch-whisky');
    assert.equal(kbAlias('spirit/scotch-whisky', 'Σκωτσέζικο ουίσκι').lang, 'el');
  });

  test('an adjective with no cited name is never resolved to another whisky', () => {
    neverResolvedElsewhere('schottischer Whisky', 'spirit/scotch-whisky');
    neverResolvedElsewhere('irischer Whiskey', 'spirit/irish-whiskey');
    neverResolvedElsewhere('whisky japonais', 'spirit/japanese-whisky');
    neverResolvedElsewhere('japanischer Whisky', 'spirit/japanese-whisky');
  });

  test('the English names are unchanged', () => {
    resolvesTo('Scotch whisky', 'spirit/scotch-whisky');
    resolvesTo('Irish whiskey', 'spirit/irish-whiskey');
    resolvesTo('Whisky', 'spirit/whisky');
  });
});

describe('"Dry gin" is the category Gin (Reg. (EU) 2019/787, Annex I, category 20(d))', () => {
  test('"Dry gin" resolves to Gin, never to London gin', () => {
    resolvesTo('Dry gin', 'spirit/gin');
    resolvesTo('DRY GIN', 'spirit/gin');
    assert.equal(kbAlias('spirit/gin', 'Dry gin').source, 'wtt-eu-2019-787-annex-i-gin');
  });

  test('London dry gin keeps its own name', () => {
    resolvesTo('London Dry Gin', 'spirit/london-gin');
    resolvesTo('London gin', 'spirit/london-gin');
  });
});

describe('wine categories in other languages are the category, not a GI containing the word', () => {
  test('sparkling wine: French, Italian, Spanish, Portuguese, Dutch, Danish', () => {
    for (const q of ['Vin mousseux', 'vins mousseux', 'vini spumanti', 'Spumante', 'vino espumoso', 'vinho espumante', 'vinhos espumantes', 'mousserende wijn', 'mousserende vine']) {
      resolvesTo(q, 'style/sparkling-wine');
    }
  });

  test('"Vin mousseux" is not the Walloon PDO, whose full name still answers it', () => {
    const r = resolve('Vin mousseux');
    assert.notEqual(r.top, 'geo/vin-mousseux-de-qualite-de-wallonie');
    resolvesTo('Vin mousseux de qualité de Wallonie', 'geo/vin-mousseux-de-qualite-de-wallonie');
  });

  test('liqueur wine: French, Italian, Spanish, Portuguese, Dutch; "vin de liqueur" is not the spirit Liqueur', () => {
    for (const q of ['vin de liqueur', 'Vins de liqueur', 'vino liquoroso', 'vini liquorosi', 'vinos de licor', 'vinho licoroso', 'vinhos licorosos', 'likeurwijn']) {
      resolvesTo(q, 'style/liqueur-wine');
    }
    resolvesTo('Liqueur', 'spirit/liqueur');
  });

  test('semi-sparkling wine has no entity: Perlwein, vin pétillant, vino frizzante are never resolved to sparkling wine', () => {
    for (const q of ['Perlwein', 'vin pétillant', 'vino frizzante']) neverResolvedElsewhere(q, null);
  });

  test('appellations keep their names', () => {
    resolvesTo('Cava', 'geo/cava');
    resolvesTo('Asti', 'geo/asti');
    resolvesTo('Schaumwein', 'style/sparkling-wine');
  });
});

describe('every name of the file carries its language, a registered source and a locator', () => {
  const file = path.join(ROOT, 'data/aliases/words-that-translate.json');
  const srcFile = path.join(ROOT, 'data/sources/words-that-translate.json');
  const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as { entity: string; aliases: { name: string; lang: string; source: string; locator: string }[] }[];
  const sources = JSON.parse(fs.readFileSync(srcFile, 'utf8')) as { key: string }[];

  test('aliases are served on their entity with lang, source and locator', () => {
    const used = new Set<string>();
    for (const r of rows) {
      for (const a of r.aliases) {
        const served = kbAlias(r.entity, a.name);
        assert.match(served.lang, /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, a.name);
        assert.ok(a.locator.length > 10, a.name);
        assert.equal(served.source, a.source);
        used.add(a.source);
      }
    }
    for (const s of sources) assert.ok(used.has(s.key), `source ${s.key} is cited by a name`);
  });
});
