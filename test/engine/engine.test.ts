import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

const engine = () => sharedEngine();

describe('engine bodies', () => {
  test('pair with verified evidence follows spec 2.1–2.7', () => {
    const r = engine().pair({ q: 'Vinho Verde' });
    assert.equal(r.status, 200);
    const b = r.body as any;
    assert.equal(b.state, 'resolved');
    assert.equal(b.resolved, true);
    assert.equal(b.ambiguous, false);
    assert.equal(b.domain, 'wine');
    assert.equal(b.pairing_available, true);
    assert.equal(b.pairing.review_status, 'verified');
    assert.ok(b.pairing.guidance.length > 0);
    assert.equal(b.pairing_evidence.customer_guidance_source, 'verified_source_backed_pairing_evidence');
    assert.equal(b.pairing_evidence.generic_fallback_used, false);
    // nullable fields are present as null (spec: "present with value null when it has no value")
    assert.equal(b.boundary, null);
    assert.ok(Object.values(b.pairing_boundary).every((v) => v === true));
    const fields = ['food_item', 'dish', 'pairing_key', 'pairing_text', 'pairing_relationship', 'food_category', 'preparation', 'qualifier', 'confidence', 'verification_status', 'evidence_version', 'language_code', 'geography_scope', 'style_scope', 'oak_scope', 'serving_scope', 'wine_age_scope', 'sweetness_scope', 'pairing_rationale', 'source_key', 'source_title', 'source_publisher', 'source_authority', 'source_url', 'source_section', 'source_page', 'source_excerpt', 'retrieved_via'];
    for (const item of b.pairing.guidance) {
      assert.deepEqual(Object.keys(item).sort(), [...fields].sort());
      assert.match(item.pairing_key, /^[a-z0-9]+(_[a-z0-9]+)*$/);
      assert.ok(item.confidence > 0 && item.confidence <= 1);
    }
    assert.equal(b.resolution.canonical_name, 'Vinho Verde');
    assert.equal(b.resolution.matched_on, 'canonical');
  });

  test('pair without evidence returns the explicit boundary and never generic guidance', () => {
    // a served wine geography with neither pairing nor sensory evidence (there are thousands)
    const bare = engine().kb.entities.find((e) => e.type === 'wine_geography' && !e.pairing && e.sensory.length === 0)!;
    const b = engine().pair({ q: bare.name }).body as any;
    assert.equal(b.resolution.entity_id, bare.id);
    assert.equal(b.pairing_available, false);
    assert.deepEqual(b.pairing.guidance, []);
    assert.equal(b.pairing.review_status, 'none');
    assert.equal(b.pairing_evidence.verified_source_backed_available, false);
    assert.equal(b.pairing_evidence.generic_fallback_used, false);
    assert.equal(b.boundary.reason, 'no_verified_pairing_evidence');
    assert.equal(b.boundary.sensory_available, false);
    // a domain with no pairing evidence at all says so; one with some says "none for this entity"
    const kb = engine().kb;
    for (const domain of ['wine', 'spirits', 'beer'] as const) {
      const without = kb.entities.find((e) => e.domain === domain && !e.pairing);
      if (!without) continue;
      const b = engine().pair({ q: without.id }).body as any;
      assert.equal(b.domain, domain);
      assert.equal(b.pairing_available, false);
      const covered = kb.entities.some((e) => e.domain === domain && e.pairing);
      assert.equal(b.boundary.reason, covered ? 'no_verified_pairing_evidence' : 'domain_not_covered', domain);
    }
  });

  test('explain gives a sourced profile with navigable relations', () => {
    const b = engine().explain({ q: 'Oakville' }).body as any;
    assert.equal(b.profile.entity_type, 'wine_geography');
    assert.equal(b.profile.relations.parent.canonical_name, 'Napa Valley');
    assert.match(b.profile.relations.parent.entity_id, /^[0-9a-f-]{36}$/);
    for (const [, f] of Object.entries(b.profile.facts) as [string, any][]) {
      assert.ok(f.provenance.source_url && f.provenance.locator);
    }
    const napa = engine().explain({ q: 'Napa Valley' }).body as any;
    assert.ok(napa.profile.relations.children.some((c: any) => c.canonical_name === 'Oakville'));
    assert.equal(b.profile.sensory_available, false);
    assert.equal(b.sensory_boundary.reason, 'no_sourced_sensory_evidence');
    const champagne = engine().explain({ q: 'Barolo' }).body as any;
    assert.equal(champagne.profile.sensory_available, true);
    assert.equal(champagne.sensory_boundary, null);
    for (const x of champagne.reference_expressions) {
      assert.ok(Number.isInteger(x.expression_id));
      for (const p of x.provenance) assert.ok(p.source && p.locator && p.supports.length > 0);
    }
    const nf = engine().explain({ q: 'toyota corolla' });
    assert.equal(nf.status, 404);
  });

  test('compare states what two beer styles share and how they differ', () => {
    const r = engine().compare({ left: 'Weissbier', right: 'Hazy IPA' });
    const b = r.body as any;
    assert.equal(b.comparison.same_type, true);
    const abv = [...b.comparison.shared, ...b.comparison.differences].find((x: any) => x.field === 'abv');
    assert.equal(abv.relation, 'disjoint_range');
    const srm = b.comparison.shared.find((x: any) => x.field === 'srm');
    assert.equal(srm.relation, 'overlapping_range');
    assert.deepEqual(srm.overlap, { min: 3, max: 6 });
    const cat = b.comparison.differences.find((x: any) => x.field === 'category');
    assert.deepEqual([cat.left, cat.right], ['German Wheat Beer', 'IPA']);
  });

  test('compare across types uses only shared fields; an unresolved side is a 404 naming it', () => {
    const b = engine().compare({ left: 'Syrah', right: 'Barolo' }).body as any;
    assert.equal(b.comparison.same_type, false);
    assert.equal(b.comparison.same_domain, true);
    const r = engine().compare({ left: 'syrah', right: 'qwertyuiop' });
    assert.equal(r.status, 404);
    assert.match((r.body as any).error.message, /right/);
  });
});

