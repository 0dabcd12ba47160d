// Integrity of the held-out food set for /v1/pair-food (issue 33, item 3; HELDOUT-FOODS.md): enough foods,
// every label an entity the knowledge base serves, every excerpt short and declared, and no source that
// data/pairings already rests on (publisher or web domain), so that precision@5 measured on the set is not
// measured on the evidence the ranking is built from. The test checks the file; it does not rank anything.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, kbEntity } from '../helper.ts';

interface Source { id: string; publisher: string; url: string; language: string; kind: string; retrieved_via?: { url: string; kind: string; note?: string } }
interface Drink { name: string; key: string | null; scope: string | null; sources: { source: string; excerpt: string; language: string }[] }
interface HeldOut { about: string; built: string; sources: Source[]; foods: { q: string; drinks: Drink[] }[] }

const set: HeldOut = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/pair-food/heldout-foods.json'), 'utf8'));

/** Host of a URL without "www." / "m.", lower-cased. */
function host(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/\.$/, '').replace(/^(www|m)\./, '');
}
/** Hosting domains under which each subdomain is a different publisher (public suffixes of the PSL). */
const SHARED_HOSTS = /^(blogspot\.[a-z.]+|wordpress\.com|substack\.com|github\.io|medium\.com|tumblr\.com|wixsite\.com)$/;
/** The registrable part of a host ("files.heraldscotland.com" → "heraldscotland.com", "x.co.uk" keeps three labels,
 * "someone.blogspot.com" keeps the blog). */
function site(url: string): string {
  const labels = host(url).split('.');
  const second = labels.slice(-2).join('.');
  let n = /^(co|com|org|net|ac|gov|gob|edu)\.[a-z]{2}$/.test(second) ? 3 : 2;
  if (SHARED_HOSTS.test(labels.slice(-n).join('.')) || SHARED_HOSTS.test(labels.slice(-(n + 1)).join('.'))) n += 1;
  return labels.slice(-n).join('.');
}
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Publishers and sites of every source data/pairings cites (by source_key and by item source_url). */
function pairingSources() {
  const registry = new Map<string, { publisher?: string; url?: string; retrieved_via?: { url?: string } }>();
  const sourcesDir = path.join(ROOT, 'data/sources');
  for (const f of fs.readdirSync(sourcesDir).filter((x) => x.endsWith('.json'))) {
    const rows = JSON.parse(fs.readFileSync(path.join(sourcesDir, f), 'utf8'));
    for (const r of Array.isArray(rows) ? rows : []) if (r && typeof r.key === 'string') registry.set(r.key, r);
  }
  const publishers = new Set<string>();
  const sites = new Set<string>();
  const addUrl = (u: unknown) => {
    if (typeof u !== 'string') return;
    try {
      sites.add(site(u));
    } catch {
      /* not a URL */
    }
  };
  const pairingsDir = path.join(ROOT, 'data/pairings');
  for (const f of fs.readdirSync(pairingsDir).filter((x) => x.endsWith('.json'))) {
    const sets = JSON.parse(fs.readFileSync(path.join(pairingsDir, f), 'utf8'));
    for (const s of Array.isArray(sets) ? sets : []) {
      for (const item of s.items ?? []) {
        addUrl(item.source_url);
        const r = registry.get(item.source_key);
        if (!r) continue;
        if (r.publisher) publishers.add(norm(r.publisher));
        addUrl(r.url);
        addUrl(r.retrieved_via?.url);
      }
    }
  }
  return { publishers, sites };
}

describe('test/pair-food/heldout-foods.json', () => {
  const declared = new Map(set.sources.map((s) => [s.id, s]));

  test('at least 30 foods, each named once, each with at least one reference drink', () => {
    assert.ok(set.foods.length >= 30, `${set.foods.length} foods`);
    const qs = set.foods.map((f) => norm(f.q));
    assert.equal(new Set(qs).size, qs.length, 'no food twice');
    for (const f of set.foods) {
      assert.ok(f.q.trim().length > 0);
      assert.ok(f.drinks.length >= 1, `${f.q} has a drink`);
      const keys = f.drinks.map((d) => d.key).filter((k) => k !== null);
      assert.equal(new Set(keys).size, keys.length, `${f.q}: no key labelled twice`);
    }
  });

  test('every key is an entity the knowledge base serves; a drink the KB lacks keeps its name with key null', () => {
    for (const f of set.foods) {
      for (const d of f.drinks) {
        assert.ok(d.name.trim().length > 0, `${f.q}: a drink has a name`);
        assert.ok(d.scope === null || typeof d.scope === 'string', `${f.q} / ${d.name}: scope is a string or null`);
        if (d.key !== null) assert.equal(kbEntity(d.key).key, d.key);
      }
    }
  });

  test('every excerpt is non-empty, at most 300 characters, from a declared source in its language', () => {
    const used = new Set<string>();
    for (const f of set.foods) {
      for (const d of f.drinks) {
        assert.ok(d.sources.length >= 1, `${f.q} / ${d.name} cites a source`);
        for (const s of d.sources) {
          const src = declared.get(s.source);
          assert.ok(src, `${f.q} / ${d.name}: source "${s.source}" is declared`);
          assert.ok(s.excerpt.trim().length > 0, `${f.q} / ${d.name}: excerpt is not empty`);
          assert.ok(s.excerpt.length <= 300, `${f.q} / ${d.name}: excerpt of ${s.excerpt.length} characters`);
          assert.equal(s.language, src!.language, `${f.q} / ${d.name}: excerpt language is the source's`);
          used.add(s.source);
        }
      }
    }
    for (const s of set.sources) {
      assert.ok(used.has(s.id), `source ${s.id} is used`);
      assert.ok(s.publisher.trim() && s.language && s.kind, `source ${s.id} names publisher, language, kind`);
      assert.doesNotThrow(() => new URL(s.url), `source ${s.id} has a URL`);
      if (s.retrieved_via) assert.doesNotThrow(() => new URL(s.retrieved_via!.url), `source ${s.id} has a copy URL`);
    }
    assert.equal(new Set(set.sources.map((s) => s.id)).size, set.sources.length, 'source ids are unique');
  });

  test('no source shares a publisher or a web site with the sources of data/pairings', () => {
    const { publishers, sites } = pairingSources();
    assert.ok(publishers.size > 50 && sites.size > 50, 'the pairing sources were read');
    for (const s of set.sources) {
      assert.ok(!publishers.has(norm(s.publisher)), `${s.id}: publisher "${s.publisher}" is one of data/pairings`);
      for (const u of [s.url, s.retrieved_via?.url].filter((x): x is string => !!x)) {
        assert.ok(!sites.has(site(u)), `${s.id}: ${site(u)} is a site data/pairings cites`);
      }
    }
  });
});
