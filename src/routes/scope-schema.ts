// The scope a query asked for (issue 33, item 1): `applied_scope` of pair, explain, parse and pair-food,
// and the `scope_boundary` of pair and pair-food. Additive to v1: null whenever the query names no scope.
import { Type } from '@sinclair/typebox';
import { SCOPE_BOUNDARY_REASONS } from '../engine/engine.ts';

export const AppliedScope = Type.Union(
  [
    Type.Object({
      colours: Type.Array(Type.String(), { description: 'The colours asked for: red, white, rosé or amber (values of the colour words of data/label-terms.json); empty when only a sweetness or style was asked for.' }),
      sweetness: Type.Array(Type.String(), {
        description:
          'The sweetness classes asked for: the rows of Annex III of Delegated Regulation (EU) 2019/33 ("brut nature", "extra brut", "brut", "extra dry", "sec", "demi-sec", "doux"; "dry", "trocken", "secco" and "seco" are the row "sec", "sweet", "dolce" and "dulce" the row "doux") and "moelleux" ("lieblich", "amabile", "medium sweet"). Empty when none was asked for.',
      }),
      style: Type.Array(Type.String(), {
        description: 'The styles asked for: a German Prädikat ("Kabinett" … "Eiswein"), a sherry type ("Fino", "Manzanilla", "Amontillado", "Palo Cortado", "Oloroso", "Pedro Ximénez") or a Port category ("Ruby", "Tawny", "Late Bottled Vintage", "Vintage"). Empty when none was asked for.',
      }),
      terms: Type.Array(Type.String(), { description: 'The words of the query that asked for them, as typed ("rouge", "tinto", "rosé", "brut", "Spätlese", "tawny").' }),
      source_key: Type.String({ description: 'The source that gives the first word its meaning (a label-terms source).' }),
      in_scope: Type.Integer({ minimum: 0, description: 'Items (pairing items, grape rules) whose scope names a class asked for, in every dimension asked for that it names.' }),
      general: Type.Integer({ minimum: 0, description: 'Items with no scope: about the entity as a whole, so kept (0 in pair-food, where only in-scope items count).' }),
      unstated: Type.Integer({ minimum: 0, description: 'Items whose scope names nothing of the dimensions asked for ("Amontillado" when red is asked, "Blanc de Blancs" when brut is): kept, and marked `scope_match: "unstated"` (0 in pair-food).' }),
      left_out: Type.Integer({ minimum: 0, description: 'Items whose scope names only other classes of a dimension asked for ("Auslese" when Spätlese is asked): left out of this answer. In pair-food, every item not in scope.' }),
    }),
    Type.Null(),
  ],
  {
    description:
      'The scope the query asked for with a colour, sweetness or style word beside the name ("Sancerre rouge", "Rioja tinto", "Champagne brut", "Mosel Riesling Spätlese", "tawny port", "Jerez fino"), and what it kept and left out. Only items about that scope, or about the entity as a whole, are returned; nothing about another scope is given in its place. Null when the query names no scope word, when the word is part of a name ("Vinho Verde", "Dry Creek Valley") or is itself the name asked for ("fino", "brut": the style, unnarrowed), when the word is a scope of other entities only ("Vintage" is one beside Port), or for spirits and beer. Words come from data/label-terms.json (`colours`, `scope_words`), each with its source.',
  },
);

export const ScopeMatch = Type.Union([Type.Literal('in_scope'), Type.Literal('general'), Type.Literal('unstated')], {
  description: 'Present when applied_scope is not null: in_scope (the item\'s scope names a class asked for), general (the item has no scope) or unstated (its scope names nothing of the dimensions asked for).',
});

export const ScopeBoundary = Type.Union(
  [
    Type.Object({
      reason: Type.Union(Object.keys(SCOPE_BOUNDARY_REASONS).map((k) => Type.Literal(k))),
      message: Type.String(),
    }),
    Type.Null(),
  ],
  { description: `An object exactly when applied_scope is not null and none of the entity's verified items is about that scope (reasons: ${Object.entries(SCOPE_BOUNDARY_REASONS).map(([k, v]) => `${k}: ${v}`).join(' ')}); null otherwise. pairing_available still says whether the entity has verified pairing evidence at all.` },
);
