// Scope words of a query (issue 33, item 1): a colour word typed after a name ("Sancerre rouge",
// "Rioja tinto") narrows what pair, explain and parse return to evidence about that colour. The words
// and their values come from data/label-terms.json (`colours`, each with its legal source); nothing
// here names a colour of its own.
//
// How an item of evidence is placed against the colour asked for, from the scope text the curator
// recorded with it (a pairing item's `style_scope`, a grape rule's `scope`):
// - `in_scope`: the scope names the colour asked for ("red (Rioja Tinto)", "Red; Rosé");
// - `out_of_scope`: it names only other colours ("white (Sauvignon Blanc)"): left out, and counted;
// - `general`: the item has no scope: it is about the entity as a whole, so it stays;
// - `unstated`: it has a scope that names no colour ("Amontillado", "full-bodied"): it stays, marked.
// Nothing falls back silently: the answer says which scope it applied and how many items it left out.

export type ScopeMatch = 'in_scope' | 'out_of_scope' | 'general' | 'unstated';

export interface ColourWord {
  value: string;
  source: string;
}

export interface AppliedScope {
  /** The colours asked for (values of data/label-terms.json: red, white, rosé, amber). */
  colours: string[];
  /** The words of the query that asked for them, as typed. */
  terms: string[];
  /** The label-terms source of the first word. */
  source_key: string;
}

const WORD = /[\p{L}\p{M}]+/gu;

/** The colour values a text names with colour words (lower-cased lookup). */
export function coloursIn(text: string | null | undefined, words: ReadonlyMap<string, ColourWord>): Set<string> {
  const out = new Set<string>();
  if (!text) return out;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const c = words.get(m[0]);
    if (c) out.add(c.value);
  }
  return out;
}

/** Where a scope text falls against the colours asked for. */
export function matchScope(scope: string | null | undefined, want: AppliedScope, words: ReadonlyMap<string, ColourWord>): ScopeMatch {
  if (scope === null || scope === undefined || scope.trim() === '') return 'general';
  const named = coloursIn(scope, words);
  if (named.size === 0) return 'unstated';
  for (const c of want.colours) if (named.has(c)) return 'in_scope';
  return 'out_of_scope';
}

/** True when a query has a word that is a colour word: the cheap test before reading the line. */
export function mayHaveColour(q: string, words: ReadonlyMap<string, ColourWord>): boolean {
  for (const m of q.toLowerCase().matchAll(WORD)) if (words.has(m[0])) return true;
  return false;
}

/** The scope asked for by the colour terms a line reading found, or null when it found none. */
export function scopeOfTerms(terms: readonly { kind: string; text: string; value?: string | number | null; source?: string | null }[]): AppliedScope | null {
  const colourTerms = terms.filter((t): t is typeof t & { value: string } => t.kind === 'colour' && typeof t.value === 'string');
  if (colourTerms.length === 0) return null;
  return {
    colours: [...new Set(colourTerms.map((t) => t.value))],
    terms: colourTerms.map((t) => t.text),
    source_key: colourTerms[0]!.source ?? '',
  };
}

/**
 * The scope of one entry standing for several rules ("Pinot Noir" in Sancerre's red and rosé rules):
 * the scopes joined ("red; rosé"); null (the whole wine) as soon as one rule has no scope.
 */
export function joinScopes(seen: string | null, scope: string | null): string | null {
  if (seen === null || scope === null) return null;
  return seen.split('; ').includes(scope) ? seen : `${seen}; ${scope}`;
}
