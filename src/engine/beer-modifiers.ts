// Beer descriptions read as a base style plus modifiers (issue 32, item 3): menus write "Bourbon Barrel
// Aged Stout", "DIPA with Tangerines", "Wild Ale with Peaches". The BJCP 2021 guidelines put such a beer
// in a specialty style that takes the modifier (29 Fruit Beer, 30 Spiced Beer, 33 Wood Beer, 28C Wild
// Specialty Beer) and keep the base style as part of its description. This module reads the words of a
// query into modifier phrases (word classes from data/beer-modifiers.json: fruit, spice, wood, alcohol,
// wild, derived by tools/derive/beer-modifiers.mjs from the Open Food Facts ingredients taxonomy and the
// BJCP text), joiners ("with", "aged") and the rest, the base; the resolver resolves the base and asks
// `specialty` which style the modifiers go to. Pure: no I/O.
//
// Rules (data/beer-modifiers.json `styles`, first match wins):
//   - a base whose BJCP tags already hold a modifier's class has it ("Flemish Sour Brown": Oud Bruin is
//     sour; "Oak-aged Flanders Red"): that class chooses nothing; when none is left the answer is the base;
//   - a base of category 28 (tag wild-fermentation) counts as wild ("Wild Ale with Peaches" → 28C);
//   - otherwise the first rule whose classes are all present, whose `with_any` class (if any) is present,
//     and whose base list (if any) holds the base's top candidate.
import { Type, type Static } from '@sinclair/typebox';
import { exactForm, fold } from './normalize.ts';

export const MODIFIER_CLASSES = ['fruit', 'spice', 'wood', 'alcohol', 'wild', 'smoke'] as const;
export type ModifierClass = (typeof MODIFIER_CLASSES)[number];

const Cited = { source: Type.String({ minLength: 1 }), locator: Type.String({ minLength: 1 }) };
const ClassSchema = Type.Union(MODIFIER_CLASSES.map((c) => Type.Literal(c)));
export const BeerModifiersSchema = Type.Object({
  about: Type.String(),
  derived_by: Type.String(),
  classes: Type.Array(Type.Object({ class: ClassSchema, words: Type.Array(Type.String({ minLength: 1 })), sources: Type.Array(Type.Object(Cited), { minItems: 1 }) })),
  joiners: Type.Object({ words: Type.Array(Type.String({ minLength: 1 })), ...Cited }),
  styles: Type.Array(
    Type.Object({
      classes: Type.Array(ClassSchema, { minItems: 1 }),
      with_any: Type.Optional(Type.Array(ClassSchema)),
      requires_joiner: Type.Optional(Type.String()),
      base: Type.Optional(Type.Array(Type.String())),
      style: Type.String({ minLength: 1 }),
      also: Type.Optional(Type.Array(Type.String())),
      ...Cited,
    }),
  ),
  inherent_tags: Type.Record(Type.String(), Type.Array(Type.String())),
  inherent_source: Type.Object(Cited),
});
export type BeerModifiersRecord = Static<typeof BeerModifiersSchema>;

/** A modifier phrase of the query: its words as typed (folded) and its class. */
export interface ModifierPhrase {
  text: string;
  class: ModifierClass;
}

/** A query read as modifiers, joiners and a base (the base words keep their order). */
export interface ModifierSplit {
  modifiers: (ModifierPhrase & { start: number; end: number })[];
  joiners: string[];
  base: string[];
  /** the indices of the base words in the query */
  baseAt: number[];
}

/** What `specialty` answers: the style (and the other styles it may be), or the base itself (`inherent`). */
export interface SpecialtyChoice {
  styles: number[];
  inherent: boolean;
  /** the classes that chose the style (after those the base already has) */
  classes: ModifierClass[];
  source: string;
  locator: string;
}

/** Longest modifier phrase, in words. */
const MAX_PHRASE = 3;

const key = (s: string) => fold(exactForm(s));

/** English plural endings tried on a phrase's last word ("tangerines", "peaches", "raspberries"). */
function singulars(w: string): string[] {
  const out: string[] = [];
  if (w.length < 4) return out;
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  return out;
}

export class BeerModifiers {
  private readonly phrases = new Map<string, ModifierClass>();
  /** every word of a phrase or joiner: a query holding none of them has no modifier (one look-up a word) */
  private readonly words = new Set<string>();
  private readonly joiners = new Set<string>();
  private readonly rules: { classes: ModifierClass[]; withAny: ModifierClass[]; joiner: string | null; base: Set<number> | null; styles: number[]; source: string; locator: string }[] = [];
  private readonly inherent: Map<string, string[]>;
  private readonly inherentSource: { source: string; locator: string };

