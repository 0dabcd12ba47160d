// The class of an entity for the demand prior (data/demand-prior.json): its type, refined by the level
// of a wine geography and, for spirits, whether it is a legal category or a geographical indication.
import type { EntityRecord } from './schema.ts';

export function entityClass(e: Pick<EntityRecord, 'type' | 'facts'>): string {
  if (e.type === 'wine_geography') return `wine_geography:${String(e.facts.level?.value ?? 'appellation')}`;
  if (e.type === 'spirit') return e.facts.gi_type || e.facts.file_number ? 'spirit:gi' : 'spirit:category';
  if (e.type === 'wine_style') return `wine_style:${String(e.facts.category?.value ?? 'style')}`;
  return e.type;
}
