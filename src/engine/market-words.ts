// What buyers in other markets write around and inside a name, read before the resolver matches:
// - designation words (DO, DOCa, DOCG, AOC, IGP, WO, AVA, Qualitätswein…; data/designations.json, taken
//   from the EU register of traditional terms and national wine laws): recognised, reported as `terms`,
//   and never matched as entities ("DO Ribera del Duero" is Ribera del Duero);
// - inflected forms: the plural and definite forms catalogues print (Finnish "viskit", Swedish
//   "likörer") reach an alias of the same language through that language's Snowball stemmer
//   (@orama/stemmers), and compounds ("maltwhisky") split into two indexed words.
// Pure functions and immutable tables built once at start-up; no I/O.
import { stemmer as daStem } from '@orama/stemmers/danish';
import { stemmer as deStem } from '@orama/stemmers/german';
import { stemmer as fiStem } from '@orama/stemmers/finnish';
import { stemmer as nlStem } from '@orama/stemmers/dutch';
import { stemmer as noStem } from '@orama/stemmers/norwegian';
import { stemmer as svStem } from '@orama/stemmers/swedish';
import { exactForm, fold, STOP_WORDS } from './normalize.ts';

/** A recognised word of the query that is not an entity name: `text` is `query.slice(start, end)` (UTF-16 offsets). */
export interface QueryTerm {
  start: number;
  end: number;
  text: string;
  kind: string;
  /** the term as the source lists it ("DOCa") */
  value: string;
}

export interface DesignationWord {
  term: string;
  kind: string;
}

interface Phrase {
  tokens: string[];
  value: string;
  kind: string;
  /** only when typed in capitals (a short abbreviation that is also an everyday or name word: "DO", "AC") */
  caps: boolean;
}

const RAW_WORD = /[\p{L}\p{N}]+/gu;

/**
 * Designation words of wine labels. A short abbreviation (two letters, or a word that is also a stop
 * word or a word of some entity name) counts only when typed in capitals, so "vinho do Porto" keeps
 * its "do" while "DO Rioja" loses it.
 */
export class DesignationWords {
  private readonly byFirst = new Map<string, Phrase[]>();

  constructor(words: DesignationWord[], isNameWord: (folded: string) => boolean) {
    for (const w of words) {
      const folded = fold(exactForm(w.term));
      if (!folded) continue;
      const tokens = folded.split(' ');
      // an abbreviation: one word with at least two capitals ("DO", "DOCa", "IGP")
      const abbreviation = !/\s/.test(w.term) && (w.term.match(/\p{Lu}/gu)?.length ?? 0) >= 2;
      const caps = tokens.length === 1 && abbreviation && (tokens[0]!.length <= 2 || STOP_WORDS.has(tokens[0]!) || isNameWord(tokens[0]!));
      const p: Phrase = { tokens, value: w.term, kind: w.kind, caps };
      const list = this.byFirst.get(tokens[0]!) ?? [];
      list.push(p);
      // longest phrase first, so "Vin de Pays" wins over a shorter phrase that starts it
      list.sort((a, b) => b.tokens.length - a.tokens.length);
      this.byFirst.set(tokens[0]!, list);
    }
  }

  /** Whether any folded query token can start a designation (cheap check before `find`). */
  mayContain(tokens: string[]): boolean {
    for (const t of tokens) if (this.byFirst.has(t)) return true;
    return false;
  }

  /** The designation words of q, and q with them blanked out (offsets kept). */
  find(q: string): { terms: QueryTerm[]; rest: string } | null {
    const words: { start: number; end: number; raw: string; folded: string }[] = [];
    for (const m of q.matchAll(RAW_WORD)) {
      const raw = m[0];
      words.push({ start: m.index!, end: m.index! + raw.length, raw, folded: fold(exactForm(raw)) });
    }
    const terms: QueryTerm[] = [];
    for (let i = 0; i < words.length; i++) {
      const list = this.byFirst.get(words[i]!.folded);
      if (!list) continue;
      for (const p of list) {
        if (i + p.tokens.length > words.length) continue;
        let ok = true;
        for (let j = 0; j < p.tokens.length && ok; j++) ok = words[i + j]!.folded === p.tokens[j];
        if (!ok) continue;
        if (p.caps && words[i]!.raw !== words[i]!.raw.toUpperCase()) continue;
        const start = words[i]!.start;
        const end = words[i + p.tokens.length - 1]!.end;
        terms.push({ start, end, text: q.slice(start, end), kind: p.kind, value: p.value });
        i += p.tokens.length - 1;
        break;
      }
    }
    if (terms.length === 0) return null;
    let rest = '';
    let at = 0;
    for (const t of terms) {
      rest += q.slice(at, t.start) + ' ';
      at = t.end;
    }
    rest += q.slice(at);
    return { terms, rest };
  }
}

/** Languages whose catalogues print inflected names, with their Snowball stemmers; alias language codes map onto them. */
const STEMMERS: Record<string, (w: string) => string> = { fi: fiStem, sv: svStem, da: daStem, no: noStem, de: deStem, nl: nlStem };
const LANG_OF: Record<string, string> = { fi: 'fi', sv: 'sv', da: 'da', nb: 'no', nn: 'no', no: 'no', de: 'de', nl: 'nl' };

/** Words whose stem readings are remembered (about 1 MB at most). */
const STEM_MEMO_SIZE = 10_000;
/** A word shorter than this is not stemmed or split (short words stem to noise). */
const MIN_INFLECTED = 4;

