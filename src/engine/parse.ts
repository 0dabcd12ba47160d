// Reading a product line (issue 22): "Brunello di Montalcino Casanova di Neri 2016", "Glenfiddich 12
// Year Old Single Malt Scotch Whisky 70cl 40%". Pure: built once from the knowledge base and the
// resolver, it splits a line into terms (numbers and label words), entity mentions and the words
// nothing explains (usually the producer and the cuvée), then names the entity the line is about.
//
// Order of reading (each step takes only the words no earlier step explained):
//   1. numbers with their unit: ABV ("13.5%", "40% vol"), volume ("75cl", "700 ml"), age ("12 Year Old"),
//      then a vintage (a year from 1900 to next year) or "NV";
//   2. entity names of two words or more, longest first (whole names only: exact, accent-folded or
//      in any order; never a prefix or a typo, so a producer word never becomes a place);
//   3. designation words and traditional terms (data/designations.json) and colour words
//      (data/label-terms.json);
//   4. one-word entity names, never a stop word, a generic word or a word of one or two letters.
// The primary entity: the most specific place whose rules define the wine (an appellation, then a
// subregion, region, country; a place inside another mentioned place wins over it), else the grape,
// else the wine style, spirit or beer style (a sweetness term last). The line is `ambiguous` when the
// primary's own name is shared, when two places are mentioned and neither lies inside the other, when
// a grape is mentioned that the primary appellation's rules leave out, or when the primary is a
// one-word name right after a capitalised word nothing explains (it may be part of a producer's or an
// estate's name: "Vega Sicilia" is no Sicilian wine). `implied` lists the grapes the primary
// appellation's rules require or name as principal, with the rule's source, when the line is resolved:
// never a guess.
import type { KnowledgeBase, Entity } from './kb/load.ts';
import { exactForm, fold, isWeakWord, queryForms, respell, STOP_WORDS } from './normalize.ts';
import { DesignationWords } from './market-words.ts';
import { joinScopes, ScopeWords } from './scope.ts';
import type { Candidate, Resolver, WholeNames } from './resolver.ts';

export type MentionRole = 'appellation' | 'geography' | 'grape' | 'wine_style' | 'spirit' | 'beer_style';

export interface Span {
  start: number;
  end: number;
  text: string;
}

export interface LineTerm extends Span {
  kind: 'designation' | 'traditional_term' | 'sweetness' | 'colour' | 'age' | 'volume' | 'abv' | 'vintage';
  value: string;
  /** where the term's meaning comes from: a source key of the registry, or null (a plain number) */
  source: string | null;
}

export interface LineMention extends Span {
  role: MentionRole;
  candidate: Candidate;
  /** the name is shared by several entities (a declared shared term, or equal scores) */
  shared: boolean;
}

export interface LineReading {
  text: string;
  state: 'resolved' | 'ambiguous' | 'unresolved';
  primary: LineMention | null;
  mentions: LineMention[];
  terms: LineTerm[];
  vintage: number | null;
  unexplained: Span[];
  /** why the line is ambiguous, when it is */
  reasons: string[];
}

interface Word extends Span {
  used: boolean;
}

/**
 * Words of a line: letters and digits, with inner hyphens, apostrophes and dots ("Moulin-à-Vent", "d'Asti",
 * "13.5"), and the katakana middle dot (full- and half-width) and double hyphen that join the words of one
 * name written in katakana ("ピノ・ノワール", "ドメーヌ・ラロッシュ").
 */
