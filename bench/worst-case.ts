// npm run bench:worst-case — the cost of inputs made to be slow against normal ones (issue 31, item 7).
// Target: /v1/parse and /v1/pair-food's worst cases within 10× a normal line, in CPU time per call
// (bytes allocated per call shown beside it). Speed is measured on the code as shipped (an esbuild
// bundle, as bench:parse does), in a process of its own started with --expose-gc and a young
// generation of 64 MB, so one call's allocation is read without a collection in between.
import { runShipped } from './lib/shipped.ts';

runShipped('bench/worst-case-speed.ts', [], ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64']);