/**
 * Inflected and compound forms. Built from the aliases in the stemmed languages (fi, sv, da, no, de,
 * nl): an alias word's stem under each stemmer leads back to that word, so a query word with the same
 * stem under that stemmer is read as it. Names in other languages (and canonical names) are not
 * stemmed, so "rommit" never reaches the Italian "Roma". A query word that no name holds is also tried as two indexed words written together.
 */
export class Inflections {
  private readonly stems = new Map<string, Map<string, string[]>>(); // language → stem → alias words
  /** First three letters of every stemmed alias word: a query word that starts otherwise has no reading (no stemmer runs). */
  private readonly starts = new Set<string>();
  /** word → its same-stem alias words; cleared when full (bounded memory whatever the queries) */
  private readonly memo = new Map<string, string[]>();

  constructor(aliases: { value: string; lang: string }[], private readonly isIndexWord: (folded: string) => boolean) {
    // every alias word of a stemmed language, stemmed by each stemmer: catalogues of one market print
    // the names of its neighbours' languages too (a Finnish plural "konjakit" of the Swedish "Konjak")
    const words = new Set<string>();
    for (const a of aliases) {
      if (!LANG_OF[a.lang.split('-')[0]!]) continue;
      for (const w of fold(exactForm(a.value)).split(' ')) if (w.length >= MIN_INFLECTED - 1 && !STOP_WORDS.has(w)) words.add(w);
    }
    for (const w of words) this.starts.add(w.slice(0, 3));
    for (const [lang, stem] of Object.entries(STEMMERS)) {
      const m = new Map<string, string[]>();
      for (const w of words) {
        const s = stem(w);
        const list = m.get(s) ?? [];
        list.push(w);
        m.set(s, list);
      }
      this.stems.set(lang, m);
    }
  }

  /** Alias words with the stem of t under some stemmer (memoised: a word's stems never change). */
  private sameStem(t: string): string[] {
    const known = this.memo.get(t);
    if (known) return known;
    const out: string[] = [];
    // a Snowball stem is a start of its word: a stemmer runs only when some start of t is one of its
    // alias words' stems (most query words have none, and stemming costs more than these look-ups)
    if (this.starts.has(t.slice(0, 3))) {
      for (const [lang, m] of this.stems) {
        let some = false;
        for (let n = 3; n <= t.length && !some; n++) some = m.has(t.slice(0, n));
        if (!some) continue;
        for (const w of m.get(STEMMERS[lang]!(t)) ?? []) if (w !== t && !out.includes(w)) out.push(w);
      }
    }
    if (this.memo.size >= STEM_MEMO_SIZE) this.memo.clear();
    this.memo.set(t, out);
    return out;
  }

  /**
   * Readings of a query with one word replaced by an indexed word of the same stem, or split into two
   * indexed words ("maltwhisky" → "malt whisky"). Words that some name holds are kept as typed.
   * At most `max` readings.
   */
  readings(tokens: string[], max = 8): string[] {
    const out = new Set<string>();
    for (let i = 0; i < tokens.length && out.size < max; i++) {
      const t = tokens[i]!;
      if (t.length < MIN_INFLECTED || this.isIndexWord(t) || STOP_WORDS.has(t)) continue;
      const put = (w: string) => {
        const copy = tokens.slice();
        copy[i] = w;
        out.add(copy.join(' '));
      };
      for (const w of this.sameStem(t)) put(w);
      // a compound of two indexed words, each at least three letters ("maltwhisky", "rotwein")
      for (let cut = 3; cut <= t.length - 3; cut++) {
        const a = t.slice(0, cut);
        const b = t.slice(cut);
        if (this.isIndexWord(a) && this.isIndexWord(b) && !STOP_WORDS.has(a) && !STOP_WORDS.has(b)) put(`${a} ${b}`);
      }
    }
    return [...out].slice(0, max);
  }
}

/**
 * The words that join the items of a list ("dortmunder och helles", "kuohuviinit ja samppanjat",
 * "porter and stout"): Unicode CLDR's list patterns (conjunction and disjunction) of the catalogue
 * languages. `listWords()` reads them from Node's own ICU data (`Intl.ListFormat`); the resolver uses
 * the constant LIST_WORDS, which a test keeps equal to what ICU gives, because the first ListFormat
 * costs some 25 ms of start-up. Words of one letter (Spanish "y", Italian "e") are left out: they
 * occur inside names ("Castilla y León").
 */
export const LIST_LOCALES = ['en', 'sv', 'fi', 'nb', 'nn', 'da', 'de'] as const;
export const LIST_WORDS: ReadonlySet<string> = new Set(['and', 'or', 'och', 'eller', 'ja', 'tai', 'og', 'und', 'oder']);

export function listWords(locales: readonly string[] = LIST_LOCALES): Set<string> {
  const words = new Set<string>();
  for (const locale of locales) {
    for (const type of ['conjunction', 'disjunction'] as const) {
      const text = new Intl.ListFormat(locale, { type }).format(['\u0001', '\u0002']);
      const between = text.slice(text.indexOf('\u0001') + 1, text.indexOf('\u0002'));
      for (const w of fold(exactForm(between)).split(' ')) if (w.length >= 2) words.add(w);
    }
  }
  return words;
}

/**
 * The sides of a list query, or null: "dortmunder och helles" → ["dortmunder", "helles"]. Two to four
 * non-empty sides; the tokens are the query's folded words.
 */
export function listSides(tokens: string[], words: ReadonlySet<string>): string[] | null {
  if (tokens.length < 3) return null;
  const sides: string[][] = [[]];
  for (const t of tokens) {
    if (words.has(t)) sides.push([]);
    else sides[sides.length - 1]!.push(t);
  }
  if (sides.length < 2 || sides.length > 4 || sides.some((s) => s.length === 0)) return null;
  return sides.map((s) => s.join(' '));
}
