// Loads the knowledge base from data/, validates every file against its schema and every cross
// reference (parents, grapes, sources, pairing and sensory targets, declared ambiguities), and
// returns an immutable in-memory model. Problems are reported with file, record and field.
import fs from 'node:fs';
import path from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FoodVocabularyRecord } from './schema.ts';
import { v5 as uuidv5 } from 'uuid';
import {
  AliasAdditionSchema, AmbiguitySchema, DesignationSchema, GrapeRuleSetSchema, GrapeCrosswalkRowSchema, type GrapeCrosswalkRow, LabelTermsSchema, type LabelTermsRecord, type DesignationRecord, type GrapeRole, type GrapeRuleSetRecord, OutOfScopeSchema, PlaceNamesSchema, CONFIDENCE_BY_AUTHORITY, copyCeiling, DOMAIN_OF, EntityRecordSchema, FACT_FIELDS, GEO_LEVELS,
  KEY_FAMILY, KbMetaSchema, PairingSetSchema, SensorySchema, SourceSchema, WINE_STYLE_CATEGORIES,
  type AliasAdditionRecord, type AmbiguityRecord, type OutOfScopeRecord, type PlaceNamesRecord, type EntityRecord, type EntityType, type PairingSetRecord, type SensoryRecord, type Source,
} from './schema.ts';
import { exactForm, fold } from '../normalize.ts';
import { BeerModifiersSchema, type BeerModifiersRecord } from '../beer-modifiers.ts';
import { readTombstones, type Tombstones } from './tombstones.ts';

/** Namespace of entity ids: UUIDv5(entity key, ENTITY_NAMESPACE). Never change it. */
export const ENTITY_NAMESPACE = uuidv5('https://drinks-intelligence.dev/entity', uuidv5.URL);
export const entityIdOf = (key: string) => uuidv5(key, ENTITY_NAMESPACE);

export interface Problem {
  file: string;
  record: string;
  field: string;
  message: string;
}

export interface Entity extends EntityRecord {
  idx: number;
  id: string;
  domain: 'wine' | 'spirits' | 'beer';
  file: string;
  children: number[];
  /** for grapes: geographies whose `grapes` fact names this grape */
  geographies: number[];
  /** for spirit categories: GIs whose parent is this */
  sensory: SensoryRecord[];
  /** for appellations: the grape rules of its product specification (data/appellation-grapes/) */
  grapeRules: GrapeRuleSetRecord[];
  /** for grapes: the appellations whose rules name it, with the role */
  appellations: { geo: number; role: GrapeRole; scope: string | null }[];
  pairing: PairingSetRecord | null;
}

export interface KnowledgeBase {
  version: string;
  entities: Entity[]; // served entities only (review reviewed or verified)
  byKey: Map<string, Entity>;
  byId: Map<string, Entity>;
  sources: Map<string, Source>;
  ambiguities: AmbiguityRecord[];
  /** terms for drinks outside the four domains */
  outOfScope: OutOfScopeRecord[];
  /** country names people write (data/place-names.json); a query equal to one is never answered by a partial match */
  placeNames: string[];
  /** designation words and traditional terms of wine labels (data/designations.json) */
  designations: DesignationRecord[];
  /** the sources of the label words a line parser reports (data/label-terms.json) */
  labelTerms: LabelTermsRecord;
  /** public demand per entity and per class of entity (data/demand-prior.json, derived by tools/derive/demand-prior.mjs) */
  demandPrior: { classes: Record<string, number>; entities: Record<string, number> };
  /**
   * The food vocabulary of /v1/pair-food (data/food/vocabulary.json, derived from the Open Food Facts
   * taxonomies): read on first call, not at start-up (2.6 MB that only pair-food needs)
   */
  foodVocabulary: () => FoodVocabularyRecord;
  /** word classes and BJCP specialty styles of beer descriptions (data/beer-modifiers.json, derived by tools/derive/beer-modifiers.mjs); null when absent */
  beerModifiers: BeerModifiersRecord | null;
  draftCount: number;
  /** the release date from data/kb.json, or null */
  date: string | null;
  /** ids once served and since removed, merged or renamed (data/tombstones/, issue 36) */
  tombstones: Tombstones;
  /** the change notes of this release (data/releases/<version>.md, written by `npm run kb:diff`), read on first use; null when absent */
  releaseNotes: () => string | null;
}

