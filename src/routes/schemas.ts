// Shared TypeBox schemas: request parameters, the error envelope, the quota headers and the demo
// object. They validate requests and generate the OpenAPI document at once.
import { Type } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../gateway/errors.ts';

export const termParam = (maxLength: number, name = 'q', description = 'Free-text term: a name, alias, style or wine geography, or an entity_id.') =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description, examples: ['pinot noir'] });

const TYPE_LIST = '^(grape|wine_geography|spirit|beer_style|wine_style)(,(grape|wine_geography|spirit|beer_style|wine_style))*$';
export const typeFilterParam = Type.String({
  pattern: TYPE_LIST,
  maxLength: 60,
  description: 'Entity type: grape, wine_geography, spirit, beer_style or wine_style (a legally defined wine category, sweetness term or style such as sparkling wine, Brut or Fino); several as a comma list (grape,wine_geography).',
  examples: ['grape'],
});
export const domainFilterParam = Type.Union([Type.Literal('wine'), Type.Literal('spirits'), Type.Literal('beer')], { description: 'Domain: wine, spirits or beer.' });

/** Sensory reference expressions of one entity, and the boundary when there are none. */
export const SensoryParts = {
  reference_expressions: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'Sensory reference expressions (spec 2.5) of the entity; empty when none is sourced.' }),
  sensory_boundary: Type.Union([Type.Object({ reason: Type.Literal('no_sourced_sensory_evidence'), message: Type.String() }), Type.Null()], { description: 'An object exactly when reference_expressions is empty; null otherwise.' }),
};

export const ID_NOTE = 'An entity_id (or a permanent key such as grape/syrah) is accepted too: that entity is then resolved directly, with state "resolved", matched_on "entity_id" and score 100.';

export const limitParam = Type.Integer({ minimum: 1, maximum: 25, default: 10, description: 'Maximum number of matches, 1 to 25.' });

export const ErrorBody = (codes: ErrorCode[]) =>
  Type.Object(
    {
      ok: Type.Literal(false),
      error: Type.Object(
        {
          code: Type.Union(codes.map((c) => Type.Literal(c))),
          message: Type.String({ description: 'What went wrong, naming the parameter or limit involved.' }),
          request_id: Type.String({ description: 'Same value as the X-Request-Id response header.' }),
          parameter: Type.Optional(Type.String({ description: 'INVALID_REQUEST and ENTITY_NOT_RESOLVED: the parameter at fault.' })),
          coverage: Type.Optional(Type.Union([Type.Literal('out_of_scope'), Type.Literal('unknown_term')], { description: `ENTITY_NOT_RESOLVED: ${COVERAGE_DESCRIPTION}` })),
          suggestions: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'ENTITY_NOT_RESOLVED: up to 5 nearest names below the threshold, shaped like resolve-entity suggestions.' })),
          plans: Type.Optional(Type.String({ format: 'uri', description: 'Demo limit errors and QUOTA_EXCEEDED: the plans page (where to get a key or a larger plan).' })),
          next_plan: Type.Optional(Type.String({ description: 'QUOTA_EXCEEDED: the public plan with the next larger monthly allowance, where there is one.' })),
          keyed_endpoint: Type.Optional(Type.String({ description: 'Demo limit errors: the keyed path to call with a key.' })),
          reason: Type.Optional(Type.String({ description: 'GONE and MOVED_PERMANENTLY: why the entity is no longer served.' })),
          date: Type.Optional(Type.String({ description: 'GONE and MOVED_PERMANENTLY: the date of the change (YYYY-MM-DD).' })),
          since_version: Type.Optional(Type.String({ description: 'GONE and MOVED_PERMANENTLY: the first knowledge-base release that no longer served the entity.' })),
          replaced_by: Type.Optional(
            Type.Object(
              { entity_id: Type.String(), entity_key: Type.String(), canonical_name: Type.String(), entity_type: Type.String(), domain: Type.String(), path: Type.String({ description: 'The successor on /v1/entities (the Location header).' }) },
              { description: 'MOVED_PERMANENTLY: the entity that replaces the requested one.' },
            ),
          ),
        },
        { additionalProperties: true },
      ),
    },
    { description: codes.map((c) => `${c}: ${ERROR_CODES[c].meaning}`).join(' ') },
  );

const h = (description: string, type: 'string' | 'integer' = 'integer') => ({ type, description });

