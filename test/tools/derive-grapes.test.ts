// tools/derive/grapes.mjs reproduces the committed grape files: `--check` derives data/grapes/vivc.json,
// data/grapes/vivc-lists.json and data/ambiguities/grapes.json in memory from the shared reference
// tables and exits 0 only when they equal the files in data/. A hand edit of those files that is not
// ported into the script (or its inputs in tools/derive/) fails here, as a re-run would undo it.
// The reference tables come from REFERENCE_DIR (test/reference.ts): outside CI a missing table skips
// with a reason; under CI=true the file fails at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, tempDir } from '../helper.ts';
import { REF, referenceFile } from '../reference.ts';

const TABLES = ['vivc-grape-index.csv', 'vivc-prime-names.csv', 'vivc-prime-names-full.csv', 'vivc-varieties-pedigree-leads.csv'];
const missing = TABLES.filter((t) => referenceFile(t) === undefined);
const skip = missing.length > 0 && `reference table(s) ${missing.join(', ')} not in ${REF} (set REFERENCE_DIR)`;

const check = (root: string) =>
  spawnSync(process.execPath, [path.join(root, 'tools/derive/grapes.mjs'), '--check'], {
    cwd: root,
    env: { ...process.env, REFERENCE_DIR: REF },
    encoding: 'utf8',
  });

test('grapes.mjs --check: the committed grape files are what the script derives', { skip }, () => {
  const r = check(ROOT);
  assert.equal(r.status, 0, `the script would change the committed files:\n${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /--check: .*vivc-lists\.json.* are as the script derives them/);
  assert.equal(r.stderr, '');
});

test('grapes.mjs --check exits 1 and names the field when a committed file drifts (one berry colour edited in a copy)', { skip }, () => {
  const dir = tempDir('derive-grapes-');
  try {
    fs.cpSync(path.join(ROOT, 'tools/derive'), path.join(dir, 'tools/derive'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'data'), path.join(dir, 'data'), { recursive: true });
    const file = path.join(dir, 'data/grapes/vivc-lists.json');
    const recs = JSON.parse(fs.readFileSync(file, 'utf8')) as { key: string; facts: Record<string, { value: string }> }[];
    const coliris = recs.find((r) => r.key === 'grape/coliris');
    assert.ok(coliris, 'grape/coliris is in vivc-lists.json');
    assert.equal(coliris.facts.berry_colour.value, 'noir');
    coliris.facts.berry_colour.value = 'rouge';
    fs.writeFileSync(file, JSON.stringify(recs, null, 1) + '\n');
    const r = check(dir);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /DRIFT data\/grapes\/vivc-lists\.json/);
    assert.match(r.stdout, /~ grape\/coliris facts\.berry_colour\.value: "rouge" -> "noir"/);
    // nothing is written in --check mode
    assert.match(fs.readFileSync(file, 'utf8'), /"value": "rouge"/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
