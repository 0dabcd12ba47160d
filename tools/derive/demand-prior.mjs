// Derives data/demand-prior.json: how much public demand falls on each class of entity, per entity of
// that class. The resolver orders candidates of equal score by it (a shared name such as "Calvados",
// the brandy and a wine PGI, lists the meaning most people ask for first; the state stays ambiguous).
// Input: the demand set built from public data of what people write (test/resolve/demand-queries.json;
// sources and weights in test/resolve/DEMAND.md). Each source's weights are scaled to the same total (as
// bench:demand does), each query's share goes to the class of the first key of its label, and a class's
// total is divided by the number of served entities of that class. Run from the repo root:
//   node --import tsx tools/derive/demand-prior.mjs
import fs from 'node:fs';
import { loadKnowledgeBase } from '../../src/engine/kb/load.ts';
import { entityClass } from '../../src/engine/kb/entity-class.ts';

// the market-language set counts too, but only its `tune` split (its held-out names are never tuned on)
const sets = ['test/resolve/demand-queries.json', 'test/resolve/market-queries.json'].filter((f) => fs.existsSync(f));
const demand = { queries: sets.flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')).queries.filter((q) => q.split !== 'held_out').map((q) => ({ ...q, source: `${f}#${q.source}` }))) };
const { kb } = loadKnowledgeBase('data');
const perSource = new Map();
for (const q of demand.queries) perSource.set(q.source, (perSource.get(q.source) ?? 0) + q.weight);
const demandOf = new Map();
const entityDemand = new Map();
for (const q of demand.queries) {
  const key = q.expect.keys?.[0];
  const e = key && kb.byKey.get(key);
  if (!e) continue;
  const c = entityClass(e);
  const share = q.weight / perSource.get(q.source) / perSource.size;
  demandOf.set(c, (demandOf.get(c) ?? 0) + share);
  entityDemand.set(key, (entityDemand.get(key) ?? 0) + share);
}
const count = new Map();
for (const e of kb.entities) count.set(entityClass(e), (count.get(entityClass(e)) ?? 0) + 1);
const classes = {};
for (const [c, n] of [...count].sort()) classes[c] = Number(((demandOf.get(c) ?? 0) / n).toPrecision(3));
const entities = {};
for (const [k, v] of [...entityDemand].sort()) entities[k] = Number(v.toPrecision(3));
const out = {
  source: sets.join(', ') + ' (tune split only)',
  derived: new Date().toISOString().slice(0, 10),
  method: 'per entity: its share of all demand (every source scaled to the same total); per class of entity: the demand share (each source scaled to the same total) of the queries labelled with an entity of that class, divided by the number of served entities of the class',
  classes,
  entities,
};
fs.writeFileSync('data/demand-prior.json', JSON.stringify(out, null, 2) + '\n');
console.log(classes);
