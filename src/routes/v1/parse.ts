// GET /v1/parse and its demo twin: a product line (wine list, catalogue title, label) read into the
// entity it is about, the other entities it mentions, label terms, vintage, the words nothing
// explains, and the grapes the appellation's rules imply. The reading rules live in src/engine/parse.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { EntityRef, MATCHED_ON, termParam } from '../schemas.ts';
import { AppliedScope } from '../scope-schema.ts';

/** Keyed `text` may be this long (code points); the demo twin keeps the demo's limit. */
export const PARSE_MAX_LENGTH = 300;

const Offsets = {
  start: Type.Integer({ minimum: 0, description: 'Offset where the span starts, in UTF-16 code units (JavaScript string indices): text.slice(start, end) is the span.' }),
  end: Type.Integer({ minimum: 0 }),
  text: Type.String(),
};

const LineMatch = Type.Composite([
  EntityRef,
  Type.Object({
    match_score: Type.Number({ minimum: 0, maximum: 100 }),
    matched_on: Type.Union(MATCHED_ON.map((m) => Type.Literal(m))),
    match_value: Type.String({ description: 'The exact name or alias that matched.' }),
  }),
]);

const Provenance = Type.Object({
  source_key: Type.String(),
  source_title: Type.String(),
  source_publisher: Type.String(),
  source_url: Type.String(),
  locator: Type.String(),
  retrieved_via: Type.Union([Type.Object({ url: Type.String(), kind: Type.String(), note: Type.Optional(Type.String()) }), Type.Null()], { description: 'The copy the rule was read in, or null.' }),
});

export const parseRoute: EngineRouteDef = {
  op: 'parse',
  path: '/v1/parse',
  summary: 'Read a product line: the entity it is about, the entities it mentions, its label terms and vintage',
  description:
    'Reads a wine-list line, catalogue title or label text ("Brunello di Montalcino Casanova di Neri 2016"). In order: numbers with their unit (ABV "13.5%", volume "75cl", age "12 Year Old", then a vintage year 1900–next year or "NV"); entity names of two words or more, longest first, whole names only (exact, accent-folded, any order: never a prefix or a typo, so a producer\'s word never becomes a place); designation words and traditional terms (DOCG, Riserva, Crianza, Kabinett, Grand Cru…; data/designations.json) and colour words; then one-word names (never a stop word, a generic word or a word of one or two letters). ' +
    '`primary` is the entity the line is about: the most specific place whose rules define the wine (appellation, then subregion, region, country; a place inside another mentioned place wins), else the grape, else the wine style, spirit or beer style (a sweetness term last). ' +
    '`state` is "ambiguous" when the primary name is shared, when two places are mentioned and neither lies inside the other, when a grape is mentioned that the primary appellation\'s rules leave out, or when the primary is a one-word name right after a capitalised word nothing explains (it may be part of a producer\'s or estate\'s name: "Vega Sicilia" is no Sicilian wine); `ambiguity_reasons` says which. "unresolved" when no entity is mentioned. ' +
    '`implied` lists the grapes the primary appellation\'s rules require or name as principal, with the rule\'s source; never a guess. `unexplained` holds the runs of words nothing explains (usually the producer and the cuvée). Offsets are UTF-16 code units (JavaScript string indices). Each term names the source of its meaning (`source_key`, null for a plain number).',
  querystring: ({ maxLength, demo }) =>
    Type.Object({ text: termParam(demo ? maxLength : PARSE_MAX_LENGTH, 'text', 'A product line: a wine-list line, a catalogue title or the text of a label.') }),
  toEngine: (query) => ({ q: String(query.text) }),
  body: Type.Object({
    ok: Type.Literal(true),
    text: Type.String({ description: 'The line as sent.' }),
    state: Type.Union([Type.Literal('resolved'), Type.Literal('ambiguous'), Type.Literal('unresolved')]),
    primary: Type.Union([LineMatch, Type.Null()], { description: 'The entity the line is about (see the rule above), or null.' }),
    mentions: Type.Array(
      Type.Object({
        ...Offsets,
        role: Type.Union(['appellation', 'geography', 'grape', 'wine_style', 'spirit', 'beer_style'].map((r) => Type.Literal(r))),
        match: LineMatch,
      }),
      { description: 'Every entity the line names, in the order of the line.' },
    ),
    terms: Type.Array(
      Type.Object({
        ...Offsets,
        kind: Type.Union(['designation', 'traditional_term', 'sweetness', 'colour', 'age', 'volume', 'abv', 'vintage'].map((k) => Type.Literal(k))),
        value: Type.String({ description: 'The term as its source lists it, or the normalised number ("13.5%", "75 cl", "12 years", "2016", "NV").' }),
        source_key: Type.Union([Type.String(), Type.Null()], { description: 'The source of the term list (data/designations.json, data/label-terms.json, the wine style), or null.' }),
      }),
    ),
    vintage: Type.Union([Type.Integer(), Type.Null()], { description: 'The vintage year, or null ("NV" is null and reported as a term).' }),
    unexplained: Type.Array(Type.Object(Offsets), { description: 'Runs of words no entity or term explains.' }),
    implied: Type.Array(
      Type.Object({
        ...EntityRef.properties,
        basis: Type.Literal('appellation_rules'),
        role: Type.Union([Type.Literal('required'), Type.Literal('principal')]),
        scope: Type.Union([Type.String(), Type.Null()]),
        provenance: Provenance,
      }),
      { description: 'Grapes the primary appellation\'s rules require or name as principal, with the rule\'s source, each once (the colours of the rules naming it joined in `scope`: "red; rosé"). A colour word of the line ("rouge", "rosé") keeps only the grapes of rules for that colour or for none ("Sancerre rouge": Pinot Noir).' },
    ),
    applied_scope: AppliedScope,
    ambiguity_reasons: Type.Array(Type.String(), { description: 'Why the line is ambiguous; empty otherwise.' }),
  }),
  notFound: null,
  example: 'text=Brunello%20di%20Montalcino%20Casanova%20di%20Neri%202016',
};

export default async function parse(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, parseRoute);
  registerDemoTwin(app, ctx, parseRoute);
}
