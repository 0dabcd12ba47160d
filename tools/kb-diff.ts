// npm run kb:diff -- <old> <new> [--write] [--json]
// The change notes between two knowledge bases (issue 36): entities added, removed, merged or
// renamed (with their tombstones); facts changed, added and removed, with old and new value and the
// new source; aliases added and removed (counted); pairing items added and removed.
// <old>, <new>: a release version (2026.11.3: the commit that set it in data/kb.json), `worktree`
// (data/ as it is), or any git revision. Each side is read by its own loader: the revision's src/
// and data/ are written to a temp dir and its loader reads its data (so a tree from before a schema
// change reads as it was served).
//   --write   also write the Markdown to data/releases/<new version>.md (served by GET /v1/kb/notes)
//   --json    print the changes as JSON instead of Markdown
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GuidanceItemRecord } from '../src/engine/kb/schema.ts';
import { revisionOf, snapshotOf, type KbSnapshot } from './kb-history.ts';

type Entity = KbSnapshot['entities'][number];
/** A snapshot with its look-ups. */
interface KnowledgeBase {
  version: string;
  entities: Entity[];
  byKey: Map<string, Entity>;
  tombstones: { byKey: Map<string, KbSnapshot['tombstones'][number]> };
}
function indexed(s: KbSnapshot): KnowledgeBase {
  return { version: s.version, entities: s.entities, byKey: new Map(s.entities.map((e) => [e.key, e])), tombstones: { byKey: new Map(s.tombstones.map((t) => [t.entity_key, t])) } };
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface FactChange {
  entity: string;
  field: string;
  change: 'changed' | 'added' | 'removed';
  old: unknown;
  new: unknown;
  source: string | null;
  locator: string | null;
}
export interface PairingChange {
  entity: string;
  change: 'added' | 'removed';
  pairing_key: string;
  relationship: string;
  food_item: string;
  scope: string | null;
  source_key: string;
}
export interface KbChanges {
  old: { label: string; version: string; entities: number; load_problems: number };
  new: { label: string; version: string; entities: number; load_problems: number };
  added: { key: string; name: string; type: string }[];
  removed: { key: string; name: string; type: string; reason: string | null; date: string | null }[];
  merged: { key: string; name: string; kind: string; replaced_by: string; date: string; reason: string }[];
  facts: FactChange[];
  aliases: { added: number; removed: number };
  pairing: PairingChange[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function itemId(it: GuidanceItemRecord) {
  const scope = [it.geography_scope, it.style_scope, it.oak_scope, it.serving_scope, it.wine_age_scope, it.sweetness_scope].filter(Boolean).join('; ') || null;
  return { id: `${it.pairing_key}|${it.pairing_relationship}|${scope ?? ''}|${it.source_key}`, scope };
}

/** The changes from one loaded knowledge base to another. */
export function diffKnowledgeBases(a: KnowledgeBase, b: KnowledgeBase, labels: { old: string; new: string }, problems: { old: number; new: number }): KbChanges {
  const out: KbChanges = {
    old: { label: labels.old, version: a.version, entities: a.entities.length, load_problems: problems.old },
    new: { label: labels.new, version: b.version, entities: b.entities.length, load_problems: problems.new },
    added: [],
    removed: [],
    merged: [],
    facts: [],
    aliases: { added: 0, removed: 0 },
    pairing: [],
  };
  for (const e of b.entities) if (!a.byKey.has(e.key)) out.added.push({ key: e.key, name: e.name, type: e.type });
  for (const e of a.entities) {
    const n = b.byKey.get(e.key);
    if (!n) {
      const t = b.tombstones.byKey.get(e.key);
      if (t && t.kind !== 'removed') out.merged.push({ key: e.key, name: e.name, kind: t.kind, replaced_by: t.replaced_by!, date: t.date, reason: t.reason });
      else out.removed.push({ key: e.key, name: e.name, type: e.type, reason: t?.reason ?? null, date: t?.date ?? null });
      continue;
    }
    diffEntity(e, n, out);
  }
  return out;
}

function diffEntity(e: Entity, n: Entity, out: KbChanges) {
  for (const field of new Set([...Object.keys(e.facts), ...Object.keys(n.facts)])) {
    const x = e.facts[field];
    const y = n.facts[field];
    if (x && y && same(x.value, y.value)) continue;
    out.facts.push({
      entity: e.key,
      field,
      change: !x ? 'added' : !y ? 'removed' : 'changed',
      old: x?.value ?? null,
      new: y?.value ?? null,
      source: (y ?? x)!.source ?? null,
      locator: (y ?? x)!.locator ?? null,
    });
  }
  const names = (z: Entity) => new Set(z.aliases.map((al) => `${al.name}|${al.lang}`));
  const an = names(e);
  const bn = names(n);
  for (const k of bn) if (!an.has(k)) out.aliases.added++;
  for (const k of an) if (!bn.has(k)) out.aliases.removed++;
  const items = (z: Entity) => new Map((z.pairing as unknown as GuidanceItemRecord[]).map((it) => [itemId(it).id, it]));
  const ai = items(e);
  const bi = items(n);
  const pc = (change: 'added' | 'removed', it: GuidanceItemRecord): PairingChange => ({
    entity: e.key,
    change,
    pairing_key: it.pairing_key,
    relationship: it.pairing_relationship,
    food_item: it.food_item,
    scope: itemId(it).scope,
    source_key: it.source_key,
  });
  for (const [k, it] of bi) if (!ai.has(k)) out.pairing.push(pc('added', it));
  for (const [k, it] of ai) if (!bi.has(k)) out.pairing.push(pc('removed', it));
}

/** Pairing items of entities added or removed whole are changes too: every item of theirs. */
function wholeEntityPairing(a: KnowledgeBase, b: KnowledgeBase, out: KbChanges) {
  for (const x of out.added) for (const it of b.byKey.get(x.key)!.pairing as unknown as GuidanceItemRecord[]) out.pairing.push({ entity: x.key, change: 'added', pairing_key: it.pairing_key, relationship: it.pairing_relationship, food_item: it.food_item, scope: itemId(it).scope, source_key: it.source_key });
  for (const x of [...out.removed, ...out.merged]) for (const it of a.byKey.get(x.key)!.pairing as unknown as GuidanceItemRecord[]) out.pairing.push({ entity: x.key, change: 'removed', pairing_key: it.pairing_key, relationship: it.pairing_relationship, food_item: it.food_item, scope: itemId(it).scope, source_key: it.source_key });
}

const show = (v: unknown) => {
  if (v === null || v === undefined) return '—';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return '`' + (s.length > 160 ? `${s.slice(0, 157)}…` : s).replace(/`/g, "'") + '`';
};

/** The change notes as Markdown. */
export function changesMarkdown(c: KbChanges): string {
  const L: string[] = [];
  const byChange = (k: string) => c.facts.filter((f) => f.change === k).length;
  const pa = c.pairing.filter((p) => p.change === 'added');
  const pr = c.pairing.filter((p) => p.change === 'removed');
  L.push(`# Knowledge base ${c.new.version}: changes since ${c.old.version}`, '');
  L.push(`Compared: ${c.old.label} → ${c.new.label}. Written by \`npm run kb:diff\`.`, '');
  L.push('| | count |', '|---|---|');
  L.push(`| entities (old → new) | ${c.old.entities} → ${c.new.entities} |`);
  L.push(`| entities added | ${c.added.length} |`, `| entities removed | ${c.removed.length} |`, `| entities merged or renamed | ${c.merged.length} |`);
  L.push(`| facts changed / added / removed (entities in both) | ${byChange('changed')} / ${byChange('added')} / ${byChange('removed')} |`);
  L.push(`| aliases added / removed (entities in both) | ${c.aliases.added} / ${c.aliases.removed} |`);
  L.push(`| pairing items added / removed | ${pa.length} / ${pr.length} |`, '');
  if (c.old.load_problems || c.new.load_problems) L.push(`Each side read by its own loader: ${c.old.load_problems} problem(s) in the old tree, ${c.new.load_problems} in the new one.`, '');
  const byType = new Map<string, typeof c.added>();
  for (const x of c.added) byType.set(x.type, [...(byType.get(x.type) ?? []), x]);
  L.push(`## Entities added (${c.added.length})`, '');
  for (const [type, xs] of [...byType].sort()) {
    L.push(`### ${type} (${xs.length})`, '');
    for (const x of xs.sort((p, q) => p.key.localeCompare(q.key))) L.push(`- \`${x.key}\` ${x.name}`);
    L.push('');
  }
  L.push(`## Entities removed (${c.removed.length})`, '');
  for (const x of c.removed) L.push(`- \`${x.key}\` ${x.name}: ${x.reason ? `${x.reason} (${x.date}; answers 410 GONE)` : '**no tombstone** (kb validate fails if a release served it)'}`);
  L.push('', `## Entities merged or renamed (${c.merged.length})`, '');
  for (const x of c.merged) L.push(`- \`${x.key}\` ${x.name} → \`${x.replaced_by}\` (${x.kind}, ${x.date}; answers 301): ${x.reason}`);
  L.push('', `## Facts changed, added or removed (${c.facts.length})`, '', '| entity | fact | change | old | new | source |', '|---|---|---|---|---|---|');
  for (const f of c.facts) L.push(`| \`${f.entity}\` | ${f.field} | ${f.change} | ${show(f.old)} | ${show(f.new)} | ${f.source ?? '—'}${f.locator ? `: ${show(f.locator)}` : ''} |`);
  L.push('', `## Pairing items added (${pa.length})`, '');
  for (const p of pa) L.push(`- \`${p.entity}\` ${p.relationship} ${p.food_item}${p.scope ? ` (${p.scope})` : ''}: ${p.source_key}`);
  L.push('', `## Pairing items removed (${pr.length})`, '');
  for (const p of pr) L.push(`- \`${p.entity}\` ${p.relationship} ${p.food_item}${p.scope ? ` (${p.scope})` : ''}: ${p.source_key}`);
  return L.join('\n') + '\n';
}

/** Loads both sides and compares them. */
export function kbDiff(root: string, oldName: string, newName: string): KbChanges {
  const sides = [revisionOf(root, oldName), revisionOf(root, newName)].map((r) => {
    const snap = snapshotOf(root, r.rev);
    return { label: r.label, kb: indexed(snap), problems: snap.problems };
  });
  const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const c = diffKnowledgeBases(a.kb, b.kb, { old: a.label, new: b.label }, { old: a.problems, new: b.problems });
  wholeEntityPairing(a.kb, b.kb, c);
  return c;
}

function main(args: string[]) {
  const names = args.filter((x) => !x.startsWith('--'));
  if (names.length !== 2) {
    console.error('usage: npm run kb:diff -- <old> <new> [--write] [--json]   (a release version, "worktree", or a git revision)');
    process.exit(2);
  }
  const c = kbDiff(ROOT, names[0]!, names[1]!);
  const md = changesMarkdown(c);
  if (args.includes('--write')) {
    const file = path.join(ROOT, 'data', 'releases', `${c.new.version}.md`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, md);
    console.error(`wrote ${path.relative(ROOT, file)}`);
  }
  process.stdout.write(args.includes('--json') ? JSON.stringify(c, null, 1) + '\n' : md);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
