// GET /v1/pair-food and its demo twin: from a food to the drinks that verified sources pair with it,
// with the evidence behind each drink. The guidance items are the pair endpoint's, read backwards
// through the food vocabulary (src/engine/food.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { GatewayContext } from '../../gateway/context.ts';
import { registerDemoTwin } from '../demo-twin.ts';
import { registerKeyed, type EngineRouteDef } from '../engine-route.ts';
import { domainFilterParam, EntityRef, termParam, typeFilterParam } from '../schemas.ts';
import { GuidanceItem } from './pair.ts';
import { AppliedScope, ScopeBoundary } from '../scope-schema.ts';
import { FOOD_BOUNDARY, PAIR_FOOD_DEFAULT_LIMIT, PAIR_FOOD_MAX_LIMIT } from '../../engine/engine.ts';

const VocabularyRef = Type.Object({ id: Type.String({ description: 'The vocabulary entry: "ing:" (ingredients taxonomy) or "cat:" (categories taxonomy), then its Open Food Facts id.' }), name: Type.String() });

/** Why an item applies to the food asked for (issue 33, item 4). */
const FoodMatchFields = Type.Object({
  evidence_level: Type.Union([Type.Literal('dish'), Type.Literal('parent')], { description: '"dish": the item is about the food or dish asked for (or a narrower one); "parent": about a parent of the dish in the vocabulary, applied with a lower confidence.' }),
  evidence_about: VocabularyRef,
  applied_confidence: Type.Number({ description: 'The confidence that counted in the ranking: `confidence`, or half of it for a parent item.' }),
});

const pairFoodLimit = Type.Integer({ minimum: 1, maximum: PAIR_FOOD_MAX_LIMIT, default: PAIR_FOOD_DEFAULT_LIMIT, description: `Maximum number of drinks, 1 to ${PAIR_FOOD_MAX_LIMIT}.` });

