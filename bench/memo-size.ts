// npm run bench:memo — the engine answer memo's real heap against its own estimate (issue 24, 8.2).
// Fills a fresh memo with distinct 180-character queries (resolve-entity, then explain, whose
// profiles are the largest answers) and prints the heap growth after a full collection beside the
// memo's estimated bytes and its 32 MB budget. Run with --expose-gc (the npm script does).
import { EngineRunner } from '../src/gateway/engine-client.ts';
import { loadEngine } from './lib/evaluate.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:memo)');
const engine = loadEngine();
const N = Number(process.env.QUERIES ?? 20_000);
for (const op of ['resolve-entity', 'explain'] as const) {
  const r = new EngineRunner(engine);
  gc();
  gc();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < N; i++) {
    const q = `${'zq'.repeat(40)} syrah merlot pinot ${i} ${'x'.repeat(80)}`.slice(0, 180);
    r.run(op, op === 'explain' ? { q } : { q, limit: 10 });
  }
  gc();
  gc();
  const grew = process.memoryUsage().heapUsed - h0;
  const s = r.memoStats;
  console.log(`${op}: ${N} distinct queries → ${s.entries} entries kept; estimated ${(s.bytes / 1e6).toFixed(1)} MB of ${(s.maxBytes / 1e6).toFixed(1)} MB; heap grew ${(grew / 1e6).toFixed(1)} MB (ratio to the estimate ${(grew / s.bytes).toFixed(2)}; target: heap growth <= the budget ${grew <= s.maxBytes ? 'met' : 'MISSED'})`);
}
