// Ids are forever (issue 36): in a fixture knowledge base (a copy of data/) one served grape is
// removed and two are merged after a release listed their ids. The old ids then answer 410 GONE
// and 301 to the successor on /v1/entities/{id} and its demo twin, resolve never returns them, and
// `kb validate` fails while a tombstone is missing. (The removal and the merge are made up for the
// test: they happen only in the temp copy.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, ROOT } from '../helper.ts';
import { Engine } from '../../src/engine/engine.ts';
import { entityIdOf, loadKnowledgeBase, loadKnowledgeBaseOrThrow } from '../../src/engine/kb/load.ts';
import { validateKnowledgeBase } from '../../src/engine/kb/validate.ts';
import { checkIdsForever, readReleaseIds, releaseIdsText } from '../../src/engine/kb/tombstones.ts';

const REMOVED = 'grape/perlette';
const MERGED = 'grape/fanny';
const SURVIVOR = 'grape/attila';
const FIXTURE_VERSION = '2099.1.0';

/** The fixture: data/ copied, a past release listing the three ids, then the removal and the merge. */
function fixture(withTombstones: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-tombstones-'));
  fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
  const file = path.join(dir, 'grapes', 'curated.json');
  const grapes = JSON.parse(fs.readFileSync(file, 'utf8')) as { key: string; name: string; aliases: unknown[] }[];
  // the past release served all three (and everything else served today)
  const served = loadKnowledgeBaseOrThrow(dir).entities;
  assert.ok([REMOVED, MERGED, SURVIVOR].every((k) => served.some((e) => e.key === k)), 'the fixture grapes are served before the change');
  fs.writeFileSync(path.join(dir, 'releases', `${FIXTURE_VERSION}.ids`), releaseIdsText(FIXTURE_VERSION, served));
  // the change: perlette removed; fanny merged into attila (its name becomes an alias of attila)
  const merged = grapes.find((g) => g.key === MERGED)!;
  const survivor = grapes.find((g) => g.key === SURVIVOR)!;
  survivor.aliases = [...survivor.aliases, { name: merged.name, lang: 'en', kind: 'synonym', source: 'vivc', locator: 'test fixture merge' }];
  fs.writeFileSync(file, JSON.stringify(grapes.filter((g) => g.key !== REMOVED && g.key !== MERGED), null, 1));
  if (withTombstones) {
    fs.writeFileSync(
      path.join(dir, 'tombstones', 'zz-fixture.json'),
      JSON.stringify([
        { entity_key: REMOVED, entity_id: entityIdOf(REMOVED), canonical_name: 'Perlette', kind: 'removed', date: '2099-01-02', version: '2099.1.1', reason: 'Test fixture: removed.' },
        { entity_key: MERGED, entity_id: entityIdOf(MERGED), canonical_name: merged.name, kind: 'merged', replaced_by: SURVIVOR, date: '2099-01-02', version: '2099.1.1', reason: 'Test fixture: one variety.' },
      ]),
    );
  }
  return dir;
}

