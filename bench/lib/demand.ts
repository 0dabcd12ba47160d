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

// ---------------------------------------------------------------------------------------------
// Whole-source held-out measurement (issue 32, item 6; test/resolve/HELDOUT.md).
//
// A source (one market column, one retailer, one menu) is "held out whole" when nobody built or
// tuned on any of its rows: its entry in `sources` says `holdout: "whole_source"`, or every one of
// its queries carries `split: "held_out"` (the Vinmonopolet columns of market-queries.json). Every
// other source counts as "built/tuned-on", including its randomly held-out rows: a random share of
// a source that was tuned on does not show how a market nobody looked at is answered.
//
// Families are compared across sets by group (the demand set says `wine_geography` where the market
// sets say `country` and `region`). Within a (group, status) cell each source weighs the same in total,
// because weights are in the unit of their source (reviews, sales rows, bottles, menu wines).

/** The whole-source held-out sets: test/resolve/heldout-*.json. Nobody tunes on them. */
export function heldOutPaths(dir = path.join(ROOT, 'test', 'resolve')): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^heldout-[a-z0-9-]+\.json$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

export const FAMILY_GROUP: Record<string, string> = {
  wine_geography: 'geography',
  country: 'geography',
  region: 'geography',
  grape: 'grape',
  beer_style: 'beer_style',
  spirit: 'spirit',
  wine_style: 'wine_style',
  everyday: 'everyday',
};
export const familyGroup = (family: string) => FAMILY_GROUP[family] ?? family;

export type SourceStatus = 'built' | 'held_out_whole';

/** Whether a source of a set was built/tuned on or is held out whole (see above). */
export function sourceStatus(set: DemandSet, sourceId: string): SourceStatus {
  const entry = set.sources.find((s) => s.id === sourceId);
  if (entry && entry['holdout'] === 'whole_source') return 'held_out_whole';
  const qs = set.queries.filter((q) => q.source === sourceId);
  return qs.length > 0 && qs.every((q) => q.split === 'held_out') ? 'held_out_whole' : 'built';
}

export interface NamedSet {
  /** file name, e.g. market-queries.json */
  name: string;
  set: DemandSet;
}

/** Every labelled demand-style set that exists: demand, market, everyday and the held-out sets. */
export function loadAllSets(): NamedSet[] {
  const files = [DEMAND_PATH, MARKET_PATH, EVERYDAY_PATH, ...heldOutPaths()].filter((f) => fs.existsSync(f));
  return files.map((f) => ({ name: path.basename(f), set: loadDemandSet(f) }));
}

export interface CellMetrics extends FamilyMetrics {
  sources: number;
}

export interface HeldOutEvaluation {
  /** group → status → metrics (each source weighs the same in total within the cell) */
  byGroup: Record<string, Partial<Record<SourceStatus, CellMetrics>>>;
  /** status → metrics over every group (each source weighs the same) */
  overall: Partial<Record<SourceStatus, CellMetrics>>;
  /** one row per source: set, source, status, raw-weight metrics */
  bySource: { set: string; source: string; status: SourceStatus; metrics: FamilyMetrics }[];
  outcomes: (DemandOutcome & { set: string; status: SourceStatus; group: string })[];
}

export function evaluateHeldOut(engine: Engine, sets: NamedSet[]): HeldOutEvaluation {
  const outcomes: HeldOutEvaluation['outcomes'] = [];
  for (const { name, set } of sets) {
    const status = new Map<string, SourceStatus>();
    for (const q of set.queries) if (!status.has(q.source)) status.set(q.source, sourceStatus(set, q.source));
    for (const q of set.queries) outcomes.push({ ...scoreQuery(engine, q), set: name, status: status.get(q.source)!, group: familyGroup(q.family) });
  }
  const sourceKey = (o: (typeof outcomes)[number]) => `${o.set}\u0000${o.query.source}`;
  const cell = (outs: typeof outcomes): CellMetrics => {
    const total = new Map<string, number>();
    for (const o of outs) total.set(sourceKey(o), (total.get(sourceKey(o)) ?? 0) + o.query.weight);
    return { ...metrics(outs, (o) => o.query.weight / (total.get(sourceKey(o as (typeof outcomes)[number])) || 1)), sources: total.size };
  };
  const byGroup: HeldOutEvaluation['byGroup'] = {};
  for (const g of [...new Set(outcomes.map((o) => o.group))].sort()) {
    byGroup[g] = {};
    for (const s of ['built', 'held_out_whole'] as const) {
      const outs = outcomes.filter((o) => o.group === g && o.status === s);
      if (outs.length) byGroup[g]![s] = cell(outs);
    }
  }
  const overall: HeldOutEvaluation['overall'] = {};
  for (const s of ['built', 'held_out_whole'] as const) {
    const outs = outcomes.filter((o) => o.status === s);
    if (outs.length) overall[s] = cell(outs);
  }
  const bySource: HeldOutEvaluation['bySource'] = [];
  for (const k of [...new Set(outcomes.map(sourceKey))]) {
    const outs = outcomes.filter((o) => sourceKey(o) === k);
    bySource.push({ set: outs[0]!.set, source: outs[0]!.query.source, status: outs[0]!.status, metrics: metrics(outs, (o) => o.query.weight) });
  }
  return { byGroup, overall, bySource, outcomes };
}