export const pairFoodRoute: EngineRouteDef = {
  op: 'pair-food',
  path: '/v1/pair-food',
  summary: 'From a food to drinks: the drinks verified sources pair with it, with the evidence for each',
  description:
    'Recognises the food in q through the food vocabulary (the Open Food Facts ingredients and categories taxonomies: names in English, French, German, Spanish, Italian and Portuguese, and their hierarchy): the whole of q, else its longest runs of words that name a food ("what goes with salmon?" → salmon), an English plural read as its singular. ' +
    'Every verified guidance item of the pair endpoint is placed in the vocabulary by its food_item (else its dish, else its food_category); a query finds the items placed on its food or on a narrower one: "fish" finds salmon items, "salmon" finds smoked-salmon items, and "smoked salmon" never finds an item placed only on salmon or fish. ' +
    'Ranking (issue 33; the rule in full is in the README, "How pair-food ranks drinks"): each matching item starts at its confidence, which follows its source\'s authority (0.9 official bodies and regulators, 0.8 trade bodies, 0.75 educational bodies, 0.6 press, one class lower for a copy; for a dish, a parent item counts half). ' +
    'Specificity: a page that pairs one drink with foods of more than 3 food categories is a generic line and its items count 3/categories (at least 0.5); an item about a narrower food than the one asked (hot-smoked salmon for "salmon") counts 0.9; a whole country as the drink counts 0.75. ' +
    'Promotion: a trade body or regional/interprofessional body pairing its own drink with more than 3 food categories over all its pages counts 3/categories (at least 0.4); independent guidance is never discounted as promotion. ' +
    'Agreement: items are grouped by publisher (one organisation is one voice); `score` is the best publisher\'s item plus a quarter of each other publisher\'s best, that bonus at most half the best, times the drink\'s weight. `rank_basis` shows each part. Ties go to more publishers (`source_count`), then more items, then the name. Each item keeps its own scope fields (style, geography, age, serving). ' +
    'Dishes as dishes (issue 33): a q of several words is read as one dish before its words (`food.reading`): its whole name, else a name with the same words in another order or number ("mushroom risotto" is the entry "Mushrooms risottos", "spaghetti carbonara" is "Spaghetti with carbonara"), else, when its last food is a dish (an entry under Meals or Sandwiches), that dish made with the other foods ("lamb tagine": a tagine with lamb). For a dish, items on the dish or a narrower entry apply in full (`evidence_level: "dish"`); items placed on its parents in the vocabulary (up to two steps up, never a root such as Meals or Meats: `food.dish.parents`) apply with half their confidence (`evidence_level: "parent"`, `applied_confidence`, and `evidence_about` names the parent); an item about another version of the dish (asparagus risotto for a mushroom risotto), about another preparation ("fried chicken" for a roast chicken) or about one of its foods alone (lamb for a lamb tagine) does not apply. The dishes of the Open Food Facts categories taxonomy of 2022 (every entry under Meals and Sandwiches) are in the vocabulary beside the 2020 taxonomies, with what the current taxonomy says of the dishes of issue 33 (fish and chips; the current names and parents of the carbonara dishes); a single word of the names of one dish only names that dish ("carbonara"). ' +
    'A known food with no verified evidence is 200 with `drinks: []` and a `boundary`; generic pairing never fills the gap. A q that names no food is 404 FOOD_NOT_RESOLVED with `suggestions` (not counted). A q that names a drink and no food ("barolo": an entry under Alcoholic beverages) is 404 FOOD_NOT_RESOLVED whose message points to /v1/pair, with `drink` (the drink named) and `see` (the /v1/pair query to make).',
  querystring: ({ maxLength, demo }) =>
    Type.Object({
      q: termParam(maxLength, 'q', 'A food or dish, in English, French, German, Spanish, Italian or Portuguese ("salmon", "goat cheese", "saumon fumé").'),
      ...(demo ? {} : { limit: Type.Optional(pairFoodLimit) }),
      type: Type.Optional(typeFilterParam),
      domain: Type.Optional(domainFilterParam),
      scope: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description:
            'Colour, sweetness or style words of a wine label that the drinks must be about (issue 33): "sweet", "brut", "sec", "rouge", "Spätlese", "tawny", "fino". Only wine items whose recorded scope names the class asked for count (or the items of a wine style that is that class: "Pedro Ximénez"); an item with no scope is left out here, since it cannot say the drink is of that scope. `applied_scope` says what was applied; when evidence exists for the food but none in the scope, `drinks` is empty and `scope_boundary` says so. A value that is not such words is 400 naming `scope`.',
          examples: ['sweet'],
        }),
      ),
    }),
  toEngine: (query, { demo, demoResultLimit }) => ({
    q: String(query.q),
    limit: demo ? demoResultLimit : ((query.limit as number | undefined) ?? PAIR_FOOD_DEFAULT_LIMIT),
    ...(query.type !== undefined ? { type: String(query.type) } : {}),
    ...(query.domain !== undefined ? { domain: String(query.domain) } : {}),
    ...(query.scope !== undefined ? { scope: String(query.scope) } : {}),
  }),
  body: Type.Object({
    ok: Type.Literal(true),
    query: Type.String({ description: 'q as sent.' }),
    food: Type.Object({
      matched: Type.Array(Type.String(), { description: 'The food terms recognised in q, as written.' }),
      category: Type.String({ description: 'The most general entry above the (first) recognised food in the vocabulary ("fish" for salmon, "cheese" for goat cheese).' }),
      entries: Type.Array(VocabularyRef, { description: 'The vocabulary entries the evidence is looked for at or below: for a dish, the dish.' }),
      reading: Type.Union([Type.Literal('whole'), Type.Literal('dish'), Type.Literal('words')], {
        description: 'How q was read: "whole", one name of the vocabulary (in any word order and number); "dish", a dish made with other foods ("lamb tagine"); "words", separate foods ("cheese and oysters").',
      }),
      dish: Type.Union(
        [
          Type.Object({
            entries: Type.Array(VocabularyRef, { description: 'The dish.' }),
            with: Type.Array(Type.String(), { description: 'For reading "dish": the other foods it is made with, as written ("lamb").' }),
            parents: Type.Array(VocabularyRef, { description: 'The parents whose evidence applies at `parent_weight`: up to two steps above the dish, never a root.' }),
            parent_weight: Type.Number({ description: 'The share of a parent item\'s confidence that counts (0.5).' }),
          }),
          Type.Null(),
        ],
        { description: 'Present when q names a dish (a name of several words, or an entry under Meals or Sandwiches); null for separate foods and one-word foods.' },
      ),
      ignored_drinks: Type.Array(Type.String(), { description: 'Drinks named in q beside a food ("salmon with chablis"): never read as foods.' }),
    }),
    drinks: Type.Array(
      Type.Composite([
        EntityRef,
        Type.Object({
          display_name: Type.String({ description: 'The name to show: the canonical name with the scope its evidence is about when every matching item has one ("Bordeaux, Clairet", "Oregon, full-bodied Pinot noir"); the canonical name when any item is about the drink as a whole.' }),
          scopes: Type.Array(Type.String(), { description: 'The distinct style and sweetness scopes of the matching items (empty when none has one).' }),
          score: Type.Number({ minimum: 0, description: '(best_item + agreement_bonus) × drink_weight, rounded to 2 decimals (see the ranking above and rank_basis).' }),
          source_count: Type.Integer({ minimum: 1, description: 'Independent publishers (distinct source publishers) behind the matching items.' }),
          evidence_level: Type.Union([Type.Literal('dish'), Type.Literal('parent')], { description: '"dish" when at least one item is about the food or dish itself; "parent" when every item is about a parent of the dish (lower confidence).' }),
          rank_basis: Type.Object(
            {
              best_item: Type.Number({ minimum: 0, description: 'The best publisher\'s item after authority, specificity to the food and promotion.' }),
              agreement_bonus: Type.Number({ minimum: 0, description: 'A quarter of each other independent publisher\'s best item, at most half of best_item; 0 with one publisher.' }),
              drink_weight: Type.Number({ minimum: 0, maximum: 1, description: '0.75 when the drink is a whole country, else 1.' }),
              discount: Type.Union(
                [
                  Type.Object({
                    reason: Type.Union([Type.Literal('promotion'), Type.Literal('generic_line')], { description: '"promotion": a body speaking for the drink pairs it with many food categories; "generic_line": an independent page pairs it with everything.' }),
                    food_categories: Type.Integer({ minimum: 0, description: 'Food categories that body (promotion) or page (generic_line) pairs the drink with.' }),
                    weight: Type.Number({ minimum: 0, maximum: 1, description: 'The share of those items\' confidence that counted.' }),
                  }),
                  Type.Null(),
                ],
                { description: 'The strongest discount among the drink\'s matching items; null when none was discounted.' },
              ),
            },
            { description: 'How `score` was reached (issue 33, item 3): additive to v1.' },
          ),
          guidance: Type.Array(Type.Composite([GuidanceItem, FoodMatchFields]), { description: 'The verified items pairing this drink with the food or a narrower one (or, for a dish, a parent of it), in the shape of /v1/pair guidance items.' }),
        }),
      ]),
      { description: 'Best first; at most `limit`.' },
    ),
    drinks_total: Type.Integer({ minimum: 0, description: 'How many drinks have matching evidence (before `limit`).' }),
    applied_scope: AppliedScope,
    scope_boundary: { ...ScopeBoundary, description: 'An object exactly when `scope` was given, the food has verified evidence, and none of it is about that scope: `drinks` is empty, and no drink of another scope is given in its place. Null otherwise.' },
    boundary: Type.Union(
      [
        Type.Object({
          reason: Type.Literal('no_verified_pairing_evidence_for_food'),
          message: Type.String({ examples: [FOOD_BOUNDARY] }),
          knowledge_base_version: Type.String(),
        }),
        Type.Null(),
      ],
      { description: 'Present as an object exactly when the food is known and has no verified evidence at all (`drinks` is empty); null otherwise. When the evidence exists but none is in the `scope` asked for, this is null and `scope_boundary` says so.' },
    ),
    vocabulary: Type.Object(
      { source: Type.String(), version: Type.String(), licence: Type.String() },
      { description: 'The food vocabulary this answer used, with its version and licence.' },
    ),
  }),
  notFound: 'FOOD_NOT_RESOLVED',
  example: 'q=salmon',
};

export default async function pairFood(app: FastifyInstance, ctx: GatewayContext) {
  registerKeyed(app, ctx, pairFoodRoute);
  registerDemoTwin(app, ctx, pairFoodRoute);
}
