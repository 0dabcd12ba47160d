// npm run bench:pair-food-heldout — precision at 5 of /v1/pair-food on the held-out food set
// (test/pair-food/heldout-foods.json, issue 33 item 3; rules in test/pair-food/HELDOUT-FOODS.md).
// A drink in the top 5 counts when its entity key is one of the food's reference keys (exact key, no
// scope). Prints the aggregate only, on purpose: the set is for judging a ranking change after it is
// made, never for tuning one, so it names no food and no drink.
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, ROOT } from './lib/evaluate.ts';

interface HeldOut { foods: { q: string; drinks: { key: string | null }[] }[] }
const set: HeldOut = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/pair-food/heldout-foods.json'), 'utf8'));
const engine = loadEngine();

let sum = 0; // a food answered 404 adds 0
let answered = 0;
let full = 0;
for (const f of set.foods) {
  const reference = new Set(f.drinks.map((d) => d.key).filter((k): k is string => k !== null));
  const r = engine.pairFood({ q: f.q, limit: 5 });
  if (r.status !== 200) continue;
  answered++;
  const drinks = (r.body as { drinks: { entity_id: string }[] }).drinks;
  if (drinks.length === 5) full++;
  const hits = drinks.filter((d) => reference.has(engine.kb.byId.get(d.entity_id)!.key)).length;
  sum += hits / 5;
}
const n = set.foods.length;
console.log(`held-out foods: ${n}; answered (200): ${answered}; with five drinks: ${full}`);
console.log(`precision@5: ${(sum / n).toFixed(3)} over all foods; ${(answered ? sum / answered : 0).toFixed(3)} over the answered ones`);
