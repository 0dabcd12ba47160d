// Runs a bench entry as the service ships: bundled by esbuild with the options of scripts/build.mjs
// (ESM, node20, dependencies external), into bench/.build/ (ignored by git), in a child process.
import { buildSync } from 'esbuild';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './evaluate.ts';

/** `nodeFlags` go to node before the bundle (e.g. --expose-gc), `args` after it. */
export function runShipped(entry: string, args: string[] = [], nodeFlags: string[] = []): void {
  const outfile = path.join(ROOT, 'bench', '.build', `${path.basename(entry, '.ts')}.mjs`);
  buildSync({ entryPoints: [path.join(ROOT, entry)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  execFileSync(process.execPath, [...nodeFlags, outfile, ...args], { stdio: 'inherit', cwd: ROOT });
}
