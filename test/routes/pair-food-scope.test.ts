// Issue 33, item 2: each drink of /v1/pair-food is named with the scope its evidence is about, so an app
// that shows the name never suggests all of Bordeaux with salmon when the item is about its Clairet.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('pair-food names each drink with its scope (issue 33, item 2)', () => {
  let t: App;
  let auth: Record<string, string>;
  const get = async (url: string) => {
    const r = await t.app.inject({ method: 'GET', url, headers: auth });
    assert.equal(r.statusCode, 200, r.body);
    return r.json();
  };

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  test('salmon: Bordeaux is "Bordeaux, Clairet" and Oregon names its Pinot noir', async () => {
    const b = await get('/v1/pair-food?q=salmon&limit=25');
    const by = new Map(b.drinks.map((d: any) => [d.canonical_name, d]));
    const bordeaux: any = by.get('Bordeaux');
    assert.ok(bordeaux, 'Bordeaux is among the drinks for salmon');
    assert.equal(bordeaux.display_name, 'Bordeaux, Clairet');
    assert.deepEqual(bordeaux.scopes, ['Clairet']);
    const oregon: any = by.get('Oregon');
    assert.ok(oregon);
    assert.match(oregon.display_name, /^Oregon, .*Pinot noir/);
  });

  test('the rule holds for every drink: scoped only when every item has a scope, and never repeating the name', async () => {
    for (const food of ['salmon', 'oysters', 'cheese', 'lamb']) {
      const b = await get(`/v1/pair-food?q=${food}&limit=25`);
      for (const d of b.drinks) {
        const scopeOf = (g: any) => [g.style_scope, g.sweetness_scope].filter(Boolean).join(', ') || null;
        const each = d.guidance.map(scopeOf);
        assert.deepEqual(d.scopes, [...new Set(each.filter(Boolean))], `${food}: ${d.canonical_name}`);
        const differs = d.scopes.filter((s: string) => s.toLowerCase() !== d.canonical_name.toLowerCase());
        if (each.every(Boolean) && differs.length) assert.ok(d.display_name.startsWith(`${d.canonical_name}, `), `${food}: ${d.display_name}`);
        else assert.equal(d.display_name, d.canonical_name, `${food}: ${d.canonical_name}`);
      }
    }
  });
});
