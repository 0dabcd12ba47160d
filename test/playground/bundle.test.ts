// The playground's assets are found from the bundled server (`npm start` runs dist/server.mjs), not
// only from src/ under tsx: the route module is bundled into dist/ exactly as scripts/build.mjs
// bundles the server, then loaded by a process whose working directory is elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../helper.ts';

test('from a bundle in dist/, the playground sources are found under src/playground whatever the working directory', async () => {
  const out = path.join(ROOT, 'dist', `playground-probe-${process.pid}.mjs`);
  try {
    await build({
      entryPoints: [path.join(ROOT, 'src/routes/playground.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
    });
    const script = `import(${JSON.stringify(out)}).then((m) => console.log(m.playgroundDir()))`;
    const found = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: os.tmpdir(), encoding: 'utf8' }).trim();
    assert.equal(found, path.join(ROOT, 'src', 'playground'));
    assert.ok(fs.existsSync(path.join(found, 'app.ts')));
  } finally {
    fs.rmSync(out, { force: true });
  }
});
