// `admin kb stats`: counts of what the knowledge base holds, per family and per domain.
import fs from 'node:fs';
import path from 'node:path';
import { loadKnowledgeBase, type KnowledgeBase } from './load.ts';
import { ENTITY_TYPES } from './schema.ts';

const DEMAND_FILE = path.join('test', 'resolve', 'demand-queries.json');

/**
 * The most-asked entity keys of the demand set (test/resolve/demand-queries.json, built from public
 * data of what people write): each query's weight is taken as a share of its source's total, so
 * every source counts equally, and a query's share goes to the first key of its label.
 * Returns null when the demand file is not beside the data folder.
 */
export function mostAskedKeys(dataDir: string, n: number): string[] | null {
  const file = path.join(path.dirname(path.resolve(dataDir)), DEMAND_FILE);
  if (!fs.existsSync(file)) return null;
  const { queries } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    queries: { source: string; weight: number; expect: { kind: string; keys?: string[] } }[];
  };
  const perSource = new Map<string, number>();
  for (const q of queries) perSource.set(q.source, (perSource.get(q.source) ?? 0) + q.weight);
  const share = new Map<string, number>();
  for (const q of queries) {
    const key = q.expect.kind === 'entity' ? q.expect.keys?.[0] : undefined;
    if (key) share.set(key, (share.get(key) ?? 0) + q.weight / perSource.get(q.source)!);
  }
  return [...share.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n).map(([k]) => k);
}