const FoodVocabularySchema = Type.Object({
  source: Type.String({ minLength: 1 }),
  url: Type.String({ minLength: 1 }),
  retrieved_via: Type.Optional(Type.Object({ url: Type.String(), kind: Type.String(), note: Type.Optional(Type.String()) })),
  version: Type.String({ minLength: 1 }),
  licence: Type.String({ minLength: 1 }),
  derived_by: Type.String(),
  languages: Type.Array(Type.String()),
  nodes: Type.Array(Type.Object({ id: Type.String({ minLength: 1 }), names: Type.Record(Type.String(), Type.Array(Type.String())), parents: Type.Array(Type.String()) })),
});
const FoodVocabularyCheck = TypeCompiler.Compile(FoodVocabularySchema);

/**
 * data/food/vocabulary.json, checked against its schema; throws naming the file when it cannot be read,
 * is not JSON (a truncated copy) or does not fit.
 */
export function readFoodVocabulary(dataDir: string): FoodVocabularyRecord {
  const file = path.join(dataDir, 'food', 'vocabulary.json');
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`food/vocabulary.json ${err.code ? 'cannot be read' : 'is not valid JSON'}: ${err.message} (${file})`);
  }
  if (!FoodVocabularyCheck.Check(data)) throw new Error(`food/vocabulary.json does not fit its schema at ${[...FoodVocabularyCheck.Errors(data)][0]?.path ?? '/'}`);
  return data as FoodVocabularyRecord;
}

