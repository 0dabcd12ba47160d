// Text normalisation for resolution. Two levels:
// - `exactForm`: case, white space, hyphens, punctuation and apostrophes normalised, letters kept as
//   typed (so an exact, unfolded match can outrank a folded one);
// - `fold`: additionally accents and ligatures folded (é→e, ß→ss, æ→ae, ø→o, ł→l).
// Index names get every reasonable variant (`indexVariants`): German umlauts both as "a" and "ae",
// apostrophes both dropped and as a word break, and the usual name abbreviations both ways
// (Saint↔St, Sainte↔Ste, Sankt↔St, Mount↔Mt, Santa↔Sta). Queries get one folded form, plus the
// "ae" form when they carry an umlaut (`queryForms`), so "spät-", "spat-" and "spaet-" meet on
// both sides.
// Japanese, Chinese and Korean (issue 32): see `cjkExact` and `cjkFold` below: width folded (NFKC),
// the katakana middle dot joins the words it separates (an index name is also findable with a space
// there), long-vowel marks, the small ッ (doubled consonants written or not: "ネッビオーロ" =
// "ネビオーロ") and ヴ spellings folded, kana voicing marks and Hangul syllables kept whole, Korean
// tense initials folded to the loanword rules' spelling ("까르메네르" = "카르메네르"), traditional Chinese
// characters folded to simplified ones ("納帕谷" = "纳帕谷"), and a trailing "region" suffix (地方, 地区,
// 河流域, 产区, 지방 …) dropped from a place name.
// Word classes used by the resolver's partial tiers:
// - STOP_WORDS: articles, prepositions and conjunctions of the KB's languages. They weigh nothing
//   in a name's coverage and never match as a prefix or with typos.
// - GENERIC_WORDS: words that name a whole domain or a wine colour ("wine", "beer", "rosé"). A query
//   made only of stop and generic words names no entity unless it equals a whole name.
import { HAN_TRADITIONAL_SIMPLIFIED } from './han-simplified.ts';

const SPECIAL: Record<string, string> = {
  'ß': 'ss', 'ẞ': 'ss', 'æ': 'ae', 'Æ': 'ae', 'ø': 'o', 'Ø': 'o', 'ł': 'l', 'Ł': 'l', 'œ': 'oe',
  'Œ': 'oe', 'đ': 'd', 'Đ': 'd', 'þ': 'th', 'Þ': 'th', 'ð': 'd', 'ı': 'i', 'ħ': 'h',
};
const SPECIAL_RE = /[ßẞæÆøØłŁœŒđĐþÞðıħ]/g;
const APOSTROPHES = /['’‘`´ʼ]/g;
const NON_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
/**
 * Combining marks dropped when folding: the diacritics of alphabetic scripts (é, ü, Greek tonos, Arabic
 * and Hebrew vowel points), which people type or leave out. The vowel signs of the Indic scripts
 * (Devanagari to Sinhala), Thai, Lao, Tibetan, Myanmar and Khmer are kept: they are letters of the word,
 * not accents ("मिस्र" Egypt and "मिसौरी" Missouri differ only in them).
 */
const COMBINING = /[^\P{M}\u0900-\u0DFF\u0E00-\u0FFF\u1000-\u109F\u1780-\u17FF]+/gu;
const UMLAUT_E: Record<string, string> = { 'ä': 'ae', 'ö': 'oe', 'ü': 'ue' };

function squash(s: string): string {
  return s.replace(NON_WORD, ' ').trim();
}

/**
 * ASCII fast path (most queries): the same string as `squash`, optionally lower-cased, with
 * apostrophes (' and `) dropped or treated as a word break, built without regular expressions.
 * Returns `s` itself when it is already in that form; null when `s` has a character beyond ASCII
 * (the Unicode path then applies).
 */
function asciiSquash(s: string, lower: boolean, dropApostrophes: boolean): string | null {
  // first pass: already clean (word characters, single inner spaces)? then no string is built
  let clean = true;
  let prevSpace = true; // a leading space is not clean
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) return null;
    if (!clean) continue;
    if (c === 32) {
      if (prevSpace) clean = false;
      prevSpace = true;
    } else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (!lower && c >= 65 && c <= 90)) prevSpace = false;
    else clean = false;
  }
  if (clean && !prevSpace) return s;
  if (clean && s.length === 0) return s;
  let out = '';
  let pending = false;
  let start = -1; // start of the current run of characters copied as they are
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : -1;
    const keep = c !== -1 && ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (!lower && c >= 65 && c <= 90));
    if (keep) {
      if (start < 0) {
        if (pending && out.length > 0) out += ' ';
        pending = false;
        start = i;
      }
      continue;
    }
    if (start >= 0) {
      out += s.slice(start, i);
      start = -1;
    }
    if (c === -1) break;
    if (lower && c >= 65 && c <= 90) {
      if (pending && out.length > 0) out += ' ';
      pending = false;
      out += String.fromCharCode(c + 32);
    } else if ((c === 39 || c === 96) && dropApostrophes) continue;
    else pending = true;
  }
  return out;
}

