// `admin kb validate` and `admin kb stats`. Validation = everything start-up checks (schemas,
// references, provenance, declared ambiguities) plus agreement with the public reference tables
// in ../shared/reference/ (VIVC ids, BJCP figures, AVA CFR sections) when that folder is present.
import fs from 'node:fs';
import path from 'node:path';
import { loadKnowledgeBase, type Problem } from './load.ts';
import { exactForm, fold } from '../normalize.ts';
import { CONFIDENCE_BY_AUTHORITY, copyCeiling } from './schema.ts';
import { foodEvidenceOf } from '../food.ts';
import type { KnowledgeBase } from './load.ts';
import { checkIdsForever } from './tombstones.ts';

function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  const [head, ...body] = rows.filter((r) => r.length > 1 || r[0]);
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

/** Rows of the reference tables that its README reports as wrong; our records deliberately differ. */
const KNOWN_REFERENCE_ERRORS: Record<string, string> = {
  'vivc:13127': "the index maps 'Grewicz' to VIURA (reference README); our record follows the sources cited on it",
  'bjcp:21B': "the reference row for 21B Specialty IPA carries the figures of its Black IPA type; 21B itself serves no og/fg/ibu/srm/abv",
};

export interface ValidationReport {
  version: string;
  entities: number;
  problems: Problem[];
  notices: string[];
}

