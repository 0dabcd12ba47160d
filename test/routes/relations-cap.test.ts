// Issue 33, item 6: relation lists over 50 items are cut, with the total and a link to the filtered,
// cursor-paged /v1/entities query that lists them all; walking that query returns exactly the whole list.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, sharedEngine } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

describe('long relation lists are cut and linked (issue 33, item 6)', () => {
  let t: App;
  let auth: Record<string, string>;
  const get = async (url: string) => {
    const r = await t.app.inject({ method: 'GET', url, headers: auth });
    return { status: r.statusCode, body: r.json(), bytes: r.body.length };
  };
  /** Every entity a /v1/entities query lists, page after page. */
  const walk = async (url: string) => {
    const out: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const r = await get(`${url}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      out.push(...r.body.entities.map((x: any) => x.entity_id));
      cursor = r.body.next_cursor;
      if (!cursor) return out;
    }
    throw new Error('too many pages');
  };

  before(async () => {
    t = await buildTestApp({ env: { DEMO_PER_IP_PER_MINUTE: '1000', DEMO_PER_IP_PER_HOUR: '10000', DEMO_DAILY_CAP: '100000' } });
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => t.close());

  test('Pinot Noir: its appellations are cut at 50, with the total and the query that lists them all', async () => {
    const full = sharedEngine().kb.byKey.get('grape/pinot-noir')!.appellations.length;
    assert.ok(full > 50, `Pinot Noir is named by ${full} appellations' rules`);
    const r = await get('/v1/explain?q=pinot%20noir');
    assert.equal(r.status, 200);
    const p = r.body.profile;
    assert.equal(p.relations.appellations.length, 50);
    const more = p.relations_more.appellations;
    assert.equal(more.total, full);
    assert.equal(more.shown, 50);
    assert.match(more.list, /^\/v1\/entities\?grape=/);
    // the strongest roles come first in the cut list, as in the whole one
    const rank: Record<string, number> = { required: 0, principal: 1, permitted: 2, accessory: 3 };
    for (let i = 1; i < 50; i++) assert.ok(rank[p.relations.appellations[i - 1].role]! <= rank[p.relations.appellations[i].role]!);
    // the linked query lists every appellation of the whole relation (and the geographies whose grapes fact names it)
    const listed = new Set(await walk(more.list));
    const e = sharedEngine();
    for (const a of e.kb.byKey.get('grape/pinot-noir')!.appellations) assert.ok(listed.has(e.kb.entities[a.geo]!.id), e.kb.entities[a.geo]!.key);
    for (const x of p.relations.appellations) assert.ok(listed.has(x.entity_id));
    assert.ok(r.bytes < 40_000, `explain pinot noir is ${r.bytes} bytes`);
  });

  test('Italy: its children are cut at 50 and the parent query lists them all', async () => {
    const r = await get('/v1/explain?q=italy');
    const p = r.body.profile;
    assert.equal(p.relations.children.length, 50);
    const more = p.relations_more.children;
    assert.ok(more.total > 50);
    assert.equal(more.list, `/v1/entities?parent=${p.entity_id}`);
    const listed = await walk(`${more.list}`);
    assert.equal(listed.length, more.total);
  });

  test('an appellation whose grapes list is long links to ?appellation=, which lists exactly those grapes', async () => {
    const e = sharedEngine();
    const big = e.kb.entities.find((x) => Array.isArray(x.facts.grapes?.value) && (x.facts.grapes!.value as string[]).length > 50)!;
    assert.ok(big, 'some appellation lists more than 50 grapes');
    const r = await get(`/v1/entities/${big.id}`);
    assert.equal(r.status, 200);
    const more = r.body.entity.relations_more.grapes;
    assert.equal(r.body.entity.relations.grapes.length, 50);
    const listed = new Set(await walk(more.list));
    for (const k of big.facts.grapes!.value as string[]) assert.ok(listed.has(e.kb.byKey.get(k)!.id), k);
  });

  test('an appellation whose rules name more than 50 grapes: the fact keeps the strongest 50 and says how many there are', async () => {
    const e = sharedEngine();
    const big = e.kb.entities.find((x) => new Set(x.grapeRules.flatMap((s) => s.grapes.map((g) => `${g.grape}|${g.role}|${s.source}`))).size > 50)!;
    assert.ok(big, 'some appellation has more than 50 rule items');
    const r = await get(`/v1/entities/${big.id}`);
    const f = r.body.entity.facts.grapes;
    assert.equal(f.value.length, 50);
    assert.ok(f.value_total > 50);
    assert.deepEqual(r.body.entity.relations_more.grape_rules, { total: f.value_total, shown: 50, list: `/v1/entities?appellation=${big.id}&type=grape` });
    // nothing stronger than a kept item was cut
    const rank: Record<string, number> = { required: 0, principal: 1, permitted: 2, accessory: 3 };
    const weakestKept = Math.max(...f.value.map((v: any) => rank[v.role]!));
    const all = big.grapeRules.flatMap((s) => s.grapes.map((g) => rank[g.role]!));
    assert.equal(all.filter((x) => x < weakestKept).length <= 50, true);
  });

  test('a short relation list is whole, and relations_more is empty', async () => {
    const r = await get('/v1/explain?q=sancerre');
    assert.deepEqual(r.body.profile.relations_more, {});
  });

  test('grape= and appellation= name what is wrong with a bad value (400 INVALID_REQUEST)', async () => {
    for (const [url, param] of [
      ['/v1/entities?grape=geo/sancerre', 'grape'],
      ['/v1/entities?grape=grape/no-such-grape', 'grape'],
      ['/v1/entities?appellation=grape/pinot-noir', 'appellation'],
    ] as const) {
      const r = await get(url);
      assert.equal(r.status, 400, url);
      assert.equal(r.body.error.code, 'INVALID_REQUEST');
      assert.equal(r.body.error.parameter, param);
    }
  });

  test('the demo twin takes the same filters (derived), and an over-long value is a 400 naming it', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/v1/demo/entities?grape=grape/pinot-noir' });
    assert.equal(r.statusCode, 200, r.body);
    const b = r.json();
    assert.ok(b.demo, 'the demo object');
    assert.ok(b.entities.length > 0 && b.entities.length <= 5);
    const e = sharedEngine();
    const allowed = new Set([...e.kb.byKey.get('grape/pinot-noir')!.appellations.map((a) => e.kb.entities[a.geo]!.id), ...e.kb.byKey.get('grape/pinot-noir')!.geographies.map((i) => e.kb.entities[i]!.id)]);
    for (const x of b.entities) assert.ok(allowed.has(x.entity_id), x.canonical_name);
    const long = await get(`/v1/entities?appellation=${'x'.repeat(101)}`);
    assert.equal(long.status, 400);
    assert.match(JSON.stringify(long.body), /appellation/);
  });

  test('a cursor issued for one grape is refused for another', async () => {
    const first = await get('/v1/entities?grape=grape/pinot-noir&limit=2');
    assert.ok(first.body.next_cursor);
    const other = await get(`/v1/entities?grape=grape/chardonnay&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    assert.equal(other.status, 400);
    assert.equal(other.body.error.parameter, 'cursor');
  });
});
