// Derives data/place-names-cldr.json: the name of every country and territory (ISO 3166-1 alpha-2 codes
// of cldr-core's territoryInfo) in every locale Unicode CLDR rates at modern coverage, read from Node's
// ICU (Intl.DisplayNames, long and short style). The resolver treats a query equal to one of these as a
// place name: it is answered only by a name equal to it, never by a partial or typo match ("Norja",
// Finnish for Norway, is not the grape Noria). These names are not aliases: a country the knowledge base
// lacks stays unresolved. Run from the repo root: node tools/derive/cldr-place-names.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const coverage = require('cldr-core/coverageLevels.json').effectiveCoverageLevels;
const locales = require('cldr-core/availableLocales.json').availableLocales.full.filter((l) => coverage[l] === 'modern');
const territories = Object.keys(require('cldr-core/supplemental/territoryInfo.json').supplemental.territoryInfo).filter((t) => /^[A-Z]{2}$/.test(t)).sort();
const seen = new Map(); // lower-cased name -> {name, code}
for (const locale of locales) {
  if (Intl.DisplayNames.supportedLocalesOf([locale]).length === 0) continue;
  for (const style of ['long', 'short']) {
    const dn = new Intl.DisplayNames([locale], { type: 'region', style, fallback: 'none' });
    for (const code of territories) {
      const name = dn.of(code);
      if (!name || name === code || [...name].length < 3) continue;
      const k = name.normalize('NFC').toLowerCase();
      if (!seen.has(k)) seen.set(k, { name, code });
    }
  }
}
const names = [...seen.values()].sort((a, b) => a.code.localeCompare(b.code) || a.name.localeCompare(b.name));
const out = {
  source: 'unicode-cldr',
  locator: `CLDR ${process.versions.cldr} territory display names (Node ICU ${process.versions.icu}), long and short forms, in the ${locales.length} locales of modern coverage (cldr-core coverageLevels.json); ${territories.length} territories`,
  note: 'Country and territory names in other languages: a query equal to one is answered only by a name equal to it. Not aliases.',
  names,
};
writeFileSync('data/place-names-cldr.json', JSON.stringify(out, null, 1) + '\n');
console.log(`${names.length} names of ${territories.length} territories in ${locales.length} locales`);
