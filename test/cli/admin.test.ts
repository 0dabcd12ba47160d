import { test } from 'node:test';
import { REF, referenceFile } from '../reference.ts';
import assert from 'node:assert/strict';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import Database from 'libsql';
import { ROOT, tempDir } from '../helper.ts';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);

function admin(dbFile: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${dbFile}` },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('admin CLI: keys, plans and usage against SQLite; only the hash is stored', () => {
  const db = path.join(tempDir(), 'cli.db');
  const created = admin(db, 'keys', 'create', '--client', 'Bistro App', '--plan', 'starter', '--json');
  assert.equal(created.code, 0, created.err);
  const lines = created.out.trim().split('\n');
  assert.equal(lines.length, 1, 'exactly one JSON object');
  const k = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(k).sort(), ['client', 'id', 'key', 'plan', 'status']);
  assert.match(k.key, /^dis_live_[0-9A-Za-z]{38}$/, '32 random base62 characters and a 6-character checksum');
  assert.equal(k.client, 'Bistro App');
  assert.equal(k.plan, 'starter');
  assert.equal(k.status, 'active');

  const raw = new Database(db);
  const row = raw.prepare('SELECT * FROM api_keys WHERE id = ?').get(k.id) as Record<string, string>;
  raw.close();
  assert.equal(row.key_hash, crypto.createHash('sha256').update(k.key).digest('hex'));
  assert.ok(!Object.values(row).includes(k.key), 'the plaintext key is not stored');

  const list = admin(db, 'keys', 'list', '--json');
  assert.equal(list.code, 0);
  assert.ok(!list.out.includes(k.key.slice(12)), 'list never shows secrets');
  assert.equal(JSON.parse(list.out)[0].status, 'active');

  assert.equal(admin(db, 'keys', 'deactivate', k.id).code, 0);
  assert.equal(JSON.parse(admin(db, 'keys', 'list', '--json').out)[0].status, 'inactive');
  assert.equal(admin(db, 'keys', 'activate', k.id).code, 0);
  assert.equal(admin(db, 'keys', 'revoke', k.id).code, 0);
  const reactivate = admin(db, 'keys', 'activate', k.id);
  assert.equal(reactivate.code, 2);
  assert.match(reactivate.err, /revoked/);

  const plans = JSON.parse(admin(db, 'plans', 'list', '--json').out);
  assert.deepEqual(plans.map((p: { name: string }) => p.name), ['free', 'starter', 'pro']);
  assert.equal(admin(db, 'plans', 'set', 'team', '--monthly', '200000', '--per-minute', '120').code, 0);
  assert.ok(JSON.parse(admin(db, 'plans', 'list', '--json').out).some((p: { name: string; monthly_limit: number }) => p.name === 'team' && p.monthly_limit === 200000));
  const badPlan = admin(db, 'plans', 'set', 'team', '--monthly', 'lots', '--per-minute', '1');
  assert.equal(badPlan.code, 2);
  assert.match(badPlan.err, /--monthly must be a whole number/);

  const usage = JSON.parse(admin(db, 'usage', k.id, '--json').out);
  assert.equal(usage.usage.used, 0);
  assert.equal(usage.plan.name, 'starter');
  assert.equal(admin(db, 'keys', 'create', '--client', 'x', '--plan', 'nope').code, 2);
  assert.equal(admin(db, 'bogus').code, 2);
});

test('admin kb validate passes on the shipped knowledge base and kb stats counts it', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), 'kb', 'validate'], { cwd: ROOT, encoding: 'utf8' });
  assert.match(out, /kb validate: ok/);
  const stats = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), 'kb', 'stats', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  assert.equal(stats.valid, true);
  assert.equal(stats.totals.facts_without_provenance, 0);
  // 110 BJCP 2021 styles plus the named types and historical styles, all counted
  assert.ok(stats.families.beer_style.entities >= 110);
  assert.equal(typeof stats.wine_geographies_by_country.IT, 'number');
  assert.ok(stats.out_of_scope_terms > 0);
  // evidence per domain adds up to the family counts, and every pairing item has one publisher
  const ev = stats.evidence;
  const sum = (k: string) => Object.values(ev.by_domain).reduce((n: number, d: any) => n + d[k], 0);
  assert.equal(sum('pairing_entities'), stats.totals.entities_with_verified_pairings);
  assert.equal(sum('pairing_items'), stats.totals.pairing_items);
  assert.equal(sum('sensory_expressions'), stats.totals.sensory_expressions);
  assert.equal(ev.pairing_publishers.reduce((n: number, p: any) => n + p.items, 0), stats.totals.pairing_items);
  assert.equal(ev.largest_publisher_share, ev.pairing_publishers[0].share);
  for (const d of Object.values(ev.by_domain) as any[]) {
    assert.equal(Object.values(d.pairing_items_by_authority).reduce((n: number, x: any) => n + x, 0), d.pairing_items);
    assert.ok(d.pairing_items_with_retrieved_via <= d.pairing_items);
  }
  // the 50 most-asked entities of the demand set: counted, and the ones without evidence named
  assert.equal(ev.most_asked_50.with_evidence + ev.most_asked_50.without_evidence.length, 50);
  assert.ok(ev.most_asked_50.without_evidence.every((k: string) => typeof k === 'string' && k.includes('/')));
});

test('kb validate names file, record and field of a broken record and exits non-zero', () => {
  const dir = tempDir();
  execFileSync('cp', ['-r', path.join(ROOT, 'data') + '/.', dir]);
  const file = path.join(dir, 'beer-styles', 'bjcp-2021.json');
  const data = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  data[0].facts.abv.value = { min: 9, max: 2 };
  delete data[1].facts.ibu.source;
  require('node:fs').writeFileSync(file, JSON.stringify(data));
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), 'kb', 'validate'], { cwd: ROOT, env: { ...process.env, DATA_DIR: dir }, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stdout, new RegExp(`beer-styles/bjcp-2021.json \\[${data[0].key}\\] facts.abv`));
  assert.match(r.stdout, new RegExp(`beer-styles/bjcp-2021.json \\[${data[1].key}\\] /facts/ibu`));
});

test('kb validate checks BJCP figures against the reference table when it is present', (t) => {
  if (referenceFile('bjcp-2021-beer-styles.csv') === undefined) return t.skip('reference tables not beside the repo');
  const refDir = REF;
  const dir = tempDir();
  execFileSync('cp', ['-r', path.join(ROOT, 'data') + '/.', dir]);
  const file = path.join(dir, 'beer-styles', 'bjcp-2021.json');
  const data = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  data[0].facts.abv.value.max = 9.9;
  require('node:fs').writeFileSync(file, JSON.stringify(data));
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/admin.ts'), 'kb', 'validate'], { cwd: ROOT, env: { ...process.env, DATA_DIR: dir, REFERENCE_DIR: refDir }, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stdout, new RegExp(`\\[${data[0].key}\\] facts.abv: must be .* as in BJCP 2021 1A`));
});
