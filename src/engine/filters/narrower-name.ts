// Narrower-name filter (issue 32, item 3 and 5): a partial match that leaves the name's last words
// uncovered names a narrower thing than the query asked for. "Trappist" is not "Trappist Single",
// "Vin mousseux" is not "Vin mousseux de qualité de Wallonie", "Colli Orientali del Friuli" is not
// "Colli Orientali del Friuli Picolit": the query is the family, the name one member. Such a match
// is at most `ambiguous`. A generic last word names the domain, not a narrower thing ("wild specialty"
// is Wild Specialty Beer). The resolver applies it to queries of two or more words, and to one word
// against an alias: one word that is the first word of a canonical name stays evidence ("napa" →
// Napa Valley). (Words left out inside the name and a missed first word are the resolver's older
// rules: skipsInnerWord and the head check.)

/**
 * Whether the name has a weighted (non-stop), non-generic word after the last word the query covered.
 * `mask`: the name words covered (bit i = word i; words past 30 are not tracked); `weights`: 0 for a
 * stop word, else 1; `credit`: the weight the query covered; `end`: words from here on are a bracketed
 * note that qualifies the name ("Rye whisky (United States type)") and are not counted. Abbreviation hits ("IPA" on "India Pale
 * Ale") cover words without marking them: when the credit exceeds what the mask accounts for, the
 * mask tells nothing and the answer is false.
 */
export function leavesTrailingWords(mask: number, credit: number, tokens: readonly string[], weights: readonly number[], end: number, isGeneric: (w: string) => boolean): boolean {
  if (mask === 0) return false;
  const last = 31 - Math.clz32(mask);
  let trailing = false;
  for (let i = last + 1; i < end && i < 31; i++) {
    if (weights[i] && !isGeneric(tokens[i]!)) {
      trailing = true;
      break;
    }
  }
  if (!trailing) return false;
  let marked = 0;
  for (let i = 0; i <= last; i++) if (mask & (1 << i)) marked += weights[i]!;
  return credit <= marked + 1e-9;
}