export class KnowledgeBaseError extends Error {
  constructor(public readonly problems: Problem[]) {
    super(
      `Knowledge base is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.slice(0, 50).map((p) => `  ${p.file} [${p.record}] ${p.field}: ${p.message}`).join('\n') +
        (problems.length > 50 ? `\n  … and ${problems.length - 50} more` : ''),
    );
    this.name = 'KnowledgeBaseError';
  }
}

const FAMILY_DIRS: Record<string, EntityType> = {
  grapes: 'grape',
  geographies: 'wine_geography',
  spirits: 'spirit',
  'beer-styles': 'beer_style',
  'wine-styles': 'wine_style',
};

function readJsonFiles(dir: string, rel: string, problems: Problem[]): { file: string; data: unknown }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const file = `${rel}/${f}`;
      try {
        return [{ file, data: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as unknown }];
      } catch (e) {
        problems.push({ file, record: '-', field: '-', message: `not valid JSON: ${(e as Error).message}` });
        return [];
      }
    });
}

/** One JSON file at the root of data/, if present (a missing file is no problem). */
function readRootFile(dataDir: string, name: string, problems: Problem[]): { file: string; data: unknown }[] {
  const p = path.join(dataDir, name);
  if (!fs.existsSync(p)) return [];
  try {
    return [{ file: name, data: JSON.parse(fs.readFileSync(p, 'utf8')) as unknown }];
  } catch (e) {
    problems.push({ file: name, record: '-', field: '-', message: `not valid JSON: ${(e as Error).message}` });
    return [];
  }
}

/** One JSON object at the root of data/ checked against its schema (a problem names its first error). */
function readRootObject<T>(dataDir: string, name: string, schema: TSchema, problems: Problem[]): { file: string; rec: T }[] {
  const C = TypeCompiler.Compile(schema);
  return readRootFile(dataDir, name, problems).flatMap(({ file, data }) => {
    if (C.Check(data)) return [{ file, rec: data as T }];
    problems.push({ file, record: '-', field: [...C.Errors(data)][0]?.path ?? '/', message: 'does not fit the schema' });
    return [];
  });
}

function checkArray<T>(schema: TSchema, files: { file: string; data: unknown }[], idOf: (r: any, i: number) => string, problems: Problem[]) {
  const C = TypeCompiler.Compile(schema);
  const out: { file: string; rec: T }[] = [];
  for (const { file, data } of files) {
    if (!Array.isArray(data)) {
      problems.push({ file, record: '-', field: '-', message: 'must be a JSON array of records' });
      continue;
    }
    data.forEach((rec, i) => {
      // Check() is the compiled fast path; the error walk (far slower) runs only for a record
      // that fails it.
      if (C.Check(rec)) {
        out.push({ file, rec: rec as T });
        return;
      }
      const errs = [...C.Errors(rec)];
      if (errs.length) {
        for (const e of errs.slice(0, 5)) {
          problems.push({ file, record: idOf(rec, i), field: e.path || '/', message: e.message });
        }
      } else out.push({ file, rec: rec as T });
    });
  }
  return out;
}

export function loadKnowledgeBase(dataDir: string): { kb: KnowledgeBase; problems: Problem[] } {
  const problems: Problem[] = [];
  const recId = (r: any, i: number) => (r && typeof r === 'object' && (r.key || r.expression_key || r.entity || r.term)) || `#${i}`;

  // version
  let version = 'unversioned';
  let date: string | null = null;
  const metaPath = path.join(dataDir, 'kb.json');
  try {
    const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8'));
    if (TypeCompiler.Compile(KbMetaSchema).Check(meta)) {
      version = meta.version;
      date = meta.date ?? null;
    } else problems.push({ file: 'kb.json', record: '-', field: 'version', message: 'must be {"version": "<label>", "date"?: "YYYY-MM-DD"}' });
  } catch (e) {
    problems.push({ file: 'kb.json', record: '-', field: '-', message: `cannot read: ${(e as Error).message}` });
  }

  // sources
  const sources = new Map<string, Source>();
  for (const { file, rec } of checkArray<Source>(SourceSchema, readJsonFiles(path.join(dataDir, 'sources'), 'sources', problems), recId, problems)) {
    if (sources.has(rec.key)) problems.push({ file, record: rec.key, field: 'key', message: 'duplicate source key' });
    sources.set(rec.key, rec);
  }
  const needSource = (file: string, record: string, field: string, key: string) => {
    if (!sources.has(key)) problems.push({ file, record, field, message: `unknown source "${key}"` });
  };

  // entities
  const all: { file: string; rec: EntityRecord }[] = [];
  for (const [dir, type] of Object.entries(FAMILY_DIRS)) {
    for (const item of checkArray<EntityRecord>(EntityRecordSchema, readJsonFiles(path.join(dataDir, dir), dir, problems), recId, problems)) {
      if (item.rec.type !== type) {
        problems.push({ file: item.file, record: item.rec.key, field: 'type', message: `must be "${type}" in ${dir}/` });
        continue;
      }
      if (!item.rec.key.startsWith(`${KEY_FAMILY[type]}/`)) {
        problems.push({ file: item.file, record: item.rec.key, field: 'key', message: `must start with "${KEY_FAMILY[type]}/"` });
        continue;
      }
      all.push(item);
    }
  }
  const allByKey = new Map<string, { file: string; rec: EntityRecord }>();
  for (const item of all) {
    if (allByKey.has(item.rec.key)) problems.push({ file: item.file, record: item.rec.key, field: 'key', message: 'duplicate entity key' });
    else allByKey.set(item.rec.key, item);
  }
  // data/place-names.json: ISO country names. A country record whose code has a different ISO short
  // name gets it as an alias ("Czech Republic" for Czechia); names with a comma are official long forms
  // and only their head ("Korea") is kept, for the resolver's place-name check.
  let placeNames: string[] = [];
  for (const { file, rec: pn } of readRootObject<PlaceNamesRecord>(dataDir, 'place-names.json', PlaceNamesSchema, problems)) {
    needSource(file, '-', 'source', pn.source);
    placeNames = pn.names.map((n) => n.name.split(',')[0]!.trim());
    const countryByCode = new Map<string, { file: string; rec: EntityRecord }>();
    for (const item of allByKey.values()) {
      const r = item.rec;
      if (r.type === 'wine_geography' && r.facts.level?.value === 'country' && typeof r.facts.country?.value === 'string' && r.review !== 'draft') countryByCode.set(r.facts.country.value, item);
    }
    for (const n of pn.names) {
      const target = countryByCode.get(n.code);
      if (!target || n.name.includes(',') || n.name.includes('(')) continue;
      const r = target.rec;
      if ([r.name, ...r.aliases.map((a) => a.name)].some((x) => exactForm(x) === exactForm(n.name))) continue;
      target.rec = { ...r, aliases: [...r.aliases, { name: n.name, lang: 'en', kind: 'common_name', source: pn.source, locator: `${pn.locator}: ${n.code}` }] };
    }
  }

  // data/place-names-cldr.json: country names in other languages (tools/derive/cldr-place-names.mjs); place
  // names only, never aliases (a country the knowledge base lacks stays unresolved)
  for (const { file, rec } of readRootObject<PlaceNamesRecord>(dataDir, 'place-names-cldr.json', PlaceNamesSchema, problems)) {
    needSource(file, '-', 'source', rec.source);
    for (const n of rec.names) placeNames.push(n.name);
  }

  // data/aliases/*.json: aliases added to records kept elsewhere (often files derived by a script)
  for (const { file, rec } of checkArray<AliasAdditionRecord>(AliasAdditionSchema, readJsonFiles(path.join(dataDir, 'aliases'), 'aliases', problems), recId, problems)) {
    const target = allByKey.get(rec.entity);
    if (!target) {
      problems.push({ file, record: rec.entity, field: 'entity', message: `"${rec.entity}" is not an entity` });
      continue;
    }
    target.rec = { ...target.rec, aliases: [...target.rec.aliases, ...rec.aliases] };
  }
  const served = [...allByKey.values()].filter((i) => i.rec.review !== 'draft');
  const entities: Entity[] = served.map(({ file, rec }, idx) => ({
    ...rec,
    idx,
    id: entityIdOf(rec.key),
    domain: DOMAIN_OF[rec.type],
    file,
    children: [],
    geographies: [],
    sensory: [],
    grapeRules: [],
    appellations: [],
    pairing: null,
  }));
  const byKey = new Map(entities.map((e) => [e.key, e]));

  for (const e of entities) {
    const allowed = FACT_FIELDS[e.type];
    for (const [field, fact] of Object.entries(e.facts)) {
      const kind = allowed[field];
      const where = { file: e.file, record: e.key, field: `facts.${field}` };
      if (!kind) {
        problems.push({ ...where, message: `not a fact of ${e.type} (allowed: ${Object.keys(allowed).join(', ')})` });
        continue;
      }
      needSource(e.file, e.key, `${where.field}.source`, fact.source);
      if ((fact.source_excerpt === undefined) !== (fact.language_code === undefined)) {
        problems.push({ ...where, message: 'source_excerpt and language_code go together (the language of the excerpt)' });
      }
      const v = fact.value;
      const typeOk =
        (kind === 'string' && typeof v === 'string') ||
        (kind === 'number' && typeof v === 'number') ||
        (kind === 'range' && typeof v === 'object' && !Array.isArray(v) && v.min <= v.max) ||
        ((kind === 'strings' || kind === 'entities') && Array.isArray(v)) ||
        (kind === 'entity' && typeof v === 'string');
      if (!typeOk) problems.push({ ...where, message: `value must be a ${kind}${kind === 'range' ? ' with min <= max' : ''}` });
      if (kind === 'entity' && typeof v === 'string') {
        const t = byKey.get(v);
        if (!t) problems.push({ ...where, message: `${field} "${v}" is not a served entity` });
        else if (t === e) problems.push({ ...where, message: `an entity cannot be its own ${field}` });
        else if (field === 'appellation' && t.type !== 'wine_geography') problems.push({ ...where, message: `"${v}" is not a wine geography` });
        else if (field === 'parent' && e.type === 'wine_style' && t.type !== 'wine_style') problems.push({ ...where, message: `"${v}" is not a wine style` });
        else if (field === 'parent') t.children.push(e.idx);
      }
      if (kind === 'entities' && Array.isArray(v)) {
        for (const k of v) {
          const t = byKey.get(k);
          if (!t) problems.push({ ...where, message: `"${k}" is not a served entity` });
          else if (field === 'grapes' && t.type !== 'grape') problems.push({ ...where, message: `"${k}" is not a grape` });
          else if (field === 'grapes') t.geographies.push(e.idx);
        }
      }
    }
    if (e.type === 'wine_style') {
      const cat = e.facts.category?.value;
      if (typeof cat !== 'string' || !(WINE_STYLE_CATEGORIES as readonly string[]).includes(cat)) {
        problems.push({ file: e.file, record: e.key, field: 'facts.category', message: `required, one of ${WINE_STYLE_CATEGORIES.join(', ')}` });
      }
      if (!e.facts.definition) problems.push({ file: e.file, record: e.key, field: 'facts.definition', message: 'required: the legal or official definition, cited' });
    }
    if (e.type === 'wine_geography') {
      const level = e.facts.level?.value;
      if (typeof level !== 'string' || !(GEO_LEVELS as readonly string[]).includes(level)) {
        problems.push({ file: e.file, record: e.key, field: 'facts.level', message: `required, one of ${GEO_LEVELS.join(', ')}` });
      }
    }
    e.aliases.forEach((a, i) => needSource(e.file, e.key, `aliases[${i}].source`, a.source));
  }

  // names: within an entity no repeats; across entities every shared name must be declared
  // data/ambiguities.json plus any number of files in data/ambiguities/
  const ambiguityRecs = checkArray<AmbiguityRecord>(
    AmbiguitySchema,
    [
      ...readRootFile(dataDir, 'ambiguities.json', problems),
      ...readJsonFiles(path.join(dataDir, 'ambiguities'), 'ambiguities', problems),
    ],
    recId,
    problems,
  );
  const ambiguities = ambiguityRecs.map((x) => x.rec);
  const declared = new Map<string, Set<string>>();
  for (const { file, rec: a } of ambiguityRecs) {
    for (const k of a.entities) {
      // the file the declaration is in (ambiguities.json or ambiguities/<name>.json)
      if (!byKey.has(k)) problems.push({ file, record: a.term, field: 'entities', message: `"${k}" is not a served entity` });
    }
    if (a.first !== undefined && !a.entities.includes(a.first)) problems.push({ file, record: a.term, field: 'first', message: `"${a.first}" is not one of the term's entities` });
    declared.set(exactForm(a.term), new Set(a.entities));
  }
  // A grape synonym that is also the name of one wine geography needs no declaration: places beat
  // synonyms in the resolver ("Cahors" is the appellation, not Malbec). Any other shared name must
  // be declared.
  const nameOwners = new Map<string, Set<string>>();
  const synonymOnly = new Map<string, Set<string>>(); // name → grapes that carry it only as an alias
  for (const e of entities) {
    const own = new Set<string>();
    for (const [i, n] of [e.name, ...e.aliases.map((a) => a.name)].entries()) {
      const k = exactForm(n);
      if (!k) {
        problems.push({ file: e.file, record: e.key, field: i === 0 ? 'name' : `aliases[${i - 1}]`, message: 'has no letters or digits' });
        continue;
      }
      if (own.has(k)) {
        problems.push({ file: e.file, record: e.key, field: `aliases[${i - 1}].name`, message: `"${n}" repeats a name of the same entity` });
      }
      own.add(k);
      let s = nameOwners.get(k);
      if (!s) nameOwners.set(k, (s = new Set()));
      s.add(e.key);
      if (e.type === 'grape' && i > 0) {
        let g = synonymOnly.get(k);
        if (!g) synonymOnly.set(k, (g = new Set()));
        g.add(e.key);
      }
    }
  }
  for (const [name, owners] of nameOwners) {
    if (owners.size < 2) continue;
    const syn = synonymOnly.get(name);
    const rest = [...owners].filter((o) => !syn?.has(o));
    if (syn && rest.length === 1 && byKey.get(rest[0]!)!.type === 'wine_geography') continue;
    const d = declared.get(name);
    if (!d || [...owners].some((o) => !d.has(o))) {
      const first = byKey.get([...owners][0]!)!;
      problems.push({
        file: first.file,
        record: [...owners].join(', '),
        field: 'name/aliases',
        message: `"${name}" names ${owners.size} entities; declare it in ambiguities.json with all of them`,
      });
    }
  }

  // out of scope: drinks the service does not cover. A term must not be the name of an entity.
  const outOfScope = checkArray<OutOfScopeRecord>(
    OutOfScopeSchema,
    readRootFile(dataDir, 'out-of-scope.json', problems),
    recId,
    problems,
  ).map((x) => x.rec);
  for (const o of outOfScope) {
    if (o.source) needSource('out-of-scope.json', o.term, 'source', o.source);
    if ((o.source === undefined) !== (o.locator === undefined)) problems.push({ file: 'out-of-scope.json', record: o.term, field: 'source', message: 'source and locator go together' });
    const owners = nameOwners.get(exactForm(o.term));
    if (owners) problems.push({ file: 'out-of-scope.json', record: o.term, field: 'term', message: `also names ${[...owners].join(', ')}` });
  }

  // the variety crosswalk (issue 34, item 1; tools/derive/grape-crosswalk.mjs): each row cites its source,
  // has a VIVC number and its prime name or the reason it leaves the name unmapped, once per (name, country)
  for (const { file, data } of readRootFile(dataDir, 'grape-crosswalk.json', problems)) {
    const seen = new Set<string>();
    for (const { rec } of checkArray<GrapeCrosswalkRow>(GrapeCrosswalkRowSchema, [{ file, data: Array.isArray(data) ? data : [] }], (r: any, i) => r?.name ?? `#${i}`, problems)) {
      needSource(file, rec.name, 'source', rec.source);
      if (rec.vivc_number ? !rec.vivc_prime_name || rec.reason : !rec.reason) problems.push({ file, record: rec.name, field: 'vivc_number', message: 'a row has a VIVC number and its prime name, or no number and a reason' });
      const k = `${fold(exactForm(rec.name))}|${rec.country}`;
      if (seen.has(k)) problems.push({ file, record: rec.name, field: 'name', message: `twice for country ${rec.country}` });
      seen.add(k);
    }
  }

  // designation words and traditional terms: each cites its source; none may be an entity's name
  const designations: DesignationRecord[] = [];
  for (const { file, data } of readRootFile(dataDir, 'designations.json', problems)) {
    const terms = (data as { terms?: unknown })?.terms;
    if (!Array.isArray(terms)) {
      problems.push({ file, record: '-', field: 'terms', message: 'must be {"terms": [ … ]}' });
      continue;
    }
    const seen = new Set<string>();
    for (const { rec } of checkArray<DesignationRecord>(DesignationSchema, [{ file, data: terms }], (r: any, i) => r?.term ?? `#${i}`, problems)) {
      needSource(file, rec.term, 'source', rec.source);
      const k = `${exactForm(rec.term)}|${rec.kind}`;
      if (seen.has(k)) continue; // the same word from several laws: the first entry stands for it
      seen.add(k);
      const owners = rec.kind === 'designation' ? nameOwners.get(exactForm(rec.term)) : undefined;
      if (owners) problems.push({ file, record: rec.term, field: 'term', message: `also names ${[...owners].join(', ')}: a designation word is never an entity name` });
      designations.push(rec);
    }
  }

  // label words of the line parser: each kind and colour word cites its source
  let labelTerms: LabelTermsRecord = { kinds: [], colours: [] };
  for (const { file, rec } of readRootObject<LabelTermsRecord>(dataDir, 'label-terms.json', LabelTermsSchema, problems)) {
    labelTerms = rec;
    labelTerms.kinds.forEach((k, i) => needSource(file, k.kind, `kinds[${i}].source`, k.source));
    labelTerms.colours.forEach((c, i) => needSource(file, c.term, `colours[${i}].source`, c.source));
    (labelTerms.scope_words ?? []).forEach((w, i) => {
      needSource(file, w.term, `scope_words[${i}].source`, w.source);
      for (const k of w.for ?? []) if (!entities.some((e) => e.key === k)) problems.push({ file, record: w.term, field: `scope_words[${i}].for`, message: `names no entity: ${k}` });
    });
  }

  // beer descriptions as base style + modifiers: every class and rule cites its source; rules name served beer styles
  let beerModifiers: BeerModifiersRecord | null = null;
  for (const { file, rec } of readRootObject<BeerModifiersRecord>(dataDir, 'beer-modifiers.json', BeerModifiersSchema, problems)) {
    beerModifiers = rec;
    rec.classes.forEach((c, i) => c.sources.forEach((s, j) => needSource(file, c.class, `classes[${i}].sources[${j}].source`, s.source)));
    needSource(file, 'joiners', 'joiners.source', rec.joiners.source);
    needSource(file, 'inherent_source', 'inherent_source.source', rec.inherent_source.source);
    rec.styles.forEach((r, i) => {
      needSource(file, r.style, `styles[${i}].source`, r.source);
      for (const k of [r.style, ...(r.also ?? []), ...(r.base ?? [])]) if (!byKey.has(k)) problems.push({ file, record: r.style, field: `styles[${i}]`, message: `names "${k}", which is not a served entity` });
    });
  }

  // the demand prior: orders candidates of equal score (a shared name lists the meaning most asked for first)
  const demandPrior = { classes: {} as Record<string, number>, entities: {} as Record<string, number> };
  for (const { file, data } of readRootFile(dataDir, 'demand-prior.json', problems)) {
    const d = data as { classes?: unknown; entities?: unknown };
    const numbers = (o: unknown) => !!o && typeof o === 'object' && Object.values(o).every((v) => typeof v === 'number' && v >= 0);
    if (!numbers(d.classes) || !numbers(d.entities)) {
      problems.push({ file, record: '-', field: 'classes/entities', message: 'must map class names and entity keys to non-negative numbers' });
      continue;
    }
    demandPrior.classes = d.classes as Record<string, number>;
    demandPrior.entities = d.entities as Record<string, number>;
  }

  // sensory
  const seenExpr = new Set<string>();
  for (const { file, rec } of checkArray<SensoryRecord>(SensorySchema, readJsonFiles(path.join(dataDir, 'sensory'), 'sensory', problems), recId, problems)) {
    const target = byKey.get(rec.entity);
    if (!target) {
      problems.push({ file, record: rec.expression_key, field: 'entity', message: `"${rec.entity}" is not a served entity` });
      continue;
    }
    if (seenExpr.has(rec.expression_key)) problems.push({ file, record: rec.expression_key, field: 'expression_key', message: 'duplicate' });
    seenExpr.add(rec.expression_key);
    const supported = new Set<string>();
    rec.provenance.forEach((p, i) => {
      needSource(file, rec.expression_key, `provenance[${i}].source`, p.source);
      for (const f of p.supports) supported.add(f);
    });
    const fieldsWithValues = Object.entries(rec).filter(([k, v]) =>
      !['entity', 'expression_key', 'expression_name', 'confidence', 'review_status', 'provenance', 'geography_scope', 'style_scope'].includes(k) &&
      v !== null && !(Array.isArray(v) && v.length === 0) &&
      !(k === 'climate_affinity' && (v as any).soils === null && (v as any).preference === null));
    for (const [k] of fieldsWithValues) {
      if (!supported.has(k) && !(k === 'climate_affinity' && (supported.has('climate_affinity.soils') || supported.has('climate_affinity.preference')))) {
        problems.push({ file, record: rec.expression_key, field: k, message: 'has a value but no provenance entry supports it' });
      }
    }
    if (rec.review_status !== 'draft') target.sensory.push(rec);
  }

  // pairings: one set per entity (data/README.md); a second set anywhere is a problem naming the first,
  // so evidence for an entity is read, scoped and reviewed in one place
  const pairingKeys = new Map<string, Set<string>>();
  const pairingFile = new Map<string, string>();
  for (const { file, rec } of checkArray<PairingSetRecord>(PairingSetSchema, readJsonFiles(path.join(dataDir, 'pairings'), 'pairings', problems), recId, problems)) {
    const target = byKey.get(rec.entity);
    if (!target) {
      problems.push({ file, record: rec.entity, field: 'entity', message: `"${rec.entity}" is not a served entity` });
      continue;
    }
    const firstFile = pairingFile.get(rec.entity);
    if (firstFile !== undefined) {
      problems.push({ file, record: rec.entity, field: 'entity', message: `a second pairing set for ${rec.entity} (the first is in ${firstFile}): one set per entity, add these items to that set` });
      continue;
    }
    pairingFile.set(rec.entity, file);
    let keys = pairingKeys.get(rec.entity);
    if (!keys) pairingKeys.set(rec.entity, (keys = new Set<string>()));
    rec.items.forEach((it, i) => {
      const where = { file, record: rec.entity, field: `items[${i}]` };
      const src = sources.get(it.source_key);
      if (!src) problems.push({ ...where, field: `${where.field}.source_key`, message: `unknown source "${it.source_key}"` });
      else {
        const ceiling = CONFIDENCE_BY_AUTHORITY[src.authority];
        if (ceiling === undefined) problems.push({ ...where, field: `${where.field}.source_key`, message: `a ${src.authority} source is not pairing evidence` });
        else {
          // Text read in a copy (retrieved_via) is capped one authority class lower.
          const max = src.retrieved_via ? copyCeiling(ceiling) : ceiling;
          if (it.confidence > max + 1e-9) problems.push({ ...where, field: `${where.field}.confidence`, message: src.retrieved_via ? `exceeds ${max}: the source was read in a copy (retrieved_via), which caps ${src.authority} (${ceiling}) one class lower` : `exceeds ${max}, the ceiling for ${src.authority}` });
        }
      }
      const scopeKey = `${it.pairing_key}|${it.style_scope}|${it.geography_scope}|${it.wine_age_scope}|${it.sweetness_scope}|${it.oak_scope}|${it.serving_scope}`;
      if (keys.has(scopeKey)) problems.push({ ...where, field: `${where.field}.pairing_key`, message: `duplicate item "${it.pairing_key}" in the same scope` });
      keys.add(scopeKey);
    });
    if (rec.review !== 'verified') continue;
    target.pairing = rec;
  }

  // appellation grape rules (issue 21). A set read in the official text wins over a set read only
  // through a dataset's extraction (retrieved_via kind "dataset") for the same appellation; the latter
  // never says "required" and gives no shares. The set becomes the appellation's `grapes` fact.
  const datasetOnly = (k: string) => sources.get(k)?.retrieved_via?.kind === 'dataset';
  const setsOf = new Map<string, { file: string; rec: GrapeRuleSetRecord }[]>();
  for (const item of checkArray<GrapeRuleSetRecord>(GrapeRuleSetSchema, readJsonFiles(path.join(dataDir, 'appellation-grapes'), 'appellation-grapes', problems), (r: any, i) => r?.appellation ?? `#${i}`, problems)) {
    const { file, rec } = item;
    const where = { file, record: rec.appellation };
    const target = byKey.get(rec.appellation);
    needSource(file, rec.appellation, 'source', rec.source);
    // the date a rule applies from says what it is, and the texts it replaced are cited (issue 34, item 4)
    for (const k of rec.supersedes ?? []) needSource(file, rec.appellation, 'supersedes', k);
    if ((rec.in_force_from === undefined) !== (rec.in_force_basis === undefined)) problems.push({ ...where, field: 'in_force_from', message: 'in_force_from and in_force_basis go together' });
    if (!target) { problems.push({ ...where, field: 'appellation', message: `"${rec.appellation}" is not a served entity` }); continue; }
    if (target.type !== 'wine_geography') { problems.push({ ...where, field: 'appellation', message: `"${rec.appellation}" is not a wine geography` }); continue; }
    const seen = new Set<string>();
    let ok = true;
    rec.grapes.forEach((g, i) => {
      const f = `grapes[${i}]`;
      const grape = byKey.get(g.grape);
      if (!grape || grape.type !== 'grape') { problems.push({ ...where, field: `${f}.grape`, message: `"${g.grape}" is not a served grape` }); ok = false; }
      const k = `${g.grape}|${g.scope ?? ''}`;
      if (seen.has(k)) problems.push({ ...where, field: `${f}.grape`, message: `"${g.grape}" twice in one set` });
      seen.add(k);
      if (g.min_share !== null && g.max_share !== null && g.min_share > g.max_share) problems.push({ ...where, field: f, message: 'min_share exceeds max_share' });
      if (datasetOnly(rec.source) && (g.role === 'required' || g.min_share !== null || g.max_share !== null)) {
        problems.push({ ...where, field: f, message: 'a rule read only through a dataset is never "required" and gives no shares' });
      }
    });
    // honest completeness (issue 34, item 2): a partial set says which names it could not map, or why not
    if (rec.complete && rec.unmapped?.length) problems.push({ ...where, field: 'complete', message: 'a set with unmapped names is not complete' });
    if (!rec.complete && !rec.unmapped?.length && !rec.completeness_note) problems.push({ ...where, field: 'unmapped', message: 'a partial set lists the names it could not map (or says in completeness_note why the list was not re-read)' });
    if (!rec.grapes.length && !rec.unmapped?.length) problems.push({ ...where, field: 'grapes', message: 'a set with no grapes lists its unmapped names' });
    if (!ok) continue;
    if (!setsOf.has(rec.appellation)) setsOf.set(rec.appellation, []);
    setsOf.get(rec.appellation)!.push(item);
  }
  for (const [appellation, items] of setsOf) {
    const e = byKey.get(appellation)!;
    const official = items.filter((x) => !datasetOnly(x.rec.source));
    // a `grapes` fact read in a text (no dataset) stays when only a dataset's extraction is at hand
    const legacy = e.facts.grapes;
    if (!official.length && legacy && !datasetOnly(legacy.source)) continue;
    e.grapeRules = (official.length ? official : items).map((x) => x.rec);
    const keys: string[] = [];
    for (const set of e.grapeRules) {
      for (const g of set.grapes) {
        if (!keys.includes(g.grape)) keys.push(g.grape);
        byKey.get(g.grape)!.appellations.push({ geo: e.idx, role: g.role, scope: g.scope ?? set.scope ?? null });
      }
    }
    e.facts = { ...e.facts, grapes: { value: keys, source: e.grapeRules[0]!.source, locator: e.grapeRules[0]!.locator } };
  }

  const draftCount = all.length - served.length;
  if (!fs.existsSync(path.join(dataDir, 'food', 'vocabulary.json'))) {
    problems.push({ file: 'food/vocabulary.json', record: '-', field: '-', message: 'missing: derive it with tools/derive/food-vocabulary.mjs' });
  }
  let food: FoodVocabularyRecord | undefined;
  const foodVocabulary = () => (food ??= readFoodVocabulary(dataDir));
  const tombstones = readTombstones(dataDir, entityIdOf, (key) => byKey.has(key), problems);
  let notes: string | null | undefined;
  const notesFile = path.join(dataDir, 'releases', `${version}.md`);
  const releaseNotes = () => (notes !== undefined ? notes : (notes = fs.existsSync(notesFile) ? fs.readFileSync(notesFile, 'utf8') : null));
  return {
    kb: { version, entities, byKey, byId: new Map(entities.map((e) => [e.id, e])), sources, ambiguities, outOfScope, placeNames, designations, labelTerms, demandPrior, foodVocabulary, beerModifiers, draftCount, date, tombstones, releaseNotes },
    problems,
  };
}

/** Start-up entry: load, or throw with every problem named. */
export function loadKnowledgeBaseOrThrow(dataDir: string): KnowledgeBase {
  const { kb, problems } = loadKnowledgeBase(dataDir);
  if (problems.length) throw new KnowledgeBaseError(problems);
  return kb;
}
