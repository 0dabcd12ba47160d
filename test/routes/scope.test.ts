// Issue 33, item 1: a colour word beside a name narrows pair, explain and parse to that colour, and the
// answer says so. Over HTTP (so the response schemas carry the new fields) against the real knowledge
// base: Sancerre's rules (JORF cahier des charges, 2009) give Sauvignon Blanc for white and Pinot Noir
// for red and rosé; its verified pairing items are all scoped "white (Sauvignon Blanc)".
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('scope words narrow the answer (issue 33, item 1)', () => {
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

  test('pair "sancerre rouge": no white-wine items, and a scope boundary saying so', async () => {
    const b = await get('/v1/pair?q=sancerre%20rouge');
    assert.equal(b.resolution.canonical_name, 'Sancerre');
    assert.deepEqual(b.applied_scope.colours, ['red']);
    assert.deepEqual(b.applied_scope.terms, ['rouge']);
    assert.ok(b.applied_scope.left_out >= 3, JSON.stringify(b.applied_scope));
    assert.deepEqual(b.pairing.guidance, []);
    assert.equal(b.scope_boundary.reason, 'no_evidence_in_scope');
    // the entity still has verified evidence: the v1 boundary (no evidence at all) stays null
    assert.equal(b.pairing_available, true);
    assert.equal(b.boundary, null);
  });

  test('pair "sancerre blanc" keeps the white items, each marked in scope', async () => {
    const b = await get('/v1/pair?q=sancerre%20blanc');
    assert.deepEqual(b.applied_scope.colours, ['white']);
    assert.ok(b.pairing.guidance.length >= 3);
    for (const it of b.pairing.guidance) assert.equal(it.scope_match, 'in_scope', it.style_scope);
    assert.equal(b.scope_boundary, null);
  });

  test('pair "sancerre rosé" reads Sancerre with a rosé scope, not the wine style Rosé', async () => {
    const b = await get('/v1/pair?q=sancerre%20ros%C3%A9');
    assert.equal(b.resolution.canonical_name, 'Sancerre');
    assert.deepEqual(b.applied_scope.colours, ['rosé']);
    assert.equal(b.scope_boundary.reason, 'no_evidence_in_scope');
  });

  test('pair "rioja tinto" keeps the red items and leaves out the white ones', async () => {
    const all = await get('/v1/pair?q=rioja');
    const red = await get('/v1/pair?q=rioja%20tinto');
    assert.equal(all.applied_scope, null);
    assert.deepEqual(red.applied_scope.colours, ['red']);
    assert.ok(red.pairing.guidance.length > 0 && red.pairing.guidance.length < all.pairing.guidance.length);
    for (const it of red.pairing.guidance) assert.ok(!/^white/i.test(it.style_scope ?? ''), it.style_scope);
    assert.equal(red.applied_scope.left_out, all.pairing.guidance.length - red.pairing.guidance.length);
  });

  test('pair without a colour word is unchanged: no applied scope, no scope_match', async () => {
    const b = await get('/v1/pair?q=sancerre');
    assert.equal(b.applied_scope, null);
    assert.equal(b.scope_boundary, null);
    assert.ok(b.pairing.guidance.length >= 3);
    for (const it of b.pairing.guidance) assert.equal('scope_match' in it, false);
  });

  test('parse "Sancerre rouge 2020, Domaine Vacheron" implies Pinot Noir only', async () => {
    const b = await get(`/v1/parse?text=${encodeURIComponent('Sancerre rouge 2020, Domaine Vacheron')}`);
    assert.equal(b.primary.canonical_name, 'Sancerre');
    assert.deepEqual(b.implied.map((g: any) => g.canonical_name), ['Pinot Noir']);
    assert.deepEqual(b.applied_scope.colours, ['red']);
    assert.ok(b.applied_scope.left_out >= 1);
  });

  test('parse "Sancerre 2020" implies each grape once, the colours of its rules joined', async () => {
    const b = await get(`/v1/parse?text=${encodeURIComponent('Sancerre 2020')}`);
    const names = b.implied.map((g: any) => g.canonical_name);
    assert.equal(new Set(names).size, names.length, names.join(','));
    const pinot = b.implied.find((g: any) => g.canonical_name === 'Pinot Noir');
    assert.match(pinot.scope, /red/i);
    assert.match(pinot.scope, /ros/i);
    assert.equal(b.applied_scope, null);
  });

  test('explain: Sancerre lists each grape once; "sancerre rouge" keeps the red rule only', async () => {
    const all = await get('/v1/explain?q=sancerre');
    const rows = all.profile.facts.grapes.value.map((g: any) => `${g.canonical_name}|${g.role}|${g.source_key}`);
    assert.equal(new Set(rows).size, rows.length, rows.join(','));
    const red = await get('/v1/explain?q=sancerre%20rouge');
    assert.deepEqual(red.profile.facts.grapes.value.map((g: any) => g.canonical_name), ['Pinot Noir']);
    assert.deepEqual(red.applied_scope.colours, ['red']);
  });

  test('a colour word that is part of a name is no scope, and spirits and beer get none', async () => {
    for (const q of ['vinho verde', 'irish red ale', 'rosé']) {
      const b = await get(`/v1/pair?q=${encodeURIComponent(q)}`);
      assert.equal(b.applied_scope, null, q);
    }
  });

  test('the OpenAPI document describes applied_scope and scope_boundary', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const pair = JSON.stringify(doc.paths['/v1/pair']);
    assert.match(pair, /applied_scope/);
    assert.match(pair, /no_evidence_in_scope/);
    assert.match(JSON.stringify(doc.paths['/v1/explain']), /applied_scope/);
    assert.match(JSON.stringify(doc.paths['/v1/parse']), /applied_scope/);
  });
});