export const REQUEST_ID_HEADER = { 'X-Request-Id': h('The caller\'s X-Request-Id when it is 1–128 printable ASCII characters without spaces; otherwise a generated UUID.', 'string') };

export const QUOTA_HEADERS = {
  ...REQUEST_ID_HEADER,
  'X-RateLimit-Plan': h('Plan of the calling key.', 'string'),
  'X-RateLimit-Limit': h('Monthly allowance of the plan.'),
  'X-RateLimit-Remaining': h('Requests left this calendar month (UTC) after this one.'),
  'X-RateLimit-Reset': h('When the monthly allowance renews: UTC epoch seconds (00:00 UTC on the 1st).'),
  'X-RateLimit-Minute-Limit': h('Per-minute request limit of the plan.'),
  'X-RateLimit-Minute-Remaining': h('Requests left in the current one-minute window.'),
  'X-RateLimit-Minute-Reset': h('When the current one-minute window ends: UTC epoch seconds.'),
};

export const CACHE_HEADERS = {
  ETag: h('Keyed: a strong tag of the knowledge-base version and the canonical request, the same on every gateway process. Demo: a weak tag (the body carries per-caller counters). Send it back in If-None-Match to get 304.', 'string'),
  'Cache-Control': h('Keyed: "private, max-age=3600". Demo: "public, max-age=3600".', 'string'),
};

export const RETRY_HEADERS = { ...REQUEST_ID_HEADER, 'Retry-After': h('Seconds to wait before retrying.') };

export const DemoObject = Type.Object({
  demo: Type.Literal(true),
  endpoint: Type.String({ description: 'Path of the keyed equivalent.' }),
  authenticated_equivalent: Type.String({ description: 'A sample command line for the keyed equivalent.' }),
  limits: Type.Object({
    per_ip_per_minute: Type.Integer(),
    per_ip_per_hour: Type.Integer(),
    max_query_length: Type.Integer(),
    resolve_result_limit: Type.Integer(),
  }),
  note: Type.String(),
  docs: Type.String({ format: 'uri' }),
  plans: Type.String({ format: 'uri' }),
  cached: Type.Boolean({ description: 'Whether the body came from the short-lived demo cache.' }),
  remaining_this_hour: Type.Integer({ description: 'Demo requests left in the current hour for the caller\'s IP.' }),
});

export const EntityRef = Type.Object({
  entity_id: Type.String({ format: 'uuid' }),
  canonical_name: Type.String(),
  entity_type: Type.Union([Type.Literal('grape'), Type.Literal('wine_geography'), Type.Literal('spirit'), Type.Literal('beer_style'), Type.Literal('wine_style')]),
  domain: Type.Union([Type.Literal('wine'), Type.Literal('spirits'), Type.Literal('beer')]),
});

export const MATCHED_ON = [
  'canonical', 'alias', 'canonical_folded', 'alias_folded', 'canonical_word_order', 'alias_word_order',
  'canonical_prefix', 'alias_prefix', 'canonical_typo', 'alias_typo', 'shared_term', 'mention',
] as const;

export const ResolutionHead = {
  query: Type.String(),
  state: Type.Union([Type.Literal('resolved'), Type.Literal('ambiguous'), Type.Literal('unresolved')], {
    description: 'resolved: the top match is clearly ahead; ambiguous: the term is a declared shared term (e.g. "pinot", "champagne"), or the runner-up is within 3 points, or within 5 points when the top is only a prefix or typo match; unresolved: nothing reaches the threshold of 55 (matches is then empty).',
  }),
  resolved: Type.Boolean({ description: 'true for resolved and ambiguous: there is a best match to act on.' }),
  ambiguous: Type.Boolean(),
  top_score: Type.Number({ minimum: 0, maximum: 100 }),
};

export const COVERAGE_DESCRIPTION =
  'Unresolved answers only. out_of_scope: the term names a known drink outside wine, spirits and beer (sake, soju, cider, perry, mead, cocktails, hard seltzer, ready-to-drink); the service does not cover it and never answers another entity for it. unknown_term: the knowledge base has no name that matches well enough.';

export const Suggestion = Type.Composite([
  EntityRef,
  Type.Object({
    match_value: Type.String({ description: 'The name or alias that came nearest.' }),
    match_score: Type.Number({ minimum: 0, maximum: 100, description: 'Below the resolve threshold of 55 (from 30 up).' }),
  }),
]);

