// US retail spirit classes (issue 8, section 2): the cordial and liqueur types of 27 CFR 5.150, corn
// whisky and the US blends, each pinned to the record, its parent and the source + locator it was read in.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

const kb = () => sharedEngine().kb;
const e = (key: string) => {
  const x = kb().byKey.get(key);
  assert.ok(x, `${key} is served`);
  return x!;
};
const fact = (key: string, name: string) => {
  const f = (e(key).facts as Record<string, { value: unknown; source: string; locator: string } | undefined>)[name];
  assert.ok(f, `${key} has the fact ${name}`);
  return f!;
};

describe('27 CFR 5.150 cordials and liqueurs', () => {
  test('each type read in § 5.150(b) is a record under Liqueur, cited to its row', () => {
    const pins: [string, string, string][] = [
      ['spirit/sloe-gin', 'Sloe gin', '§ 5.150(b)(1)'],
      ['spirit/rye-liqueur', 'Rye liqueur', '§ 5.150(b)(2)'],
      ['spirit/bourbon-liqueur', 'Bourbon liqueur', '§ 5.150(b)(2)'],
      ['spirit/rock-and-rye', 'Rock and rye', '§ 5.150(b)(3)'],
      ['spirit/rock-and-bourbon', 'Rock and bourbon', '§ 5.150(b)(3)'],
      ['spirit/rock-and-brandy', 'Rock and brandy', '§ 5.150(b)(3)'],
      ['spirit/rock-and-rum', 'Rock and rum', '§ 5.150(b)(3)'],
    ];
    for (const [key, name, row] of pins) {
      assert.equal(e(key).name, name);
      const parent = fact(key, 'parent');
      assert.equal(parent.value, 'spirit/liqueur', key);
      assert.equal(parent.source, 'ttb-27cfr5-150');
      assert.ok(fact(key, 'regulation').locator.startsWith(row), `${key} cites ${row}`);
      assert.equal(fact(key, 'country').value, 'US');
    }
    assert.equal(fact('spirit/rye-liqueur', 'min_abv').value, 30);
    assert.equal(fact('spirit/rock-and-rye', 'min_abv').value, 24);
    assert.ok(e('spirit/bourbon-liqueur').aliases.some((a) => a.name === 'Bourbon cordial'));
    const cordial = e('spirit/liqueur').aliases.find((a) => a.name === 'Cordial');
    assert.ok(cordial, 'Cordial is a synonym of Liqueur');
    assert.equal(cordial!.source, 'ttb-27cfr5-150');
    assert.match(cordial!.locator, /§ 5\.150\(a\)/);
  });

  test('the § 5.150 source names the eCFR original and the mirror it was read in', () => {
    const src = kb().sources.get('ttb-27cfr5-150')!;
    assert.equal(src.authority, 'regulator');
    assert.match(src.url, /ecfr\.gov\/.*section-5\.150$/);
    assert.equal(src.retrieved_via?.kind, 'mirror');
    assert.match(src.retrieved_via!.url, /govregs\.com/);
  });
});

describe('US whisky types', () => {
  test('corn whisky and the US blends sit under the US whisky class (or light whisky)', () => {
    const pins: [string, string, string][] = [
      ['spirit/corn-whisky-us', 'spirit/whisky-us', 'ttb-27cfr5-143-types'],
      ['spirit/blended-whiskey-us', 'spirit/whisky-us', 'ttb-bam-ch4-whisky-chart'],
      ['spirit/blended-light-whisky', 'spirit/light-whisky', 'ttb-bam-ch4-whisky-chart'],
    ];
    for (const [key, parent, source] of pins) {
      const p = fact(key, 'parent');
      assert.equal(p.value, parent, key);
      assert.equal(p.source, source, key);
    }
    const corn = fact('spirit/corn-whisky-us', 'base_material');
    assert.match(String(corn.value), /80% corn/);
    assert.equal(corn.source, 'ttb-27cfr5-22-corn-whisky');
    assert.equal(kb().sources.get('ttb-27cfr5-22-corn-whisky')!.retrieved_via?.kind, 'reprint');
    assert.ok(e('spirit/blended-whiskey-us').aliases.some((a) => a.name === 'Blended whiskey'));
  });

  test('retail category names reach these records', () => {
    const r = sharedEngine().resolver;
    const top = (q: string) => {
      const res = r.resolve(q, 5);
      const c = res.candidates[0];
      return c ? kb().entities[c.entity]?.key : undefined;
    };
    assert.equal(top('CORN WHISKIES'), 'spirit/corn-whisky-us');
    assert.equal(top('BLENDED WHISKIES'), 'spirit/blended-whiskey-us');
    assert.equal(top('AMERICAN SLOE GINS'), 'spirit/sloe-gin');
    assert.equal(top('ROCK & RYE'), 'spirit/rock-and-rye');
  });
});
