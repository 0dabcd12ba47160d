// Short-subregion filter (issue 32, item 5): a short everyday word typed alone is not a confident answer
// for a sub-region that no one asks for by that name. The Vinho Verde sub-regions of Portaria 28/2001
// are named "Ave" and "Lima"; typed alone, "ave" and "lima" are more often a word (Latin and Spanish
// "ave", Spanish "lima") or another place (Peru's capital) than the sub-region, whose wine is sold
// under the region's name. Such an answer is at most `ambiguous` (the sub-region is still listed).
// A sub-region that public demand data names (data/demand-prior.json) keeps its confident answer, and
// so does a longer query ("Vinho Verde Lima") or a name in another script (katakana, hangul, Han).

/** Most letters of a one-word sub-region name that is treated as a short everyday word. */
export const SHORT_NAME_LETTERS = 4;

/**
 * Whether a query of `tokens` (folded) that reached `subregion` (a wine geography of level subregion)
 * is only a short Latin-script word naming a sub-region no demand data names (`asked` false).
 */
export function shortSubregionWord(tokens: readonly string[], subregion: boolean, asked: boolean): boolean {
  if (!subregion || asked || tokens.length !== 1) return false;
  const w = tokens[0]!;
  return w.length <= SHORT_NAME_LETTERS && /^[a-z]+$/.test(w);
}