/** What an unresolved answer adds: why, and what came nearest. */
export const UnresolvedHelp = {
  coverage: Type.Union([Type.Literal('out_of_scope'), Type.Literal('unknown_term'), Type.Null()], { description: `${COVERAGE_DESCRIPTION} Null when the state is resolved or ambiguous.` }),
  suggestions: Type.Union([
    Type.Array(Suggestion, {
      maxItems: 5,
      description: 'Unresolved answers: up to 5 names that scored below the threshold, best first (empty when nothing came near). Show them as "did you mean"; never act on one without the user choosing it.',
    }),
    Type.Null(),
  ], { description: 'Null when the state is resolved or ambiguous.' }),
};

export const ResolutionObject = Type.Object({
  entity_id: Type.String({ format: 'uuid' }),
  canonical_name: Type.String(),
  matched_on: Type.Union(MATCHED_ON.map((m) => Type.Literal(m))),
  match_value: Type.String(),
  match_score: Type.Number({ minimum: 0, maximum: 100 }),
  vivc_id: Type.Union([Type.String(), Type.Null()]),
  wikidata_id: Type.Union([Type.String(), Type.Null()]),
});

export const Match = Type.Composite([
  EntityRef,
  Type.Object({
    matched_on: Type.Union(MATCHED_ON.map((m) => Type.Literal(m))),
    match_value: Type.String({ description: 'The exact name or alias that matched.' }),
    match_score: Type.Number({ minimum: 0, maximum: 100 }),
    vivc_id: Type.Union([Type.String(), Type.Null()]),
    wikidata_id: Type.Union([Type.String(), Type.Null()]),
  }),
]);

const RetrievedVia = Type.Union([
  Type.Object(
    {
      url: Type.String({ format: 'uri' }),
      kind: Type.Union(['mirror', 'reprint', 'third_party_list', 'scrape', 'encyclopedia_copy', 'dataset'].map((k) => Type.Literal(k))),
      note: Type.Optional(Type.String()),
    },
    { description: 'Where the text was read when it was read in a copy (mirror, reprint, third-party list, dataset) rather than at source_url. The authority stays the original publisher\'s; the copy is named so you can weigh it. In a profile\'s facts the copy\'s `note` is left out: it is given once, in the profile\'s `sources` entry of the same source_key.' },
  ),
  Type.Null(),
], { description: 'The copy the text was read in, or null when it was read at source_url.' });

const Provenance = Type.Object({
  source_key: Type.String(),
  source_title: Type.String(),
  source_publisher: Type.String(),
  source_url: Type.String({ format: 'uri' }),
  locator: Type.String({ description: 'Section, page, id or URL fragment where the fact stands.' }),
  retrieved_via: RetrievedVia,
  source_excerpt: Type.Union([Type.String({ maxLength: 300 }), Type.Null()], { description: 'A verbatim passage (at most 300 characters) of the source that states the fact, where one is kept (the definitions of wine styles); null otherwise.' }),
  language_code: Type.Union([Type.String(), Type.Null()], { description: 'Language of source_excerpt (ISO 639-1 or -3); null when there is no excerpt.' }),
});

export const QueryTerm = Type.Object({
  start: Type.Integer({ minimum: 0, description: 'Offset in q where the term starts, in UTF-16 code units (JavaScript string indices): q.slice(start, end) === text.' }),
  end: Type.Integer({ minimum: 0 }),
  text: Type.String({ description: 'The term as typed.' }),
  kind: Type.String({ description: '"designation" (a quality or origin scheme word such as DO, AOC, DOCG, IGP, WO, AVA).' }),
  value: Type.String({ description: 'The term as its source lists it.' }),
});

export const SourcedFact = Type.Object({
  value: Type.Unknown(),
  value_total: Type.Optional(Type.Integer({ minimum: 0, description: 'Present when a long list value was cut (an appellation\'s grape rules over 50 items, strongest roles first): the length of the whole list. The profile\'s relations_more.grape_rules links to it.' })),
  complete: Type.Optional(Type.Boolean({ description: 'On an appellation\'s `grapes` (issue 34): true when every variety its rule sets\' sources list is in `value`; false when a listed name maps to no grape (see `unmapped`) or the whole list was not re-read (see `completeness_note`). A partial list is never the appellation\'s whole set of grapes.' })),
  unmapped: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ description: 'The variety name the source lists.' }),
        reason: Type.String({ description: '"no_grape_record", "no_vivc_match", "several_vivc_numbers", "several_grapes" (the name is several grapes\' name), "name_of_another_entity" or "not_a_variety" (a field blend).' }),
        source_text: Type.Union([Type.String(), Type.Null()], { description: 'The name as the source writes it, where it differs.' }),
        source_key: Type.String({ description: 'The rule set\'s source.' }),
      }),
      { description: 'On an appellation\'s `grapes`: the names its sources list that are not in `value`, with the reason (empty when complete).' },
    ),
  ),
  completeness_note: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Why a set is partial when no name is known to be missing (a list nobody re-read whole).' })),
  provenance: Provenance,
});

