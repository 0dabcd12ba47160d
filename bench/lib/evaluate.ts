// Resolution quality on the labelled query set (test/resolve/labelled-queries.json).
// Shared by `npm run bench:resolve-quality`, `npm run bench:resolve` and test/engine/resolve-quality.test.ts.
//
// How each query is scored (candidates come from `resolve(q, limit)`, default limit 10):
// - answerable query (expect is an entity key, or kind "ambiguous" with expect_any):
//     correct@1 when the state is not unresolved and the top candidate is the expected entity;
//     for kind "ambiguous" the top candidate must be one of expect_any AND the state must be "ambiguous".
//     reciprocal rank = 1 / rank of the first acceptable candidate (0 when absent or unresolved).
//     resolved-but-wrong when the state is not unresolved and the top candidate is not acceptable.
//     unresolved-but-answerable when the state is unresolved.
// - must-stay-unresolved query (expect null, no expect_any): passes, and counts as correct@1, only
//   when the state is "unresolved".
// precision@1 is over all queries; MRR, resolved-but-wrong and unresolved-but-answerable are over
// answerable queries only.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src/engine/engine.ts';
import { loadKnowledgeBaseOrThrow } from '../../src/engine/kb/load.ts';
import type { Resolution } from '../../src/engine/resolver.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The labelled set; LABELLED_QUERIES=<file> points the benches at another file. */
export const LABELLED_PATH = process.env.LABELLED_QUERIES
  ? path.resolve(process.env.LABELLED_QUERIES)
  : path.join(ROOT, 'test', 'resolve', 'labelled-queries.json');

export interface LabelledQuery {
  q: string;
  kind: string;
  expect: string | null;
  expect_any?: string[];
  note?: string;
}

export interface QueryOutcome {
  q: string;
  kind: string;
  expect: string | null;
  acceptable: string[]; // entity keys that count as a right answer; empty for must-stay-unresolved
  answerable: boolean;
  state: Resolution['state'];
  top: string | null;
  topScore: number | null;
  topMatchedOn: string | null;
  rank: number | null; // 1-based rank of the first acceptable candidate
  correct1: boolean;
  reciprocalRank: number;
  resolvedWrong: boolean;
  unresolvedAnswerable: boolean;
  mustStayUnresolvedPass: boolean | null; // null for answerable queries
}

export interface Metrics {
  queries: number;
  answerable: number;
  precisionAt1: number; // over all queries
  precisionAt1Answerable: number; // over answerable queries only
  mrr: number;
  resolvedButWrongRate: number;
  unresolvedButAnswerableRate: number;
  resolvedButWrong: number;
  unresolvedButAnswerable: number;
  mustStayUnresolved: number;
  mustStayUnresolvedPass: number;
}

export interface Evaluation {
  overall: Metrics;
  byKind: Record<string, Metrics>;
  outcomes: QueryOutcome[];
}

export type ResolveFn = (q: string, limit: number) => Resolution;

export function loadLabelledQueries(file = LABELLED_PATH): LabelledQuery[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array`);
  return raw as LabelledQuery[];
}

export function loadEngine(dataDir = process.env.KB_DATA_DIR ?? path.join(ROOT, 'data')): Engine {
  return new Engine(loadKnowledgeBaseOrThrow(dataDir));
}

/** Keys that count as a right top answer for a labelled query (empty: must stay unresolved). */
export function acceptableKeys(lq: LabelledQuery): string[] {
  if (lq.kind === 'ambiguous' && lq.expect_any && lq.expect_any.length > 0) return [...lq.expect_any];
  if (lq.expect) return [lq.expect];
  return lq.expect_any ?? [];
}

export function scoreQuery(lq: LabelledQuery, r: Resolution, keyOf: (entity: number) => string): QueryOutcome {
  const acceptable = acceptableKeys(lq);
  const answerable = acceptable.length > 0;
  const keys = r.candidates.map((c) => keyOf(c.entity));
  const top = r.state === 'unresolved' ? null : (keys[0] ?? null);
  const idx = r.state === 'unresolved' ? -1 : keys.findIndex((k) => acceptable.includes(k));
  const rank = idx >= 0 ? idx + 1 : null;
  let correct1: boolean;
  if (!answerable) correct1 = r.state === 'unresolved';
  else if (lq.kind === 'ambiguous') correct1 = rank === 1 && r.state === 'ambiguous';
  else correct1 = rank === 1;
  const c0 = r.state === 'unresolved' ? undefined : r.candidates[0];
  return {
    q: lq.q,
    kind: lq.kind,
    expect: lq.expect,
    acceptable,
    answerable,
    state: r.state,
    top,
    topScore: c0?.score ?? null,
    topMatchedOn: c0?.matchedOn ?? null,
    rank,
    correct1,
    reciprocalRank: answerable && rank ? 1 / rank : 0,
    resolvedWrong: answerable && r.state !== 'unresolved' && rank !== 1,
    unresolvedAnswerable: answerable && r.state === 'unresolved',
    mustStayUnresolvedPass: answerable ? null : r.state === 'unresolved',
  };
}

export function summarise(outcomes: QueryOutcome[]): Metrics {
  const answerable = outcomes.filter((o) => o.answerable);
  const must = outcomes.filter((o) => !o.answerable);
  const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);
  const rbw = answerable.filter((o) => o.resolvedWrong).length;
  const uba = answerable.filter((o) => o.unresolvedAnswerable).length;
  return {
    queries: outcomes.length,
    answerable: answerable.length,
    precisionAt1: ratio(outcomes.filter((o) => o.correct1).length, outcomes.length),
    precisionAt1Answerable: ratio(answerable.filter((o) => o.correct1).length, answerable.length),
    mrr: ratio(answerable.reduce((s, o) => s + o.reciprocalRank, 0), answerable.length),
    resolvedButWrongRate: ratio(rbw, answerable.length),
    unresolvedButAnswerableRate: ratio(uba, answerable.length),
    resolvedButWrong: rbw,
    unresolvedButAnswerable: uba,
    mustStayUnresolved: must.length,
    mustStayUnresolvedPass: must.filter((o) => o.mustStayUnresolvedPass).length,
  };
}

/** Runs every labelled query through `resolve` and scores it; see the header for the rules. */
export function evaluate(
  resolve: ResolveFn,
  keyOf: (entity: number) => string,
  queries: LabelledQuery[],
  limit = 10,
): Evaluation {
  const outcomes = queries.map((lq) => scoreQuery(lq, resolve(lq.q, limit), keyOf));
  const kinds = [...new Set(queries.map((q) => q.kind))].sort();
  const byKind: Record<string, Metrics> = {};
  for (const k of kinds) byKind[k] = summarise(outcomes.filter((o) => o.kind === k));
  return { overall: summarise(outcomes), byKind, outcomes };
}

/** `evaluate` against an Engine's resolver. */
export function evaluateEngine(engine: Engine, queries: LabelledQuery[], limit = 10): Evaluation {
  return evaluate((q, l) => engine.resolver.resolve(q, l), (i) => engine.kb.entities[i]!.key, queries, limit);
}

/** A compact fixed-width table. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
