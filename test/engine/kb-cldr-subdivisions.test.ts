// Names of regions from Unicode CLDR's subdivisions, on the knowledge base as shipped (issue 32, item 1):
// tools/derive/cldr-names.mjs ties each wine geography named for a first-level subdivision of its country
// to that subdivision and gives it CLDR's names in every language; a name another entity carries too is
// declared (data/ambiguities/cldr.json), listed by demand, never dropped.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, kbAlias, kbEntity, sharedEngine } from '../helper.ts';
import { entityClass } from '../../src/engine/kb/entity-class.ts';

function resolve(q: string) {
  const e = sharedEngine();
  const r = e.resolver.resolve(q, 10);
  return { ...r, keys: r.candidates.map((c) => e.kb.entities[c.entity]!.key), top: r.candidates[0] ? e.kb.entities[r.candidates[0].entity]!.key : null };
}

interface AliasBlock { entity: string; aliases: { name: string; lang: string; kind: string; source: string; locator: string }[] }
const subdivisionAliases: AliasBlock[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/aliases/cldr-subdivisions.json'), 'utf8'));
const declared: { term: string; entities: string[]; note: string }[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/ambiguities/cldr.json'), 'utf8'));
/** The subdivision code a CLDR subdivision alias was read under ("…, it55, locale de, …"). */
const codeOf = (locator: string) => /, ([a-z]{2}[a-z0-9]{1,3}), locale /.exec(locator)?.[1];

describe('German names of regions from CLDR (the examples of issue 32)', () => {
  const cases: [string, string][] = [
    ['Umbrien', 'geo/umbria'], ['Apulien', 'geo/puglia'], ['Abruzzen', 'geo/abruzzo'], ['Kalabrien', 'geo/calabria'],
    ['Friaul - Julisch Venetien', 'geo/friuli'],
  ];
  for (const [q, key] of cases) {
    test(`"${q}" resolves to ${key}`, () => {
      const r = resolve(q);
      assert.equal(r.top, key, `${q}: top ${r.top} (${r.state})`);
      assert.equal(r.state, 'resolved');
    });
  }

  test('"Sizilien", which CLDR writes only inside "Autonome Region Sizilien", finds Sicily first, never resolved', () => {
    const r = resolve('Sizilien');
    assert.equal(r.top, 'geo/sicilia');
    assert.equal(r.state, 'ambiguous');
    assert.equal(kbAlias('geo/sicilia', 'Autonome Region Sizilien').lang, 'de');
  });

  test('"Elsass" resolves to Alsace: CLDR\'s German name is "Europäische Gebietskörperschaft Elsass", its Icelandic one "Elsass"', () => {
    const r = resolve('Elsass');
    assert.equal(r.top, 'geo/alsace');
    assert.equal(r.state, 'resolved');
    assert.equal(kbAlias('geo/alsace', 'Elsass').lang, 'is');
    assert.equal(kbAlias('geo/alsace', 'Europäische Gebietskörperschaft Elsass').lang, 'de');
  });

  test('each carries its language, the CLDR source, and a locator naming the CLDR release, the subdivision and its draft level', () => {
    const a = kbAlias('geo/umbria', 'Umbrien');
    assert.equal(a.lang, 'de');
    assert.equal(a.source, 'unicode-cldr');
    assert.match(a.locator, /^CLDR 48 release XML common\/subdivisions\/de\.xml \(npm cldr 8\.0\.0\), it55, locale de, draft provisional/);
  });
});

describe('country names: "Chili"', () => {
  test('"Chili" (French for Chile) resolves to Chile, with its language and source', () => {
    const r = resolve('Chili');
    assert.equal(r.top, 'geo/chile');
    assert.equal(r.state, 'resolved');
    const a = kbAlias('geo/chile', 'Chili');
    assert.equal(a.lang, 'fr');
    assert.equal(a.source, 'unicode-cldr');
    assert.match(a.locator, /^CLDR 48\.\d+ \(Node ICU [\d.]+\), territory CL, locale fr/);
  });
});

describe('subdivision ties', () => {
  test('every subdivision alias names its language, the CLDR source, the release and a subdivision code of its record\'s country', () => {
    assert.ok(subdivisionAliases.length >= 100, `${subdivisionAliases.length} records`);
    for (const { entity, aliases } of subdivisionAliases) {
      const country = String(kbEntity(entity).facts.country?.value ?? '').toLowerCase();
      assert.ok(aliases.length > 0, entity);
      const codes = new Set<string>();
      for (const a of aliases) {
        assert.equal(a.source, 'unicode-cldr', `${entity} ${a.name}`);
        assert.match(a.lang, /^[a-z]{2,3}(-[A-Z][a-z]{3})?$/, `${entity} ${a.name}`);
        assert.match(a.locator, /^CLDR 48(\.\d+)? /, `${entity} ${a.name}`);
        const code = codeOf(a.locator);
        assert.ok(code, `${entity} ${a.name}: ${a.locator}`);
        codes.add(code!);
      }
      assert.equal(codes.size, 1, `${entity}: one subdivision, got ${[...codes].join(', ')}`);
      assert.equal([...codes][0]!.slice(0, 2), country, `${entity}: ${[...codes][0]} is not in ${country}`);
    }
  });

  test('the Italian, Spanish, Greek, Dutch and Austrian regional appellations and the US states are tied', () => {
    const tied = new Map(subdivisionAliases.map((b) => [b.entity, codeOf(b.aliases[0]!.locator)]));
    const expected: [string, string][] = [
      ['geo/piemonte', 'it21'], ['geo/toscano', 'it52'], ['geo/sicilia', 'it82'], ['geo/puglia', 'it75'], ['geo/cataluna', 'esct'],
      ['geo/attiki', 'gri'], ['geo/kriti', 'grm'], ['geo/zuid-holland', 'nlzh'], ['geo/wien', 'at9'], ['geo/california', 'usca'],
      ['geo/western-cape', 'zawc'], ['geo/acores', 'pt20'], ['geo/alsace', 'fr6ae'],
    ];
    for (const [key, code] of expected) assert.equal(tied.get(key), code, key);
  });

  test('a GI named for a town that also names a subdivision gets none of the subdivision\'s names (DOC Porto, PDO Eger, IG Lisboa)', () => {
    for (const key of ['geo/porto', 'geo/eger', 'geo/lisboa', 'geo/setubal']) {
      assert.ok(!subdivisionAliases.some((b) => b.entity === key), key);
    }
    assert.notEqual(resolve('Distrikt Lissabon').top, 'geo/lisboa');
  });
});

describe('a name that two entities carry is declared, listed by demand', () => {
  test('the declarations are not empty, and each lists its entities by the demand prior, most asked for first', () => {
    const e = sharedEngine();
    assert.ok(declared.length > 0);
    const prior = (k: string) => {
      const x = kbEntity(k);
      return Math.max(e.kb.demandPrior.entities[k] ?? 0, e.kb.demandPrior.classes[entityClass(x)] ?? 0);
    };
    for (const d of declared) {
      assert.ok(d.entities.length >= 2, d.term);
      for (let i = 1; i < d.entities.length; i++) assert.ok(prior(d.entities[i - 1]!) >= prior(d.entities[i]!), `${d.term}: ${d.entities.join(' > ')}`);
    }
  });

  test('"Alba" (Scottish Gaelic for Scotland) stays a name of Scotland: ambiguous, the Piedmont DOC first', () => {
    assert.ok(declared.some((d) => d.term === 'Alba' && d.entities.includes('geo/alba') && d.entities.includes('geo/scotland')));
    const r = resolve('Alba');
    assert.equal(r.state, 'ambiguous');
    assert.equal(r.top, 'geo/alba');
    assert.ok(r.keys.includes('geo/scotland'), r.keys.join(', '));
  });

  test('"Viin" (Estonian for vodka and for Vienna) is ambiguous, vodka first by demand', () => {
    const r = resolve('Viin');
    assert.equal(r.state, 'ambiguous');
    assert.deepEqual(r.keys.slice(0, 2), ['spirit/vodka', 'geo/wien']);
  });
});
