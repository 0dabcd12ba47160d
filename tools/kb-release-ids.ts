// npm run kb:release-ids [-- --history]
// Writes data/releases/<kb_version>.ids: every entity id the release served (issue 36). The file
// only grows: ids already listed stay listed, so an id served at any time during a release is kept,
// and `kb validate` fails when one of them is neither served nor tombstoned.
//   (no option)  the current release, from data/ as it is (the loader's served entities)
//   --history    also every earlier release, from git: the union of the non-draft keys over each
//                first-parent commit of the release that changed an entity family
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entityIdOf, loadKnowledgeBase } from '../src/engine/kb/load.ts';
import { readReleaseIds, releaseIdsText } from '../src/engine/kb/tombstones.ts';
import { entityCommits, releases, servedKeysAt } from './kb-history.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function writeReleaseIds(dataDir: string, version: string, keys: Iterable<string>): { file: string; ids: number; added: number } {
  const listed = readReleaseIds(dataDir).find((r) => r.version === version)?.ids ?? [];
  const byKey = new Map(listed.map((x) => [x.key, x.id]));
  const before = byKey.size;
  for (const k of keys) if (!byKey.has(k)) byKey.set(k, entityIdOf(k));
  const dir = path.join(dataDir, 'releases');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${version}.ids`);
  fs.writeFileSync(file, releaseIdsText(version, [...byKey].map(([key, id]) => ({ key, id }))));
  return { file, ids: byKey.size, added: byKey.size - before };
}

function main(args: string[]) {
  const dataDir = path.join(ROOT, 'data');
  const { kb } = loadKnowledgeBase(dataDir);
  if (args.includes('--history')) {
    for (const r of releases(ROOT)) {
      const keys = new Set<string>();
      const commits = entityCommits(ROOT, r);
      for (const c of commits) for (const k of servedKeysAt(ROOT, c)) keys.add(k);
      const w = writeReleaseIds(dataDir, r.version, keys);
      console.log(`${r.version}: ${w.ids} ids (${w.added} new) from ${commits.length} of its ${r.commits.length} commits -> ${path.relative(ROOT, w.file)}`);
    }
  }
  const w = writeReleaseIds(dataDir, kb.version, kb.entities.map((e) => e.key));
  console.log(`${kb.version}: ${w.ids} ids (${w.added} new) from data/ -> ${path.relative(ROOT, w.file)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
