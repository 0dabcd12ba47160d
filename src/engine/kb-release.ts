// What the engine says about the knowledge-base release itself (issue 36): the answer for an id
// that a past release served and this one does not (410 GONE, or 301 to the successor), and the
// bodies of GET /v1/kb (version, date, counts, link to the notes) and GET /v1/kb/notes.
import type { KnowledgeBase } from './kb/load.ts';
import type { Tombstone } from './kb/tombstones.ts';

/** Where the change notes of the release are served (the gateway's route, src/routes/v1/kb-notes.ts). */
export const NOTES_PATH = '/v1/kb/notes';

/** An engine error body (engine.ts's EngineError, restated here: engine.ts imports this module). */
interface ReleaseError {
  ok: false;
  error: { code: 'GONE' | 'MOVED_PERMANENTLY' | 'NOT_FOUND'; message: string; [k: string]: unknown };
}

export type GoneResult = { status: 410 | 301; body: ReleaseError };

/**
 * The answer for an entity_id or permanent key with a tombstone: 410 GONE for a removed entity, 301
 * MOVED_PERMANENTLY for a merged or renamed one, with `replaced_by` (the successor's reference and
 * its /v1/entities path, which the gateway puts in Location). undefined when the term has none.
 */
export function goneAnswer(kb: KnowledgeBase, term: string): GoneResult | undefined {
  const t = kb.tombstones.find(term);
  if (!t) return undefined;
  const common = {
    parameter: 'entity_id',
    entity_id: t.entity_id,
    entity_key: t.entity_key,
    canonical_name: t.canonical_name,
    kind: t.kind,
    reason: t.reason,
    date: t.date,
    since_version: t.version,
    knowledge_base_version: kb.version,
  };
  const next = t.replaced_by !== undefined ? kb.byKey.get(t.replaced_by) : undefined;
  if (!next) {
    return {
      status: 410,
      body: { ok: false, error: { code: 'GONE', message: `The entity "${t.canonical_name}" (${t.entity_key}) was removed from the knowledge base on ${t.date} (release ${t.version}): ${t.reason}`, ...common } },
    };
  }
  return {
    status: 301,
    body: {
      ok: false,
      error: {
        code: 'MOVED_PERMANENTLY',
        message: `The entity "${t.canonical_name}" (${t.entity_key}) was ${t.kind === 'merged' ? 'merged into' : 'renamed to'} "${next.name}" (${next.key}) on ${t.date} (release ${t.version}): ${t.reason}`,
        ...common,
        replaced_by: { entity_id: next.id, entity_key: next.key, canonical_name: next.name, entity_type: next.type, domain: next.domain, path: `/v1/entities/${next.id}` },
      },
    },
  };
}

/** Tombstones of a knowledge base, for tools (kb:diff). */
export function tombstonesOf(kb: KnowledgeBase): Tombstone[] {
  return [...kb.tombstones.byId.values()];
}

/** Counts of one release, computed once per knowledge base. */
const summaries = new WeakMap<KnowledgeBase, Record<string, unknown>>();

/** GET /v1/kb: the release's version, date, counts and the link to its notes. */
export function kbSummary(kb: KnowledgeBase): { status: 200; body: Record<string, unknown> } {
  let body = summaries.get(kb);
  if (!body) {
    const byType: Record<string, number> = {};
    const byDomain: Record<string, number> = {};
    let aliases = 0;
    let facts = 0;
    let pairingSets = 0;
    let pairingItems = 0;
    let sensory = 0;
    for (const e of kb.entities) {
      byType[e.type] = (byType[e.type] ?? 0) + 1;
      byDomain[e.domain] = (byDomain[e.domain] ?? 0) + 1;
      aliases += e.aliases.length;
      facts += Object.keys(e.facts).length;
      sensory += e.sensory.length;
      if (e.pairing) {
        pairingSets++;
        pairingItems += e.pairing.items.length;
      }
    }
    body = {
      ok: true,
      knowledge_base_version: kb.version,
      date: kb.date,
      counts: {
        entities: kb.entities.length,
        entities_by_type: byType,
        entities_by_domain: byDomain,
        aliases,
        facts,
        sources: kb.sources.size,
        sensory_expressions: sensory,
        pairing_sets: pairingSets,
        pairing_items: pairingItems,
        tombstones: kb.tombstones.size,
      },
      notes_url: kb.releaseNotes() === null ? null : NOTES_PATH,
    };
    summaries.set(kb, body);
  }
  return { status: 200, body };
}

/** GET /v1/kb/notes: the change notes of this release (Markdown, from `npm run kb:diff`), or 404. */
export function kbNotes(kb: KnowledgeBase): { status: 200; body: Record<string, unknown> } | { status: 404; body: ReleaseError } {
  const notes = kb.releaseNotes();
  if (notes === null) {
    return { status: 404, body: { ok: false, error: { code: 'NOT_FOUND', message: `Release ${kb.version} has no change notes (data/releases/${kb.version}.md).`, knowledge_base_version: kb.version } } };
  }
  return { status: 200, body: { ok: true, knowledge_base_version: kb.version, date: kb.date, format: 'text/markdown', notes } };
}
