// Scoring of the demand set (test/resolve/demand-queries.json): names people really write, taken
// from public review datasets, beer catalogues and retail categories, each weighted by how often it
// occurs in its source and labelled by hand (see test/resolve/DEMAND.md).
//
// A query is answered right when
//   expect.kind "entity":       the top match is one of `keys` and the state is resolved or ambiguous
//                               (an ambiguous answer acts on its top match and lists the others);
//   expect.kind "ambiguous":    the state is ambiguous and one of `keys` is among the matches;
//   expect.kind "no_entity":    the state is not resolved (a blend or generic label names no one entity);
//   expect.kind "out_of_scope": the state is unresolved with coverage "out_of_scope";
//   expect.kind "unresolved":   the state is unresolved (a brand or cocktail names no entity of ours).
// "Confidently wrong": resolved, and not right.
// Weights: within a family, raw counts. Overall, each source's weights are scaled to the same total, so
// that a 130,000-review dataset does not drown a 2,410-beer catalogue.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../../src/engine/engine.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEMAND_PATH = path.join(ROOT, 'test', 'resolve', 'demand-queries.json');
/** Names in the languages of other markets, from retail catalogues (test/resolve/MARKET.md). */
export const MARKET_PATH = path.join(ROOT, 'test', 'resolve', 'market-queries.json');
/** Everyday names a newcomer types: styles, short forms, brands, cocktails, label fragments. */
export const EVERYDAY_PATH = path.join(ROOT, 'test', 'resolve', 'everyday-queries.json');

export type Expect =
  | { kind: 'entity'; keys: string[] }
  | { kind: 'ambiguous'; keys: string[] }
  | { kind: 'no_entity' }
  | { kind: 'out_of_scope' }
  | { kind: 'unresolved' };

export interface DemandQuery {
  q: string;
  family: string;
  source: string;
  weight: number;
  expect: Expect;
  note?: string;
  /** market set: the language of the name, and whether it may be tuned on */
  lang?: string;
  split?: 'tune' | 'held_out';
  kind_of_name?: string;
}

export interface DemandSet {
  description: string;
  sources: { id: string; [k: string]: unknown }[];
  queries: DemandQuery[];
}

export interface DemandOutcome {
  query: DemandQuery;
  state: string;
  coverage: string | null;
  top: string | null;
  topScore: number;
  right: boolean;
  confidentlyWrong: boolean;
  /** an expected entity that the knowledge base does not have */
  missingEntity: boolean;
}

export interface FamilyMetrics {
  queries: number;
  weight: number;
  accuracy: number; // demand-weighted
  accuracyUnweighted: number;
  confidentlyWrong: number; // count
  confidentlyWrongShare: number; // of queries
  confidentlyWrongWeighted: number;
}

export function loadDemandSet(file = DEMAND_PATH): DemandSet {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as DemandSet;
}

export function scoreQuery(engine: Engine, q: DemandQuery): DemandOutcome {
  const r = engine.resolver.resolve(q.q, 10);
  const keyOf = (i: number) => engine.kb.entities[i]!.key;
  const top = r.candidates[0] ? keyOf(r.candidates[0].entity) : null;
  let right = false;
  let missingEntity = false;
  switch (q.expect.kind) {
    case 'entity':
      right = r.state !== 'unresolved' && top !== null && q.expect.keys.includes(top);
      missingEntity = !q.expect.keys.some((k) => engine.kb.byKey.has(k));
      break;
    case 'ambiguous': {
      const keys = q.expect.keys;
      right = r.state === 'ambiguous' && r.candidates.some((c) => keys.includes(keyOf(c.entity)));
      missingEntity = !keys.some((k) => engine.kb.byKey.has(k));
      break;
    }
    case 'no_entity':
      right = r.state !== 'resolved';
      break;
    case 'out_of_scope':
      right = r.state === 'unresolved' && r.coverage === 'out_of_scope';
      break;
    case 'unresolved':
      right = r.state === 'unresolved';
      break;
  }
  return {
    query: q,
    state: r.state,
    coverage: r.coverage,
    top,
    topScore: r.candidates[0]?.score ?? 0,
    right,
    confidentlyWrong: r.state === 'resolved' && !right,
    missingEntity,
  };
}

function metrics(outs: DemandOutcome[], weightOf: (o: DemandOutcome) => number): FamilyMetrics {
  const w = outs.reduce((s, o) => s + weightOf(o), 0);
  const wr = outs.reduce((s, o) => s + (o.right ? weightOf(o) : 0), 0);
  const cw = outs.filter((o) => o.confidentlyWrong);
  return {
    queries: outs.length,
    weight: w,
    accuracy: w ? wr / w : 0,
    accuracyUnweighted: outs.length ? outs.filter((o) => o.right).length / outs.length : 0,
    confidentlyWrong: cw.length,
    confidentlyWrongShare: outs.length ? cw.length / outs.length : 0,
    confidentlyWrongWeighted: w ? cw.reduce((s, o) => s + weightOf(o), 0) / w : 0,
  };
}

export function evaluateDemand(engine: Engine, set: DemandSet) {
  const outcomes = set.queries.map((q) => scoreQuery(engine, q));
  const sourceTotal = new Map<string, number>();
  for (const q of set.queries) sourceTotal.set(q.source, (sourceTotal.get(q.source) ?? 0) + q.weight);
  const byFamily: Record<string, FamilyMetrics> = {};
  for (const f of [...new Set(set.queries.map((q) => q.family))].sort()) {
    byFamily[f] = metrics(outcomes.filter((o) => o.query.family === f), (o) => o.query.weight);
  }
  const overall = metrics(outcomes, (o) => o.query.weight / sourceTotal.get(o.query.source)!);
  const bySource: Record<string, FamilyMetrics> = {};
  for (const s of [...sourceTotal.keys()].sort()) bySource[s] = metrics(outcomes.filter((o) => o.query.source === s), (o) => o.query.weight);
  return { outcomes, byFamily, bySource, overall };
}
export type DemandEvaluation = ReturnType<typeof evaluateDemand>;
