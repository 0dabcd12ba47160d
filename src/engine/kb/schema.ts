// Schemas of the knowledge-base data files (see data/README.md). Validated at start-up and by
// `admin kb validate`; a record that does not fit stops the start with file, record and field.
import { Type, type Static } from '@sinclair/typebox';

export const AUTHORITIES = [
  'official_regional_wine_body',
  'regulator',
  'official_register',
  'trade_body',
  'educational_body',
  'wine_press',
  'variety_catalogue',
  'style_guideline',
] as const;

export const ENTITY_TYPES = ['grape', 'wine_geography', 'spirit', 'beer_style', 'wine_style'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const DOMAIN_OF: Record<EntityType, 'wine' | 'spirits' | 'beer'> = {
  grape: 'wine',
  wine_geography: 'wine',
  spirit: 'spirits',
  beer_style: 'beer',
  wine_style: 'wine',
};
export const KEY_FAMILY: Record<EntityType, string> = {
  grape: 'grape',
  wine_geography: 'geo',
  spirit: 'spirit',
  beer_style: 'beer',
  wine_style: 'style',
};
/** Pattern of a permanent entity key (`<family>/<slug>`). */
export const ENTITY_KEY_PATTERN = '^(grape|geo|spirit|beer|style)/[a-z0-9][a-z0-9-]*$';
/** Whether a string is shaped like a permanent entity key (used where a fact value may name an entity). */
export const ENTITY_KEY_PREFIX = /^(grape|geo|spirit|beer|style)\//;

const Str = Type.String({ minLength: 1 });
const SourceKey = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' });
const Url = Type.String({ pattern: '^https?://\\S+$' });

export const RETRIEVAL_KINDS = ['mirror', 'reprint', 'third_party_list', 'scrape', 'encyclopedia_copy', 'dataset'] as const;
export const RetrievedViaSchema = Type.Object(
  { url: Url, kind: Type.Union(RETRIEVAL_KINDS.map((k) => Type.Literal(k))), note: Type.Optional(Str) },
  { additionalProperties: false },
);
export type RetrievedVia = Static<typeof RetrievedViaSchema>;

export const SourceSchema = Type.Object(
  {
    key: SourceKey,
    title: Str,
    publisher: Str,
    authority: Type.Union(AUTHORITIES.map((a) => Type.Literal(a))),
    url: Url,
    licence: Str,
    accessed: Type.Optional(Type.String()),
    notes: Type.Optional(Type.String()),
    /** Where the text was actually read when that was a copy (mirror, reprint, third-party list). */
    retrieved_via: Type.Optional(RetrievedViaSchema),
  },
  { additionalProperties: false },
);
export type Source = Static<typeof SourceSchema>;

export const FactSchema = Type.Object(
  {
    value: Type.Union([
      Type.String({ minLength: 1 }),
      Type.Number(),
      Type.Boolean(),
      Type.Array(Type.String({ minLength: 1 })),
      Type.Object({ min: Type.Number(), max: Type.Number() }, { additionalProperties: false }),
    ]),
    source: SourceKey,
    locator: Str,
    /** a verbatim passage (≤ 300 characters) of the source that states the fact (wine style definitions) */
    source_excerpt: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    /** language of source_excerpt (required with it) */
    language_code: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}$' })),
  },
  { additionalProperties: false },
);
export type Fact = Static<typeof FactSchema>;

export const ALIAS_KINDS = [
  'synonym',
  'trade_name',
  'other_language',
  'abbreviation',
  'protected_name',
  'common_name',
  'former_name',
] as const;

export const AliasSchema = Type.Object(
  {
    name: Str,
    lang: Type.String({ pattern: '^(und|[a-z]{2,3}(-[A-Za-z0-9]{2,8})*)$' }),
    kind: Type.Union(ALIAS_KINDS.map((k) => Type.Literal(k))),
    source: SourceKey,
    locator: Str,
  },
  { additionalProperties: false },
);
export type Alias = Static<typeof AliasSchema>;

/** data/aliases/*.json: aliases for a record that lives in another file (e.g. a derived one). */
export const AliasAdditionSchema = Type.Object(
  { entity: Type.String({ pattern: ENTITY_KEY_PATTERN }), aliases: Type.Array(AliasSchema, { minItems: 1 }) },
  { additionalProperties: false },
);
export type AliasAdditionRecord = Static<typeof AliasAdditionSchema>;

export const REVIEW_STATES = ['draft', 'reviewed', 'verified'] as const;
const Review = Type.Union(REVIEW_STATES.map((r) => Type.Literal(r)));

export const EntityRecordSchema = Type.Object(
  {
    key: Type.String({ pattern: ENTITY_KEY_PATTERN }),
    type: Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t))),
    name: Str,
    review: Review,
    aliases: Type.Array(AliasSchema),
    facts: Type.Record(Type.String({ pattern: '^[a-z_]+$' }), FactSchema),
    notes: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type EntityRecord = Static<typeof EntityRecordSchema>;