/** Evidence per domain: pairing and sensory coverage, items by authority class, copies. */
function evidenceStats(kb: KnowledgeBase, dataDir: string) {
  const domains = ['wine', 'spirits', 'beer'] as const;
  const publisherItems = new Map<string, number>();
  let allItems = 0;
  const perDomain = Object.fromEntries(domains.map((d) => {
    const es = kb.entities.filter((e) => e.domain === d);
    const byAuthority: Record<string, number> = {};
    let items = 0;
    let viaCopy = 0;
    let sensoryViaCopy = 0;
    for (const e of es) {
      for (const it of e.pairing?.items ?? []) {
        const src = kb.sources.get(it.source_key);
        items++;
        allItems++;
        if (src) {
          byAuthority[src.authority] = (byAuthority[src.authority] ?? 0) + 1;
          publisherItems.set(src.publisher, (publisherItems.get(src.publisher) ?? 0) + 1);
          if (src.retrieved_via) viaCopy++;
        }
      }
      for (const s of e.sensory) if (s.provenance.some((p) => kb.sources.get(p.source)?.retrieved_via)) sensoryViaCopy++;
    }
    return [d, {
      entities: es.length,
      pairing_entities: es.filter((e) => e.pairing).length,
      pairing_items: items,
      pairing_items_by_authority: byAuthority,
      pairing_items_with_retrieved_via: viaCopy,
      sensory_entities: es.filter((e) => e.sensory.length > 0).length,
      sensory_expressions: es.reduce((n, e) => n + e.sensory.length, 0),
      sensory_expressions_with_retrieved_via: sensoryViaCopy,
    }];
  }));
  const publishers = [...publisherItems.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const top = mostAskedKeys(dataDir, 50);
  const withEvidence = top?.filter((k) => {
    const e = kb.byKey.get(k);
    return e !== undefined && (e.pairing !== null || e.sensory.length > 0);
  });
  return {
    by_domain: perDomain,
    pairing_publishers: publishers.map(([publisher, items]) => ({ publisher, items, share: allItems ? Math.round((items / allItems) * 1000) / 1000 : 0 })),
    largest_publisher_share: publishers.length && allItems ? Math.round((publishers[0]![1] / allItems) * 1000) / 1000 : 0,
    most_asked_50: top === null ? null : {
      source: DEMAND_FILE,
      with_evidence: withEvidence!.length,
      share_with_evidence: Math.round((withEvidence!.length / top.length) * 1000) / 1000,
      without_evidence: top.filter((k) => !withEvidence!.includes(k)),
    },
  };
}


/**
 * Appellations (wine geographies of level appellation) with and without grape rules, per country: with
 * rules read in their specification (`rules`), with only a list of varieties its source names
 * (`listed`), or with none (no readable specification named grapes: most US AVAs). Rules read only
 * through a dataset's extraction are counted apart (`rules_from_dataset`).
 */
function appellationGrapes(kb: KnowledgeBase) {
  type Row = { appellations: number; rules: number; rules_from_dataset: number; listed: number; none: number; complete: number; partial: number; official: number };
  const zero = (): Row => ({ appellations: 0, rules: 0, rules_from_dataset: 0, listed: 0, none: 0, complete: 0, partial: 0, official: 0 });
  const by: Record<string, Row> = {};
  const total = zero();
  for (const e of kb.entities) {
    if (e.type !== 'wine_geography' || e.facts.level?.value !== 'appellation') continue;
    const c = typeof e.facts.country?.value === 'string' ? e.facts.country.value : 'none';
    const row = (by[c] ??= zero());
    const dataset = e.grapeRules.length > 0 && e.grapeRules.every((r) => kb.sources.get(r.source)?.retrieved_via?.kind === 'dataset');
    const kind = e.grapeRules.length ? (dataset ? 'rules_from_dataset' : 'rules') : e.facts.grapes ? 'listed' : 'none';
    for (const r of [row, total]) {
      r.appellations++;
      r[kind]++;
      // issue 34, item 2: served rule sets, complete or partial (complete: false, with the names they could
      // not map), and official (read in a text, not only through a dataset's extraction)
      if (e.grapeRules.length) {
        r[e.grapeRules.every((x) => x.complete) ? 'complete' : 'partial']++;
        if (!dataset) r.official++;
      }
    }
  }
  return { ...total, by_country: Object.fromEntries(Object.entries(by).sort((a, b) => b[1].appellations - a[1].appellations || a[0].localeCompare(b[0]))) };
}

/** Served aliases per language code (every alias carries one), most first. */
function aliasesByLanguage(kb: KnowledgeBase): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of kb.entities) for (const a of e.aliases) out[a.lang] = (out[a.lang] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

export function kbStats(dataDir: string) {
  const { kb, problems } = loadKnowledgeBase(dataDir);
  const families = ENTITY_TYPES;
  const byFamily = Object.fromEntries(
    families.map((t) => {
      const es = kb.entities.filter((e) => e.type === t);
      const facts = es.reduce((n, e) => n + Object.keys(e.facts).length, 0);
      const factsWithProvenance = es.reduce((n, e) => n + Object.values(e.facts).filter((f) => kb.sources.has(f.source) && f.locator).length, 0);
      return [t, {
        entities: es.length,
        aliases: es.reduce((n, e) => n + e.aliases.length, 0),
        sensory_expressions: es.reduce((n, e) => n + e.sensory.length, 0),
        entities_with_verified_pairings: es.filter((e) => e.pairing).length,
        pairing_items: es.reduce((n, e) => n + (e.pairing?.items.length ?? 0), 0),
        facts_with_provenance: factsWithProvenance,
        facts_without_provenance: facts - factsWithProvenance,
      }];
    }),
  );
  const total = (k: string) => Object.values(byFamily).reduce((n, f) => n + (f as Record<string, number>)[k]!, 0);
  // wine geographies per country (ISO code of the `country` fact), and spirits likewise
  const perCountry = (t: string) => {
    const out: Record<string, number> = {};
    for (const e of kb.entities.filter((x) => x.type === t)) {
      const c = e.facts.country?.value;
      const k = typeof c === 'string' ? c : 'none';
      out[k] = (out[k] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  };
  return {
    version: kb.version,
    valid: problems.length === 0,
    problems: problems.length,
    families: byFamily,
    wine_geographies_by_country: perCountry('wine_geography'),
    spirits_by_country: perCountry('spirit'),
    out_of_scope_terms: kb.outOfScope.length,
    aliases_by_language: aliasesByLanguage(kb),
    appellation_grapes: appellationGrapes(kb),
    evidence: evidenceStats(kb, dataDir),
    totals: {
      entities: total('entities'),
      aliases: total('aliases'),
      sources: kb.sources.size,
      sensory_expressions: total('sensory_expressions'),
      entities_with_verified_pairings: total('entities_with_verified_pairings'),
      pairing_items: total('pairing_items'),
      facts_with_provenance: total('facts_with_provenance'),
      facts_without_provenance: total('facts_without_provenance'),
      draft_entities: kb.draftCount,
    },
  };
}