export function validateKnowledgeBase(dataDir: string, referenceDir: string): ValidationReport {
  const { kb, problems } = loadKnowledgeBase(dataDir);
  const notices: string[] = [];
  const readRef = (f: string) => {
    const p = path.join(referenceDir, f);
    return fs.existsSync(p) ? parseCsv(fs.readFileSync(p, 'utf8')) : null;
  };
  const vivc = readRef('vivc-grape-index.csv');
  const bjcp = readRef('bjcp-2021-beer-styles.csv');
  const avas = readRef('us-avas.csv');
  if (!vivc || !bjcp || !avas) notices.push(`reference tables not found in ${referenceDir}: cross-checks against them were skipped`);

  const names = (e: { name: string; aliases: { name: string }[]; facts: Record<string, { value: unknown }> }) =>
    new Set([e.name, ...e.aliases.map((a) => a.name), String(e.facts.vivc_prime_name?.value ?? '')].map((n) => fold(exactForm(n))));

  if (vivc) {
    const byId = new Map(vivc.map((r) => [r.vivc_id, r]));
    for (const e of kb.entities.filter((x) => x.type === 'grape')) {
      const id = e.facts.vivc_id?.value;
      if (typeof id !== 'string') continue;
      const row = byId.get(id);
      if (!row) continue;
      if (KNOWN_REFERENCE_ERRORS[`vivc:${id}`]) {
        notices.push(`vivc ${id}: ${KNOWN_REFERENCE_ERRORS[`vivc:${id}`]}`);
        continue;
      }
      const own = names(e);
      const theirs = [row.name, row.vivc_prime_name_if_different].filter(Boolean).map((n) => fold(exactForm(n!)));
      if (!theirs.some((n) => own.has(n))) {
        problems.push({ file: e.file, record: e.key, field: 'facts.vivc_id', message: `VIVC ${id} is "${row.name}" in the reference index, which is not a name of this record` });
      }
      const colour = e.facts.berry_colour?.value;
      if (typeof colour === 'string' && row.berry_colour && colour.toLowerCase() !== row.berry_colour.toLowerCase()) {
        problems.push({ file: e.file, record: e.key, field: 'facts.berry_colour', message: `"${colour}" but the reference index says "${row.berry_colour}"` });
      }
    }
  }
  if (bjcp) {
    const byId = new Map(bjcp.map((r) => [r.style_id, r]));
    // named sub-styles and category entries (no `style_id`: 21B's Black IPA, 27 Historical Beer) are not rows of the table
    for (const e of kb.entities.filter((x) => x.type === 'beer_style' && x.facts.style_id)) {
      const id = e.facts.style_id?.value;
      const row = typeof id === 'string' ? byId.get(id) : undefined;
      if (!row) {
        problems.push({ file: e.file, record: e.key, field: 'facts.style_id', message: `"${String(id)}" is not a BJCP 2021 style id` });
        continue;
      }
      if (fold(exactForm(row.name!)) !== fold(exactForm(e.name))) {
        problems.push({ file: e.file, record: e.key, field: 'name', message: `BJCP ${id} is "${row.name}"` });
      }
      if (KNOWN_REFERENCE_ERRORS[`bjcp:${String(id)}`]) {
        notices.push(`bjcp ${String(id)}: ${KNOWN_REFERENCE_ERRORS[`bjcp:${String(id)}`]}`);
        continue; // its figures are checked by auditChecks (it must serve none)
      }
      for (const f of ['og', 'fg', 'ibu', 'srm', 'abv']) {
        const v = e.facts[f]?.value as { min: number; max: number } | undefined;
        const min = row[`${f}_min`];
        const max = row[`${f}_max`];
        if (!min && !max) {
          if (v) problems.push({ file: e.file, record: e.key, field: `facts.${f}`, message: 'BJCP gives no figure for this style' });
          continue;
        }
        if (!v || v.min !== Number(min) || v.max !== Number(max)) {
          problems.push({ file: e.file, record: e.key, field: `facts.${f}`, message: `must be ${min}–${max} as in BJCP 2021 ${id}, got ${v ? `${v.min}–${v.max}` : 'nothing'}` });
        }
      }
    }
  }
  if (avas) {
    const sections = new Map<string, Set<string>>();
    for (const r of avas) {
      const s = `27 CFR ${r.cfr_index}`;
      if (!sections.has(s)) sections.set(s, new Set());
      sections.get(s)!.add(fold(exactForm(r.name!)));
    }
    for (const e of kb.entities.filter((x) => x.facts.classification?.value === 'AVA')) {
      const s = e.facts.cfr_section?.value;
      const known = typeof s === 'string' ? sections.get(s) : undefined;
      if (!known) problems.push({ file: e.file, record: e.key, field: 'facts.cfr_section', message: `"${String(s)}" is not an AVA section in 27 CFR Part 9` });
      else if (!known.has(fold(exactForm(e.name)))) problems.push({ file: e.file, record: e.key, field: 'name', message: `${s} names ${[...known].join(' / ')}` });
    }
  }
  // EU registers (eAmbrosia exports): every file number we cite is a registered GI whose protected
  // names include the record's name or one of its aliases, in the country the file number names.
  const euFiles = ['eu-gi-wines-eambrosia-2020.csv', 'eu-gi-spirits-eambrosia-2020.csv', 'eu-gi-aromatised-wines-eambrosia-2020.csv']
    .map(readRef)
    .filter((t): t is Record<string, string>[] => t !== null);
  const sample = readRef('eu-gi-register-sample.csv');
  if (euFiles.length === 3 || sample) {
    const register = new Map<string, { names: string[]; registered: boolean }>();
    for (const t of euFiles) {
      for (const r of t) register.set(r.filenumber!, { names: r.name!.split(' / '), registered: r.status === 'Registered' });
    }
    // the sample is a later extract: a GI registered (or renamed) since 2020 is registered under either name
    for (const r of sample ?? []) {
      const cur = register.get(r.file_number!);
      const names = r.protected_names!.split('|');
      if (!cur) register.set(r.file_number!, { names, registered: r.status === 'registered' });
      else register.set(r.file_number!, { names: [...cur.names, ...names], registered: cur.registered || r.status === 'registered' });
    }
    const holder = new Map<string, string>();
    for (const e of kb.entities) {
      const fn = e.facts.file_number?.value;
      if (typeof fn !== 'string' || !/^(PDO|PGI)-[A-Z]{2}-/.test(fn)) continue;
      if (holder.has(fn)) problems.push({ file: e.file, record: e.key, field: 'facts.file_number', message: `"${fn}" is also the file of ${holder.get(fn)}` });
      holder.set(fn, e.key);
      const row = register.get(fn);
      const where = { file: e.file, record: e.key, field: 'facts.file_number' };
      if (!row) {
        problems.push({ ...where, message: `"${fn}" is not in the eAmbrosia exports` });
        continue;
      }
      if (!row.registered) problems.push({ ...where, message: `"${fn}" is not a registered GI in the eAmbrosia export` });
      const own = names(e);
      // "A (B / C) / D (E / F)": also the parts split outside brackets, each with and without its bracket
      const forms = row.names.flatMap((n) => [n, n.split('(')[0]!, n.replace(/[()]/g, ' ')]);
      let depth = 0;
      let part = '';
      for (const ch of `${row.names.join(' / ')} / `) {
        depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
        part += ch;
        if (depth === 0 && part.endsWith(' / ')) {
          forms.push(part.slice(0, -3), part.slice(0, -3).split('(')[0]!);
          part = '';
        }
      }
      if (!forms.some((n) => own.has(fold(exactForm(n))))) {
        problems.push({ ...where, message: `"${fn}" protects ${row.names.map((n) => `"${n}"`).join(', ')}, none of which is a name of this record` });
      }
      const cc = fn.slice(4, 6);
      const country = e.facts.country?.value;
      if (e.type === 'wine_geography' && typeof country === 'string' && country !== cc) {
        problems.push({ file: e.file, record: e.key, field: 'facts.country', message: `"${country}" but file ${fn} is a GI of ${cc}` });
      }
      const cls = e.facts.classification?.value;
      if (e.type === 'wine_geography' && (cls === 'PDO' || cls === 'PGI') && cls !== fn.slice(0, 3)) {
        problems.push({ file: e.file, record: e.key, field: 'facts.classification', message: `"${cls}" but the file number is ${fn.slice(0, 3)}` });
      }
    }
  }
  // VIVC numbers: every vivc_id is a VIVC passport number, and a vivc_prime_name fact is its prime name
  // (the older prime-name list, and the fuller table of 23,607 numbers; where both hold a number the
  // fuller one is checked too).
  const prime = readRef('vivc-prime-names.csv');
  const primeFull = readRef('vivc-prime-names-full.csv');
  if (primeFull) {
    const byNo = new Map(primeFull.map((r) => [r.vivc_number, (r.prime_name ?? '').replace(/\s+/g, ' ').trim()]));
    const colourByNo = new Map(primeFull.map((r) => [r.vivc_number, (r.berry_colour ?? '').trim()]));
    for (const e of kb.entities.filter((x) => x.type === 'grape')) {
      const id = e.facts.vivc_id?.value;
      if (typeof id !== 'string') continue;
      const name = byNo.get(id);
      if (name === undefined) {
        // the fuller table lacks some countries' varieties: a missing number is a notice, not an error
        notices.push(`${e.key}: VIVC ${id} is not in vivc-prime-names-full.csv`);
        continue;
      }
      const pn = e.facts.vivc_prime_name?.value;
      if (typeof pn === 'string' && fold(exactForm(pn)) !== fold(exactForm(name))) {
        problems.push({ file: e.file, record: e.key, field: 'facts.vivc_prime_name', message: `"${pn}" but VIVC ${id} is "${name}" (vivc-prime-names-full.csv)` });
      }
      // berry colour against VIVC: another colour stands only on a more authoritative source (a
      // national register or a regulator), with the conflict recorded in the record's notes
      const colour = e.facts.berry_colour;
      const theirs = colourByNo.get(id);
      if (typeof colour?.value === 'string' && theirs && colour.value.toLowerCase() !== theirs.toLowerCase()) {
        const authority = kb.sources.get(colour.source)?.authority;
        const recorded = (e.notes ?? '').includes(`VIVC ${id} gives ${theirs.toUpperCase()}`);
        if (!recorded || (authority !== 'official_register' && authority !== 'regulator')) {
          problems.push({ file: e.file, record: e.key, field: 'facts.berry_colour', message: `"${colour.value}" but VIVC ${id} gives ${theirs.toUpperCase()}: take VIVC's colour, or keep this one only on a national register or regulator with "VIVC ${id} gives ${theirs.toUpperCase()}" in the record's notes` });
        }
      }
    }
  }
  if (prime) {
    const byNo = new Map(prime.map((r) => [r.vivc_no, r.prime_name]));
    for (const e of kb.entities.filter((x) => x.type === 'grape')) {
      const id = e.facts.vivc_id?.value;
      if (typeof id !== 'string') continue;
      const name = byNo.get(id);
      if (name === undefined) continue; // the prime-name list is a partial scrape of VIVC: absence proves nothing
      const pn = e.facts.vivc_prime_name?.value;
      if (typeof pn === 'string' && fold(exactForm(pn)) !== fold(exactForm(name!))) {
        problems.push({ file: e.file, record: e.key, field: 'facts.vivc_prime_name', message: `"${pn}" but VIVC ${id} is "${name}"` });
      }
    }
  }
  // prime names of both VIVC tables (the fuller one holds 14,000 numbers more)
  let primeByName: Map<string, string[]> | null = null;
  if (prime || primeFull) {
    primeByName = new Map();
    const add = (name: string | undefined, no: string | undefined) => {
      const k = fold(exactForm((name ?? '').replace(/\s+/g, ' ').trim()));
      if (k && no && !primeByName!.get(k)?.includes(no)) primeByName!.set(k, [...(primeByName!.get(k) ?? []), no]);
    };
    for (const r of prime ?? []) add(r.prime_name, r.vivc_no);
    for (const r of primeFull ?? []) add(r.prime_name, r.vivc_number);
  }
  auditChecks(dataDir, kb, avas, problems, notices, primeByName);
  foodChecks(kb, problems, notices);
  const auditFile = path.join(dataDir, 'appellation-audit.json');
  if (fs.existsSync(auditFile)) problems.push(...appellationAuditProblems(JSON.parse(fs.readFileSync(auditFile, 'utf8')), kb));
  const colourOf = (k: string) => kb.byKey.get(k)?.facts.berry_colour?.value as string | undefined;
  const sets = readFamily(dataDir, 'appellation-grapes').flatMap(({ file, data }) => data.map((rec) => ({ file, rec })));
  const flagged = grapeColourProblems(sets, colourOf);
  problems.push(...flagged.problems);
  notices.push(`grape colours: ${flagged.problems.length} principal white varieties in red/rosé-only scopes outside the listed exceptions; ${flagged.excepted} excepted (COLOUR_EXCEPTIONS)`);
  // ids are forever (issue 36): an id a past release served is served still or has a tombstone
  const ids = checkIdsForever(dataDir, new Set(kb.byId.keys()), kb.tombstones, problems);
  if (ids.releases === 0) notices.push('no data/releases/<version>.ids lists: ids served by past releases were not checked (npm run kb:release-ids)');
  else if (!fs.existsSync(path.join(dataDir, 'releases', `${kb.version}.ids`))) notices.push(`data/releases/${kb.version}.ids is missing: write it with npm run kb:release-ids`);
  return { version: kb.version, entities: kb.entities.length, problems, notices };
}

