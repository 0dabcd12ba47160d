// The scope a query asked for (issue 33, item 1): `applied_scope` of pair, explain and parse, and pair's
// `scope_boundary`. Additive to v1: null whenever the query names no scope.
import { Type } from '@sinclair/typebox';
import { SCOPE_BOUNDARY_REASONS } from '../engine/engine.ts';

export const AppliedScope = Type.Union(
  [
    Type.Object({
      colours: Type.Array(Type.String(), { description: 'The colours asked for: red, white, rosé or amber (values of the colour words of data/label-terms.json).' }),
      terms: Type.Array(Type.String(), { description: 'The words of the query that asked for them, as typed ("rouge", "tinto", "rosé").' }),
      source_key: Type.String({ description: 'The legal source that gives the first word its meaning (a label-terms source).' }),
      in_scope: Type.Integer({ minimum: 0, description: 'Items (pairing items, grape rules) whose scope names a colour asked for.' }),
      general: Type.Integer({ minimum: 0, description: 'Items with no scope: about the entity as a whole, so kept.' }),
      unstated: Type.Integer({ minimum: 0, description: 'Items whose scope names no colour ("Amontillado", "full-bodied"): kept, and marked `scope_match: "unstated"`.' }),
      left_out: Type.Integer({ minimum: 0, description: 'Items whose scope names only other colours: left out of this answer.' }),
    }),
    Type.Null(),
  ],
  {
    description:
      'The scope the query asked for with a colour word beside the name ("Sancerre rouge", "Rioja tinto", "Tavel rosé"), and what it kept and left out. Only items about that colour, or about the entity as a whole, are returned; nothing about another colour is given in its place. Null when the query names no colour, when the word is part of a name ("Vinho Verde"), or for spirits and beer.',
  },
);

export const ScopeMatch = Type.Union([Type.Literal('in_scope'), Type.Literal('general'), Type.Literal('unstated')], {
  description: 'Present when applied_scope is not null: in_scope (the item\'s scope names the colour asked for), general (the item has no scope) or unstated (its scope names no colour).',
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