export const Profile = Type.Object(
  {
    entity_id: Type.String({ format: 'uuid' }),
    entity_key: Type.String({ description: 'Permanent key; entity_id = UUIDv5 of it.' }),
    canonical_name: Type.String(),
    entity_type: EntityRef.properties.entity_type,
    domain: EntityRef.properties.domain,
    review_status: Type.String(),
    aliases: Type.Optional(Type.Array(Type.Object({ name: Type.String(), language_code: Type.String(), kind: Type.String(), source_key: Type.String(), locator: Type.String() }))),
    facts: Type.Record(Type.String(), SourcedFact, {
      description:
        'Every fact carries its provenance. An appellation whose product specification was read has `grapes` with value `[{entity_id, canonical_name, entity_type, domain, role, min_share, max_share, scope, source_key, locator}]`: role is required (the wine must contain it, or be made of it alone), principal (named as the main variety), permitted or accessory; shares are percentages as the text states them, else null; scope is the wine type the entry holds for, else null. Where the date the rule applies from was read (issue 34), an item also has `in_force_from` (YYYY-MM-DD, or YYYY for a rule that applies from a harvest), `in_force_basis` ("stated": the text names the date or harvest; "act": the date of the decree or regulation adopting the text; "publication": its publication in the official journal) and `supersedes` (the source keys of the earlier texts it amended or replaced, listed in `sources`). A set read only through a dataset\'s extraction of the single document (its source carries retrieved_via kind dataset) is never required and gives no shares. Where no rules were read, a `grapes` fact (if any) is the list of varieties its source names.',
    }),
    relations: Type.Object({
      parent: Type.Union([EntityRef, Type.Null()]),
      country: Type.Union([EntityRef, Type.Null()], {
        description: 'The country the facts name, as an entity: the country record whose ISO code is the `country` fact (geographies, spirits, wine styles), or whose name is a grape\'s `country_of_origin`. Null when there is no such fact, when it names no country record (the code EU, a historical state), or for a country itself.',
      }),
      ancestors: Type.Array(EntityRef),
      children: Type.Array(EntityRef),
      grapes: Type.Array(EntityRef),
      geographies: Type.Array(EntityRef),
      appellations: Type.Array(
        Type.Object({
          ...EntityRef.properties,
          role: Type.Union(['required', 'principal', 'permitted', 'accessory'].map((r) => Type.Literal(r))),
          scope: Type.Union([Type.String(), Type.Null()], { description: 'The wine type the role holds for, where the rules give separate lists; else null.' }),
        }),
        { description: 'For a grape: the appellations whose rules name it (data/appellation-grapes/), with the role they give it — required, principal, permitted or accessory — strongest first. Empty for other entities.' },
      ),
    }),
    relations_more: Type.Optional(
      Type.Record(Type.String(), Type.Object({ total: Type.Integer({ minimum: 0 }), shown: Type.Integer({ minimum: 0 }), list: Type.String({ description: 'The /v1/entities query (cursor-paged) that lists the whole relation.' }) }), {
        description: 'The relation lists cut at 50 items (children, grapes, geographies, appellations; grape_rules for the grapes fact of an appellation whose rules name more varieties than shown, cut strongest roles first: 50 on the entity endpoint, 25 on explain; aliases on explain, which shows the first 25 while /v1/entities/{id} gives them all): for each, the total, how many are shown, and the /v1/entities query that lists them all. Empty when no list is cut.',
      }),
    ),
    sensory_available: Type.Boolean(),
    pairing_available: Type.Boolean(),
    sources: Type.Array(Type.Object({ source_key: Type.String(), title: Type.String(), publisher: Type.String(), authority: Type.String(), url: Type.String(), retrieved_via: RetrievedVia })),
  },
  { additionalProperties: true },
);
