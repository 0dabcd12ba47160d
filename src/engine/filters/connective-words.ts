// Connective-words reading (issue 32, item 5): a name's connectives ("de", "di", "del", "of": the
// resolver's STOP_WORDS) are written in one language or another, or left out; its other words say
// what it names. "Fiano de Avellino" is the DOCG Fiano di Avellino written with the French or Spanish
// "de". A query that holds a connective and whose content words (any order) equal a name's, with as
// many connectives or fewer, is a near spelling of that name; with more connectives than the name holds
// ("Colli Orientali del Friuli" against "Friuli Colli Orientali") it is a reading only, at most
// `ambiguous`: the added word may join a further name ("… del Friuli Picolit").

/** The content words of `tokens`, sorted and joined (the key of a connective reading), and how many connectives there were. */
export function connectiveKey(tokens: readonly string[], isConnective: (t: string) => boolean): { key: string; connectives: number } | null {
  const content: string[] = [];
  for (const t of tokens) if (!isConnective(t)) content.push(t);
  if (content.length === 0) return null;
  return { key: content.sort().join(' '), connectives: tokens.length - content.length };
}

/**
 * Names by their connective key, only names that hold a connective (a name without one is found by its
 * any-order key, which equals its connective key). Entries: name index and connective count.
 */
export class ConnectiveIndex {
  private readonly byKey = new Map<string, number[]>();
  constructor(private readonly isConnective: (t: string) => boolean) {}

  add(tokens: readonly string[], name: number) {
    const k = connectiveKey(tokens, this.isConnective);
    if (!k || k.connectives === 0) return;
    const list = this.byKey.get(k.key);
    if (list) {
      for (let i = 0; i < list.length; i += 2) if (list[i] === name && list[i + 1] === k.connectives) return;
      list.push(name, k.connectives);
    } else this.byKey.set(k.key, [name, k.connectives]);
  }

  /** Flat [name, connectives, name, connectives, …] for names whose content words equal `key`'s. */
  lookup(key: string): readonly number[] | undefined {
    return this.byKey.get(key);
  }
}

/** Scores of a connective reading: just below the any-order tier (88 / 86). */
export const CONNECTIVE_SCORE = { canonical: 86, alias: 84 } as const;