/** Facts each family may carry, with the kind of value each takes. */
export const FACT_FIELDS: Record<EntityType, Record<string, 'string' | 'number' | 'range' | 'strings' | 'entity' | 'entities'>> = {
  grape: {
    vivc_id: 'string',
    vivc_prime_name: 'string',
    berry_colour: 'string',
    country_of_origin: 'string',
    species_group: 'string',
    wikidata_id: 'string',
  },
  wine_geography: {
    level: 'string',
    parent: 'entity',
    country: 'string',
    classification: 'string',
    legal_reference: 'string',
    file_number: 'string',
    cfr_section: 'string',
    established: 'string',
    states: 'strings',
    counties: 'strings',
    grapes: 'entities',
    wikidata_id: 'string',
  },
  spirit: {
    category: 'string',
    country: 'string',
    base_material: 'string',
    distillation: 'string',
    ageing: 'string',
    min_abv: 'number',
    regulation: 'string',
    gi_type: 'string',
    file_number: 'string',
    parent: 'entity',
    established: 'string',
    wikidata_id: 'string',
  },
  beer_style: {
    style_id: 'string',
    category: 'string',
    category_id: 'string',
    og: 'range',
    fg: 'range',
    ibu: 'range',
    srm: 'range',
    abv: 'range',
    tags: 'strings',
    /** a named sub-style or historical style: the BJCP style or category entry it sits in */
    parent: 'entity',
  },
  wine_style: {
    /** product_category | sweetness_term | sherry_style | port_style | production_method | style */
    category: 'string',
    /** the legal or official definition, in our own words (with source_excerpt + language_code: the text read) */
    definition: 'string',
    legal_reference: 'string',
    country: 'string',
    /** a broader wine style */
    parent: 'entity',
    /** the appellation whose rules define the style (sherry, port) */
    appellation: 'entity',
    min_abv: 'number',
    max_abv: 'number',
    min_pressure_bar: 'number',
    max_pressure_bar: 'number',
    sugar_g_per_l: 'range',
    ageing: 'string',
    wikidata_id: 'string',
  },
};

/** Values of a wine style's `category` fact. */
export const WINE_STYLE_CATEGORIES = ['product_category', 'sweetness_term', 'sherry_style', 'port_style', 'production_method', 'style'] as const;

export const GEO_LEVELS = ['country', 'region', 'subregion', 'appellation'] as const;

const NullableStr = Type.Union([Type.String(), Type.Null()]);

export const ProvenanceSchema = Type.Object(
  { source: SourceKey, locator: Url, supports: Type.Array(Str, { minItems: 1 }) },
  { additionalProperties: false },
);

