// The whole-source held-out sets (test/resolve/heldout-*.json, test/resolve/HELDOUT.md; issue 32 item 6).
// This test checks their format, that bench:demand's held-out measurement runs on them, and that
// nothing builds or tunes on them. It never asserts how well they are answered: nobody tunes on them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { evaluateHeldOut, heldOutPaths, loadAllSets, loadDemandSet, sourceStatus } from '../../bench/lib/demand.ts';
import { ROOT, sharedEngine } from '../helper.ts';

const FAMILIES = new Set(['country', 'region', 'grape', 'spirit', 'beer_style', 'wine_style', 'everyday']);
const KINDS = new Set(['entity', 'ambiguous', 'no_entity', 'out_of_scope', 'unresolved']);
const KEY = /^(geo|grape|spirit|beer|style)\/[a-z0-9][a-z0-9-]*$/;

describe('whole-source held-out sets', () => {
  const files = heldOutPaths();

  test('there is a Japanese and a German-language held-out set', () => {
    const names = files.map((f) => path.basename(f));
    assert.ok(names.includes('heldout-ja.json'), names.join(','));
    assert.ok(names.includes('heldout-de.json'), names.join(','));
  });

  for (const file of files) {
    const name = path.basename(file);
    test(`${name}: every source is cited and held out whole`, () => {
      const set = loadDemandSet(file);
      assert.ok(set.description && /^\d{4}-\d{2}-\d{2}$/.test(String((set as unknown as { built: string }).built)));
      assert.ok(set.sources.length > 0);
      for (const s of set.sources) {
        for (const f of ['id', 'repository', 'path', 'commit', 'columns', 'rows_read', 'weight', 'read', 'language']) assert.ok(s[f] !== undefined && s[f] !== '', `${s.id}: ${f}`);
        assert.match(String(s['commit']), /^[0-9a-f]{40}$/, `${s.id}: commit`);
        assert.equal(s['split'], 'held_out', `${s.id}: split`);
        assert.equal(s['holdout'], 'whole_source', `${s.id}: holdout`);
        assert.equal(sourceStatus(set, s.id), 'held_out_whole', s.id);
        assert.ok(set.queries.some((q) => q.source === s.id), `${s.id} has queries`);
      }
    });

    test(`${name}: every name has a language, a source, a weight and a label by meaning`, () => {
      const set = loadDemandSet(file);
      const ids = new Set(set.sources.map((s) => s.id));
      const seen = new Set<string>();
      for (const q of set.queries) {
        const at = `${q.source} "${q.q}"`;
        assert.ok(q.q.trim().length > 0 && q.q === q.q.trim(), at);
        assert.ok(!seen.has(`${q.source}\u0000${q.q}`), `${at} twice`);
        seen.add(`${q.source}\u0000${q.q}`);
        assert.ok(ids.has(q.source), at);
        assert.ok(FAMILIES.has(q.family), `${at}: family ${q.family}`);
        assert.match(q.lang ?? '', /^[a-z]{2,3}$/, `${at}: lang`);
        assert.ok(Number.isInteger(q.weight) && q.weight > 0, `${at}: weight`);
        assert.equal(q.split, 'held_out', `${at}: split`);
        assert.ok(KINDS.has(q.expect.kind), `${at}: kind`);
        if (q.expect.kind === 'entity' || q.expect.kind === 'ambiguous') {
          assert.ok(q.expect.keys.length > 0, `${at}: keys`);
          for (const k of q.expect.keys) assert.match(k, KEY, `${at}: key ${k}`);
        } else assert.ok(!('keys' in q.expect), `${at}: no keys for ${q.expect.kind}`);
      }
      // the weights are the product rows each source declares it read
      for (const s of set.sources) {
        const max = Math.max(...set.queries.filter((q) => q.source === s.id).map((q) => q.weight));
        assert.ok(max <= Number(s['rows_read']), `${s.id}: a weight above rows_read`);
      }
    });
  }

  test('bench:demand measures built/tuned-on and held-out whole sources apart, per family group', () => {
    const sets = loadAllSets();
    const ho = evaluateHeldOut(sharedEngine(), sets);
    assert.ok(ho.overall.built && ho.overall.held_out_whole);
    for (const c of Object.values(ho.byGroup)) {
      for (const m of Object.values(c)) {
        assert.ok(m.accuracy >= 0 && m.accuracy <= 1 && m.confidentlyWrongShare >= 0 && m.confidentlyWrongShare <= 1);
        assert.ok(m.sources > 0 && m.queries > 0);
      }
    }
    const heldOutQueries = sets.filter((x) => x.name.startsWith('heldout-')).reduce((n, x) => n + x.set.queries.length, 0);
    assert.equal(ho.outcomes.filter((o) => o.set.startsWith('heldout-') && o.status === 'held_out_whole').length, heldOutQueries);
    // a random held-out share of a tuned-on source is not a whole-source hold-out
    const market = sets.find((x) => x.name === 'market-queries.json');
    if (market) assert.equal(sourceStatus(market.set, 'sb-country'), 'built');
  });

  test('nothing builds or tunes on the held-out sets', () => {
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|js|mjs|json|py)$/.test(e.name) && /heldout-[a-z]|heldout-\*|heldOutPaths/.test(fs.readFileSync(p, 'utf8'))) hits.push(path.relative(ROOT, p));
      }
    };
    for (const d of ['src', 'data', 'tools']) if (fs.existsSync(path.join(ROOT, d))) walk(path.join(ROOT, d));
    for (const f of fs.readdirSync(path.join(ROOT, 'test', 'engine'))) {
      if (fs.statSync(path.join(ROOT, 'test', 'engine', f)).isDirectory()) continue;
      if (f !== 'heldout-sets.test.ts' && /heldout-[a-z]|heldOutPaths|evaluateHeldOut/.test(fs.readFileSync(path.join(ROOT, 'test', 'engine', f), 'utf8'))) hits.push(`test/engine/${f}`);
    }
    assert.deepEqual(hits, [], 'only bench/demand.ts and this format test may read the held-out sets');
  });
});