/** First and last character of the Latin fast path's tables (Latin-1 Supplement and Latin Extended-A letters). */
const LATIN_FIRST = 0xc0;
const LATIN_LAST = 0x17f;

/**
 * Latin fast path (accented queries such as "Grüner Veltliner" or "Muškat momjanski"): ASCII and the
 * letters U+00C0–U+017F, each letter replaced through `table` (built below from the Unicode path one
 * letter at a time, so the result is the same string; a letter whose Unicode result is not plain
 * letters, such as "İ" or "Ŀ", is null there and sends the string down the Unicode path); ASCII
 * capitals lower-cased when `lower`; apostrophes (' and `) dropped or a word break. Null for any
 * other character.
 */
function latinSquash(s: string, lower: boolean, table: readonly (string | null)[], dropApostrophes: boolean): string | null {
  let out = '';
  let pending = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let piece: string | null;
    if (c < 128) {
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) piece = s[i]!;
      else if (c >= 65 && c <= 90) piece = lower ? String.fromCharCode(c + 32) : s[i]!;
      else {
        if (!((c === 39 || c === 96) && dropApostrophes)) pending = true;
        continue;
      }
    } else if (c >= LATIN_FIRST && c <= LATIN_LAST) {
      piece = table[c - LATIN_FIRST]!;
      if (piece === null) return null;
    } else return null;
    if (pending && out.length > 0) out += ' ';
    pending = false;
    out += piece;
  }
  return out;
}

/** exactForm before white space and punctuation are squashed. */
function exactRaw(s: string, apostrophe: '' | ' '): string {
  return s.normalize('NFC').toLowerCase().replace(APOSTROPHES, apostrophe);
}

/** fold before white space and punctuation are squashed. */
function foldRaw(exact: string): string {
  return exact
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(COMBINING, '')
    .toLowerCase();
}

/** The case-preserving fold of a query before white space and punctuation are squashed. */
function foldKeepCaseRaw(q: string): string {
  return q
    .normalize('NFC')
    .replace(APOSTROPHES, '')
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(COMBINING, '');
}

/** Per letter of the Latin range, what the Unicode path makes of it alone, unsquashed; null unless that matches `ok`. */
function latinTable(f: (ch: string) => string, ok: RegExp): (string | null)[] {
  const out: (string | null)[] = [];
  for (let c = LATIN_FIRST; c <= LATIN_LAST; c++) {
    const v = f(String.fromCharCode(c));
    out.push(ok.test(v) ? v : null);
  }
  return out;
}
// exact: one letter (× and ÷ are no letters, "İ" lower-cases to two characters: both null)
const LATIN_EXACT = latinTable((ch) => exactRaw(ch, ''), /^\p{L}$/u);
const LATIN_FOLD = latinTable(foldRaw, /^[a-z]+$/);
const LATIN_KEEP_CASE = latinTable(foldKeepCaseRaw, /^[A-Za-z]+$/);

