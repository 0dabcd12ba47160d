// `admin kb validate` and `admin kb stats`. Validation = everything start-up checks (schemas,
// references, provenance, declared ambiguities) plus agreement with the public reference tables
// in ../shared/reference/ (VIVC ids, BJCP figures, AVA CFR sections) when that folder is present.
import fs from 'node:fs';
import path from 'node:path';
import { loadKnowledgeBase, type Problem } from './load.ts';
import { exactForm, fold } from '../normalize.ts';

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
  // VIVC numbers: every vivc_id is a VIVC passport number, and a vivc_prime_name fact is its prime name.
  const prime = readRef('vivc-prime-names.csv');
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
  return { version: kb.version, entities: kb.entities.length, problems, notices };
}