const WORD = /[\p{L}\p{N}]+(?:[-'’.,・･゠][\p{L}\p{N}]+)*/gu;
const ABV = /(\d{1,2}(?:[.,]\d{1,2})?)\s?%(?:\s?(?:vol\b\.?|alc\b\.?(?:\s?\/\s?vol\b\.?)?|abv\b))?/giu;
const VOLUME = /(\d{1,4}(?:[.,]\d{1,3})?)\s?(ml|cl|dl|l|ltr|litre|liter|litres|liters)(?![\p{L}])/giu;
const AGE = /(\d{1,2})\s?(?:-\s?)?(?:year|years|yr|yrs|yo|y\.o\.|jahre|ans|años|anni|år|vuotta)(?:\s?old)?(?![\p{L}])/giu;
/** A year, alone or with the year mark of Japanese, Chinese and Korean lines ("2019年", "2019年産", "2019년산"). */
const YEAR = /(?<![\p{L}\p{N}])(1[89]\d{2}|20\d{2})(?:年産?|년산?)?(?![\p{L}\p{N}])/gu;
const SHORT_YEAR = /[’'‘]\s?(\d{2})(?![\p{L}\p{N}%])/gu;
const NV = /(?<![\p{L}\p{N}])(?:NV|N\.V\.|non[- ]vintage)(?![\p{L}\p{N}])/gu;
/** A run of white space, U+FEFF left out (case mapping reads it as no break: "ΑΣ\uFEFFΒ" keeps a medial sigma). */
const SPACE_RUN = /[^\S\uFEFF]+/g;
/** White space that SPACE_RUN would change: any but a single space. */
const ODD_SPACE = /[^\S \uFEFF]|[^\S\uFEFF]{2}/;
/** A word written in numbers alone ("1", "𝟏", "1,5", "1-1-12"). */
const NUMERAL_WORD = /^\p{N}+(?:[-'’.,]\p{N}+)*$/u;
const DIGITS = /^[0-9]+$/;
const NO_NAMES: WholeNames = { candidates: [], shared: false, outOfScope: false };
/** Kinds of word the parser marks (bits): numbers alone, one or two letters, with a stop word among its folded words. */
const NUMERAL = 1;
const SHORT = 2;
const HAS_STOP = 4;
/** Whether every word i … j−1 has the bit. */
function all(kind: Uint8Array, i: number, j: number, bit: number): boolean {
  for (let k = i; k < j; k++) if (!(kind[k]! & bit)) return false;
  return true;
}
/** Code points in a string (a surrogate pair is one). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) if ((s.charCodeAt(i) & 0xfc00) === 0xdc00) n--;
  return n;
}
/** Full-width ASCII forms (U+FF01–U+FF5E: "２０１９", "／", "％"), one code unit each like the ASCII they stand for. */
const FULL_WIDTH_ASCII = /[\uff01-\uff5e]/g;
/** Full-width forms written as ASCII: the same length, so every span found in the result is a span of the line as written. */
function asciiWidth(text: string): string {
  return text.replace(FULL_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}
/**
 * A word of two or more ideographs or Hangul syllables: a whole word in Chinese, Japanese or Korean
 * ("甲州", "梅洛", "보르도"), not a one- or two-letter abbreviation.
 */
const CJK_WORD = /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]{2,}$/;
/**
 * A word that may hold several names written together (issue 32: "ブルゴーニュ・ピノ・ノワール",
 * "勃艮第黑皮诺"): katakana parted by a middle dot or double hyphen, or a run of three ideographs or more.
 */
const CJK_SPLIT = /[\u30a1-\u30fa\u30fc][・･゠][\u30a1-\u30fa\u30fc]|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{3}/;
/** The middle dot and double hyphen between two katakana: where a katakana word is parted. */
const KANA_PART = /(?<=[\u30a1-\u30fa\u30fc])[・･゠](?=[\u30a1-\u30fa\u30fc])/g;
/** A run of ideographs alone. */
const HAN_RUN = /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$/;
/** Longest ideograph run cut into names, and longest name tried inside it, in characters. */
const HAN_RUN_MAX = 24;
const HAN_NAME_MAX = 10;

/** Opening quotation marks of a catalogue field (straight, curly, low, guillemets). */
const QUOTE_OPEN = /^["“„«‘'‚‹]$/u;
/** Capitalised words nothing explains before a name of several words that make it part of a name. */
const RUN = 3;
/**
 * Spans made only of words of one or two letters looked up at most this many times a line. There the
 * neighbouring-word check stops telling names from noise: names in scripts whose vowel signs break a
 * word fold into runs of one-letter words ("ত্রিনিদাদ" is "ত র ন দ দ"), so nearly every two such letters
 * are neighbours in some name, and a line of them spaced out made some 650 look-ups. No line or query
 * of test/resolve/, nor any name of the knowledge base inside a line, needs more than 3.
 */
const SHORT_SPAN_LOOKUPS = 16;
/** Longest entity name tried, in words. */
const MAX_SPAN = 6;
/** Score of a match found inside a line, below the same name asked alone. */
export const MENTION_PENALTY = 15;

const PLACE_RANK: Record<string, number> = { appellation: 0, subregion: 1, region: 2, country: 3 };

export class LineParser {
  private readonly words: DesignationWords;
  /** Colour words of data/label-terms.json, lower-cased (also the engine's scope words). */
  readonly colours: Map<string, { value: string; source: string }>;
  /** Colour, sweetness and style words of data/label-terms.json: the scopes a line or a query asks for (issue 33). */
  readonly scopeWords: ScopeWords;
  private readonly termSource: Record<string, string | null>;
  /** US state records by their two-letter code (their `states` fact, cited to 27 CFR Part 9) */
  private readonly stateByCode = new Map<string, Entity>();

  constructor(private readonly kb: KnowledgeBase, private readonly resolver: Resolver) {
    this.words = new DesignationWords(kb.designations.map((d) => ({ term: d.term, kind: d.kind })), (w) => resolver.isNameWord(w));
    this.colours = new Map(kb.labelTerms.colours.map((c) => [c.term.toLowerCase(), { value: c.value, source: c.source }]));
    this.scopeWords = new ScopeWords(this.colours, kb.labelTerms.scope_words ?? []);
    for (const e of kb.entities) {
      const st = e.facts.states?.value;
      if (e.type === 'wine_geography' && e.facts.level?.value === 'region' && e.facts.country?.value === 'US' && Array.isArray(st) && st.length === 1) this.stateByCode.set(st[0]!, e);
    }
    // the first entry of a kind is its main source (data/label-terms.json lists it first)
    this.termSource = {};
    for (const k of kb.labelTerms.kinds) this.termSource[k.kind] ??= k.source;
  }

  private sourceOfDesignation(term: string): string | null {
    const d = this.kb.designations.find((x) => x.term.toLowerCase() === term.toLowerCase());
    return d?.source ?? null;
  }

  private yearCache = { until: 0, next: 0 };
  /** Next year (a vintage may be at most that), read from the clock at most once a minute. */
  private nextYear(): number {
    const now = Date.now();
    if (now >= this.yearCache.until) this.yearCache = { until: now + 60_000, next: new Date(now).getUTCFullYear() + 1 };
    return this.yearCache.next;
  }

  private roleOf(e: Entity): MentionRole {
    if (e.type === 'wine_geography') return e.facts.level?.value === 'appellation' ? 'appellation' : 'geography';
    return e.type;
  }

  /**
   * Reads one line. Japanese, Chinese and Korean lines often write digits, "%" and "/" in full width
   * ("２０１９ シャブリ／ドメーヌ・ラロッシュ"): the line is read with those written as ASCII, and every
   * span keeps the text as written.
   */
  parse(text: string): LineReading {
    if (!/[\uff01-\uff5e]/.test(text)) return this.read(text);
    const r = this.read(asciiWidth(text));
    const asWritten = <T extends Span>(x: T): T => ({ ...x, text: text.slice(x.start, x.end) });
    const mentions = r.mentions.map(asWritten);
    const primary = r.primary ? mentions[r.mentions.indexOf(r.primary)] ?? asWritten(r.primary) : null;
    return { ...r, text, primary, mentions, terms: r.terms.map(asWritten), unexplained: r.unexplained.map(asWritten) };
  }

  private read(text: string): LineReading {
    const terms: LineTerm[] = [];
    const taken: [number, number][] = [];
    const free = (a: number, b: number) => taken.every(([x, y]) => b <= x || a >= y);
    const take = (a: number, b: number) => taken.push([a, b]);
    const addTerm = (m: RegExpMatchArray, kind: LineTerm['kind'], value: string, source: string | null) => {
      const start = m.index!;
      const end = start + m[0].length;
      if (!free(start, end)) return false;
      terms.push({ start, end, text: m[0], kind, value, source });
      take(start, end);
      return true;
    };
    // 1. numbers with their unit, then the vintage
    // (every unit, age and year has a digit: a line without one skips those patterns)
    const digits = /\d/.test(text);
    if (digits) for (const m of text.matchAll(ABV)) addTerm(m, 'abv', `${m[1]!.replace(',', '.')}%`, this.termSource.abv ?? null);
    if (digits) for (const m of text.matchAll(VOLUME)) addTerm(m, 'volume', `${m[1]!.replace(',', '.')} ${m[2]!.toLowerCase()}`, this.termSource.volume ?? null);
    if (digits) for (const m of text.matchAll(AGE)) addTerm(m, 'age', `${m[1]} years`, this.termSource.age ?? null);
    let vintage: number | null = null;
    const nextYear = this.nextYear();
    if (digits) for (const m of text.matchAll(YEAR)) {
      const y = Number(m[1]);
      if (y < 1900 || y > nextYear || vintage !== null) continue;
      if (addTerm(m, 'vintage', String(y), this.termSource.vintage ?? null)) vintage = y;
    }
    // a two-digit year after an apostrophe, as wine lists print it ("’14", "'08")
    if (vintage === null && digits) {
      for (const m of text.matchAll(SHORT_YEAR)) {
        const yy = Number(m[1]);
        const y = yy <= nextYear % 100 ? 2000 + yy : 1900 + yy;
        if (addTerm(m, 'vintage', String(y), this.termSource.vintage ?? null)) {
          vintage = y;
          break;
        }
      }
    }
    for (const m of text.matchAll(NV)) addTerm(m, 'vintage', 'NV', this.termSource.vintage ?? null);

    const words: Word[] = [];
    for (const m of text.matchAll(WORD)) {
      const start = m.index!;
      const end = start + m[0].length;
      if (!free(start, end)) continue;
      if (CJK_SPLIT.test(m[0])) for (const p of this.cjkParts(m[0], start)) words.push({ ...p, used: false });
      else words.push({ start, end, text: m[0], used: false });
    }
    // per word, once: whether a name holds its first and its last folded word, whether only spaces,
    // hyphens, apostrophes or a dot part it from the word before, and whether it and the word before
    // are held together by some name (so each span below is checked with array look-ups only); whether
    // it is written in numbers alone, or in one or two letters
    const n = words.length;
    const startsName = new Uint8Array(n);
    const endsName = new Uint8Array(n);
    const joined = new Uint8Array(n);
    const paired = new Uint8Array(n);
    // (kind: NUMERAL, SHORT and HAS_STOP bits; others: how many of its folded words are no stop word, the
    // first and last of them in firstOther, lastOther)
    const kind = new Uint8Array(n);
    const others = new Uint8Array(n);
    const firstOther = new Array<string>(n);
    const lastOther = new Array<string>(n);
    // a word met again in the line is folded once
    const folds = new Map<string, string[]>();
    let prevLast = '';
    for (let k = 0; k < n; k++) {
      const w = words[k]!;
      let f = folds.get(w.text);
      if (!f) folds.set(w.text, (f = fold(exactForm(w.text)).split(' ')));
      if (DIGITS.test(f[0]!) && f.every((t) => DIGITS.test(t)) && NUMERAL_WORD.test(w.text)) kind[k]! |= NUMERAL;
      if ((w.text.length <= 2 || (w.text.length <= 4 && codePoints(w.text) <= 2)) && !CJK_WORD.test(w.text)) kind[k]! |= SHORT;
      firstOther[k] = lastOther[k] = '';
      for (const t of f) {
        if (STOP_WORDS.has(t)) kind[k]! |= HAS_STOP;
        else {
          if (!others[k]) firstOther[k] = t;
          lastOther[k] = t;
          if (others[k]! < 255) others[k]!++;
        }
      }
      const first = f[0]!;
      const last = f[f.length - 1]!;
      startsName[k] = this.resolver.isNameWord(first) ? 1 : 0;
      // (a name never ends on a particle: "de la Grand" is no name's end; a one-word span is checked apart)
      endsName[k] = (f.length === 1 ? startsName[k] === 1 : this.resolver.isNameWord(last)) ? (STOP_WORDS.has(last) ? 2 : 1) : 0;
      if (k > 0) {
        joined[k] = /^[\s\-'’.・･゠]*$/.test(text.slice(words[k - 1]!.end, words[k]!.start)) ? 1 : 0;
        // two neighbouring words of a name are indexed together ("clotilde davenne" is in no name): a span
        // with a pair that no name holds is skipped before any look-up (particles are left out of pairs)
        paired[k] = STOP_WORDS.has(prevLast) || STOP_WORDS.has(first) || this.resolver.isNameWord(prevLast + first) ? 1 : 0;
      }
      prevLast = last;
    }
    // Whole names of words i … j−1, looked up once per span of this line: a span met again, with the
    // same or other white space between its words ("1 1 1 …", "Rioja Rioja …"), reuses the first answer.
    // The resolver's answer is a function of the span's exact form, which reads any run of white space
    // as one space; only a shared term's candidate echoes the span as written, so a span that is one is
    // looked up afresh when written otherwise. (Issue 31, item 7: 735 look-ups for "1 " × 150 before.)
    let looked: Map<string, { span: string; r: WholeNames }> | undefined;
    let shortLookups = 0;
    const lookUp = (i: number, j: number, span: string): WholeNames => {
      const key = ODD_SPACE.test(span) ? span.replace(SPACE_RUN, ' ') : span;
      looked ??= new Map();
      const hit = looked.get(key);
      if (hit && (!hit.r.shared || hit.span === span)) return hit.r;
      if (j - i > 1 && all(kind, i, j, SHORT) && ++shortLookups > SHORT_SPAN_LOOKUPS) return NO_NAMES;
      const r = this.resolver.wholeNames(span, 3);
      if (!hit) looked.set(key, { span, r });
      return r;
    };
    // A span of words i … j−1 with a stop word is a name only if its first and last other words are two
    // words of one name that has a stop word (in any order: see Resolver.inStopName). The neighbouring-word
    // check lets every pair with a stop word through, so name words chained by stop words ("Rioja de
    // Barolo de …") made every second span a look-up (issue 31, item 7). Their spellings as the resolver
    // also reads them count too: respelled ("pilsener" as "pilsner"), umlauts as "ae", "oe", "ue".
    const mayBeStopName = (i: number, j: number) => {
      let first = -1;
      let last = -1;
      let count = 0;
      let stop = false;
      for (let k = i; k < j; k++) {
        if (kind[k]! & HAS_STOP) stop = true;
        if (others[k]) {
          if (first < 0) first = k;
          last = k;
          count += others[k]!;
        }
      }
      if (!stop || count < 2) return true;
      if (this.resolver.inStopName(firstOther[first]!, lastOther[last]!)) return true;
      const spellings = (k: number, end: 'first' | 'last') => {
        const t = end === 'first' ? firstOther[k]! : lastOther[k]!;
        const out = [t, respell(t)];
        const alt = /[äöü]/i.test(words[k]!.text) ? queryForms(words[k]!.text).foldedAlt?.split(' ').filter((x) => !STOP_WORDS.has(x)) : undefined;
        if (alt?.length) out.push(end === 'first' ? alt[0]! : alt[alt.length - 1]!);
        return out;
      };
      const lasts = spellings(last, 'last');
      return spellings(first, 'first').some((a) => lasts.some((b) => this.resolver.inStopName(a, b)));
    };
    const mentions: LineMention[] = [];
    const mention = (i: number, j: number, minWords: number) => {
      // words i … j−1, none used, in one run of the line (only spaces, hyphens, apostrophes or a dot between)
      if (j - i < minWords || !startsName[i] || endsName[j - 1] === 0 || (j - i > 1 && endsName[j - 1] === 2)) return false;
      for (let k = i; k < j; k++) if (words[k]!.used) return false;
      for (let k = i + 1; k < j; k++) if (!joined[k] || !paired[k]) return false;
      // numbers alone are no name unless some name is written in numerals alone: not looked up
      if (kind[i]! & NUMERAL && all(kind, i, j, NUMERAL) && !this.resolver.numeralNames) return false;
      if (j - i > 1 && !mayBeStopName(i, j)) return false;
      const start = words[i]!.start;
      const end = words[j - 1]!.end;
      const span = text.slice(start, end);
      if (j - i === 1) {
        const w = span.toLowerCase();
        if (([...w].length <= 2 && !CJK_WORD.test(w)) || (isWeakWord(w) && !this.colours.has(w))) return false;
      }
      const r = lookUp(i, j, span);
      const top = r.candidates[0];
      if (!top || r.outOfScope) return false;
      const second = r.candidates[1];
      const shared = r.shared || (second !== undefined && second.score === top.score);
      const e = this.kb.entities[top.entity]!;
      mentions.push({ start, end, text: span, role: this.roleOf(e), candidate: top, shared });
      for (let k = i; k < j; k++) words[k]!.used = true;
      return true;
    };
    // 2. names of two words or more, longest first, leftmost first
    for (let len = Math.min(MAX_SPAN, words.length); len >= 2; len--) {
      for (let i = 0; i + len <= words.length; i++) mention(i, i + len, 2);
    }
    // 3. designation words, traditional terms, colour words
    for (let k = 0; k < n; k++) {
      const w = words[k]!;
      if (w.used) continue;
      const c = this.colours.get(w.text.toLowerCase());
      // a colour word that is itself a name ("Rosé", the wine style) is read as the name
      if (c && !lookUp(k, k + 1, w.text).candidates.length) {
        terms.push({ start: w.start, end: w.end, text: w.text, kind: 'colour', value: c.value, source: c.source });
        w.used = true;
      }
    }
    const rest = words.filter((w) => !w.used);
    if (rest.length && this.words.mayContain(rest.map((w) => w.text.toLowerCase()))) {
      const found = this.words.find(text);
      for (const t of found?.terms ?? []) {
        const covered = words.filter((w) => w.start >= t.start && w.end <= t.end);
        if (covered.length === 0 || covered.some((w) => w.used)) continue;
        for (const w of covered) w.used = true;
        terms.push({ start: t.start, end: t.end, text: t.text, kind: t.kind === 'traditional_term' ? 'traditional_term' : 'designation', value: t.value, source: this.sourceOfDesignation(t.value) });
      }
    }
    // 4. one-word names
    for (let i = 0; i < words.length; i++) mention(i, i + 1, 1);
    mentions.sort((a, b) => a.start - b.start);
    // a sweetness term (Brut, Sec) is both a mention of its style and a term of the label
    for (const m of mentions) {
      const e = this.kb.entities[m.candidate.entity]!;
      if (e.type === 'wine_style' && e.facts.category?.value === 'sweetness_term') {
        terms.push({ start: m.start, end: m.end, text: m.text, kind: 'sweetness', value: e.name, source: e.facts.category.source });
      }
    }
    terms.sort((a, b) => a.start - b.start);

    // the words nothing explains, in runs
    const unexplained: Span[] = [];
    for (const w of words) {
      if (w.used) continue;
      const last = unexplained[unexplained.length - 1];
      if (last && /^[\s\-'’・･゠]*$/.test(text.slice(last.end, w.start))) {
        last.end = w.end;
        last.text = text.slice(last.start, w.end);
      } else unexplained.push({ start: w.start, end: w.end, text: w.text });
    }

    // one-word names inside a run of capitalised words nothing explains may be part of a producer's or
    // an estate's name ("Benjamin de Rothschild Vega Sicilia"): each such name counts as unexplained for
    // the next one, so the run carries on through it
    const embedded = new Set<LineMention>();
    for (const m of mentions) {
      if (this.embedded(m, words, text, terms, embedded, mentions)) embedded.add(m);
      // a grape word before one nothing explains is as likely a producer's name ("Barceló Gran Añejo")
      // and so is a one-word alias there ("Veronese Beatrice Seta …"): a canonical name at the head of a
      // line keeps the producer after it ("Chablis Clotilde Davenne")
      else if ((this.kb.entities[m.candidate.entity]!.type === 'grape' || m.candidate.matchedOn.startsWith('alias')) && this.beforeUnexplained(m, words, text)) embedded.add(m);
    }
    // a catalogue field of its own ("…, Napa, CA", "…, Silcily, Italy") that no whole name explains is
    // read by the resolver with its prefix and typo tiers: such a mention always leaves the line ambiguous
    const guessed = new Set<LineMention>();
    if (text.includes(',')) {
      let at = 0;
      let index = -1;
      for (const field of text.split(',')) {
        index++;
        const start = at + (field.length - field.trimStart().length);
        const end = at + field.trimEnd().length;
        at += field.length + 1;
        const inside = words.filter((w) => w.start >= start && w.end <= end);
        // a field that is a US state's two-letter code ("…, Napa, CA '11"): the state (its `states` fact)
        const state = inside.length === 1 && !inside[0]!.used && /^[A-Z]{2}$/.test(inside[0]!.text) ? this.stateByCode.get(inside[0]!.text) : undefined;
        if (state) {
          const w = inside[0]!;
          w.used = true;
          mentions.push({ start: w.start, end: w.end, text: w.text, role: 'geography', candidate: { entity: state.idx, score: 92, matchedOn: 'alias', value: w.text }, shared: false });
          continue;
        }
        // a one-word name read as part of a name leaves its field free ("Amorone Della Valpolicella")
        const loose = (w: Word) => mentions.some((m) => embedded.has(m) && m.start === w.start && m.end === w.end);
        // (never the first field: catalogue lines begin with the producer)
        // (nor a quoted field: “Clark and Telephone”, "Secateurs," name a cuvée; a whole name inside one is
        // still read above, only the prefix and typo guess is not made)
        if (index === 0 || !inside.length || inside.length > 4 || inside.some((w) => w.used && !loose(w)) || end - start < 4 || QUOTE_OPEN.test(text[start]!)) continue;
        const r = this.resolver.resolve(text.slice(inside[0]!.start, inside[inside.length - 1]!.end), 3, undefined, false);
        const top = r.candidates[0];
        if (!top) continue;
        const e = this.kb.entities[top.entity]!;
        if (e.type !== 'wine_geography' && e.type !== 'grape') continue;
        const m: LineMention = { start: inside[0]!.start, end: inside[inside.length - 1]!.end, text: text.slice(inside[0]!.start, inside[inside.length - 1]!.end), role: this.roleOf(e), candidate: top, shared: r.state === 'ambiguous' };
        for (const w of inside) w.used = true;
        for (let k = mentions.length - 1; k >= 0; k--) if (mentions[k]!.start >= m.start && mentions[k]!.end <= m.end) mentions.splice(k, 1);
        mentions.push(m);
        guessed.add(m);
      }
      mentions.sort((a, b) => a.start - b.start);
      for (let i = unexplained.length - 1; i >= 0; i--) {
        const u = unexplained[i]!;
        if (mentions.some((m) => guessed.has(m) && m.start <= u.start && m.end >= u.end)) unexplained.splice(i, 1);
      }
    }
    const clear = mentions.filter((m) => !embedded.has(m));
    const primary = this.primaryOf(mentions, embedded, guessed);
    const reasons: string[] = [];
    if (primary) {
      if (primary.shared) reasons.push('the primary name is shared by several entities');
      if (guessed.has(primary)) reasons.push(`"${primary.text}" is no whole name: read as ${this.kb.entities[primary.candidate.entity]!.name} by its start or a misspelling`);
      const p0 = this.kb.entities[primary.candidate.entity]!;
      // a state read from its code, beside a field nothing explains: that field may name a place inside it
      if (primary.candidate.value === primary.text && /^[A-Z]{2}$/.test(primary.text) && unexplained.some((u) => /^\p{Lu}/u.test(u.text) && u.start > text.indexOf(',')))
        reasons.push(`a field nothing explains may name a place inside ${p0.name}`);
      if (p0.type === 'wine_geography' && p0.facts.level?.value === 'country') reasons.push('only a country is named: the country does not define the wine');
      const grapes = new Set(mentions.filter((m) => this.kb.entities[m.candidate.entity]!.type === 'grape').map((m) => m.candidate.entity));
      if (p0.type === 'grape' && grapes.size > 1) reasons.push('several grapes and no place: a blend names no single grape');
      const places = clear.filter((m) => this.kb.entities[m.candidate.entity]!.type === 'wine_geography');
      const p = this.kb.entities[primary.candidate.entity]!;
      for (const m of places) {
        const q = this.kb.entities[m.candidate.entity]!;
        if (q !== p && !this.within(p, q) && !this.within(q, p)) reasons.push(`two places that do not contain each other: ${p.name}, ${q.name}`);
      }
      if (p.grapeRules.length) {
        const rules = p.grapeRules;
        for (const m of clear) {
          const g = this.kb.entities[m.candidate.entity]!;
          if (g.type !== 'grape') continue;
          const allowed = rules.some((r) => r.grapes.some((x) => x.grape === g.key));
          // a grape word right before a capitalised word nothing explains may be a name ("Pascal Jolivet")
          if (!allowed && !this.beforeUnexplained(m, words, text)) reasons.push(`${g.name} is not among the grapes of ${p.name}'s rules`);
        }
      }
      if (embedded.has(primary)) reasons.push(`"${primary.text}" follows a capitalised word nothing explains (it may be part of a name)`);
    }
    const state = !primary ? 'unresolved' : reasons.length ? 'ambiguous' : 'resolved';
    return { text, state, primary, mentions, terms, vintage, unexplained, reasons: [...new Set(reasons)] };
  }

  /** Whether place a lies inside place b (b is one of a's ancestors). */
  private within(a: Entity, b: Entity): boolean {
    let p: unknown = a.facts.parent?.value;
    for (let guard = 0; typeof p === 'string' && guard < 10; guard++) {
      if (p === b.key) return true;
      p = this.kb.byKey.get(p)?.facts.parent?.value;
    }
    return false;
  }

  /** A one-word mention right after a capitalised word that nothing explains. */
  /**
   * The words of a CJK word written without spaces (issue 32). Katakana words parted by a middle dot are
   * read as words of their own, so a name of several of them is found as a span of words and a name
   * among other words is found alone ("ブルゴーニュ・ピノ・ノワール" holds Bourgogne and Pinot Noir; the
   * span of all its words is still the whole word). A run of ideographs that is no name as a whole is
   * cut into the longest names found from its start (forward maximum matching on the names of the
   * knowledge base, two characters at least); what lies between two names stays one word.
   */
  private cjkParts(word: string, start: number): Span[] {
    const parts: Span[] = [];
    let at = 0;
    for (const m of [...word.matchAll(KANA_PART), null]) {
      const end = m ? m.index! : word.length;
      if (end > at) parts.push({ start: start + at, end: start + end, text: word.slice(at, end) });
      at = end + 1;
    }
    const out: Span[] = [];
    for (const p of parts) {
      if (!HAN_RUN.test(p.text) || p.text.length < 3 || p.text.length > HAN_RUN_MAX || this.isName(p.text)) {
        out.push(p);
        continue;
      }
      const s = p.text;
      let rest = 0; // start of the characters no name has taken yet
      let i = 0;
      while (i < s.length - 1) {
        let found = 0;
        for (let len = Math.min(HAN_NAME_MAX, s.length - i); len >= 2; len--) {
          if (this.isName(s.slice(i, i + len))) {
            found = len;
            break;
          }
        }
        if (!found) {
          i++;
          continue;
        }
        if (i > rest) out.push({ start: p.start + rest, end: p.start + i, text: s.slice(rest, i) });
        out.push({ start: p.start + i, end: p.start + i + found, text: s.slice(i, i + found) });
        i += found;
        rest = i;
      }
      if (rest === 0) out.push(p);
      else if (rest < s.length) out.push({ start: p.start + rest, end: p.end, text: s.slice(rest) });
    }
    return out;
  }

  /** Whether a string is a whole name of some served entity in scope. */
  private isName(s: string): boolean {
    const r = this.resolver.wholeNames(s, 1);
    return r.candidates.length > 0 && !r.outOfScope;
  }

  private embedded(m: LineMention, words: Word[], text: string, terms: LineTerm[], embedded: Set<LineMention>, mentions: LineMention[]): boolean {
    if (/[\s\-'’]/.test(m.text.trim())) return this.afterLongRun(m, words, text);
    const i = words.findIndex((w) => w.start === m.start);
    let prev = i > 0 ? words[i - 1] : undefined;
    // a lower-case particle inside a name ("Sangre de Toro", "Benjamin de Rothschild") joins the run
    if (prev && !prev.used && STOP_WORDS.has(prev.text.toLowerCase()) && i > 1 && /^\s+$/.test(text.slice(prev.end, m.start))) {
      const before = words[i - 2]!;
      if (/^\s+$/.test(text.slice(before.end, prev.start))) prev = before;
    }
    if (!prev || !/^\p{Lu}/u.test(prev.text) || !/^[\s\p{L}]*$/u.test(text.slice(prev.end, m.start)) || /[^\s]/.test(text.slice(prev.end, m.start).replace(/\b(de|di|du|da|del|della|la|le|van|von|der)\b/giu, ''))) return false;
    // the word before is unexplained, or a one-word name already read as part of a name
    if (prev.used && !mentions.some((x) => embedded.has(x) && x.start === prev.start)) return false;
    // a designation word or traditional term right after the name confirms it as the appellation
    // ("Montecillo Rioja DOCa Crianza")
    const next = terms.find((t) => t.start >= m.end && /^\s*$/.test(text.slice(m.end, t.start)));
    return !(next && (next.kind === 'designation' || next.kind === 'traditional_term'));
  }

  /**
   * A name of several words after a run of at least RUN capitalised words nothing explains (particles
   * such as "de" inside the run allowed): "Vreta Kloster Nanobryggeri St. Helena" is a brewery.
   */
  private afterLongRun(m: LineMention, words: Word[], text: string): boolean {
    let i = words.findIndex((w) => w.start === m.start) - 1;
    let caps = 0;
    let end = m.start;
    for (; i >= 0; i--) {
      const w = words[i]!;
      if (w.used || !/^[\s\-'’.]*$/.test(text.slice(w.end, end))) break;
      if (/^\p{Lu}/u.test(w.text)) caps++;
      else if (!STOP_WORDS.has(w.text.toLowerCase())) break;
      end = w.start;
    }
    return caps >= RUN;
  }

  /** A one-word mention right before a capitalised word that nothing explains. */
  private beforeUnexplained(m: LineMention, words: Word[], text: string): boolean {
    if (/[\s\-'’]/.test(m.text.trim())) return false;
    const next = words.find((w) => w.start >= m.end);
    return !!next && !next.used && /^\p{Lu}/u.test(next.text) && /^\s+$/.test(text.slice(m.end, next.start));
  }

  private primaryOf(mentions: LineMention[], embedded: Set<LineMention>, guessed: Set<LineMention>): LineMention | null {
    const rank = (m: LineMention): number => {
      const e = this.kb.entities[m.candidate.entity]!;
      // a country defines no wine: it comes after the grape, the style and the spirit
      if (e.type === 'wine_geography') return e.facts.level?.value === 'country' ? 35 : PLACE_RANK[String(e.facts.level?.value)] ?? 2;
      if (e.type === 'grape') return 10;
      if (e.type === 'wine_style') return e.facts.category?.value === 'sweetness_term' ? 40 : 20;
      return 30; // spirit, beer style
    };
    let best: LineMention | null = null;
    for (const m of mentions) {
      if (!best) { best = m; continue; }
      const a = this.kb.entities[m.candidate.entity]!;
      const b = this.kb.entities[best.candidate.entity]!;
      // a place inside another mentioned place is the more specific one, whatever their levels
      if (a.type === 'wine_geography' && b.type === 'wine_geography') {
        if (this.within(a, b)) { best = m; continue; }
        if (this.within(b, a)) continue;
      }
      // at equal rank: a name of more words (more specific), then one that is no part of a name
      const words = (x: LineMention) => x.text.trim().split(/[\s\-]+/).length;
      // (a name read from a field by its start or a misspelling loses every tie)
      const tie = rank(m) === rank(best) && (guessed.has(best) !== guessed.has(m) ? guessed.has(best) : words(m) > words(best) || (words(m) === words(best) && embedded.has(best) && !embedded.has(m)));
      if (rank(m) < rank(best) || tie) best = m;
    }
    return best;
  }

  /** The grapes the appellation's rules require or name as principal, with the rule's source. */
  implied(primary: LineMention | null) {
    if (!primary) return [];
    const e = this.kb.entities[primary.candidate.entity]!;
    const out: { grape: Entity; role: string; source: string; locator: string; scope: string | null }[] = [];
    for (const set of e.grapeRules) {
      for (const g of set.grapes) {
        if (g.role !== 'required' && g.role !== 'principal') continue;
        const scope = g.scope ?? set.scope ?? null;
        const seen = out.find((o) => o.grape.key === g.grape);
        if (seen) {
          // the same grape in the rules of several colours: one entry, its scopes joined ("red; rosé")
          seen.scope = joinScopes(seen.scope, scope);
          continue;
        }
        out.push({ grape: this.kb.byKey.get(g.grape)!, role: g.role, source: set.source, locator: set.locator, scope });
      }
    }
    return out;
  }
}