// ---- Japanese, Chinese and Korean -------------------------------------------------------------
// These scripts write no spaces inside a name, and shops spell one name several ways: "ピノ・ノワール",
// "ピノ ノワール", "ピノノワール" and half-width "ﾋﾟﾉ･ﾉﾜｰﾙ"; "メルロー" and "メルロ"; "ソーヴィニヨン" and
// "ソービニヨン"; "부르고뉴 지방" for 부르고뉴. Rules rather than a tokenizer: names are short, and a
// morphological analyser (kuromoji and the like) would add megabytes of dictionary to start-up for
// words that the knowledge base lists anyway.

/** Kana, CJK ideographs, Hangul, and the half- and full-width forms: a string with one takes the CJK path. */
const CJK = /[\u3000-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
/** Marks that separate the words of one name, between two kana: the middle dot (・, half-width ･ folds to it), the double hyphen ゠ and "=" ("ムスカート=ジルヴァーナー"). */
const KANA_JOINER = /(?<=[\u30a1-\u30fa\u30fc])[・゠=＝](?=[\u30a1-\u30fa\u30fc])/g;
/** Dashes typed for the long-vowel mark after a katakana ("ボルド-", "カベルネソ―ヴィニヨン"). */
const KANA_DASH = /(?<=[\u30a1-\u30fa])[-‐‑‒–—―−－ｰ](?![\p{L}\p{N}]*[a-z])/gu;
/** Combining marks to drop when folding, except the kana voicing marks (゙ ゚), which NFC puts back on their kana. */
const COMBINING_NOT_KANA = /[^\P{M}\u3099\u309a]+/gu;
/** ヴ written as the nearer native kana ("ソーヴィニヨン" = "ソービニヨン"): the longer spellings first. */
const VU: [RegExp, string][] = [[/ヴァ/g, 'バ'], [/ヴィ/g, 'ビ'], [/ヴェ/g, 'ベ'], [/ヴォ/g, 'ボ'], [/ヴ/g, 'ブ']];
/** Small ャュョ written full size ("ソーヴィニョン" = "ソーヴィニヨン"). */
const SMALL_YA: Record<string, string> = { 'ャ': 'ヤ', 'ュ': 'ユ', 'ョ': 'ヨ' };
/**
 * A word ending in a "region" suffix after a name: 地方 (region), 地区 (district), 地域 (area), 河流域 /
 * 川流域 / 流域 (river basin), 州 (Italian region, US state), 県 (département), and 種 (variety:
 * "ネッビオーロ種") after katakana, or after katakana and one or two ideographs ("ロワール渓谷地方");
 * 产区 / 產區 / 地区 / 地區 (wine region, district) and 県 (prefecture: "山梨県") after at least two
 * ideographs; 지방 / 지역 (region, area) after at least two Hangul syllables. The name is what is left
 * ("ブルゴーニュ地方" is ブルゴーニュ). After a single ideograph nothing is dropped ("加州" is
 * California, not "加").
 */
const REGION_SUFFIX = /(?:(?<=[\u30a1-\u30fa][\u4e00-\u9fff]{0,2})(?:地方|地区|地域|河流域|川流域|流域|州|県|種)|(?<=[\u4e00-\u9fff]{2})(?:产区|產區|地区|地區|県)|(?<=[\uac00-\ud7af]{2})(?:지방|지역))$/;
/** The same suffixes as words of their own ("ブルゴーニュ 地方", "보르도 지역"), dropped after a word of the matching script. */
const SUFFIX_WORD: Record<string, RegExp> = {
  '地方': /[\u30a1-\u30fa]$/, '地区': /[\u30a1-\u30fa]$/, '地域': /[\u30a1-\u30fa]$/, '河流域': /[\u30a1-\u30fa]$/,
  '产区': /[\u4e00-\u9fff]$/, '產區': /[\u4e00-\u9fff]$/, '지방': /[\uac00-\ud7af]$/, '지역': /[\uac00-\ud7af]$/,
};

/**
 * Traditional Chinese characters folded to their simplified forms (issue 32): "納帕谷" finds "纳帕谷",
 * "黑皮諾" finds "黑皮诺". The table is CC-CEDICT's one-character entries (src/engine/han-simplified.ts,
 * generated by tools/derive/han-simplified.mjs); it is applied last, after the region suffix is dropped,
 * to index names and queries alike.
 */
const TO_SIMPLIFIED = new Map<string, string>();
for (const [t, s] of HAN_TRADITIONAL_SIMPLIFIED.match(/(?:[\ud800-\udbff][\udc00-\udfff]|[^\ud800-\udfff]){2}/g) ?? []) TO_SIMPLIFIED.set(t!, s!);
const HAN_TRADITIONAL = new RegExp(`[${[...TO_SIMPLIFIED.keys()].join('')}]`, 'gu');
/** The same class without the global flag, for a test that keeps no state between calls. */
const HAS_HAN_TRADITIONAL = new RegExp(HAN_TRADITIONAL.source, 'u');

/**
 * Korean trade spellings with a tense initial consonant, folded to the spelling of the Korean rules for
 * loanwords (외래어 표기법, chapter 1, article 4: plosives are not written with tense consonants; the
 * National Institute of Korean Language adds that in words from Western languages fricatives and
 * affricates are not either, korean.go.kr online counselling answer of 2020-01-16 "외래어의 된소리 표기"):
 * ㄲ→ㅋ, ㄸ→ㅌ, ㅃ→ㅍ, ㅆ→ㅅ, ㅉ→ㅈ in a syllable's initial, so "까르메네르" is "카르메네르", "쁘띠
 * 베르도" is "프티 베르도" and "쎄미용" is "세미용". Hangul syllables are 0xAC00 + (initial × 21 + vowel)
 * × 28 + final; the initials are numbered ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ.
 */
const TENSE_TO_PLAIN: Record<number, number> = { 1: 15, 4: 16, 8: 17, 10: 9, 13: 12 };
const TENSE_INITIAL = /[\uae4c-\ub097\ub530-\ub77b\ube60-\uc0ab\uc2f8-\uc543\uc9dc-\ucc27]/g;
function plainInitial(c: string): string {
  const i = c.charCodeAt(0) - 0xac00;
  const initial = Math.floor(i / 588);
  return String.fromCharCode(0xac00 + TENSE_TO_PLAIN[initial]! * 588 + (i % 588));
}

/** A CJK string before exactForm's squash: width folded (NFKC), dashes after katakana read as ー, and the words of one katakana name joined. */
function cjkExact(s: string): string {
  return s.normalize('NFKC').replace(KANA_DASH, 'ー').replace(KANA_JOINER, '');
}

/** fold for a CJK exact form: Latin letters folded as usual, kana and Hangul kept whole; spelling variants of katakana folded; a region suffix dropped. */
function cjkFold(exact: string): string {
  let s = exact
    .normalize('NFKC')
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(COMBINING_NOT_KANA, '')
    .normalize('NFC')
    .toLowerCase();
  if (/[\u30a1-\u30fc]/.test(s)) {
    s = s.replace(/[ーッ]/g, '');
    for (const [re, to] of VU) s = s.replace(re, to);
    s = s.replace(/[ャュョ]/g, (c) => SMALL_YA[c]!);
  }
  if (/[\uac00-\ud7a3]/.test(s)) s = s.replace(TENSE_INITIAL, plainInitial);
  const words = squash(s).split(' ');
  const out: string[] = [];
  for (const w of words) {
    const cut = w.replace(REGION_SUFFIX, '');
    if (cut && cut !== w) out.push(cut);
    else if (out.length && SUFFIX_WORD[w]?.test(out[out.length - 1]!)) continue;
    else out.push(w);
  }
  const folded = out.join(' ');
  return HAS_HAN_TRADITIONAL.test(folded) ? folded.replace(HAN_TRADITIONAL, (c) => TO_SIMPLIFIED.get(c) ?? c) : folded;
}

/** Case, punctuation and white space normalised; letters as typed. */
export function exactForm(s: string, apostrophe: '' | ' ' = ''): string {
  return asciiSquash(s, true, apostrophe === '') ?? latinSquash(s, true, LATIN_EXACT, apostrophe === '') ?? squash(exactRaw(CJK.test(s) ? cjkExact(s) : s, apostrophe));
}

/** Accents and ligatures folded away from an exact form. */
export function fold(exact: string): string {
  return asciiSquash(exact, true, false) ?? latinSquash(exact, true, LATIN_FOLD, false) ?? (CJK.test(exact) ? cjkFold(exact) : squash(foldRaw(exact)));
}

/**
 * More forms of a CJK index name: with a space where the name has a middle dot ("ピノ ノワール" as
 * some shops write it), and a Korean name of several words also without its spaces ("피노누아").
 */
function cjkVariants(name: string): string[] {
  const out: string[] = [];
  const nfkc = name.normalize('NFKC');
  if (/[・゠=＝]/.test(nfkc)) out.push(fold(exactForm(nfkc.replace(/[・゠=＝]/g, ' '))));
  if (/[\uac00-\ud7af]\s+[\uac00-\ud7af]/.test(nfkc)) out.push(fold(exactForm(nfkc.replace(/(?<=[\uac00-\ud7af])\s+(?=[\uac00-\ud7af])/g, ''))));
  return out.filter((v) => v.length > 0);
}

export const STOP_WORDS: ReadonlySet<string> = new Set([
  // en
  'the', 'of', 'and', 'or', 'in', 'on', 'at', 'a', 'an', 'to',
  // fr
  'de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'et', 'en', 'aux', 'au', 'sur', 'sous',
  // it
  'di', 'del', 'della', 'dello', 'dei', 'delle', 'degli', 'e', 'il', 'lo', 'gli', 'da', 'dal', 'dalla', 'sul',
  // es, pt, ca
  'el', 'los', 'las', 'y', 'do', 'dos', 'das', 'o', 'os', 'i',
  // de
  'der', 'die', 'das', 'und', 'von', 'am', 'im',
  // "American-Style", "German-Style": the Brewers Association's mark of a style named after a place
  'style',
]);

export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  // the domains themselves
  'wine', 'wines', 'vin', 'vins', 'vino', 'vini', 'vinho', 'vinhos', 'wein', 'weine',
  'beer', 'beers', 'biere', 'bier', 'birra', 'cerveza', 'cerveja',
  'spirit', 'spirits', 'liquor', 'liqueur', 'drink', 'drinks',
  // catch-all labels of catalogues and review datasets
  'other', 'others', 'misc', 'miscellaneous', 'various', 'mixed', 'blend', 'blends', 'assorted',
  // wine colours
  'red', 'white', 'rose', 'rosado', 'rosato', 'rouge', 'blanc', 'blanco', 'bianco', 'branco', 'rosso', 'tinto',
]);