// ---------------------------------------------------------------------------------------------
// Berry colour against the wine colours a rule allows (issue 34, item 3; data/README.md, "Checks kb
// validate runs on evidence"). A scope (a set's `scope`, or a grape's, "Red; Rosé") names only red and/or
// rosé wines when every part of it names red or rosé and none names white or another type. A variety
// whose berry colour is blanc may not be principal (or required) for a scope that names a red ("Red",
// "Red; Rosé"): a red is made mainly of black grapes, and the finding is nearly always a name mapped to the
// wrong variety (a bare "Malvasia" of a red taken as Malvasia Istriana). A rosé may blend white varieties
// in (Tavel), so a rosé-only scope is refused only when all its main varieties of known colour are white. White wines are not checked the other way: blanc
// de noirs (Champagne) is made of black grapes. Grey and pink berries (gris, rose) pass. A red blend whose
// text does name white varieties among its main ones is listed in COLOUR_EXCEPTIONS with its reason.
const WINE_COLOUR_PART: [RegExp, 'white' | 'rose' | 'red'][] = [
  [/(^|[^\p{L}])(white|bianco|bianca|blanc|blanco|branco|weiss|weiß)/iu, 'white'],
  [/(^|[^\p{L}])(ros[ée]|rosato|rosado)(?!\p{L})/iu, 'rose'],
  [/(^|[^\p{L}])(red|rosso|rouge|tinto|rot)(?!\p{L})/iu, 'red'],
];
/**
 * What a scope allows: 'red' when every part names a red or rosé wine and one names a red, 'rose' when every
 * part names a rosé, null otherwise (a white, or a part of no colour such as "Riserva": nothing is checked).
 */
