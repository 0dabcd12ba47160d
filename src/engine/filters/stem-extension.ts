// Stem-extension filter (issue 32, item 5): an inflection reading (market-words.ts, Inflections) reads a
// query word as an inflected form of a name's word with the same Snowball stem ("viskit" → "viski",
// "likörer" → "likör"): the query word is the longer one. When the name's word is the longer one and
// begins with the query word, the reading adds letters the query never wrote: "Hell" shares its stem with
// the Norwegian "Hellas" (Greece in CLDR) but is only its start. Such a reading is a prefix match, scored
// as one (a prefix of a word covers its share of the letters) and never `resolved`.

/**
 * Whether the reading `readingTokens` of the query `queryTokens` (same number of words) replaces a query
 * word by a longer word that begins with it. The share of the longer word's letters the query wrote is
 * returned (0 when the reading adds no letters).
 */
export function extendedShare(queryTokens: readonly string[], readingTokens: readonly string[]): number {
  if (queryTokens.length !== readingTokens.length) return 0;
  for (let i = 0; i < queryTokens.length; i++) {
    const q = queryTokens[i]!;
    const r = readingTokens[i]!;
    if (q === r) continue;
    return r.length > q.length && r.startsWith(q) ? q.length / r.length : 0;
  }
  return 0;
}
