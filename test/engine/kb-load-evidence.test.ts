// The loader's evidence rules: one pairing set per entity (a second set, in any file, is a problem
// naming the first), a repeated food in the same scope is an error, and a source read in a copy
// (retrieved_via) caps an item's confidence one authority class lower.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadKnowledgeBase } from '../../src/engine/kb/load.ts';
import { copyCeiling } from '../../src/engine/kb/schema.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function dataCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-ev-'));
  fs.cpSync(path.join(ROOT, 'data'), dir, { recursive: true });
  return dir;
}
const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8'));
const DATA_DIR = path.join(ROOT, 'data');

/** A second set for the first entity of porto.json, in its own file, with one item of the first. */
function secondSet(dir: string, mutate: (item: any) => void) {
  const sets = readJson(path.join(dir, 'pairings', 'porto.json'));
  const set = sets[0];
  const item = { ...set.items[0] };
  mutate(item);
  fs.writeFileSync(path.join(dir, 'pairings', 'zz-second.json'), JSON.stringify([{ ...set, guidance_version: '2026.11.2', items: [item] }]));
  return { entity: set.entity as string, before: set.items.length as number };
}

test('copyCeiling steps one class down', () => {
  assert.equal(copyCeiling(0.9), 0.8);
  assert.equal(copyCeiling(0.8), 0.75);
  assert.equal(copyCeiling(0.75), 0.6);
  assert.equal(copyCeiling(0.6), 0.5);
});

test('a second pairing set for one entity is a problem naming the first (one set per entity)', () => {
  const dir = dataCopy();
  try {
    const { entity } = secondSet(dir, (it) => { it.pairing_key = 'test_only_food'; it.food_item = 'test-only food'; });
    const { problems } = loadKnowledgeBase(dir);
    const p = problems.find((x) => x.file.endsWith('zz-second.json') && x.record === entity);
    assert.ok(p, JSON.stringify(problems));
    assert.match(p!.message, /second pairing set .*the first is in .*porto\.json.*one set per entity/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('the same food in the same scope twice in a set is a duplicate', () => {
  const dir = dataCopy();
  try {
    const file = path.join(dir, 'pairings', 'porto.json');
    const sets = readJson(file);
    sets[0].items.push({ ...sets[0].items[0] });
    fs.writeFileSync(file, JSON.stringify(sets));
    const { problems } = loadKnowledgeBase(dir);
    assert.ok(problems.some((p) => p.file.endsWith('porto.json') && /duplicate item/.test(p.message)), JSON.stringify(problems));
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('the shipped knowledge base holds one pairing set per entity', () => {
  const seen = new Map<string, string>();
  for (const f of fs.readdirSync(path.join(DATA_DIR, 'pairings')).filter((x) => x.endsWith('.json'))) {
    for (const set of readJson(path.join(DATA_DIR, 'pairings', f))) {
      assert.ok(!seen.has(set.entity), `${set.entity}: in ${seen.get(set.entity)} and ${f}`);
      seen.set(set.entity, f);
    }
  }
  assert.ok(seen.size >= 300);
});

test('a source read in a copy caps its items one class lower', () => {
  const dir = dataCopy();
  try {
    const sets = readJson(path.join(dir, 'pairings', 'porto.json'));
    const item = sets[0].items[0];
    // find the source file that registers the item's source and mark the source as read in a mirror
    const srcDir = path.join(dir, 'sources');
    const file = fs.readdirSync(srcDir).map((f) => path.join(srcDir, f)).find((f) => readJson(f).some((s: any) => s.key === item.source_key))!;
    const sources = readJson(file);
    const src = sources.find((s: any) => s.key === item.source_key);
    src.retrieved_via = { url: 'https://mirror.example/copy', kind: 'mirror' };
    fs.writeFileSync(file, JSON.stringify(sources));
    const ceiling = { official_regional_wine_body: 0.9, regulator: 0.9, trade_body: 0.8, educational_body: 0.75, wine_press: 0.6 }[src.authority as string]!;
    // at the original ceiling: now an error naming the copy
    for (const it of sets[0].items) if (it.source_key === item.source_key) it.confidence = ceiling;
    fs.writeFileSync(path.join(dir, 'pairings', 'porto.json'), JSON.stringify(sets));
    let { problems } = loadKnowledgeBase(dir);
    assert.ok(problems.some((p) => /retrieved_via/.test(p.message) && p.field.endsWith('.confidence')), JSON.stringify(problems));
    // at one class lower: accepted
    for (const it of sets[0].items) if (it.source_key === item.source_key) it.confidence = copyCeiling(ceiling);
    fs.writeFileSync(path.join(dir, 'pairings', 'porto.json'), JSON.stringify(sets));
    ({ problems } = loadKnowledgeBase(dir));
    assert.deepEqual(problems.filter((p) => p.field.endsWith('.confidence')), []);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
