// npm run bench:resolve-quality — resolution quality on the labelled query set, overall and by kind.
// Scoring rules: bench/lib/evaluate.ts. Targets (issue 4): precision@1 >= 0.97, resolved-but-wrong
// <= 1%, every must-stay-unresolved query unresolved. `--verbose` lists every miss.
import { evaluateEngine, loadEngine, loadLabelledQueries, table, LABELLED_PATH, type Metrics } from './lib/evaluate.ts';
import { AMBIGUITY_MARGIN, PARTIAL_AMBIGUITY_MARGIN, RESOLVE_THRESHOLD } from '../src/engine/resolver.ts';
import path from 'node:path';

const verbose = process.argv.includes('--verbose') || process.argv.includes('-v');
const engine = loadEngine();
const queries = loadLabelledQueries();
const ev = evaluateEngine(engine, queries);

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const f3 = (n: number) => n.toFixed(3);
const row = (name: string, m: Metrics): (string | number)[] => [
  name,
  m.queries,
  f3(m.precisionAt1),
  m.answerable ? f3(m.mrr) : '-',
  m.answerable ? `${pct(m.resolvedButWrongRate)} (${m.resolvedButWrong})` : '-',
  m.answerable ? `${pct(m.unresolvedButAnswerableRate)} (${m.unresolvedButAnswerable})` : '-',
  m.mustStayUnresolved ? `${m.mustStayUnresolvedPass}/${m.mustStayUnresolved}` : '-',
];

console.log(`resolve quality: ${queries.length} labelled queries (${path.relative(process.cwd(), LABELLED_PATH)}), ${engine.kb.entities.length} entities, kb ${engine.version}`);
console.log(`RESOLVE_THRESHOLD=${RESOLVE_THRESHOLD} AMBIGUITY_MARGIN=${AMBIGUITY_MARGIN} PARTIAL_AMBIGUITY_MARGIN=${PARTIAL_AMBIGUITY_MARGIN}\n`);
console.log(
  table(
    ['kind', 'n', 'P@1', 'MRR', 'resolved-wrong', 'unresolved-answerable', 'must-stay-unresolved'],
    [...Object.entries(ev.byKind).map(([k, m]) => row(k, m)), row('OVERALL', ev.overall)],
  ),
);
const o = ev.overall;
console.log(`\nprecision@1 (answerable only) ${f3(o.precisionAt1Answerable)}`);

const misses = ev.outcomes.filter((x) => !x.correct1);
console.log(
  `targets: P@1 >= 0.97 ${o.precisionAt1 >= 0.97 ? 'met' : 'MISSED'}; resolved-but-wrong <= 1% ${o.resolvedButWrongRate <= 0.01 ? 'met' : 'MISSED'}; ` +
    `must-stay-unresolved all unresolved ${o.mustStayUnresolvedPass === o.mustStayUnresolved ? 'met' : 'MISSED'}`,
);
if (misses.length) {
  const shown = verbose ? misses : misses.slice(0, 25);
  console.log(`\nmisses (${misses.length}${shown.length < misses.length ? `, first ${shown.length}; --verbose for all` : ''}):`);
  for (const m of shown) {
    const got = m.top ? `${m.top} ${m.topScore} ${m.topMatchedOn}` : '-';
    console.log(`  [${m.kind}] "${m.q}" expect ${m.acceptable.join('|') || 'unresolved'} → ${m.state} ${got}${m.rank ? ` (rank ${m.rank})` : ''}`);
  }
}
