// Under CI=true the cross-checks against the shared reference tables must run (issue 24, item 7.1):
// kb validate and the tests that read the tables fail when the folder is missing, instead of
// printing a notice and passing with nothing checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, tempDir } from '../helper.ts';
import { REF, referenceFile } from '../reference.ts';

const run = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });

test('kb validate with CI=true and no reference folder fails, naming the folder; without CI it passes with a notice', () => {
  const missing = path.join(tempDir(), 'no-reference');
  const ci = run([path.join(ROOT, 'src/cli/admin.ts'), 'kb', 'validate'], { CI: 'true', REFERENCE_DIR: missing });
  assert.equal(ci.status, 1, ci.stdout + ci.stderr);
  assert.match(ci.stderr, /CI=true but the reference tables .* are not in .*no-reference/);
  const local = run([path.join(ROOT, 'src/cli/admin.ts'), 'kb', 'validate'], { CI: '', REFERENCE_DIR: missing });
  assert.equal(local.status, 0, local.stdout + local.stderr);
  assert.match(local.stdout, /notice: reference tables not found in .*no-reference/);
});

test('a test that needs a reference table fails to load under CI=true when it is missing, and skips outside CI', () => {
  const missing = path.join(tempDir(), 'no-reference');
  const probe = `import('${path.join(ROOT, 'test/reference.ts')}').then((m) => console.log(String(m.referenceFile('vivc-prime-names.csv'))))`;
  const ci = run(['-e', probe], { CI: 'true', REFERENCE_DIR: missing });
  assert.notEqual(ci.status, 0);
  assert.match(ci.stderr, /CI=true but the reference table vivc-prime-names\.csv is not in/);
  const local = run(['-e', probe], { CI: '', REFERENCE_DIR: missing });
  assert.equal(local.status, 0, local.stderr);
  assert.equal(local.stdout.trim(), 'undefined');
});

test('with the folder present (as CI provides it), the tables are found', () => {
  if (referenceFile('vivc-prime-names.csv') === undefined) return; // outside CI, skipped above by design
  assert.equal(referenceFile('vivc-prime-names.csv'), path.join(REF, 'vivc-prime-names.csv'));
});
