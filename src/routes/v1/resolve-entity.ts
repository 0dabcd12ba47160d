// GET /v1/resolve-entity and its demo twin: free text → ranked entities.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { domainFilterParam, EntityRef, ID_NOTE, limitParam, Match, QueryTerm, ResolutionHead, termParam, typeFilterParam, UnresolvedHelp } from '../schemas.ts';

export const resolveEntityRoute: EngineRouteDef = {
  op: 'resolve-entity',
  path: '/v1/resolve-entity',
  summary: 'Resolve a free-text term to ranked drink entities',
  description:
    'Matches grapes, wine geographies, wine styles (legal wine categories, sweetness terms, sherry and port types), spirits and beer styles by canonical name and alias, in tiers: exact canonical (100), exact alias (97), accent-folded (94/92), word order free (88/86), word prefix (60–85), typo-tolerant (35–75). An unknown term gets 200 with state "unresolved", no matches, `coverage` (out_of_scope for a drink outside wine, spirits and beer, else unknown_term) and `suggestions` (the nearest names below the threshold). Names in the languages of other markets are understood: country names in every language of modern coverage in Unicode CLDR ("Frankrike", "Yhdysvallat") and the CLDR names of regions that are the same place, spirit and wine category names that EU and national authorities print in their languages ("Rom", "Likör", "Schaumwein"), inflected forms read through the Snowball stemmer of the language (Finnish "viskit", "konjakit"), compounds of two known words, and, as a last resort, the head of a compound ("fruktlikör" → Likör). A query equal to a country name in any CLDR language is answered only by a name equal to it ("Norja" is Norway in Finnish, never the grape Noria). A one-word query that reaches a grape only as a misspelling of one of its synonyms is at most "ambiguous". Candidates of equal score are ordered by a public demand prior (data/demand-prior.json), so a shared name lists the meaning most people ask for first. Names from other taxonomies are understood: "A / B" forms, a bracketed abbreviation ("American Pale Ale (APA)"), plurals ("CANADIAN WHISKIES") and spelling variants (Pilsener/Pilsner). A one-word place name that only starts, or is a later word of, a longer name is never "resolved" to it; a country name is answered only by a name equal to it; a partial match that skips a word of the name is never "resolved"; a place beats a grape synonym of the same name. When nothing reaches 55, retail qualifiers ("AMERICAN VODKAS", "80 PROOF VODKA"), then words no name holds ("mörk rom": only a name equal to what is left counts), or all but the head noun are dropped as a last resort: such answers score 8 lower and are at most "ambiguous". entity_id values are UUIDv5 of a permanent entity key and never change across releases or restarts. `type` and `domain` restrict the answer to entities of those types or that domain: candidates outside the filter are dropped before the state is decided. ' + ID_NOTE,
  querystring: ({ maxLength, demo }) =>
    Type.Object({
      q: termParam(maxLength),
      ...(demo ? {} : { limit: Type.Optional(limitParam) }),
      type: Type.Optional(typeFilterParam),
      domain: Type.Optional(domainFilterParam),
    }),
  toEngine: (query, { demo, demoResultLimit }) => ({
    q: String(query.q),
    limit: demo ? demoResultLimit : ((query.limit as number | undefined) ?? 10),
    ...(query.type !== undefined ? { type: String(query.type) } : {}),
    ...(query.domain !== undefined ? { domain: String(query.domain) } : {}),
  }),
  body: Type.Object({
    ok: Type.Literal(true),
    ...ResolutionHead,
    matches: Type.Array(Match),
    terms: Type.Array(QueryTerm, {
      description: 'Designation words recognised in q (DO, DOCa, DOCG, AOC, IGP, WO, AVA, Qualitätswein…; data/designations.json, from the EU and national wine laws). They are left out of matching and never matched as entities: "DO Ribera del Duero" resolves as "Ribera del Duero" with terms [{kind: "designation", value: "DO"}]. Empty when there are none.',
    }),
    ...UnresolvedHelp,
    reading: Type.Union([
      Type.Object({
        kind: Type.Union([Type.Literal('specialty_style'), Type.Literal('base_style_has_modifiers')], {
          description: 'specialty_style: the modifiers put the beer in a BJCP 2021 specialty style, which leads matches; base_style_has_modifiers: the base style already has them (its BJCP tags hold the class: "Flanders Red" is sour and wood-aged), and leads.',
        }),
        base: Type.Object({
          text: Type.String({ description: 'The words of q read as the base style (folded).' }),
          state: Type.Union([Type.Literal('resolved'), Type.Literal('ambiguous'), Type.Literal('unresolved')], { description: 'How the base alone resolves among beer styles.' }),
          matches: Type.Array(Match, { maxItems: 3, description: 'The base style\'s own best matches (beer styles only).' }),
        }),
        modifiers: Type.Array(
          Type.Object({
            text: Type.String(),
            class: Type.Union([Type.Literal('fruit'), Type.Literal('spice'), Type.Literal('wood'), Type.Literal('alcohol'), Type.Literal('wild'), Type.Literal('smoke')], {
              description: 'fruit (BJCP 29), spice (spice, herb, vegetable, nut, coffee, chocolate: BJCP 30), wood (BJCP 33), alcohol (a barrel\'s previous contents: 33B), wild (wild and sour fermentation: BJCP 28), smoke (smoked malt: BJCP 32).',
            }),
          }),
        ),
        specialty: Type.Array(EntityRef, { description: 'The style(s) the modifiers go to, most likely first; more than one when the words do not decide (a barrel whose previous use is not named: 33A or 33B).' }),
        provenance: Type.Object({}, { additionalProperties: true, description: 'The BJCP 2021 passage that assigns the modifier class to the style (source_key, source_title, source_publisher, source_url, locator, retrieved_via).' }),
      }),
      Type.Null(),
    ], {
      description: 'A beer description read as a base style plus modifiers (data/beer-modifiers.json: word classes from the Open Food Facts ingredients taxonomy and the BJCP 2021 text), when no name equals q: "Bourbon Barrel Aged Stout" leads with 33B Specialty Wood-Aged Beer, base "stout"; "DIPA with Tangerines" with 29A Fruit Beer, base Double IPA. state is resolved only when the whole of q is explained: one specialty style and the base resolved. Null otherwise.',
    }),
  }),
  notFound: null,
  example: 'q=shiraz',
};

export default async function resolveEntity(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, resolveEntityRoute);
  registerDemoTwin(app, ctx, resolveEntityRoute);
}