/** Stop or generic word: on its own it names no entity. */
export function isWeakWord(folded: string): boolean {
  return STOP_WORDS.has(folded) || GENERIC_WORDS.has(folded);
}

// Abbreviations written both ways in names; each pair maps a whole folded word to the other form.
const ABBREVIATIONS: [string, string][] = [
  ['saint', 'st'], ['sainte', 'ste'], ['sankt', 'st'], ['mount', 'mt'], ['santa', 'sta'],
];

function abbreviationVariants(folded: string): string[] {
  const words = folded.split(' ');
  const out: string[] = [];
  for (const [long, short] of ABBREVIATIONS) {
    if (words.includes(long)) out.push(words.map((w) => (w === long ? short : w)).join(' '));
    if (words.includes(short)) out.push(words.map((w) => (w === short ? long : w)).join(' '));
  }
  return out;
}

// Spelling variants of one word across taxonomies: the query and every index name are also
// written with the second form, so either spelling finds the other.
const RESPELL: Record<string, string> = { pilsener: 'pilsner', pilsen: 'pilsner', flavored: 'flavoured', flavor: 'flavour' };
const RESPELL_HINT = /pils|flavor|india pale ale/;
// "IPA" is the abbreviation of "India Pale Ale": the Brewers Association writes the one, BJCP the other
const IPA = /\bindia pale ales?\b/g;

