// V8's allocation-site pretenuring, turned off for the gateway process (issue 25; src/server.ts
// calls it at start, `npm run bench:pretenuring` measures why). Its own module, importing nothing
// but node:v8, so a test can load it in a bare process (test/steady-allocation.test.ts).
import v8 from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for this process, unless it was started with
 * `--allocation-site-pretenuring` (as `npm run bench:pretenuring` does to compare). Objects that
 * lived through a collection while the service warmed up (requests waiting on the store's first
 * reservations) can make V8 allocate every later object of the same kind in the old generation;
 * our per-request objects then outlive scavenges, and a process stays in that state for its whole
 * life: about twice the CPU per request, scavenges of 4–5 ms instead of under 1.
 */
export function steadyAllocation() {
  if (process.execArgv.includes('--allocation-site-pretenuring')) return;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