  /**
   * `entityOf`: the entity index of a permanent key (undefined when not served); `tagsOf`: an entity's
   * BJCP tags. Rules naming a style that is not served are left out.
   */
  constructor(
    record: BeerModifiersRecord,
    entityOf: (key: string) => number | undefined,
    private readonly tagsOf: (entity: number) => readonly string[],
  ) {
    for (const c of record.classes) {
      for (const w of c.words) {
        const k = key(w);
        if (!k) continue;
        // a name in two classes keeps the first: the derivation lists its classes apart
        if (!this.phrases.has(k)) this.phrases.set(k, c.class);
        for (const t of k.split(' ')) this.words.add(t);
        // the vocabulary mixes singular and plural names ("Tangerines"): the singular is read too
        const i = k.lastIndexOf(' ');
        for (const s of singulars(k.slice(i + 1))) {
          if (s.length < 4) continue;
          const v = k.slice(0, i + 1) + s;
          if (!this.phrases.has(v)) this.phrases.set(v, c.class);
          this.words.add(s);
        }
      }
    }
    for (const w of record.joiners.words) {
      const k = key(w);
      this.joiners.add(k);
      this.words.add(k);
    }
    for (const r of record.styles) {
      const style = entityOf(r.style);
      if (style === undefined) continue;
      const also = (r.also ?? []).map(entityOf).filter((e): e is number => e !== undefined);
      const base = r.base ? new Set(r.base.map(entityOf).filter((e): e is number => e !== undefined)) : null;
      this.rules.push({ classes: r.classes, withAny: r.with_any ?? [], joiner: r.requires_joiner ? key(r.requires_joiner) : null, base, styles: [style, ...also], source: r.source, locator: r.locator });
    }
    this.inherent = new Map(Object.entries(record.inherent_tags));
    this.inherentSource = record.inherent_source;
  }

  /** Whether some word of the query may start a modifier (cheap: most queries hold none). */
  mayContain(tokens: readonly string[]): boolean {
    for (const t of tokens) if (this.words.has(t) || (t.length >= 4 && t.endsWith('s') && singulars(t).some((s) => this.words.has(s)))) return true;
    return false;
  }

  /** The class of a phrase of folded words, its last word also tried as a singular. */
  private classOf(words: readonly string[]): ModifierClass | undefined {
    const k = words.join(' ');
    const c = this.phrases.get(k);
    if (c) return c;
    const head = words.slice(0, -1).join(' ');
    for (const s of singulars(words[words.length - 1]!)) {
      const x = this.phrases.get(head ? `${head} ${s}` : s);
      if (x) return x;
    }
    return undefined;
  }

  /**
   * The query's modifier phrases (longest first, left to right), joiners and base words; null when there
   * is no modifier or no base word. A joiner counts only beside a modifier; otherwise it stays in the base.
   */
  split(tokens: readonly string[]): ModifierSplit | null {
    const modifiers: ModifierSplit['modifiers'] = [];
    const kind: (0 | 1 | 2)[] = tokens.map(() => 0); // 0 base, 1 modifier, 2 joiner
    for (let i = 0; i < tokens.length; ) {
      let found = 0;
      for (let n = Math.min(MAX_PHRASE, tokens.length - i); n >= 1 && !found; n--) {
        const c = this.classOf(tokens.slice(i, i + n));
        if (c) {
          modifiers.push({ text: tokens.slice(i, i + n).join(' '), class: c, start: i, end: i + n });
          for (let j = i; j < i + n; j++) kind[j] = 1;
          found = n;
        }
      }
      i += found || 1;
    }
    if (modifiers.length === 0) return null;
    const joiners: string[] = [];
    for (let i = 0; i < tokens.length; i++) if (kind[i] === 0 && this.joiners.has(tokens[i]!)) {
      kind[i] = 2;
      joiners.push(tokens[i]!);
    }
    // the last word is the head of the phrase: a spirit there names the spirit ("Single Barrel Bourbon", "Aged Dark Rum")
    const last = modifiers[modifiers.length - 1]!;
    if (last.class === 'alcohol' && last.end === tokens.length) return null;
    const baseAt: number[] = [];
    for (let i = 0; i < tokens.length; i++) if (kind[i] === 0) baseAt.push(i);
    if (baseAt.length === 0) return null;
    return { modifiers, joiners, base: baseAt.map((i) => tokens[i]!), baseAt };
  }

  /** Which style the modifiers of `split` go to, given the base's top candidate; null when no rule applies. */
  specialty(split: ModifierSplit, base: number): SpecialtyChoice | null {
    const tags = this.tagsOf(base);
    const has = (c: string) => (this.inherent.get(c) ?? []).some((t) => tags.includes(t));
    const present = new Set<ModifierClass>();
    for (const m of split.modifiers) if (!has(m.class)) present.add(m.class);
    // a previous alcohol names a barrel's: with the base's own wood it chooses nothing more
    if (present.size === 1 && present.has('alcohol') && has('wood')) present.delete('alcohol');
    if (present.size === 0) return { styles: [base], inherent: true, classes: [], ...this.inherentSource };
    // a base of the wild category is wild
    if (tags.includes('wild-fermentation')) present.add('wild');
    for (const r of this.rules) {
      if (!r.classes.every((c) => present.has(c))) continue;
      if (r.withAny.length && !r.withAny.some((c) => present.has(c))) continue;
      if (r.joiner && !split.joiners.includes(r.joiner)) continue;
      if (r.base && !r.base.has(base)) continue;
      return { styles: r.styles, inherent: false, classes: [...present], source: r.source, locator: r.locator };
    }
    return null;
  }
}