/** The folded string with variant spellings replaced (returned unchanged when none occurs). */
export function respell(folded: string): string {
  if (!RESPELL_HINT.test(folded)) return folded;
  return folded.replace(IPA, 'ipa').split(' ').map((w) => RESPELL[w] ?? w).join(' ');
}

const withUmlautE = (exact: string) => exact.replace(/[äöü]/g, (c) => UMLAUT_E[c]!);

/** The folded forms under which an index name is findable. */
export function indexVariants(name: string): string[] {
  const out = new Set<string>();
  for (const apostrophe of ['', ' '] as const) {
    const exact = exactForm(name, apostrophe);
    if (!exact) continue;
    out.add(fold(exact));
    if (/[äöü]/.test(exact)) out.add(fold(withUmlautE(exact)));
  }
  if (CJK.test(name)) for (const v of cjkVariants(name)) out.add(v);
  for (const v of [...out]) out.add(respell(v));
  for (const v of [...out]) for (const a of abbreviationVariants(v)) out.add(a);
  return [...out];
}

export interface QueryForms {
  exact: string;
  folded: string;
  /** the folded form with ä/ö/ü written ae/oe/ue, when the query has an umlaut */
  foldedAlt: string | null;
  tokens: string[];
  /** per token: letters as typed (case kept), folded; same length as tokens when it lines up */
  cased: string[];
}