export function redOrRoseScope(scope: string | null | undefined): 'red' | 'rose' | null {
  if (!scope) return null;
  const kinds = scope.split(';').map((p) => p.trim()).filter(Boolean).map((p) => WINE_COLOUR_PART.find(([re]) => re.test(p))?.[1]);
  if (!kinds.length || kinds.some((k) => k === undefined || k === 'white')) return null;
  return kinds.includes('red') ? 'red' : 'rose';
}
/** Sets whose source lists a white variety among the main ones of a red (read in the source row). */
export const COLOUR_EXCEPTIONS: Record<string, string> = {
  'geo/banyuls-grand-cru|grape/grenache-blanc': 'the single document (dataset row) lists Grenache blanc among the principal varieties of the red liqueur wine (a vin doux naturel blend)',
  'geo/banyuls-grand-cru|grape/macabeo': 'the single document (dataset row) lists Macabeu among the principal varieties of the red liqueur wine (a vin doux naturel blend)',
  'geo/banyuls-grand-cru|grape/muscat': 'the single document (dataset row) lists Muscat among the principal varieties of the red liqueur wine (a vin doux naturel blend)',
  'geo/banyuls-grand-cru|grape/tourbat': 'the single document (dataset row) lists Tourbat among the principal varieties of the red liqueur wine (a vin doux naturel blend)',
  "geo/cacc-e-mmitte-di-lucera|grape/bombino-bianco": 'the dataset row names "Bombino Bianco" itself as principal for the red (a red blend with white varieties)',
  "geo/cacc-e-mmitte-di-lucera|grape/malvasia-bianca": 'the dataset row names "Malvasia Bianca" itself as principal for the red (a red blend with white varieties)',
  "geo/cacc-e-mmitte-di-lucera|grape/malvasia-bianca-lunga": 'the dataset row names "Malvasia Bianca Lunga" itself as principal for the red (a red blend with white varieties)',
  "geo/cacc-e-mmitte-di-lucera|grape/trebbiano": 'the dataset row names "Trebbiano Toscano" itself as principal for the red (a red blend with white varieties)',
  'geo/rosso-di-cerignola|grape/trebbiano': 'the dataset row names "Trebbiano Toscano" itself as principal for the red (a red blend with white varieties)',
  'geo/carmignano|grape/malvasia-bianca-lunga': 'the dataset row names "Malvasia Bianca Lunga" itself as principal for the red (Carmignano\'s blend admits white varieties)',
  'geo/carmignano|grape/trebbiano': 'the dataset row names "Trebbiano Toscano" itself as principal for the red (Carmignano\'s blend admits white varieties)',
  'geo/barco-reale-di-carmignano|grape/malvasia-bianca-lunga': 'the dataset row names "Malvasia Bianca Lunga" itself as principal for the red and rosé (a blend that admits white varieties)',
  'geo/barco-reale-di-carmignano|grape/trebbiano': 'the dataset row names "Trebbiano Toscano" itself as principal for the red and rosé (a blend that admits white varieties)',
  'geo/orta-nova|grape/trebbiano': 'the dataset row names "Trebbiano Toscano" itself as principal for the red and rosé (a blend that admits white varieties)',
  'geo/s-anna-di-isola-capo-rizzuto|grape/guardavalle': 'the dataset row names "Greco Bianco" itself (the register\'s Greco Bianco, synonym Guardavalle) as principal for the red and rosé (a blend that admits white varieties)',
  'geo/s-anna-di-isola-capo-rizzuto|grape/malvasia-bianca': 'the dataset row names "Malvasia Bianca" itself as principal for the red and rosé (a blend that admits white varieties)',
  'geo/colli-di-scandiano-e-di-canossa|grape/pinot-blanc': 'the dataset row names "Pinot Bianco" itself as principal for the red wines (the extraction\'s reading, not re-read in the text; not a mapping error)',
};
export function grapeColourProblems(
  sets: { file: string; rec: { appellation: string; scope?: string | null; grapes: { grape: string; role: string; scope?: string | null }[] } }[],
  colourOf: (grapeKey: string) => string | undefined,
  exceptions: Record<string, string> = COLOUR_EXCEPTIONS,
): { problems: Problem[]; excepted: number } {
  const problems: Problem[] = [];
  let excepted = 0;
  for (const { file, rec } of sets) {
    const main = (rec.grapes ?? []).map((g, i) => ({ g, i, scope: g.scope ?? rec.scope ?? null })).filter(({ g }) => g.role === 'principal' || g.role === 'required');
    for (const { g, i, scope } of main) {
      const allows = redOrRoseScope(scope);
      if (!allows || colourOf(g.grape) !== 'blanc') continue;
      // a rosé may blend white varieties in (Tavel): only a rosé whose main varieties are all white is impossible
      const namesRose = (sc: string | null) => (sc ?? '').split(';').some((p) => WINE_COLOUR_PART[1]![0].test(p));
      if (allows === 'rose' && main.some((o) => namesRose(o.scope) && colourOf(o.g.grape) !== undefined && colourOf(o.g.grape) !== 'blanc')) continue;
      if (exceptions[`${rec.appellation}|${g.grape}`]) { excepted++; continue; }
      problems.push({ file, record: rec.appellation, field: `grapes[${i}].grape`, message: `"${g.grape}" has white berries (facts.berry_colour blanc) but is ${g.role} for "${scope}", which names only ${allows === 'red' ? 'red (and rosé)' : 'rosé'} wines${allows === 'rose' ? ' and no main variety of another colour' : ''}: a wrong variety? (or list the set in COLOUR_EXCEPTIONS with its reason)` });
    }
  }
  return { problems, excepted };
}

// ---------------------------------------------------------------------------------------------
// Audit checks (issue 9): each class of fault found by the evidence audit is caught from now on.
// See data/README.md, "Checks kb validate runs on evidence".

/** Function words that mark a language; a word listed for two languages counts for neither. */
const STOP_WORDS_BY_LANG: Record<string, string[]> = {
  en: ['the', 'and', 'with', 'of', 'is', 'are', 'for', 'to', 'its', 'this', 'that', 'which', 'from', 'an', 'be', 'by', 'or', 'it', 'can', 'will', 'as', 'such', 'into', 'also', 'well', 'but', 'than', 'their', 'these', 'they', 'you', 'your', 'has', 'have', 'on', 'at'],
  pt: ['com', 'e', 'os', 'do', 'da', 'dos', 'das', 'em', 'uma', 'um', 'não', 'também', 'para', 'mais', 'são', 'ao', 'à', 'pelo', 'pela', 'muito', 'ou', 'mas', 'como', 'bem', 'seu', 'sua', 'nos', 'nas', 'é', 'vinho', 'vinhos'],
  fr: ['le', 'les', 'et', 'des', 'du', 'avec', 'est', 'une', 'pour', 'au', 'aux', 'sur', 'ce', 'qui', 'très', 'peut', 'sont', 'vin', 'vins', 'dans', 'ou', 'mais', 'son', 'ses', 'leur', 'plus', 'comme', 'bien', 'cette', 'ces', 'à'],
  de: ['der', 'die', 'das', 'und', 'mit', 'ist', 'zu', 'ein', 'eine', 'den', 'dem', 'des', 'von', 'für', 'nicht', 'auch', 'sich', 'wein', 'weine', 'sind', 'oder', 'zum', 'zur', 'einem', 'einer', 'aus', 'bei', 'wird', 'passt', 'sehr'],
  it: ['il', 'lo', 'gli', 'con', 'di', 'del', 'della', 'dei', 'delle', 'è', 'una', 'per', 'che', 'sono', 'al', 'alla', 'anche', 'vino', 'vini', 'si', 'nel', 'nella', 'ed', 'più', 'come', 'molto', 'suo', 'sua', 'questo'],
  es: ['el', 'los', 'las', 'y', 'con', 'del', 'es', 'una', 'para', 'que', 'por', 'al', 'se', 'muy', 'vino', 'vinos', 'son', 'también', 'su', 'sus', 'como', 'más', 'pero', 'este', 'esta'],
};
const LANG_MARKERS: Map<string, string> = (() => {
  const seen = new Map<string, string | null>();
  for (const [lang, words] of Object.entries(STOP_WORDS_BY_LANG)) {
    for (const w of words) seen.set(w, seen.has(w) && seen.get(w) !== lang ? null : lang);
  }
  return new Map([...seen].filter((e): e is [string, string] => e[1] !== null));
})();