export const SensorySchema = Type.Object(
  {
    entity: Str,
    expression_key: Type.String({ pattern: '^[a-z0-9_]+$' }),
    expression_name: Str,
    geography_scope: NullableStr,
    style_scope: NullableStr,
    common_styles: Type.Array(Str),
    body: NullableStr,
    tannin: NullableStr,
    acidity: NullableStr,
    aromatic_intensity: NullableStr,
    aroma_families: Type.Array(Str),
    primary_aromas: Type.Array(Str),
    development_aromas: Type.Array(Str),
    blending_roles: Type.Array(Str),
    variation_notes: Type.Array(Str),
    climate_affinity: Type.Object(
      { soils: NullableStr, preference: NullableStr },
      { additionalProperties: false },
    ),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    review_status: Review,
    provenance: Type.Array(ProvenanceSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type SensoryRecord = Static<typeof SensorySchema>;

export const FOOD_CATEGORIES = [
  'meat', 'poultry', 'fish', 'seafood', 'vegetable', 'pasta', 'cheese', 'dessert', 'charcuterie',
  'egg', 'rice', 'spicy', 'other',
] as const;

export const GuidanceItemSchema = Type.Object(
  {
    food_item: Str,
    dish: NullableStr,
    pairing_key: Type.String({ pattern: '^[a-z0-9]+(_[a-z0-9]+)*$' }),
    pairing_text: Str,
    pairing_relationship: Type.Union([Type.Literal('recommended'), Type.Literal('suitable'), Type.Literal('avoid')]),
    food_category: Type.Union(FOOD_CATEGORIES.map((c) => Type.Literal(c))),
    preparation: NullableStr,
    qualifier: NullableStr,
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    verification_status: Type.Literal('verified'),
    evidence_version: Str,
    language_code: Type.String({ pattern: '^[a-z]{2,3}$' }),
    geography_scope: NullableStr,
    style_scope: NullableStr,
    oak_scope: NullableStr,
    serving_scope: NullableStr,
    wine_age_scope: NullableStr,
    sweetness_scope: NullableStr,
    pairing_rationale: NullableStr,
    source_key: SourceKey,
    source_url: Url,
    source_section: Str,
    source_page: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    source_excerpt: Type.String({ minLength: 1, maxLength: 300 }),
  },
  { additionalProperties: false },
);
export type GuidanceItemRecord = Static<typeof GuidanceItemSchema>;

export const PairingSetSchema = Type.Object(
  {
    entity: Str,
    guidance_version: Str,
    review: Review,
    items: Type.Array(GuidanceItemSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type PairingSetRecord = Static<typeof PairingSetSchema>;

export const AmbiguitySchema = Type.Object(
  {
    term: Str,
    entities: Type.Array(Str, { minItems: 2 }),
    note: Str,
    /**
     * The entity listed first when the term is asked for and its meanings tie on score (one of
     * `entities`); the note says the rule that chose it. Without it, ties follow the demand prior. The
     * term stays ambiguous either way.
     */
    first: Type.Optional(Str),
  },
  { additionalProperties: false },
);
export type AmbiguityRecord = Static<typeof AmbiguitySchema>;

/** data/out-of-scope.json: terms for drinks outside the four domains (answered `coverage: out_of_scope`). */
export const OutOfScopeSchema = Type.Object(
  { term: Str, category: Str, note: Type.Optional(Str), source: Type.Optional(SourceKey), locator: Type.Optional(Str) },
  { additionalProperties: false },
);
export type OutOfScopeRecord = Static<typeof OutOfScopeSchema>;

/** data/place-names.json: country names people write, with their ISO 3166-1 alpha-2 codes. */
export const PlaceNamesSchema = Type.Object(
  {
    source: SourceKey,
    locator: Str,
    note: Type.Optional(Str),
    names: Type.Array(Type.Object({ name: Str, code: Type.String({ pattern: '^[A-Z]{2}$' }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type PlaceNamesRecord = Static<typeof PlaceNamesSchema>;

/** data/designations.json: designation words and traditional terms of wine labels, each with its legal source. */
export const DESIGNATION_KINDS = ['designation', 'traditional_term'] as const;
export const DesignationSchema = Type.Object(
  {
    term: Str,
    kind: Type.Union(DESIGNATION_KINDS.map((k) => Type.Literal(k))),
    expansion: Type.Union([Str, Type.Null()]),
    lang: Type.String({ pattern: '^(und|[a-z]{2,3}(-[A-Za-z0-9]{2,8})*)$' }),
    countries: Type.Array(Type.String({ pattern: '^([A-Z]{2}|EU)$' })),
    source: SourceKey,
    locator: Str,
    note: Type.Optional(Str),
  },
  { additionalProperties: false },
);
export type DesignationRecord = Static<typeof DesignationSchema>;
export const DesignationsFileSchema = Type.Object({ terms: Type.Array(Type.Unknown()) }, { additionalProperties: true });

/** data/appellation-grapes/*.json: the grape rules of an appellation, read in its product specification (issue 21). */
export const GRAPE_ROLES = ['required', 'principal', 'permitted', 'accessory'] as const;
export type GrapeRole = (typeof GRAPE_ROLES)[number];
const Share = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]);
/** Why a variety a rule's source lists is not among its grapes (issue 34, item 2). */
export const UNMAPPED_REASONS = ['no_grape_record', 'no_vivc_match', 'several_vivc_numbers', 'several_grapes', 'name_of_another_entity', 'not_a_variety'] as const;

/** What a rule set's `in_force_from` date is (issue 34, item 4). */
export const IN_FORCE_BASES = ['stated', 'act', 'publication'] as const;
/** data/grape-crosswalk.json (issue 34, item 1): a name registers and single documents use, tied to a VIVC number or left unmapped on purpose. */
export const GrapeCrosswalkRowSchema = Type.Object(
  {
    name: Str,
    /** ISO 3166-1 alpha-2 of the country whose documents use the name so; null: any country */
    country: Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()]),
    vivc_number: Type.Union([Type.String({ pattern: '^[0-9]+$' }), Type.Null()]),
    vivc_prime_name: Type.Optional(Str),
    vivc_berry_colour: Type.Optional(Type.Union([Str, Type.Null()])),
    /** why a row without a number leaves the name unmapped */
    reason: Type.Optional(Type.Union(UNMAPPED_REASONS.map((r) => Type.Literal(r)))),
    source: SourceKey,
    locator: Str,
    basis: Str,
    note: Type.Optional(Str),
  },
  { additionalProperties: false },
);
export type GrapeCrosswalkRow = Static<typeof GrapeCrosswalkRowSchema>;

export const GrapeRuleSetSchema = Type.Object(
  {
    appellation: Type.String({ pattern: ENTITY_KEY_PATTERN }),
    source: SourceKey,
    locator: Str,
    /** the wine type the set applies to when the text gives separate lists ("red", "white", "Riserva"), else null */
    scope: Type.Optional(Type.Union([Str, Type.Null()])),
    grapes: Type.Array(
      Type.Object(
        {
          grape: Type.String({ pattern: ENTITY_KEY_PATTERN }),
          role: Type.Union(GRAPE_ROLES.map((r) => Type.Literal(r))),
          min_share: Share,
          max_share: Share,
          /** the wine types the role holds for, where the source splits them ("Red; Rosé") */
          scope: Type.Optional(Type.Union([Str, Type.Null()])),
        },
        { additionalProperties: false },
      ),
      { minItems: 0 },
    ),
    /**
     * Whether every variety the source lists is among `grapes` (issue 34, item 2). A set is `false` when a
     * listed name maps to no grape (each such name is in `unmapped`), or when nobody re-read the whole list
     * (`completeness_note` says so). Unnamed "other varieties" clauses do not make a set partial.
     */
    complete: Type.Boolean(),
    unmapped: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Str,
            reason: Type.Union(UNMAPPED_REASONS.map((r) => Type.Literal(r))),
            /** the name as the source writes it, where it differs from `name` */
            source_text: Type.Optional(Str),
          },
          { additionalProperties: false },
        ),
        { minItems: 1 },
      ),
    ),
    completeness_note: Type.Optional(Str),
    /**
     * When the set's rule applies from (issue 34, item 4), `YYYY-MM-DD`, or `YYYY` for a rule that applies
     * from a harvest (vintage) the text names; `in_force_basis` says what the
     * date is: `stated` (the text names the date or harvest it applies from), `act` (the date of the
     * decree or regulation that adopted the text) or `publication` (its publication in the official journal).
     */
    in_force_from: Type.Optional(Type.String({ pattern: '^\\d{4}(-\\d{2}-\\d{2})?$' })),
    in_force_basis: Type.Optional(Type.Union(IN_FORCE_BASES.map((b) => Type.Literal(b)))),
    /** the earlier texts this set's text amended or replaced (source keys), so a reader sees which version is served */
    supersedes: Type.Optional(Type.Array(SourceKey, { minItems: 1 })),
    note: Type.Optional(Str),
  },
  { additionalProperties: false },
);
export type GrapeRuleSetRecord = Static<typeof GrapeRuleSetSchema>;

/** data/label-terms.json: the legal sources of the label words a line parser reports (ABV, volume, age, vintage, colour). */
export const LabelTermsSchema = Type.Object(
  {
    kinds: Type.Array(Type.Object({ kind: Str, source: SourceKey, locator: Str, note: Type.Optional(Str) }, { additionalProperties: false })),
    colours: Type.Array(Type.Object({ term: Str, lang: Str, value: Str, source: SourceKey, locator: Str }, { additionalProperties: false })),
    /** Sweetness and style words that narrow an answer (issue 33): `value` is the class the word names; `for`, the entities it is a scope of (any when absent). */
    scope_words: Type.Optional(
      Type.Array(
        Type.Object(
          { term: Str, lang: Str, dimension: Type.Union([Type.Literal('sweetness'), Type.Literal('style')]), value: Str, source: SourceKey, locator: Str, for: Type.Optional(Type.Array(Str, { minItems: 1 })) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: true },
);
export type LabelTermsRecord = Static<typeof LabelTermsSchema>;

/** data/kb.json: the release label and, optionally, its date (YYYY-MM-DD, shown by GET /v1/kb). */
export const KbMetaSchema = Type.Object({ version: Str, date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })) }, { additionalProperties: false });

/** Confidence a pairing item or sensory expression may claim, by the authority of its source. */
export const CONFIDENCE_BY_AUTHORITY: Partial<Record<(typeof AUTHORITIES)[number], number>> = {
  official_regional_wine_body: 0.9,
  regulator: 0.9,
  trade_body: 0.8,
  educational_body: 0.75,
  wine_press: 0.6,
};

/** Confidence classes, highest first: text read in a copy (`retrieved_via`) is capped one class lower. */
const CONFIDENCE_CLASSES = [0.9, 0.8, 0.75, 0.6, 0.5];
export function copyCeiling(ceiling: number): number {
  return CONFIDENCE_CLASSES.find((c) => c < ceiling - 1e-9) ?? ceiling;
}

/** data/food/vocabulary.json (the food vocabulary of /v1/pair-food; checked by load.ts). */
export interface FoodNodeRecord {
  id: string;
  names: Record<string, string[]>;
  parents: string[];
}

export interface FoodVocabularyRecord {
  source: string;
  url: string;
  retrieved_via?: { url: string; kind: string; note?: string };
  version: string;
  licence: string;
  derived_by: string;
  languages: string[];
  nodes: FoodNodeRecord[];
}
