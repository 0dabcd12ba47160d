import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sharedEngine } from '../helper.ts';

// Issue 33 follow-up (tag fcl): classic pairings of the foods people ask about most, read on the
// pages of regional wine bodies and the press (sources in data/sources/evidence-food-classic.json).
// Loaded through the real KB loader and ranked by the real /v1/pair-food engine.

const CEILING: Record<string, number> = { official_regional_wine_body: 0.9, trade_body: 0.8, educational_body: 0.75, wine_press: 0.6 };
const COPY: Record<number, number> = { 0.9: 0.8, 0.8: 0.75, 0.75: 0.6, 0.6: 0.5 };

const kb = () => sharedEngine().kb;
const fclItems = () =>
  kb().entities.flatMap((e) => (e.pairing?.items ?? []).filter((i) => i.source_key.startsWith('fcl-')).map((i) => ({ e, i })));

/** The drinks /v1/pair-food ranks for a food, by canonical name, best first. */
const ranked = (q: string, limit: number, type?: string): { canonical_name: string; domain: string }[] => {
  const r = sharedEngine().pairFood({ q, limit, type });
  assert.equal(r.status, 200, `${q} is a food`);
  return (r.body as Record<string, unknown>).drinks as { canonical_name: string; domain: string }[];
};
const drinks = (q: string, type?: string): string[] => ranked(q, 10, type).map((d) => d.canonical_name);

describe('classic food pairings (fcl)', () => {
  test('every fcl item is verified, 2026.12.1, at its source ceiling (one class lower when read in a copy), with a short excerpt', () => {
    const all = fclItems();
    assert.ok(all.length >= 80, `${all.length} fcl items`);
    for (const { e, i } of all) {
      const src = kb().sources.get(i.source_key);
      assert.ok(src, i.source_key);
      assert.equal(i.verification_status, 'verified');
      assert.equal(i.evidence_version, '2026.12.1', `${e.key} ${i.pairing_key}`);
      assert.ok(i.source_excerpt.length > 0 && i.source_excerpt.length <= 300, `${e.key} ${i.pairing_key}`);
      const ceiling = CEILING[src!.authority]!;
      assert.equal(i.confidence, src!.retrieved_via ? COPY[ceiling] : ceiling, `${e.key} ${i.pairing_key}`);
      assert.equal(i.source_url, src!.retrieved_via?.url ?? src!.url, `${e.key} ${i.pairing_key}: the page read`);
    }
  });

  test('the batch rests on at least ten publishers, one of them a regional wine body', () => {
    const pubs = new Set(fclItems().map(({ i }) => kb().sources.get(i.source_key)!.publisher));
    assert.ok(pubs.size >= 10, `${pubs.size} publishers`);
    assert.ok(fclItems().some(({ i }) => kb().sources.get(i.source_key)!.authority === 'official_regional_wine_body'));
  });

  // the rankings below follow the pair-food rule (src/engine/food-rank.ts: authority first, agreement a capped
  // bonus), so an official body's single item may stand above the classic drink that three press voices name
  test('oysters: the first five are wines, Muscadet and Chablis among them (the whisky came first before)', () => {
    const top = ranked('oysters', 5);
    assert.deepEqual(top.map((d) => d.domain), ['wine', 'wine', 'wine', 'wine', 'wine'], top.map((d) => d.canonical_name).join(', '));
    assert.ok(top.some((d) => d.canonical_name.startsWith('Muscadet')), top.map((d) => d.canonical_name).join(', '));
    assert.ok(top.some((d) => d.canonical_name.includes('Chablis')), top.map((d) => d.canonical_name).join(', '));
  });

  test('salmon among grapes: Pinot Noir, which the grape list lacked, comes first', () => {
    assert.equal(drinks('salmon', 'grape')[0], 'Pinot Noir');
  });

  test('goat cheese: Sancerre in the first two; steak: Malbec in the first five; sushi: Champagne first', () => {
    assert.ok(drinks('goat cheese').slice(0, 2).includes('Sancerre'), drinks('goat cheese').slice(0, 5).join(', '));
    assert.ok(drinks('steak').slice(0, 5).includes('Malbec'), drinks('steak').slice(0, 5).join(', '));
    assert.equal(drinks('sushi')[0], 'Champagne');
  });

  test('pizza reaches the Lambrusco DOCs and Chianti; duck reaches red Burgundy Pinot Noir', () => {
    const pizza = drinks('pizza');
    for (const n of ['Lambrusco Salamino di Santa Croce', 'Chianti']) assert.ok(pizza.includes(n), `${n} in ${pizza.join(', ')}`);
    assert.ok(ranked('duck', 100).some((d) => d.canonical_name === 'Pinot Noir'));
  });
});
