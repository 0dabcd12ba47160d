// `admin kb stats`: counts of what the knowledge base holds, per family and per domain.
import { loadKnowledgeBase } from './load.ts';

export function kbStats(dataDir: string) {
  const { kb, problems } = loadKnowledgeBase(dataDir);
  const families = ['grape', 'wine_geography', 'spirit', 'beer_style'] as const;
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