describe('unresolved answers say why and what came near (issue 8)', () => {
  test('resolve-entity: a drink outside the domains is out_of_scope, with no matches', () => {
    const b = engine().resolveEntity({ q: 'junmai sake' }).body as any;
    assert.equal(b.state, 'unresolved');
    assert.deepEqual(b.matches, []);
    assert.equal(b.coverage, 'out_of_scope');
    assert.deepEqual(b.suggestions, []);
  });

  test('resolve-entity: an unknown term is unknown_term; suggestions are shaped entity refs below the threshold', () => {
    const b = engine().resolveEntity({ q: 'qqqq zzzz' }).body as any;
    assert.equal(b.coverage, 'unknown_term');
    assert.ok(Array.isArray(b.suggestions));
    // one misspelt word of a three-word name scores below the threshold: it comes back as a suggestion
    let near: any = null;
    for (const e of engine().kb.entities) {
      const words = e.name.split(' ');
      if (words.length !== 3 || words[0]!.length < 7 || !/^[a-z]+$/i.test(words[0]!)) continue;
      const w = words[0]!.toLowerCase();
      const body = engine().resolveEntity({ q: w.slice(0, -2) + w.at(-1) + w.at(-2) }).body as any;
      if (body.state === 'unresolved' && body.suggestions.length > 0) {
        near = body;
        break;
      }
    }
    assert.ok(near, 'some misspelt first word of a three-word name yields suggestions');
    for (const s of near.suggestions) {
      assert.deepEqual(Object.keys(s).sort(), ['canonical_name', 'domain', 'entity_id', 'entity_type', 'match_score', 'match_value']);
      assert.ok(s.match_score < 55 && s.match_score >= 30);
    }
  });

  test('resolved and ambiguous answers carry both fields as null (nullable fields are present)', () => {
    for (const q of ['shiraz', 'pinot']) {
      const b = engine().resolveEntity({ q }).body as any;
      assert.equal(b.coverage, null);
      assert.equal(b.suggestions, null);
    }
  });

  test('retrieved_via is present on every guidance item: the copy where one was read, else null', () => {
    const items = engine().kb.entities.flatMap((e) => (e.pairing ? [(engine().pair({ q: e.id }).body as any).pairing.guidance] : [])).flat();
    assert.ok(items.length > 500);
    for (const it of items) assert.ok('retrieved_via' in it);
    assert.ok(items.some((it: any) => it.retrieved_via === null));
    assert.ok(items.some((it: any) => it.retrieved_via && typeof it.retrieved_via.url === 'string'));
  });

  test('explain/pair/compare 404s carry coverage and say when a drink is out of scope', () => {
    const r = engine().explain({ q: 'cider' });
    assert.equal(r.status, 404);
    const err = (r.body as any).error;
    assert.equal(err.code, 'ENTITY_NOT_RESOLVED');
    assert.equal(err.coverage, 'out_of_scope');
    assert.match(err.message, /outside wine, spirits and beer/);
    const c = engine().compare({ left: 'syrah', right: 'mead' });
    assert.equal((c.body as any).error.parameter, 'right');
    assert.equal((c.body as any).error.coverage, 'out_of_scope');
  });
});

describe('provenance says what was read (retrieved_via)', () => {
  test('a fact or alias read in a copy names the copy beside the original publisher', () => {
    const kb = engine().kb;
    const copied = kb.entities.find((e) => Object.values(e.facts).some((f) => kb.sources.get(f.source)?.retrieved_via));
    assert.ok(copied, 'some served fact is cited to a source read through a copy');
    const b = engine().explain({ q: copied!.name }).body as any;
    const p = b.profile;
    const viaFacts = Object.values(p.facts).filter((f: any) => f.provenance.retrieved_via);
    if (p.entity_key === copied!.key) assert.ok(viaFacts.length > 0);
    for (const s of p.sources) {
      const src = kb.sources.get(s.source_key)!;
      assert.deepEqual(s.retrieved_via, src.retrieved_via ?? null);
      assert.match(s.url, /^https?:\/\//);
    }
  });
});
