// The knowledge base's past, read from git (issue 36): which commits each release (data/kb.json's
// version) spans on the first-parent history, the data/ tree of a revision written to a temp dir
// (so the current loader can read it), and the keys a revision served, read leniently (every record
// of the entity families that is not a draft), so an old tree that no longer fits today's schema
// still tells which ids it served.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ENTITY_DIRS = ['grapes', 'geographies', 'spirits', 'beer-styles', 'wine-styles'];

function git(root: string, args: string[], input?: string): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, input });
}

export interface Release {
  version: string;
  /** the first-parent commits (full hashes) while data/kb.json carried this version, oldest first */
  commits: string[];
}

/** Releases in order, oldest first, from the first-parent history of HEAD. */
export function releases(root: string): Release[] {
  const lines = git(root, ['log', '--first-parent', '--reverse', '--format=%H', 'HEAD']).trim().split('\n');
  const bumps = new Set(git(root, ['log', '--first-parent', '--format=%H', 'HEAD', '--', 'data/kb.json']).trim().split('\n'));
  const out: Release[] = [];
  let current: Release | undefined;
  for (const c of lines) {
    if (bumps.has(c) || !current) {
      let version = 'unversioned';
      try {
        version = (JSON.parse(git(root, ['show', `${c}:data/kb.json`])) as { version: string }).version;
      } catch {
        // before data/kb.json existed
      }
      if (!current || current.version !== version) out.push((current = { version, commits: [] }));
    }
    current.commits.push(c);
  }
  return out.filter((r) => r.version !== 'unversioned');
}

/**
 * A revision named by the user: a release version (the commit that set it in data/kb.json: the
 * release as cut; later commits under the same label are the next release in the making),
 * `worktree` (data/ as it is on disk), or any git revision.
 */
export function revisionOf(root: string, name: string): { label: string; rev: string | null } {
  if (name === 'worktree' || name === '.') return { label: 'worktree', rev: null };
  const r = releases(root).find((x) => x.version === name);
  if (r) return { label: `${name} (${r.commits[0]!.slice(0, 7)})`, rev: r.commits[0]! };
  const rev = git(root, ['rev-parse', '--verify', `${name}^{commit}`]).trim();
  return { label: `${name} (${rev.slice(0, 7)})`, rev };
}

/** data/ of a revision in a fresh temp dir (caller removes it), or the worktree's data/ for null. */
export function dataDirOf(root: string, rev: string | null): { dir: string; cleanup: () => void } {
  if (rev === null) return { dir: path.join(root, 'data'), cleanup: () => {} };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-rev-'));
  const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', rev, 'data'], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', tmp], { input: tar });
  return { dir: path.join(tmp, 'data'), cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

/** Keys of the non-draft records of the entity families at a revision (lenient: no schema check). */
export function servedKeysAt(root: string, rev: string): string[] {
  const files = git(root, ['ls-tree', '-r', '--name-only', rev, '--', ...ENTITY_DIRS.map((d) => `data/${d}`)])
    .split('\n')
    .filter((f) => f.endsWith('.json'));
  if (!files.length) return [];
  // one git process for every file: `cat-file --batch` answers "<sha> blob <size>\n<content>\n" per line asked
  const raw = execFileSync('git', ['-C', root, 'cat-file', '--batch'], { input: files.map((f) => `${rev}:${f}`).join('\n') + '\n', maxBuffer: 1 << 30 });
  const keys: string[] = [];
  let at = 0;
  for (const _ of files) {
    const nl = raw.indexOf(10, at);
    const size = Number(raw.subarray(at, nl).toString('utf8').split(' ')[2]);
    const body = raw.subarray(nl + 1, nl + 1 + size).toString('utf8');
    at = nl + 1 + size + 1;
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      continue;
    }
    if (!Array.isArray(data)) continue;
    for (const r of data as { key?: unknown; review?: unknown }[]) {
      if (r && typeof r.key === 'string' && r.review !== 'draft') keys.push(r.key);
    }
  }
  return keys;
}

/** Commits of a release that changed an entity family (and its first commit): where its served set can change. */
export function entityCommits(root: string, r: Release): string[] {
  const changed = new Set(git(root, ['log', '--first-parent', '--format=%H', 'HEAD', '--', ...ENTITY_DIRS.map((d) => `data/${d}`)]).trim().split('\n'));
  return r.commits.filter((c, i) => i === 0 || changed.has(c));
}

/** What kb:diff compares: one release as its own loader read it. */
export interface KbSnapshot {
  version: string;
  problems: number;
  entities: {
    key: string;
    name: string;
    type: string;
    facts: Record<string, { value: unknown; source?: string; locator?: string }>;
    aliases: { name: string; lang: string }[];
    pairing: Record<string, unknown>[];
  }[];
  tombstones: { entity_key: string; kind: string; replaced_by?: string; date: string; reason: string }[];
}

/** The script run inside a tree: its own loader reads its own data/, and the snapshot is printed. */
const SNAPSHOT_SCRIPT = `
import { loadKnowledgeBase } from './src/engine/kb/load.ts';
const { kb, problems } = loadKnowledgeBase(process.argv[2]);
const entities = kb.entities.map((e) => ({
  key: e.key, name: e.name, type: e.type, facts: e.facts,
  aliases: (e.aliases ?? []).map((a) => ({ name: a.name, lang: a.lang })),
  pairing: Array.isArray(e.pairing) ? e.pairing.flatMap((s) => s.items ?? []) : (e.pairing?.items ?? []),
}));
const tombstones = kb.tombstones ? [...kb.tombstones.byId.values()] : [];
process.stdout.write(JSON.stringify({ version: kb.version, problems: problems.length, entities, tombstones }));
`;

/**
 * A revision's knowledge base read by that revision's own loader (src/ and data/ of the commit in a
 * temp dir, run with tsx), so a tree that predates a schema change is read as it was served. null:
 * the worktree, read by the worktree's loader.
 */
export function snapshotOf(root: string, rev: string | null): KbSnapshot {
  let dir = root;
  let cleanup = () => {};
  if (rev !== null) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-tree-'));
    const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', rev, 'src', 'data', 'package.json', 'tsconfig.json'], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', tmp], { input: tar });
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(tmp, 'node_modules'));
    dir = tmp;
    cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });
  }
  const script = path.join(dir, `.kb-snapshot-${process.pid}.mts`);
  fs.writeFileSync(script, SNAPSHOT_SCRIPT);
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, path.join(dir, 'data')], { cwd: dir, maxBuffer: 1 << 30, encoding: 'utf8' });
    return JSON.parse(out) as KbSnapshot;
  } finally {
    fs.rmSync(script, { force: true });
    cleanup();
  }
}
