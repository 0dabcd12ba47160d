// Precision at 5 of /v1/pair-food on the held-out food set (issue 33, item 3; test/pair-food/HELDOUT-FOODS.md).
// A drink in the top 5 is a hit when it is a reference drink of the food: the same entity; or a place inside
// a reference place (Chablis counts for "Burgundy": its parent chain reaches it); or a drink whose evidence
// is scoped to a reference grape ("Oregon, full-bodied Pinot noir" for Pinot Noir: its display name names
// the grape). `exact` counts the same entity only.
import type { Engine } from '../../src/engine/engine.ts';
import type { Entity } from '../../src/engine/kb/load.ts';
import { fold } from '../../src/engine/normalize.ts';

export interface HeldoutFoods {
  foods: { q: string; drinks: { name: string; key: string | null; scope?: string | null }[] }[];
}

export interface FoodPrecision {
  q: string;
  answered: boolean;
  returned: number;
  hits: number;
  exactHits: number;
  top: { name: string; hit: boolean }[];
}

export function precisionAt5(engine: Engine, set: HeldoutFoods) {
  const kb = engine.kb;
  const ancestors = (e: Entity): Set<string> => {
    const out = new Set<string>();
    let cur: Entity | undefined = e;
    for (let i = 0; cur && i < 8; i++) {
      out.add(cur.key);
      const p: unknown = cur.facts.parent?.value;
      cur = typeof p === 'string' ? kb.byKey.get(p) : undefined;
    }
    return out;
  };
  const foods: FoodPrecision[] = [];
  for (const f of set.foods) {
    const keys = new Set(f.drinks.map((d) => d.key).filter((k): k is string => !!k));
    const grapeNames = [...keys].map((k) => kb.byKey.get(k)).filter((e): e is Entity => !!e && e.type === 'grape').map((e) => fold(e.name));
    const r = engine.pairFood({ q: f.q, limit: 5 });
    const drinks = r.status === 200 ? (r.body as { drinks: { entity_id: string; display_name: string; canonical_name: string }[] }).drinks : [];
    const top = drinks.slice(0, 5).map((d) => {
      const e = kb.byId.get(d.entity_id)!;
      const exact = keys.has(e.key);
      const inside = [...ancestors(e)].some((k) => keys.has(k));
      const scoped = d.display_name !== d.canonical_name && grapeNames.some((g) => fold(d.display_name.slice(d.canonical_name.length)).includes(g));
      return { name: d.display_name, hit: exact || inside || scoped, exact };
    });
    foods.push({ q: f.q, answered: r.status === 200, returned: top.length, hits: top.filter((d) => d.hit).length, exactHits: top.filter((d) => d.exact).length, top });
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    foods,
    precision: mean(foods.map((f) => (f.returned ? f.hits / Math.min(5, f.returned) : 0))),
    strict: mean(foods.map((f) => f.hits / 5)),
    exact: mean(foods.map((f) => f.exactHits / 5)),
    answered: foods.filter((f) => f.answered).length,
    empty: foods.filter((f) => f.returned === 0).length,
  };
}
