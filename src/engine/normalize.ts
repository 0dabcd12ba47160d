// Text normalisation for resolution. Two levels:
// - `exactForm`: case, white space, hyphens, punctuation and apostrophes normalised, letters kept as
//   typed (so an exact, unfolded match can outrank a folded one);
// - `foldForm`: additionally accents and ligatures folded (é→e, ß→ss, æ→ae, ø→o, ł→l).
// Index names get every reasonable variant (`indexVariants`): German umlauts both as "a" and "ae",
// apostrophes both dropped and as a word break. Queries get one form each (`queryForms`).

const SPECIAL: Record<string, string> = {
  'ß': 'ss', 'ẞ': 'ss', 'æ': 'ae', 'Æ': 'ae', 'ø': 'o', 'Ø': 'o', 'ł': 'l', 'Ł': 'l', 'œ': 'oe',
  'Œ': 'oe', 'đ': 'd', 'Đ': 'd', 'þ': 'th', 'Þ': 'th', 'ð': 'd', 'ı': 'i', 'ħ': 'h',
};
const SPECIAL_RE = /[ßẞæÆøØłŁœŒđĐþÞðıħ]/g;
const APOSTROPHES = /['’‘`´ʼ]/g;
const NON_WORD = /[^\p{L}\p{N}]+/gu;
const COMBINING = /\p{M}+/gu;
const UMLAUT_E: Record<string, string> = { 'ä': 'ae', 'ö': 'oe', 'ü': 'ue' };

function squash(s: string): string {
  return s.replace(NON_WORD, ' ').trim();
}

/** Case, punctuation and white space normalised; letters as typed. */
export function exactForm(s: string, apostrophe: '' | ' ' = ''): string {
  return squash(s.normalize('NFC').toLowerCase().replace(APOSTROPHES, apostrophe));
}

/** Accents and ligatures folded away from an exact form. */
export function fold(exact: string): string {
  const folded = exact
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(COMBINING, '');
  return squash(folded.toLowerCase());
}

/** The folded forms under which an index name is findable. */
export function indexVariants(name: string): string[] {
  const out = new Set<string>();
  for (const apostrophe of ['', ' '] as const) {
    const exact = exactForm(name, apostrophe);
    if (!exact) continue;
    out.add(fold(exact));
    if (/[äöü]/.test(exact)) out.add(fold(exact.replace(/[äöü]/g, (c) => UMLAUT_E[c]!)));
  }
  return [...out];
}

export interface QueryForms {
  exact: string;
  folded: string;
  tokens: string[];
}

export function queryForms(q: string): QueryForms {
  const exact = exactForm(q);
  const folded = fold(exact);
  return { exact, folded, tokens: folded ? folded.split(' ') : [] };
}

/**
 * Optimal-string-alignment (restricted Damerau) distance, so a swap of two letters is one edit.
 * Gives up early and returns max+1 once the distance must exceed `max`.
 */
export function damerau(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  let prev2 = new Array<number>(lb + 1).fill(0);
  let prev = new Array<number>(lb + 1);
  let cur = new Array<number>(lb + 1);
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb]!;
}

/** Edits a query word may carry: one from 5 characters, two from 9 (as Meilisearch does). */
export function typoBudget(wordLength: number): number {
  return wordLength >= 9 ? 2 : wordLength >= 5 ? 1 : 0;
}

/** Every string reachable from `word` by deleting up to `k` characters (SymSpell neighbourhood). */
export function deletes(word: string, k: number): Set<string> {
  const out = new Set<string>([word]);
  let frontier = [word];
  for (let d = 0; d < k; d++) {
    const next: string[] = [];
    for (const w of frontier) {
      for (let i = 0; i < w.length; i++) {
        const v = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(v)) {
          out.add(v);
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  return out;
}
