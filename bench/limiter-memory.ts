// npm run bench:limiter-memory — the heap the in-memory limiter (no REDIS_URL) holds when full
// (issue 31, item 8: the README said about 15 MB for MEMORY_LIMITER_MAX_WINDOWS windows). Fills a
// fresh limiter with windows named as the demo names them (per-IP minute and hour windows of
// distinct addresses) and prints the heap growth after a full collection, beside an empty Map of the
// same key strings measured in the same run (the baseline: what the names alone cost). Run with
// --expose-gc (the npm script does).
import { MEMORY_LIMITER_MAX_WINDOWS, MemoryWindowLimiter } from '../src/store/limiter.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:limiter-memory)');
const N = MEMORY_LIMITER_MAX_WINDOWS;
const keyOf = (i: number) => (i % 2 ? 'demo:hour:' : 'demo:minute:') + `198.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const h0 = heap();
const names = new Map<string, number>();
for (let i = 0; i < N; i++) names.set(keyOf(i), i);
const namesBytes = heap() - h0;
names.clear();

const h1 = heap();
const m = new MemoryWindowLimiter();
for (let i = 0; i < N; i++) m.hitNow(keyOf(i), 8, i % 2 ? 3_600_000 : 60_000);
const full = heap() - h1;
console.log(`${m.size} windows: heap grew ${(full / 1e6).toFixed(1)} MB (${Math.round(full / m.size)} bytes a window); a Map of the same names alone ${(namesBytes / 1e6).toFixed(1)} MB; ratio ${(full / namesBytes).toFixed(2)}`);
await m.close();