/** Case-preserving fold of one query, for spotting abbreviations such as "DIPA" or "GrüVe". */
function foldKeepCase(q: string): string[] {
  const sq = latinSquash(q, false, LATIN_KEEP_CASE, true) ?? squash(foldKeepCaseRaw(q));
  return sq ? sq.split(' ') : [];
}

/** Whether each cased token lower-cases to the token at the same place. */
function linesUp(cased: string[], tokens: string[]): boolean {
  if (cased.length !== tokens.length) return false;
  for (let i = 0; i < cased.length; i++) if (cased[i]!.toLowerCase() !== tokens[i]) return false;
  return true;
}

export function queryForms(q: string): QueryForms {
  const ascii = asciiSquash(q, true, true);
  if (ascii !== null) {
    // ASCII: exact and folded forms are the same string; cased tokens only when q has capitals
    const folded = respell(ascii);
    const tokens = folded ? folded.split(' ') : [];
    let cased = tokens;
    for (let i = 0; i < q.length; i++) {
      const c = q.charCodeAt(i);
      if (c >= 65 && c <= 90) {
        const sq = asciiSquash(q, false, true)!;
        const cs = sq ? sq.split(' ') : [];
        if (cs.length === tokens.length) {
          cased = cs;
          for (let j = 0; j < cs.length; j++) if (cs[j]!.toLowerCase() !== tokens[j]) cased = tokens;
        }
        break;
      }
    }
    return { exact: ascii, folded, foldedAlt: null, tokens, cased };
  }
  const exact = exactForm(q);
  const folded = respell(fold(exact));
  const tokens = folded ? folded.split(' ') : [];
  const cased = q === q.toLowerCase() ? tokens : foldKeepCase(q);
  return {
    exact,
    folded,
    foldedAlt: /[äöü]/.test(exact) ? fold(withUmlautE(exact)) : null,
    tokens,
    cased: linesUp(cased, tokens) ? cased : tokens,
  };
}

/**
 * How an abbreviation-like query word splits into word prefixes: "GrüVe" (capitals inside the word)
 * → ["gru", "ve"]; "DIPA", "NZ" (two to six capitals, no lower case) → "free" (any split); otherwise
 * null (an ordinary word).
 */