const words = (s: string) => s.toLowerCase().normalize('NFC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The language whose function words clearly dominate `text` (at least 3 and twice any other), or null. */
export function excerptLanguage(text: string): string | null {
  const counts = new Map<string, number>();
  for (const w of words(text)) {
    const lang = LANG_MARKERS.get(w);
    if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [top, next] = ranked;
  if (!top || top[1] < 3 || (next && next[1] * 2 > top[1])) return null;
  return top[0];
}

/** Words of a food name that carry no food: they never count as the excerpt mentioning the food. */
const GENERIC_FOOD_WORDS = new Set([
  'dish', 'dishes', 'food', 'foods', 'fare', 'meal', 'meals', 'course', 'style', 'based', 'served', 'with', 'and', 'the',
  'or', 'in', 'of', 'a', 'an', 'such', 'as', 'from', 'to', 'eg', 'e', 'g', 'like', 'other', 'popular', 'classic', 'typical',
]);
const stem = (w: string) => fold(w).replace(/(ies|es|s|ed|ing)$/, '').replace(/(?<=..)[ye]$/, '').slice(0, 6);

/** The content words of a food name, each as a short stem (plural and -ed/-ing forms match). */
export function foodStems(...names: (string | null | undefined)[]): string[] {
  return [...new Set(names.filter((n): n is string => !!n).flatMap(words).filter((w) => w.length > 2 && !GENERIC_FOOD_WORDS.has(w)).map(stem))];
}

/** Hosts of copies (mirrors, document-sharing sites, encyclopedia copies, reprints of legal texts). */
export const COPY_HOSTS = [
  'docslib.org', 'scribd.com', 'lawstack.com', 'govregs.com', 'yumpu.com', 'pdfcoffee.com', 'studylib.net', 'studylib.es',
  'wikiwand.com', 'dbpedia.org', 'raw.githubusercontent.com', 'dokumen.tips', 'vdocuments.com.br', 'vdocuments.mx',
  'fdocuments.in', 'paperzz.com', 'doczz.fr', 'docplayer.com.br', 'docplayer.net', '1library.org', 'pdf4pro.com',
  'getpocketlaw.com', 'diazilla.com', 'dre.tretas.org', 'zxc.wiki', 'wikimili.com', 'memim.com', 'perceptiode.com',
  'gazzettaufficiale.biz', 'eurodop.it', 'prawo.pl', 'justia.com', 'livrozilla.com', 'essais-gratuits.com', 'docstoc.com',
  'es-academic.com', 'knowledgr.com', 'wikide.org', 'classicistranieri.com', 'flipbuilder.com', 'juriblio.fr',
  'tricoteuses.fr', 'sauroavezza3.xoom.it', 'mywinepal.com', 'catadelvino.com',
  // a repository carrying someone's transcription or export of a publisher's data, a book platform
  'github.com', 'app.ckbk.com',
];
const copyHostIn = (text: string): string | undefined => {
  const t = text.toLowerCase();
  return COPY_HOSTS.find((h) => new RegExp(`(^|[/.@\\s(])${h.replace(/\./g, '\\.')}([/\\s),;:]|$)`).test(t) || t.includes(`//${h}`) || t.includes(`.${h}`));
};

/** Single words too generic to name one AVA. */
export const GENERIC_PLACE_WORDS = new Set(['delta', 'valley', 'coast', 'hills', 'hill', 'mountain', 'mountains', 'river', 'lake', 'bench', 'highlands', 'mesa', 'ridge', 'county', 'north', 'south', 'east', 'west']);

const REPEALED_SPIRITS_REGULATION = /\b110\/2008\b/;

/**
 * Audit findings in files outside this round's audit fixes, reported as notices until their owner
 * fixes them (remove the entry then). Keyed by file and record.
 */
const AUDIT_PENDING: Record<string, string> = {
};

function readFamily(dataDir: string, folder: string): { file: string; data: any[] }[] {
  const dir = path.join(dataDir, folder);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => {
    try {
      const data = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      return Array.isArray(data) ? [{ file: `${folder}/${f}`, data }] : [];
    } catch {
      return []; // the loader reports unreadable files
    }
  });
}

export function auditChecks(
  dataDir: string,
  kb: ReturnType<typeof loadKnowledgeBase>['kb'],
  avas: Record<string, string>[] | null,
  problems: Problem[],
  notices: string[],
  primeByName: Map<string, string[]> | null = null,
) {
  const sourceFiles = readFamily(dataDir, 'sources');
  const sourceByKey = new Map<string, any>();
  for (const { data } of sourceFiles) for (const s of data) if (s && typeof s.key === 'string') sourceByKey.set(s.key, s);

  const found: Problem[] = [];
  auditFindings(dataDir, kb, avas, sourceFiles, sourceByKey, found, notices, primeByName);
  for (const p of found) {
    const pending = AUDIT_PENDING[`${p.file}|${p.record}`];
    if (pending) notices.push(`${p.file} [${p.record}] ${p.field}: ${p.message} (${pending})`);
    else problems.push(p);
  }
}

/** Below this many characters an excerpt must name its drink to show the pairing (issue 24). */
export const SHORT_EXCERPT = 40;

function auditFindings(
  dataDir: string,
  kb: ReturnType<typeof loadKnowledgeBase>['kb'],
  avas: Record<string, string>[] | null,
  sourceFiles: { file: string; data: any[] }[],
  sourceByKey: Map<string, any>,
  problems: Problem[],
  notices: string[],
  primeByName: Map<string, string[]> | null,
) {
  // 1. pairing excerpts: the language they are written in, and (English) the food they name
  for (const { file, data } of readFamily(dataDir, 'pairings')) {
    for (const set of data) {
      (set?.items ?? []).forEach((it: any, i: number) => {
        if (typeof it?.source_excerpt !== 'string') return;
        const where = { file, record: String(set.entity), field: `items[${i}]` };
        const lang = excerptLanguage(it.source_excerpt);
        if (lang && lang !== it.language_code) {
          problems.push({ ...where, field: `${where.field}.language_code`, message: `"${it.language_code}" but the excerpt is written in "${lang}" (its function words)` });
        }
        // an excerpt must show the pairing: one under SHORT_EXCERPT characters (a chart fragment, a
        // list line) counts only when it names the drink itself (its name or an alias)
        if (it.source_excerpt.length < SHORT_EXCERPT) {
          const e = kb.byKey.get(String(set.entity));
          const text = ` ${fold(exactForm(it.source_excerpt))} `;
          const names = e ? [e.name, ...e.aliases.map((a) => a.name)] : [];
          if (!names.some((n) => { const f = fold(exactForm(n)); return f.length >= 3 && text.includes(` ${f} `); })) {
            problems.push({ ...where, field: `${where.field}.source_excerpt`, message: `${it.source_excerpt.length} characters that do not name ${e?.name ?? set.entity}: an excerpt must show the pairing (at least ${SHORT_EXCERPT} characters, or name the drink)` });
          }
        }
        if (it.language_code === 'en' && (!lang || lang === 'en')) {
          const stems = foodStems(it.food_item, it.dish);
          const have = new Set(words(it.source_excerpt).map(stem));
          if (stems.length && !stems.some((s) => have.has(s) || [...have].some((h) => h.length >= 4 && s.length >= 4 && (h.startsWith(s) || s.startsWith(h))))) {
            problems.push({ ...where, field: `${where.field}.source_excerpt`, message: `names none of the food of the item ("${it.food_item}"${it.dish ? ` / "${it.dish}"` : ''})` });
          }
        }
      });
    }
  }

  // 1b. one grape record per VIVC number, drafts included (a misspelt draft must not shadow the variety)
  const byVivc = new Map<string, string>();
  for (const { file, data } of readFamily(dataDir, 'grapes')) {
    for (const r of data) {
      const id = r?.facts?.vivc_id?.value;
      if (id === undefined || id === null) continue;
      const other = byVivc.get(String(id));
      if (other && other !== r.key) problems.push({ file, record: String(r.key), field: 'facts.vivc_id', message: `VIVC ${id} is also ${other}: one entity per VIVC number (merge them, or drop the draft)` });
      else byVivc.set(String(id), String(r.key));
    }
  }

  // 2. Regulation (EC) No 110/2008 was repealed by Regulation (EU) 2019/787: no fact value or source
  //    title may give it as the regulation in force (quotes of old documents stay in locators and notes).
  for (const e of kb.entities) {
    for (const [k, f] of Object.entries(e.facts)) {
      const v = f.value;
      const texts = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
      if (texts.some((t) => REPEALED_SPIRITS_REGULATION.test(t))) {
        problems.push({ file: e.file, record: e.key, field: `facts.${k}`, message: 'cites Regulation (EC) No 110/2008, repealed by Regulation (EU) 2019/787: cite the regulation in force' });
      }
    }
  }
  for (const { file, data } of sourceFiles) {
    for (const s of data) {
      if (typeof s?.title === 'string' && REPEALED_SPIRITS_REGULATION.test(s.title) && !/2019\/787/.test(`${s.title} ${s.notes ?? ''}`)) {
        problems.push({ file, record: s.key, field: 'title', message: 'cites Regulation (EC) No 110/2008 without naming Regulation (EU) 2019/787, which repealed it' });
      }
    }
  }

  // 3. provenance: a source read on a copy host carries retrieved_via, and its url is the original
  for (const { file, data } of sourceFiles) {
    for (const s of data) {
      if (!s || typeof s.url !== 'string') continue;
      const where = { file, record: String(s.key) };
      const inUrl = copyHostIn(s.url);
      const inNotes = copyHostIn(`${s.notes ?? ''} ${s.publisher ?? ''}`);
      if ((inUrl || inNotes) && !s.retrieved_via) {
        problems.push({ ...where, field: 'retrieved_via', message: `read in a copy (${inUrl ?? inNotes}) but has no retrieved_via` });
      }
      if (inUrl) {
        if (s.retrieved_via?.url === s.url) notices.push(`source ${s.key}: read only in a copy (${inUrl}); the original's address was not read`);
        else problems.push({ ...where, field: 'url', message: `${inUrl} is a copy: url names the original, the copy goes in retrieved_via.url` });
      }
    }
  }
  // 3b. a copy keeps its original's class (issue 24 audit 3): the class says who published, the copy
  //     is marked by retrieved_via and caps confidence one class lower. So no source says its class
  //     was lowered because it was read in a copy, and a copy never ranks below its original (a
  //     source without retrieved_via at the same address).
  const LOWERED = /not given the [^.;]{0,60}authority|authority (is|was) not claimed|(authority|class) [^.;]{0,40}(one class (below|lower)|lowered)|(one class (below|lower)|lowered) [^.;]{0,30}(authority|class)\b(?! of the (item|expression))/i;
  const rank = (a: string) => CONFIDENCE_BY_AUTHORITY[a as keyof typeof CONFIDENCE_BY_AUTHORITY] ?? 0;
  const originals = new Map<string, { key: string; authority: string }>();
  const normUrl = (u: string) => u.trim().toLowerCase().replace(/^https?:\/\/(www\.)?/, '').replace(/\/+$/, '');
  for (const { data } of sourceFiles) for (const s of data) if (s && !s.retrieved_via && typeof s.url === 'string') originals.set(normUrl(s.url), { key: s.key, authority: s.authority });
  for (const { file, data } of sourceFiles) {
    for (const s of data) {
      if (!s?.retrieved_via) continue;
      const where = { file, record: String(s.key), field: 'authority' };
      const said = `${s.notes ?? ''} ${s.retrieved_via.note ?? ''} ${s.publisher ?? ''}`;
      const m = LOWERED.exec(said);
      if (m) problems.push({ ...where, message: `says its class was lowered for the copy ("${m[0]}"): keep the original publisher's class; retrieved_via already caps confidence one class lower` });
      const o = typeof s.url === 'string' ? originals.get(normUrl(s.url)) : undefined;
      if (o && rank(s.authority) < rank(o.authority)) problems.push({ ...where, message: `${s.authority}, below ${o.authority} of ${o.key} at the same address: a copy keeps its original's class` });
    }
  }
  // items and expressions resting on a copy: one confidence class lower (the loader checks pairing items)
  for (const { file, data } of readFamily(dataDir, 'sensory')) {
    for (const rec of data) {
      const copies = (rec?.provenance ?? []).map((p: any) => sourceByKey.get(p.source)).filter((s: any) => s?.retrieved_via);
      for (const src of copies) {
        const ceiling = CONFIDENCE_BY_AUTHORITY[src.authority as keyof typeof CONFIDENCE_BY_AUTHORITY];
        if (ceiling !== undefined && rec.confidence > copyCeiling(ceiling) + 1e-9) {
          problems.push({ file, record: String(rec.expression_key), field: 'confidence', message: `exceeds ${copyCeiling(ceiling)}: source ${src.key} was read in a copy (retrieved_via), which caps ${src.authority} (${ceiling}) one class lower` });
        }
      }
    }
  }

  // 4. VIVC numbers come from VIVC itself, not from an encyclopedia's infobox: the source's publisher
  //    and address are VIVC's (a copy of VIVC's own data says so in retrieved_via)
  const isVivc = (k: string) => k === 'vivc' || /^https?:\/\/(www\.)?vivc\.de\//.test(kb.sources.get(k)?.url ?? '');
  for (const e of kb.entities) {
    const f = e.facts.vivc_id;
    if (f && !isVivc(f.source)) problems.push({ file: e.file, record: e.key, field: 'facts.vivc_id.source', message: `"${f.source}": a VIVC number cites VIVC (the vivc source, or a copy of VIVC's data naming vivc.de)` });
  }

  // 5. AVA aliases: a generic word is no alias; an alias cited to a 27 CFR Part 9 section is one of the
  //    names (current, former, also-known-as) of that section in the AVA table
  const avaNames = new Map<string, Set<string>>();
  for (const r of avas ?? []) {
    const s = `27 CFR ${r.cfr_index}`;
    if (!avaNames.has(s)) avaNames.set(s, new Set());
    const aka = r.aka ?? '';
    // "refered by many newspaper articles as ..." is a note on press usage, not a name the section gives
    // (a cell may also be one name with commas in it: "Mt. Pisgah, Polk County, Oregon")
    const akas = /refered by/i.test(aka) ? [] : [aka, ...aka.split(',')];
    for (const n of [r.name ?? '', ...akas]) if (n.trim()) avaNames.get(s)!.add(fold(exactForm(n.trim())));
  }
  for (const e of kb.entities.filter((x) => x.facts.classification?.value === 'AVA')) {
    const section = e.facts.cfr_section?.value;
    e.aliases.forEach((a, i) => {
      const where = { file: e.file, record: e.key, field: `aliases[${i}]` };
      if (GENERIC_PLACE_WORDS.has(fold(exactForm(a.name)))) problems.push({ ...where, message: `"${a.name}" is a generic word, not the name of one AVA` });
      const cited = a.locator.match(/27 CFR 9\.\d+/)?.[0] ?? (a.source === 'ttb-27cfr9' && typeof section === 'string' ? section : undefined);
      const known = cited ? avaNames.get(cited) : undefined;
      if (avas && cited && known && !known.has(fold(exactForm(a.name)))) {
        problems.push({ ...where, message: `"${a.name}" is not a name of ${cited} in the AVA table (${[...known].join(' / ')})` });
      }
    });
  }

  // 6. BJCP 21B Specialty IPA: the reference row carries the figures of its Black IPA type
  const ipa = kb.byKey.get('beer/21b-specialty-ipa');
  if (ipa) {
    for (const f of ['og', 'fg', 'ibu', 'srm', 'abv']) {
      if (ipa.facts[f]) problems.push({ file: ipa.file, record: ipa.key, field: `facts.${f}`, message: '21B Specialty IPA has no figures of its own (the reference row is Black IPA\'s): serve none' });
    }
  }
  // 7. Alias language codes: a language written in a non-Latin script cannot label a name written only
  //    in Latin letters ("Alicantina" is not Arabic). The name's language is then unknown (und) or
  //    the language of the country list it came from, which a source must say.
  for (const e of kb.entities) {
    e.aliases.forEach((a, i) => {
      // a script subtag says how it is written: el-Latn is a Greek name in Latin letters
      const script = /^[a-z]{2,3}-[A-Z][a-z]{3}\b/.test(a.lang) ? undefined : NON_LATIN_LANGS[a.lang.split('-')[0]!];
      if (script && /\p{Script=Latin}/u.test(a.name) && !script.test(a.name)) {
        problems.push({ file: e.file, record: e.key, field: `aliases[${i}].lang`, message: `"${a.lang}" but "${a.name}" is written in Latin letters: use the language the source gives, or und` });
      }
    });
  }

  // 8. Every alias says its language and its source: a BCP-47 code (und only where the language is
  //    undetermined, never for a name given as another language's form) and a source of the registry.
  for (const e of kb.entities) {
    e.aliases.forEach((a, i) => {
      const where = { file: e.file, record: e.key, field: `aliases[${i}]` };
      if (!a.lang || !/^(und|[a-z]{2,3}(-[A-Za-z0-9]{2,8})*)$/.test(a.lang)) problems.push({ ...where, field: `${where.field}.lang`, message: `"${a.name}" needs a BCP-47 language code` });
      else if (a.lang === 'und' && a.kind === 'other_language') problems.push({ ...where, field: `${where.field}.lang`, message: `"${a.name}" is given as another language's name: say which language (a transliteration is <lang>-Latn)` });
      if (!a.source || !kb.sources.has(a.source)) problems.push({ ...where, field: `${where.field}.source`, message: `"${a.name}" needs a source of the registry (got "${a.source ?? ''}")` });
      if (!a.locator?.trim()) problems.push({ ...where, field: `${where.field}.locator`, message: `"${a.name}" needs a locator` });
    });
  }

  // 9. A grape alias that is the VIVC prime name of another VIVC number names that other variety
  //    ("Nagyburgundi" style mistakes: a synonym filed under the wrong grape), whether or not that
  //    variety has a record here and whatever the alias's kind; a term declared as shared on
  //    purpose (Auxerrois: Malbec's Cahors name and a white variety) is exempt
  if (primeByName) {
    const declared = new Set(kb.ambiguities.map((a) => fold(exactForm(a.term))));
    for (const e of kb.entities.filter((x) => x.type === 'grape')) {
      const own = e.facts.vivc_id?.value;
      if (typeof own !== 'string') continue;
      e.aliases.forEach((a, i) => {
        const other = primeByName.get(fold(exactForm(a.name)));
        if (other && !other.includes(own) && !declared.has(fold(exactForm(a.name)))) {
          const holder = kb.entities.find((x) => x.type === 'grape' && other.includes(String(x.facts.vivc_id?.value)));
          problems.push({ file: e.file, record: e.key, field: `aliases[${i}]`, message: `"${a.name}" is the VIVC prime name of ${other.join(', ')}${holder ? ` (${holder.key})` : ''}, not of VIVC ${own}: drop it, or declare the name shared in an ambiguity file` });
        }
      });
    }
  }

  // 10. A US State is an appellation of origin under 27 CFR 4.25, not under an AVA's section: a
  //     state record (a region whose parent is the United States) cites no 27 CFR 9.x section
  for (const e of kb.entities.filter((x) => x.type === 'wine_geography' && x.facts.level?.value === 'region' && x.facts.parent?.value === 'geo/us')) {
    for (const [k, f] of Object.entries(e.facts)) {
      if (/27 CFR 9\.\d+/.test(f.locator ?? '')) problems.push({ file: e.file, record: e.key, field: `facts.${k}.locator`, message: `"${f.locator}" is an AVA's section; a State is an appellation of origin under 27 CFR 4.25: cite that, or TTB's list of U.S. appellations` });
    }
  }

  // 11. A country is a wine-producing country by a source that says so (the OIV's member states, a
  //     national wine law or authority), not by the register file of one of its wine appellations
  //     (a country on record only for its spirits may cite the spirit drink's GI file)
  const wineFiles = new Set(kb.entities.filter((x) => x.type === 'wine_geography' && x.facts.level?.value === 'appellation').map((x) => String(x.facts.file_number?.value ?? '')).filter(Boolean));
  for (const e of kb.entities.filter((x) => x.type === 'wine_geography' && x.facts.level?.value === 'country')) {
    const f = e.facts.level!;
    const file = /\b(?:PDO|PGI|GI)-[A-Z]{2}-[A-Z]?\d+/.exec(f.locator ?? '')?.[0];
    if (file !== undefined && wineFiles.has(file)) problems.push({ file: e.file, record: e.key, field: 'facts.level.locator', message: `"${f.locator}": one appellation's register file does not show ${e.name} as a wine-producing country; cite the OIV's member states or a national wine law or authority` });
  }
}

const NON_LATIN_LANGS: Record<string, RegExp> = {
  ar: /\p{Script=Arabic}/u, fa: /\p{Script=Arabic}/u, he: /\p{Script=Hebrew}/u, el: /\p{Script=Greek}/u,
  ru: /\p{Script=Cyrillic}/u, bg: /\p{Script=Cyrillic}/u, uk: /\p{Script=Cyrillic}/u, sr: /\p{Script=Cyrillic}|\p{Script=Latin}/u,
  mk: /\p{Script=Cyrillic}/u, ka: /\p{Script=Georgian}/u, hy: /\p{Script=Armenian}/u, zh: /\p{Script=Han}/u,
  ja: /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u, ko: /\p{Script=Hangul}/u, th: /\p{Script=Thai}/u,
};

/**
 * The food vocabulary of /v1/pair-food (issue 23): it must load, and every verified guidance item
 * should be placed in it by its food_item, dish or food_category; an item placed nowhere is listed as a
 * notice (pair-food cannot find it), and one placed only by its broad category is counted.
 */
export function foodChecks(kb: KnowledgeBase, problems: Problem[], notices: string[]) {
  let evidence: ReturnType<typeof foodEvidenceOf>;
  try {
    evidence = foodEvidenceOf(kb);
  } catch (e) {
    problems.push({ file: 'food/vocabulary.json', record: '-', field: '-', message: (e as Error).message });
    return;
  }
  const unplaced = evidence.unplaced();
  for (const p of unplaced) {
    notices.push(`pair-food: ${p.entity.key} item "${p.item.pairing_key}" (food_item "${p.item.food_item}", dish ${p.item.dish === null ? 'null' : `"${p.item.dish}"`}, food_category "${p.item.food_category}") names no food of the vocabulary`);
  }
  const broad = evidence.placed.filter((p) => p.via === 'food_category').length;
  notices.push(`pair-food: ${evidence.placed.length - unplaced.length} of ${evidence.placed.length} guidance items placed in the food vocabulary (${broad} only by their food_category), ${unplaced.length} placed nowhere`);
}

// ---------------------------------------------------------------------------------------------
// The appellation audit (issue 34, item 6): data/appellation-audit.json lists appellations whose grape
// rules were read in full in their official text, with the passage read and the grapes, roles and shares
// it gives. Each served rule set from that source and for that scope must be exactly that set.

export interface AppellationAuditEntry {
  appellation: string;
  source: string;
  locator: string;
  text: string;
  text_lang: string;
  read: string;
  sets: { scope: string | null; complete: boolean; unmapped?: string[]; grapes: { grape: string; role: string; min_share: number | null; max_share: number | null }[] }[];
}

/** The audit's disagreements with the served rule sets (an empty list when every set is as the text gives it). */
export function appellationAuditProblems(audit: { appellations: AppellationAuditEntry[] }, kb: KnowledgeBase): Problem[] {
  const problems: Problem[] = [];
  const file = 'appellation-audit.json';
  const seen = new Set<string>();
  const key = (g: { grape: string; role: string; min_share: number | null; max_share: number | null }) => `${g.grape} ${g.role} ${g.min_share ?? '-'}..${g.max_share ?? '-'}`;
  for (const a of audit.appellations) {
    const where = { file, record: a.appellation };
    if (seen.has(a.appellation)) problems.push({ ...where, field: 'appellation', message: 'listed twice' });
    seen.add(a.appellation);
    if (!a.text?.trim() || !a.locator?.trim()) problems.push({ ...where, field: 'text', message: 'an audit entry quotes the passage read and its locator' });
    const src = kb.sources.get(a.source);
    if (!src) { problems.push({ ...where, field: 'source', message: `unknown source "${a.source}"` }); continue; }
    if (src.retrieved_via?.kind === 'dataset') problems.push({ ...where, field: 'source', message: 'the audit lists texts read in full, not a dataset' });
    const e = kb.byKey.get(a.appellation);
    if (!e) { problems.push({ ...where, field: 'appellation', message: 'not a served entity' }); continue; }
    for (const want of a.sets) {
      const f = `sets[${want.scope ?? 'null'}]`;
      const got = e.grapeRules.filter((s) => s.source === a.source && (s.scope ?? null) === want.scope);
      if (got.length !== 1) { problems.push({ ...where, field: f, message: `${got.length} served sets from ${a.source} for this scope (the audit expects one)` }); continue; }
      const set = got[0]!;
      const served = set.grapes.map(key).sort();
      const expected = want.grapes.map(key).sort();
      const missing = expected.filter((x) => !served.includes(x));
      const extra = served.filter((x) => !expected.includes(x));
      if (missing.length || extra.length) problems.push({ ...where, field: f, message: `served set differs from the text: ${missing.length ? `expected ${missing.join('; ')}` : ''}${missing.length && extra.length ? ' / ' : ''}${extra.length ? `served ${extra.join('; ')}` : ''}` });
      if (set.complete !== want.complete) problems.push({ ...where, field: `${f}.complete`, message: `served ${set.complete}, the text gives ${want.complete}` });
      const unmapped = (set.unmapped ?? []).map((u) => u.name).sort().join(', ');
      if (unmapped !== [...(want.unmapped ?? [])].sort().join(', ')) problems.push({ ...where, field: `${f}.unmapped`, message: `served [${unmapped}], the audit lists [${(want.unmapped ?? []).join(', ')}]` });
    }
  }
  return problems;
}
