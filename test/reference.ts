// The shared reference tables (../shared/reference, or REFERENCE_DIR) for the tests that cross-check
// the knowledge base against them. Outside CI a missing table skips those checks with a reason; under
// CI=true it fails the test file at once, as a missing Chromium does (issue 24, item 7.1): a green CI
// run must mean the checks ran.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const REF = process.env.REFERENCE_DIR?.trim() ? path.resolve(process.env.REFERENCE_DIR.trim()) : path.resolve(ROOT, '../shared/reference');

/** Whether the reference tables are required (CI=true). */
export const referenceRequired = () => process.env.CI === 'true';

/**
 * The path of a reference table, or undefined when it is absent (the caller then skips, saying
 * why); under CI=true an absent table throws, so the test file fails instead of skipping.
 */
export function referenceFile(name: string): string | undefined {
  const p = path.join(REF, name);
  if (fs.existsSync(p)) return p;
  if (referenceRequired()) throw new Error(`CI=true but the reference table ${name} is not in ${REF}: set REFERENCE_DIR to the folder of the shared reference tables`);
  return undefined;
}