describe('a removed and a merged entity in a fixture knowledge base', () => {
  let dir: string;
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let auth: Record<string, string>;
  before(async () => {
    dir = fixture(true);
    t = await buildTestApp({ engine: new Engine(loadKnowledgeBaseOrThrow(dir)) });
    auth = (await t.createKey('pro')).auth;
  });
  after(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the removed id answers 410 GONE with the reason and the date, by entity_id and by key, keyed and demo', async () => {
    for (const url of [`/v1/entities/${entityIdOf(REMOVED)}`, `/v1/entities/${encodeURIComponent(REMOVED)}`, `/v1/demo/entities/${entityIdOf(REMOVED)}`]) {
      const r = await t.app.inject({ url, headers: url.includes('/demo/') ? {} : auth });
      assert.equal(r.statusCode, 410, url);
      const e = r.json().error;
      assert.equal(e.code, 'GONE');
      assert.equal(e.entity_id, entityIdOf(REMOVED));
      assert.equal(e.date, '2099-01-02');
      assert.equal(e.reason, 'Test fixture: removed.');
      assert.equal(e.request_id, r.headers['x-request-id']);
      assert.equal(r.headers.location, undefined);
    }
  });

  test('the merged id answers 301 to its successor with replaced_by; the keyed call is not counted', async () => {
    const before = (await t.app.inject({ url: '/v1/usage', headers: auth })).json();
    const r = await t.app.inject({ url: `/v1/entities/${entityIdOf(MERGED)}`, headers: auth });
    assert.equal(r.statusCode, 301);
    assert.equal(r.headers.location, `/v1/entities/${entityIdOf(SURVIVOR)}`);
    const e = r.json().error;
    assert.equal(e.code, 'MOVED_PERMANENTLY');
    assert.equal(e.kind, 'merged');
    assert.equal(e.replaced_by.entity_id, entityIdOf(SURVIVOR));
    assert.equal(e.replaced_by.entity_key, SURVIVOR);
    const afterUsage = (await t.app.inject({ url: '/v1/usage', headers: auth })).json();
    assert.deepEqual(afterUsage.usage, before.usage, '301 is not counted');
    // following Location gives the survivor
    const next = await t.app.inject({ url: r.headers.location as string, headers: auth });
    assert.equal(next.statusCode, 200);
    assert.equal(next.json().entity.entity_id, entityIdOf(SURVIVOR));
    // the demo twin sends the caller to the demo twin of the successor
    const d = await t.app.inject({ url: `/v1/demo/entities/${encodeURIComponent(MERGED)}` });
    assert.equal(d.statusCode, 301);
    assert.equal(d.headers.location, `/v1/demo/entities/${entityIdOf(SURVIVOR)}`);
  });

  test('resolve never returns a gone entity: its id, key and name find nothing gone', async () => {
    const gone = new Set([entityIdOf(REMOVED), entityIdOf(MERGED)]);
    for (const q of ['Perlette', 'Fanny', entityIdOf(REMOVED), entityIdOf(MERGED), REMOVED, MERGED]) {
      const r = await t.app.inject({ url: `/v1/resolve-entity?q=${encodeURIComponent(q)}`, headers: auth });
      assert.equal(r.statusCode, 200, q);
      const b = r.json();
      for (const m of [...(b.matches ?? []), ...(b.suggestions ?? [])]) assert.ok(!gone.has(m.entity_id), `${q} returned a gone entity`);
    }
    // the merged name now resolves to the survivor
    const f = (await t.app.inject({ url: '/v1/resolve-entity?q=Fanny', headers: auth })).json();
    assert.equal(f.matches[0]?.entity_id, entityIdOf(SURVIVOR));
  });

  test('GET /v1/kb counts the tombstones', async () => {
    const r = await t.app.inject({ url: '/v1/kb' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().counts.tombstones, loadKnowledgeBase(path.join(ROOT, 'data')).kb.tombstones.size + 2);
  });
});

describe('kb validate and the ids of past releases', () => {
  test('without the tombstones, validation names both ids and the release that served them', () => {
    const dir = fixture(false);
    try {
      const { kb } = loadKnowledgeBase(dir);
      const problems: { file: string; record: string; message: string }[] = [];
      checkIdsForever(dir, new Set(kb.byId.keys()), kb.tombstones, problems as never);
      assert.deepEqual(problems.map((p) => p.record).sort(), [MERGED, REMOVED]);
      // named in the earliest release that served them (the repository's own lists hold them already)
      assert.ok(problems.every((p) => /^releases\/.+\.ids$/.test(p.file) && /was served by release .* and is no longer served/.test(p.message)), JSON.stringify(problems));
      const report = validateKnowledgeBase(dir, '/nonexistent');
      assert.ok(report.problems.some((p) => p.record === REMOVED), 'kb validate fails');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('with them, the check passes; a tombstone for a served key or a successor that is not served is a problem', () => {
    const dir = fixture(true);
    try {
      const { kb, problems } = loadKnowledgeBase(dir);
      assert.deepEqual(problems, []);
      const p: unknown[] = [];
      checkIdsForever(dir, new Set(kb.byId.keys()), kb.tombstones, p as never);
      assert.deepEqual(p, []);
      fs.writeFileSync(
        path.join(dir, 'tombstones', 'zz-bad.json'),
        JSON.stringify([{ entity_key: SURVIVOR, entity_id: entityIdOf(SURVIVOR), canonical_name: 'Attila', kind: 'renamed', replaced_by: 'grape/no-such-grape', date: '2099-01-02', version: '2099.1.1', reason: 'x' }]),
      );
      const bad = loadKnowledgeBase(dir).problems.map((x) => `${x.field}: ${x.message}`);
      assert.ok(bad.some((m) => /entity_key: is served/.test(m)), bad.join('\n'));
      assert.ok(bad.some((m) => /replaced_by: "grape\/no-such-grape" is not a served entity/.test(m)), bad.join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the repository lists the ids of every release, and every one is served or tombstoned', () => {
    const dataDir = path.join(ROOT, 'data');
    const { kb } = loadKnowledgeBase(dataDir);
    const releases = readReleaseIds(dataDir);
    assert.ok(releases.some((r) => r.version === kb.version), `data/releases/${kb.version}.ids exists`);
    const p: unknown[] = [];
    checkIdsForever(dataDir, new Set(kb.byId.keys()), kb.tombstones, p as never);
    assert.deepEqual(p, []);
  });
});
