// Bare-initials filter (issue 32, item 5): a one-word abbreviation that reaches a name only as the
// first letters of its words ("IPL" → International Pale Lager) is one of the several names those
// letters spell (the Brewers Association lists an "American-Style India Pale Lager"): at most
// `ambiguous`. An abbreviation that keeps a whole word ("DIPA" → Double IPA) and an abbreviation the
// data declares as an alias ("NEIPA", "ESB") are not bare initials.

/** Whether `word` (folded, one query word) spells the first letters of consecutive weighted words of `tokens`. */
export function spellsInitials(word: string, tokens: readonly string[], weights: readonly number[]): boolean {
  const n = word.length;
  if (n < 2) return false;
  outer: for (let s = 0; s + n <= tokens.length; s++) {
    for (let i = 0; i < n; i++) {
      if (!weights[s + i] || tokens[s + i]!.charCodeAt(0) !== word.charCodeAt(i)) continue outer;
    }
    return true;
  }
  return false;
}
