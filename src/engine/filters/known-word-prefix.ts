// Known-word-prefix filter (issue 32, item 5): a one-word query that is itself a whole word of some
// name stands for that word, not for a longer word it begins. "Wheat" is a word of "American Wheat
// Beer" and "Wheat whisky"; as the start of "Wheatwine" it is a guess, at most `ambiguous`.
// ("chard" is a word of no name, so it still reads as the start of "Chardonnay".)

/**
 * Whether a one-word query `word` reached a name only as the start of a longer word although the
 * word is whole in the index (`isIndexWord`).
 */
export function knownWordAsPrefix(word: string, prefix: boolean, cost: number, isIndexWord: (w: string) => boolean): boolean {
  return prefix && cost === 0 && isIndexWord(word);
}
