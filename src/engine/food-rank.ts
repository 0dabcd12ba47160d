// The ranking of /v1/pair-food (issue 33, item 3): what a sommelier would accept first. Pure domain: no
// HTTP, no I/O. The rule, written down in the README ("How pair-food ranks drinks"):
//
// 1. Authority. An item starts at its confidence, which follows its source's authority class (0.9 official
//    bodies and regulators, 0.8 trade bodies, 0.75 educational bodies, 0.6 press; one class lower for a copy).
// 2. Specificity to the food. A passage that pairs one drink with foods of more than GENERIC_CATEGORIES
//    food categories is a generic line ("…from cheese to seafood to chocolate"): each of its items counts
//    GENERIC_CATEGORIES / categories of its confidence (never below GENERIC_FLOOR). An item about a narrower
//    food than the one asked for (hot-smoked salmon for "salmon") counts NARROWER_FOOD_WEIGHT.
// 3. Promotion. A body that speaks for a category (a trade body or an official regional or interprofessional
//    body) praising its drink with foods of more than GENERIC_CATEGORIES categories, over all its pages, is
//    promoting it: each of those items counts GENERIC_CATEGORIES / categories (never below PROMOTION_FLOOR).
//    Independent guidance (press, educational bodies) is never discounted for being promotion.
// 4. Specificity to the drink. A whole country ("Portugal", "Austria") names no wine a buyer could pick:
//    its score counts COUNTRY_WEIGHT.
// 5. Agreement. Items are grouped by publisher (one voice however many pages); a drink's score is its best
//    publisher's item plus AGREEMENT_WEIGHT of each other publisher's best, the bonus capped at
//    AGREEMENT_CAP of the best. Agreement lifts a drink; it cannot outvote authority and specificity.
import type { Entity } from './kb/load.ts';
import type { GuidanceItemRecord, Source } from './kb/schema.ts';

export const GENERIC_CATEGORIES = 3;
export const GENERIC_FLOOR = 0.5;
export const PROMOTION_FLOOR = 0.4;
export const NARROWER_FOOD_WEIGHT = 0.9;
export const COUNTRY_WEIGHT = 0.75;
export const AGREEMENT_WEIGHT = 0.25;
export const AGREEMENT_CAP = 0.5;

/** Authority classes that speak for a category of drink (their guidance on their own drink may be promotion). */
export const CATEGORY_BODIES: ReadonlySet<string> = new Set(['official_regional_wine_body', 'trade_body']);

/** Why an item counts less than its confidence (null when it counts in full before the food's level). */
export interface ItemRank {
  /** the share of the item's confidence that counts, from rules 2 and 3 */
  weight: number;
  /** the publisher, folded, so that one organisation's pages are one voice */
  publisher: string;
  reason: 'generic_line' | 'promotion' | null;
  /** food categories of the passage (generic_line) or of the publisher's pages on this drink (promotion) */
  categories: number;
}

/** One organisation, however its pages name it: "Wine Enthusiast (winemag.com)" is "Wine Enthusiast". */
export function publisherKey(publisher: string): string {
  const cut = publisher.search(/[(,]/);
  return (cut > 0 ? publisher.slice(0, cut) : publisher).trim().toLowerCase();
}

/**
 * The rank weight of every verified guidance item (rules 2 and 3), computed once over the knowledge base.
 * `sources` gives each item's source (publisher, authority).
 */
export function itemRanks(entries: Iterable<{ entity: Entity; item: GuidanceItemRecord }>, sources: Map<string, Source>): Map<GuidanceItemRecord, ItemRank> {
  const list = [...entries];
  // food categories per (source, drink) and per (publisher, drink)
  const bySource = new Map<string, Set<string>>();
  const byPublisher = new Map<string, Set<string>>();
  const add = (m: Map<string, Set<string>>, k: string, c: string) => {
    const s = m.get(k);
    if (s) s.add(c);
    else m.set(k, new Set([c]));
  };
  for (const { entity, item } of list) {
    const src = sources.get(item.source_key);
    if (!src) continue;
    add(bySource, `${item.source_key}\u0000${entity.key}`, item.food_category);
    add(byPublisher, `${publisherKey(src.publisher)}\u0000${entity.key}`, item.food_category);
  }
  const out = new Map<GuidanceItemRecord, ItemRank>();
  for (const { entity, item } of list) {
    const src = sources.get(item.source_key);
    const publisher = src ? publisherKey(src.publisher) : item.source_key;
    let rank: ItemRank = { weight: 1, publisher, reason: null, categories: 0 };
    if (src && CATEGORY_BODIES.has(src.authority)) {
      const n = byPublisher.get(`${publisher}\u0000${entity.key}`)?.size ?? 0;
      if (n > GENERIC_CATEGORIES) rank = { weight: Math.max(PROMOTION_FLOOR, GENERIC_CATEGORIES / n), publisher, reason: 'promotion', categories: n };
    } else {
      const n = bySource.get(`${item.source_key}\u0000${entity.key}`)?.size ?? 0;
      if (n > GENERIC_CATEGORIES) rank = { weight: Math.max(GENERIC_FLOOR, GENERIC_CATEGORIES / n), publisher, reason: 'generic_line', categories: n };
    }
    out.set(item, rank);
  }
  return out;
}

/** Rule 4: the weight of the drink itself. */
export function drinkWeight(e: Entity): number {
  return e.type === 'wine_geography' && e.facts.level?.value === 'country' ? COUNTRY_WEIGHT : 1;
}

/** Rule 5: a drink's score from the best item score of each publisher (any order). */
export function agreementScore(bestByPublisher: Iterable<number>): { best: number; bonus: number } {
  let best = 0;
  let rest = 0;
  for (const s of bestByPublisher) {
    if (s > best) {
      rest += best;
      best = s;
    } else rest += s;
  }
  return { best, bonus: Math.min(AGREEMENT_WEIGHT * rest, AGREEMENT_CAP * best) };
}