export function abbreviationSplit(cased: string): string[] | 'free' | null {
  // ASCII fast path: letters A–Z and a–z only, the same answer without regular expressions
  let caps = 0;
  let ascii = cased.length > 0;
  for (let i = 0; i < cased.length; i++) {
    const c = cased.charCodeAt(i);
    if (c >= 128) {
      ascii = false;
      break;
    }
    if (c >= 65 && c <= 90) caps++;
    else if (c < 97 || c > 122) return null;
  }
  if (ascii) {
    if (caps === cased.length && caps >= 2 && caps <= 6) return 'free';
    const c0 = cased.charCodeAt(0);
    if (caps < 2 || c0 < 65 || c0 > 90) return null;
    const parts: string[] = [];
    let from = 0;
    for (let i = 1; i <= cased.length; i++) {
      const c = i < cased.length ? cased.charCodeAt(i) : 65;
      if (c >= 65 && c <= 90) {
        parts.push(cased.slice(from, i).toLowerCase());
        from = i;
      }
    }
    return parts;
  }
  if (!/^\p{L}+$/u.test(cased)) return null;
  const upper = [...cased].filter((c) => c !== c.toLowerCase()).length;
  if (upper === cased.length && upper >= 2 && upper <= 6) return 'free';
  if (upper >= 2 && cased[0] !== cased[0]!.toLowerCase()) {
    const parts = cased.split(/(?=\p{Lu})/u).map((p) => p.toLowerCase());
    if (parts.length >= 2 && parts.every((p) => p.length >= 1)) return parts;
  }
  return null;
}

/**
 * Optimal-string-alignment (restricted Damerau) distance, so a swap of two letters is one edit.
 * Gives up early and returns max+1 once the distance must exceed `max`.
 */
let ROWS = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

export function damerau(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  // three reused rows (resolution is synchronous): no allocation per call
  if (ROWS[0]!.length < lb + 1) ROWS = [new Int32Array(lb + 1), new Int32Array(lb + 1), new Int32Array(lb + 1)];
  let prev2 = ROWS[0]!;
  let prev = ROWS[1]!;
  let cur = ROWS[2]!;
  prev2.fill(0, 0, lb + 1);
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

const HASH_MUL = 0x01000193;

/**
 * 32-bit hashes of the same neighbourhood as `deletes(word, k)` for k ≤ 2, without building the
 * strings (the query's hot path). Equal strings hash equal; a collision only adds a candidate that
 * the Damerau check then drops. The same string may appear more than once.
 */
export function deletionHashes(word: string, k: number, out: number[] = []): number[] {
  const n = word.length;
  out.push(deletionHash(word, n, -1, -1));
  // the same values as deletionHash(word, n − d, i, j), sharing work: the state over the letters
  // before the first deletion is kept per position, and the letters between two deletions are
  // carried forward as j moves; only the letters after the last deletion are hashed each time
  if (k >= 1) {
    let pre = 0x811c9dc5 ^ (n - 1);
    for (let i = 0; i < n; i++) {
      let h = pre;
      for (let c = i + 1; c < n; c++) h = Math.imul(h ^ word.charCodeAt(c), HASH_MUL);
      out.push(h | 0);
      pre = Math.imul(pre ^ word.charCodeAt(i), HASH_MUL);
    }
  }
  if (k >= 2) {
    let pre = 0x811c9dc5 ^ (n - 2);
    for (let i = 0; i < n; i++) {
      let mid = pre;
      for (let j = i + 1; j < n; j++) {
        let h = mid;
        for (let c = j + 1; c < n; c++) h = Math.imul(h ^ word.charCodeAt(c), HASH_MUL);
        out.push(h | 0);
        mid = Math.imul(mid ^ word.charCodeAt(j), HASH_MUL);
      }
      pre = Math.imul(pre ^ word.charCodeAt(i), HASH_MUL);
    }
  }
  return out;
}

function deletionHash(word: string, len: number, skipA: number, skipB: number): number {
  let h = 0x811c9dc5 ^ len;
  for (let c = 0; c < word.length; c++) {
    if (c === skipA || c === skipB) continue;
    h = Math.imul(h ^ word.charCodeAt(c), HASH_MUL);
  }
  return h | 0;
}
