// Ids are forever (issue 36): every entity id a release served and a later one removed keeps a
// tombstone in data/tombstones/*.json. A removed entity answers 410 GONE with the reason and the
// date; a merged or renamed one answers 301 to its successor. data/releases/<kb_version>.ids lists
// the ids each release served (tools/kb-release-ids.ts writes it), so `kb validate` can tell an id
// that disappeared without a tombstone.
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

const KEY = Type.String({ pattern: '^(grape|geo|spirit|beer|style)/[a-z0-9-]+$' });

export const TombstoneSchema = Type.Object(
  {
    /** the permanent key the entity was served under */
    entity_key: KEY,
    /** its entity_id: UUIDv5 of the key (checked) */
    entity_id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }),
    canonical_name: Type.String({ minLength: 1 }),
    /** removed: 410 GONE; merged (into another entity) or renamed (new key): 301 to `replaced_by` */
    kind: Type.Union([Type.Literal('removed'), Type.Literal('merged'), Type.Literal('renamed')]),
    /** the served entity's key that replaces it (merged, renamed); absent for removed */
    replaced_by: Type.Optional(KEY),
    /** the date of the change, YYYY-MM-DD */
    date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    /** the knowledge-base version that first no longer served it */
    version: Type.String({ minLength: 1 }),
    /** why, in a sentence a user can read (a source key may be named) */
    reason: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
export type Tombstone = Static<typeof TombstoneSchema>;

/** Tombstones by entity_id and by permanent key. */
export class Tombstones {
  readonly byId = new Map<string, Tombstone>();
  readonly byKey = new Map<string, Tombstone>();
  add(t: Tombstone) {
    this.byId.set(t.entity_id, t);
    this.byKey.set(t.entity_key, t);
  }
  get size() {
    return this.byId.size;
  }
  /** The tombstone of an entity_id (any case) or permanent key, if any. */
  find(term: string): Tombstone | undefined {
    return this.byId.get(term.toLowerCase()) ?? this.byKey.get(term);
  }
}

interface ProblemSink {
  push(p: { file: string; record: string; field: string; message: string }): void;
}

const check = TypeCompiler.Compile(TombstoneSchema);

/**
 * data/tombstones/*.json (arrays of tombstones), checked: each fits its schema, its id is the UUIDv5
 * of its key, its key is no longer served, a merge or rename names a served successor (and a removal
 * none), and no id has two tombstones.
 */
export function readTombstones(dataDir: string, idOf: (key: string) => string, isServed: (key: string) => boolean, problems: ProblemSink): Tombstones {
  const out = new Tombstones();
  const dir = path.join(dataDir, 'tombstones');
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    const file = `tombstones/${f}`;
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    } catch (e) {
      problems.push({ file, record: '-', field: '-', message: `not valid JSON: ${(e as Error).message}` });
      continue;
    }
    if (!Array.isArray(data)) {
      problems.push({ file, record: '-', field: '-', message: 'must be a JSON array of tombstones' });
      continue;
    }
    data.forEach((t: Tombstone, i) => {
      const record = (t && typeof t === 'object' && t.entity_key) || `#${i}`;
      if (!check.Check(t)) {
        const e = [...check.Errors(t)][0];
        problems.push({ file, record, field: e?.path || '/', message: e?.message ?? 'does not fit the schema' });
        return;
      }
      if (t.entity_id !== idOf(t.entity_key)) problems.push({ file, record, field: 'entity_id', message: `must be ${idOf(t.entity_key)}, the entity_id of "${t.entity_key}"` });
      else if (out.byId.has(t.entity_id)) problems.push({ file, record, field: 'entity_id', message: 'has two tombstones' });
      if (isServed(t.entity_key)) problems.push({ file, record, field: 'entity_key', message: 'is served: a served entity has no tombstone' });
      if (t.kind === 'removed' && t.replaced_by !== undefined) problems.push({ file, record, field: 'replaced_by', message: 'a removed entity has no successor (use kind "merged" or "renamed")' });
      if (t.kind !== 'removed') {
        if (t.replaced_by === undefined) problems.push({ file, record, field: 'replaced_by', message: `required for kind "${t.kind}": the key of the served successor` });
        else if (!isServed(t.replaced_by)) problems.push({ file, record, field: 'replaced_by', message: `"${t.replaced_by}" is not a served entity (point the tombstone at the current successor)` });
      }
      out.add(t);
    });
  }
  return out;
}

/** One line of a release's id list: `<entity_id>\t<entity_key>`. */
export interface ReleaseId {
  id: string;
  key: string;
}

/** data/releases/<version>.ids files: the version and its ids, oldest file name first. */
export function readReleaseIds(dataDir: string): { version: string; file: string; ids: ReleaseId[] }[] {
  const dir = path.join(dataDir, 'releases');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ids'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((f) => ({
      version: f.slice(0, -'.ids'.length),
      file: `releases/${f}`,
      ids: fs
        .readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('#'))
        .map((l) => {
          const [id, key] = l.split('\t');
          return { id: id!.trim(), key: (key ?? '').trim() };
        }),
    }));
}

/** The text of a release's id list (sorted by key, so a diff between releases reads line by line). */
export function releaseIdsText(version: string, entities: readonly { id: string; key: string }[]): string {
  const lines = [...entities].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((e) => `${e.id}\t${e.key}`);
  return `# entity ids served by knowledge-base release ${version} (${lines.length}); written by tools/kb-release-ids.ts, never edited by hand\n${lines.join('\n')}\n`;
}

/**
 * `kb validate`: every id a past release served is still served or has a tombstone. An id that
 * disappears without one would become a plain 404 with no trace.
 */
export function checkIdsForever(dataDir: string, servedIds: ReadonlySet<string>, tombstones: Tombstones, problems: ProblemSink): { releases: number; ids: number } {
  const releases = readReleaseIds(dataDir);
  const seen = new Set<string>();
  for (const r of releases) {
    for (const { id, key } of r.ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      if (servedIds.has(id) || tombstones.byId.has(id)) continue;
      problems.push({
        file: r.file,
        record: key || id,
        field: 'entity_id',
        message: `${id} was served by release ${r.version} and is no longer served: add a tombstone to data/tombstones/ (removed: 410; merged or renamed: 301 to its successor)`,
      });
    }
  }
  return { releases: releases.length, ids: seen.size };
}
