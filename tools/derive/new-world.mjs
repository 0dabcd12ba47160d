// New World official wine geographies, wine countries and sourced English exonyms (issue 8, section 2).
//
// Hand-entered from pages that were read with the search tool (no reference table is copied; the
// lead list world-wine-appellations-leads.csv was used only as a list of names to look for).
// Every record below names the source (key in data/sources/new-world.json) and the place in it.
//
// Outputs (written whole, via a temp file + rename):
//   data/geographies/world-countries.json  country records (level country) for non-EU wine countries
//   data/geographies/new-world.json        regions / zones / GIs / districts / wards under them
//   data/sources/new-world.json            the sources registry entries used above
//   data/aliases/exonyms.json              English exonyms added to records kept in other files
//   data/ambiguities/new-world.json        declared shared names (none needed so far: empty array)
//
// Level mapping (our four levels: country, region, subregion, appellation):
//   Australia (Wine Australia register): state GI, super zone, zone -> region (a zone's parent is its
//     state); GI region -> subregion (parent: its zone); GI subregion -> appellation (parent: its region).
//   New Zealand (IPONZ register): enduring GIs North Island / South Island and the wine GIs -> region
//     (parent New Zealand, nesting not read), a GI read as a subregion of another GI -> subregion.
//   South Africa (Wine of Origin): geographical unit -> region; WO region -> subregion;
//     district -> appellation (parent: its WO region); ward -> appellation (parent: its district).
//   Argentina: province -> region; IG / DOC -> appellation.  Chile: DO area -> appellation.
//   Canada: province -> region; VQA viticultural area -> appellation.
//
// Run from the repository root:  node tools/derive/new-world.mjs
import { writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ACCESSED = '2026-11-23';

// ------------------------------------------------------------------ sources
const S = (o) => ({ licence: 'names, hierarchy and dates cited as facts; no prose copied', accessed: ACCESSED, ...o });
const WA_REGISTER_URL = 'https://wineaustralia.com/au/labelling/register-of-protected-gis-and-other-terms';
const SOURCES = [
  S({ key: 'nw-wineaustralia-gis', title: 'Wine Australia: Australian wine geographical indications (Register of Protected GIs and Other Terms)', publisher: 'Wine Australia (keeper of the Register under ss. 40ZC-40ZD of the Wine Australia Act 2013)', authority: 'official_register', url: 'https://www.wineaustralia.com/labelling/register-of-protected-gis-and-other-terms/australian-wine-geographical-indications', notes: 'GIs of the Australian wine sector are zones, regions and sub-regions entered in the Register kept by Wine Australia; sub-regions lie in regions, regions in zones; each state is a protected GI term; names Margaret River and Barossa Valley as examples. Our level mapping for Australia: state / zone -> region, GI region -> subregion, GI subregion -> appellation.' }),
  S({ key: 'nw-wineaustralia-gi-great-southern', title: 'Wine Australia: Great Southern Geographical Indication (register entry, textual description)', publisher: 'Wine Australia', authority: 'official_register', url: 'https://www.wineaustralia.com/labelling/geographical-indicators/labelling-gi-great-southern', notes: 'Great Southern (region) entered in the Register of Protected Names on 30 October 1996; located within the GI "South West Australia" within the State of Western Australia.' }),
  ...[
    ['mount-gambier', 'Mount Gambier', 'https://wineaustralia.com/labelling/geographical-indicators/labelling-gi-mount-gambier', 'entered in the Register of Protected Geographical Indications and Other Terms on 21 December 2010; a region within the zone of Limestone Coast, within the State of South Australia.'],
    ['mclaren-vale', 'McLaren Vale', 'https://wineaustralia.com/labelling/register-of-protected-gis-and-other-terms/geographical-indications/mclaren-vale', 'entered in the Register of Protected Names on 2 September 1997; located within the zone "Fleurieu", within the State of South Australia.'],
    ['fleurieu', 'Fleurieu', 'https://wineaustralia.com/labelling/geographical-indicators/labelling-gi-fleurieu', 'entered in the Register of Protected Names on 27 December 1996.'],
    ['yarra-valley', 'Yarra Valley', 'https://wineaustralia.com/labelling/geographical-indicators/yarra-valley', 'entered in the Register of Protected Names on 30 October 1996; located within the GI "Port Phillip" within the State of Victoria.'],
    ['north-east-victoria', 'North East Victoria', 'https://wineaustralia.com/labelling/geographical-indicators/labelling-gi-north-east-victoria', 'entered in the Register of Protected Names on 1 May 1996; located within the State of Victoria.'],
    ['north-west-victoria', 'North West Victoria', 'https://wineaustralia.com/labelling/register-of-protected-gis-and-other-terms/geographical-indications/north-west-victoria', 'North West Victoria (zone); entered in the Register of Protected Names on 1 May 1996; located within the State of Victoria.'],
    ['mornington-peninsula', 'Mornington Peninsula', 'https://www.wineaustralia.com/labelling/geographical-indicators/labelling-gi-mornington-peninsula', 'Mornington Peninsula (region); entered in the Register of Protected Names on 18 March 1997; located within the State of Victoria (no zone named in the entry).'],
    ['nagambie-lakes', 'Nagambie Lakes', 'https://www.wineaustralia.com/labelling/register-of-protected-gis-and-other-terms/geographical-indications/nagambie-lakes', 'Nagambie Lakes (sub region); entered 9 April 2001; located within the region of "Goulburn Valley", within the zone of "Central Victoria", within the State of Victoria.'],
    ['hunter', 'Hunter', 'https://wineaustralia.com/labelling/geographical-indicators/labelling-gi-hunter', 'entered in the Register of Protected Names on 18 March 1997.'],
    ['pokolbin', 'Pokolbin', 'https://wineaustralia.com/labelling/register-of-protected-gis-and-other-terms/geographical-indications/pokolbin', 'entered 29 July 2010; a subregion located within the region of Hunter, within the zone of Hunter Valley, within the State of New South Wales.'],
    ['frankland-river', 'Frankland River', 'https://wineaustralia.com/labelling/geographical-indicators/labelling-gi-frankland-river', 'Frankland River (sub region); entered 24 August 2000; located within the region Great Southern, within the zone South West Australia, within the State of Western Australia.'],
  ].map(([k, n, url, notes]) => S({ key: `nw-wa-gi-${k}`, title: `Wine Australia: ${n} Geographical Indication (register entry, textual description)`, publisher: 'Wine Australia', authority: 'official_register', url, notes })),
  S({ key: 'nw-wikipedia-limestone-coast-zone', title: 'Limestone Coast zone (wine), Wikipedia', publisher: 'Wine Australia register facts as summarised in an encyclopedia article', authority: 'educational_body', url: WA_REGISTER_URL, retrieved_via: { url: 'https://en.wikipedia.org/wiki/Limestone_Coast_zone_(wine)', kind: 'encyclopedia_copy', note: 'Zone of South Australia registered as AGI 27 Dec 1996; regions Coonawarra (AGI 6 Jan 2003), Mount Benson, Mount Gambier, Robe, Padthaway, Wrattonbully.' } }),
  S({ key: 'nw-wikipedia-hunter-valley', title: 'Hunter Valley wine region, Wikipedia', publisher: 'Wine Australia register facts as summarised in an encyclopedia article', authority: 'educational_body', url: WA_REGISTER_URL, retrieved_via: { url: 'https://en.wikipedia.org/wiki/Hunter_Valley_wine_region', kind: 'encyclopedia_copy', note: 'Official name Hunter; part of the Hunter Valley zone; three subregions Upper Hunter Valley, Broke Fordwich and Pokolbin.' } }),
  S({ key: 'nw-winevinewa-wa-gis', title: 'Western Australian wine Zones, Regions and Subregions (GIs of Australia), list as given on winevinewa.com.au', publisher: 'Wine Australia, Register of Protected GIs and Other Terms (list read in a third-party copy)', authority: 'wine_press', url: WA_REGISTER_URL, retrieved_via: { url: 'https://www.winevinewa.com.au/wa-wine-areas', kind: 'third_party_list', note: 'WA wine directory site listing the five WA zones, nine regions and six subregions with their nesting; not Wine Australia itself, so not given the register\'s authority. Great Southern is confirmed on the register entry (nw-wineaustralia-gi-great-southern).' } }),
  S({ key: 'nw-barossa-gi-zone', title: 'Barossa: Geographical Indication zone (Barossa wine landscape)', publisher: 'Barossa Australia (Barossa Grape & Wine Association), barossa.com', authority: 'official_regional_wine_body', url: 'https://barossa.com/about/geographical-indication-zone', notes: 'The Barossa zone is made up of two regions, Barossa Valley and Eden Valley; High Eden is the only declared sub-region, within Eden Valley. (Gives 1997 for the zone\'s recognition; the Wikipedia article gives 27 Dec 1996; no date recorded.)' }),
  S({ key: 'nw-wikipedia-barossa-zone', title: 'Barossa zone (wine), Wikipedia', publisher: 'Wine Australia register facts as summarised in an encyclopedia article', authority: 'educational_body', url: WA_REGISTER_URL, retrieved_via: { url: 'https://en.wikipedia.org/wiki/Barossa_zone_(wine)', kind: 'encyclopedia_copy', note: 'Infobox: Australian Geographical Indication; part of South Australia; regions Barossa Valley, Eden Valley.' } }),
  S({ key: 'nw-knowledgr-mount-lofty-ranges', title: 'Zone Mount Lofty Ranges (Wein) (German copy of the Wikipedia article "Mount Lofty Ranges zone")', publisher: 'Wine Australia register facts as summarised in an encyclopedia article', authority: 'educational_body', url: WA_REGISTER_URL, retrieved_via: { url: 'http://de.knowledgr.com/17719713/ZoneMountLoftyRanges(Wein)', kind: 'encyclopedia_copy', note: 'Zone in South Australia with the regions Adelaide Hills, Adelaide Plains and Clare Valley; Mount Lofty Ranges registered 27 Dec 1996, Adelaide Hills 9 Feb 1998, Clare Valley 25 Mar 1999 (AGI dates as given by the article).' } }),
  S({ key: 'nw-halliday-adelaide-hills-subregions', title: 'James Halliday on the Adelaide Hills\' subregional GIs (29 Jun 2023)', publisher: 'Wine Companion (Hardie Grant)', authority: 'wine_press', url: 'https://www.winecompanion.com.au/articles/from-the-tasting-team/james-halliday-on-the-adelaide-hills-subregional-gis', notes: 'Lenswood and Piccadilly Valley as subregions of the Adelaide Hills; South Eastern Australia as the broadest GI; the one super zone Adelaide includes the Mount Lofty Ranges, Fleurieu and Barossa zones.' }),
  S({ key: 'nw-iponz-register', title: 'IPONZ: Geographical indications, The Register', publisher: 'Intellectual Property Office of New Zealand (IPONZ), Registrar of Geographical Indications', authority: 'official_register', url: 'https://www.iponz.govt.nz/about-ip/geographical-indications/the-register/', notes: 'Part 1 of the Register holds the enduring New Zealand GIs: New Zealand, North Island and South Island; Part 2 holds registered New Zealand wine GIs.' }),
  S({ key: 'nw-iponz-criteria', title: 'IPONZ: Geographical indications, application and registration criteria', publisher: 'Intellectual Property Office of New Zealand (IPONZ)', authority: 'official_register', url: 'https://www.iponz.govt.nz/about-ip/geographical-indications/application-and-registration-criteria/', notes: 'Names Marlborough and Hawke\'s Bay as examples of place-name GIs for wines.' }),
  S({ key: 'nw-drinksint-nz-gi-applications', title: 'New Zealand wine regions to gain GIs (27 July 2017)', publisher: 'Drinks International', authority: 'wine_press', url: 'https://drinksint.com/news/fullstory.php/aid/7257/New_Zealand_wine_regions_to_gain_GIs.html', notes: 'Lists the 18 GI applications filed with IPONZ by New Zealand Winegrowers when the Geographical Indications (Wine and Spirits) Registration Act came into force. These are applications: the registration of each was not read here (gap), so no classification is recorded on the strength of this source alone.' }),
  S({ key: 'nw-thenews-bannockburn', title: 'Bannockburn vineyards get official recognition', publisher: 'The News (Central Otago), thenews.co.nz', authority: 'wine_press', url: 'http://www.thenews.co.nz/news/bannockburn-vineyards-get-official-recognition/', notes: 'Bannockburn formally registered as a GI as a subregion of Central Otago; the broader Central Otago wine region registered in 2018; registration overseen by IPONZ.' }),
  S({ key: 'nw-wosa-wo-scheme', title: 'Wine of Origin Scheme', publisher: 'Wines of South Africa (WOSA)', authority: 'trade_body', url: 'https://www.wosa.co.za/The-Industry/Wines-Of-Origin/Wine-Of-Origin-Scheme/', notes: 'South Africa\'s Wine of Origin scheme (law since 1973): production units from single vineyard to geographical unit, with regions, districts and wards; names Stellenbosch, Durbanville and Robertson as production areas.' }),
  S({ key: 'nw-winefundi-production-areas', title: 'Wine Fundi: Production Areas (Wine of Origin)', publisher: 'Wine Fundi (winefundi.co.za, South African wine education)', authority: 'educational_body', url: 'http://winefundi.co.za/production_area', notes: 'Geographical units Western Cape, Northern Cape, Eastern Cape, KwaZulu-Natal, Limpopo, Free State; six regions of the Western Cape: Breede River Valley, Cape South Coast, Coastal Region, Klein Karoo, Olifants River, Boberg; Stellenbosch and Paarl in the Coastal Region. Our level mapping: geographical unit -> region, WO region -> subregion, district and ward -> appellation.' }),
  S({ key: 'nw-winemag-stellenbosch-wards', title: 'Tim James: The impossible task of getting Stellenbosch\'s wards properly delimited (9 March 2019)', publisher: 'Winemag.co.za', authority: 'wine_press', url: 'https://winemag.co.za/wine/opinion/tim-james-the-impossible-task-of-getting-stellenboschs-wards-properly-delimited/', notes: 'The seven wards of the Stellenbosch district: Banghoek, Bottelary, Devon Valley, Jonkershoek Valley, Papegaaiberg, Polkadraai Hills, Simonsberg-Stellenbosch.' }),
  S({ key: 'nw-losandes-doc-ig', title: 'DOC e IG: qué son, qué le aportan al vino y cuáles hay en Mendoza (Guarda 14, Oct 2020)', publisher: 'Diario Los Andes (Mendoza)', authority: 'wine_press', url: 'https://www.losandes.com.ar/guarda14/doc-e-ig-que-son-que-le-aportan-al-vino-y-cuales-hay-en-mendoza/', notes: 'IG and DOC are defined by Ley 25.163 (1999); the Instituto Nacional de Vitivinicultura (INV) approves them; Mendoza holds about 30% of the approved IGs and both of Argentina\'s DOCs.' }),
  S({ key: 'nw-losandes-inv-calingasta', title: 'El INV reconoció tres nuevas indicaciones geográficas: cuáles son y dónde quedan', publisher: 'Diario Los Andes (Mendoza)', authority: 'wine_press', url: 'https://losandes.com.ar/fincas/el-inv-reconocio-tres-nuevas-indicaciones-geograficas-cuales-son-y-donde-quedan', notes: 'INV resolutions 35/2023, 36/2023 and 37/2023 recognise the IGs Tamberías, Hilario and Sorocayense (Paraje Sorocayense), all in the Valle de Calingasta, San Juan.' }),
  S({ key: 'nw-rioja24-calingasta', title: 'Nuevas indicaciones geográficas potencian la viticultura en Argentina', publisher: 'Rioja24 (rioja24.com.ar)', authority: 'wine_press', url: 'https://rioja24.com.ar/economia/nuevas-indicaciones-geograficas-potencian-la-viticultura-en-argentina', notes: 'Hilario, Sorocayense and Tamberías join the IG of Calingasta (a valley of San Juan province); Luján de Cuyo and Cafayate are named as places declared as IG.' }),
  S({ key: 'nw-vinomanos-ig-doc', title: 'Diferencia entre IG y DOC (Oct 2021)', publisher: 'Vinómanos (vinomanos.com)', authority: 'wine_press', url: 'https://vinomanos.com/2021/10/diferencia-entre-ig-y-doc/', notes: 'Paraje Altamira and Los Chacayes as valid IGs; DOC Luján de Cuyo (map); Luján de Cuyo as the area of Mendoza where most of its wineries stand.' }),
  S({ key: 'nw-bcn-decreto-464', title: 'Decreto 464 (1994, Ministerio de Agricultura): establece zonificación vitícola y fija normas para su utilización (version 25-SEP-2015)', publisher: 'Biblioteca del Congreso Nacional de Chile (LeyChile), official text of the Government of Chile', authority: 'regulator', url: 'https://bcn.cl/leychile/Navegar/imprimir?idNorma=13601&idVersion=2015-09-25', notes: 'Chile\'s viticultural zoning: denominaciones de origen of regions, subregions, zones and areas (Art. 1, 3) and the special DO "Secano Interior" (Art. 3 bis).' }),
  S({ key: 'nw-bcn-decreto-7-2015', title: 'Decreto 7 (2015) modifying Decreto 464 of 1994 (zonificación vitícola)', publisher: 'Biblioteca del Congreso Nacional de Chile (LeyChile), official text of the Government of Chile', authority: 'regulator', url: 'https://www.bcn.cl/leychile/navegar?idNorma=1082125&idParte=9638432&idVersion=2015-09-25', notes: 'Art. 1 No. 5 A) a) of Decreto 464 as replaced: the area Chillán (communes Chillán, Bulnes, San Carlos, Chillán Viejo, Ñiquén); Art. 3 bis: the special DO "Secano Interior" for País or Cinsault from the dry-farmed areas listed.' }),
  S({ key: 'nw-vqaontario-appellations', title: 'VQA Ontario: Ontario\'s Appellations', publisher: 'Vintners Quality Alliance Ontario (VQA Ontario), Ontario\'s wine appellation authority', authority: 'regulator', url: 'https://www.vqaontario.ca/Appellations', notes: 'Across Canada there are eight primary Viticultural Areas recognised for VQA appellation wines, in southern Ontario and British Columbia.' }),
  S({ key: 'nw-vqaontario-news', title: 'VQA Ontario: News (enforcement notices)', publisher: 'Vintners Quality Alliance Ontario (VQA Ontario)', authority: 'regulator', url: 'https://vqaontario.ca/AboutVQA/News?ABC=2', notes: 'Geographical terms regulated under the VQA Act, 1999: "Niagara Peninsula", "Lake Erie North Shore", "Prince Edward County" and "Ontario".' }),
  S({ key: 'nw-nta-liquor-gis', title: 'National Tax Agency (Japan): GIs designated by the Commissioner of the National Tax Agency (interim translation)', publisher: 'National Tax Agency, Japan (liquor administration)', authority: 'official_register', url: 'https://www.nta.go.jp/english/taxes/liquor_administration/geographical/02.htm', notes: 'Wine GIs designated: Yamanashi (Yamanashi Prefecture, 16 July 2013), Hokkaido (Hokkaido Prefecture, 28 June 2018), Yamagata (Yamagata Prefecture, 30 June 2021); the table also lists spirits and sake GIs (not wine, not recorded here).' }),
  S({ key: 'nw-georgia-wine-agency-pdo', title: 'National Wine Agency of Georgia: Protected Designations of Origin (PDO), entry Tibaani', publisher: 'LEPL National Wine Agency (Georgia), wine.gov.ge', authority: 'regulator', url: 'https://wine.gov.ge/En/Wine?page=2&pageSize=12', notes: 'PDO list of Georgian wines; Tibaani: registration number 796, date of registration 10/12/2007, micro-zone in Inner Kakheti, Georgia.' }),
  S({ key: 'nw-wikimili-georgian-appellations', title: 'List of Georgian wine appellations (encyclopedia article, copy)', publisher: 'National Intellectual Property Center of Georgia (Sakpatenti) register of appellations of origin, as listed in an encyclopedia article', authority: 'educational_body', url: 'https://wine.gov.ge/En/Wine?page=2&pageSize=12', retrieved_via: { url: 'https://wikimili.com/en/List_of_Georgian_wine_appellations', kind: 'encyclopedia_copy', note: 'Wikipedia copy: 29 appellations registered with Sakpatenti; table of appellation, region, municipality, grapes. Only rows read in full are used.' } }),
  S({ key: 'nw-agepi-moldova-gis', title: 'AGEPI: Geographical Indications and Appellations of Origin protected in the Republic of Moldova', publisher: 'State Agency on Intellectual Property of the Republic of Moldova (AGEPI)', authority: 'official_register', url: 'https://agepi.md/en/gi-ao-tsg/info', notes: 'Under the EU-Moldova GI agreement, 2 appellations of origin (Ciumai, Romănești) and 4 GIs (CODRU, ŞTEFAN VODĂ, VALUL LUI TRAIAN, DIVIN) originating in Moldova were submitted for protection in the EU. DIVIN (a wine brandy) and the two AOs (product not stated on the page) are not recorded here.' }),
  S({ key: 'nw-wine-and-spirits-md-pgi', title: 'How quality of PGI wines is confirmed in Moldova', publisher: 'Wine & Spirits (wine-and-spirits.md)', authority: 'wine_press', url: 'https://wine-and-spirits.md/en/how-quality-of-pgi-wines-is-confirmed-in-moldova/', notes: 'The National Office for Vine and Wine (ONVV) manages PGI/PDO wine production; associations of PGI producers: Codru, Stefan-Voda, Valul-lui-Traian and Divin.' }),
  S({ key: 'nw-gubuy-tannat-day', title: '14 de Abril: el Día para celebrar el Tannat', publisher: 'Government of Uruguay, Ministerio de Turismo (gub.uy)', authority: 'regulator', url: 'http://gub.uy/ministerio-turismo/comunicacion/noticias/14-abril-dia-para-celebrar-tannat', notes: 'Government page: Uruguay found its identity as a wine-producing country in Tannat; greets INAVI (Instituto Nacional de Vitivinicultura). Authority set to regulator as the closest value for a government source; it is a ministry news page, not the wine regulator itself.' }),
  S({ key: 'nw-senado-mx-ley-vitivinicola', title: 'Aprueba Senado expedir la Ley General de Fomento a la Industria Vitivinícola (boletín 921)', publisher: 'Senado de la República (Mexico), Coordinación de Comunicación Social', authority: 'regulator', url: 'http://comunicacion.senado.gob.mx/index.php/informacion/boletines/40362-aprueba-senado-expedir-la-ley-general-de-fomento-a-la-industria-vitivinicola.html', notes: 'Senate approval of the law to promote the Mexican wine sector (sector vitivinícola). Authority set to regulator as the closest value for a legislature; the law was published in the DOF on 23 May 2018 as Ley de Fomento a la Industria Vitivinícola (La Jornada Guerrero, 3 Nov 2018, read but not needed as a source).' }),
  S({ key: 'nw-oj-c-2020-91-07-piemonte', title: 'Publication of a communication of approval of a standard amendment to a product specification for a name in the wine sector, 2020/C 91/07 (\'Piemonte\', PDO-IT-A1224-AM03), OJ C 91, 20.3.2020 (English edition)', publisher: 'European Commission (Official Journal of the European Union), EUR-Lex', authority: 'regulator', url: 'https://eur-lex.europa.eu/legal-content/EN/AUTO/?toc=OJ%3AC%3A2020%3A091%3ATOC&uri=uriserv%3AOJ.C_.2020.091.01.0009.01.ENG', notes: 'Official English text: the varieties added "are suitable for cultivation in the Piedmont region" (name protected: \'Piemonte\').' }),
  S({ key: 'nw-bivb-press-burgundy', title: 'BIVB press release: A fundraising campaign supporting the Cité (Cité des Climats et vins de Bourgogne)', publisher: 'Bureau Interprofessionnel des Vins de Bourgogne (BIVB), bourgogne-wines.com', authority: 'official_regional_wine_body', url: 'https://www.bourgogne-wines.com/press/detail-d-un-communique-de-presse,2333,9344.html?&args=Y29tcF9pZD0xNDc1JmFjdGlvbj12aWV3RGV0YWlsQ29tbXVuaXF1ZSZpZD0yMDc5Jnw%3D', notes: 'The BIVB\'s English press page speaks of the "press conference for Burgundy wines" and of "the City of Wines and Climates of Burgundy" for Bourgogne. (The BIVB says it has not translated the name Bourgogne on its own labels and material since 2012; "Burgundy" is kept as the common English name people type.)' }),
];

// ------------------------------------------------------------------ records
const slug = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const F = (value, source, locator) => ({ value, source, locator });

const countries = [];
const regions = [];
function geo({ name, key, level, parent, cc, src, loc, parentSrc, parentLoc, cls, clsSrc, clsLoc, est, estSrc, estLoc, legal, legalSrc, legalLoc, aliases = [] }, out = regions) {
  const facts = { level: F(level, src, loc) };
  if (parent) facts.parent = F(parent, parentSrc ?? src, parentLoc ?? loc);
  facts.country = F(cc, src, loc);
  if (cls) facts.classification = F(cls, clsSrc ?? src, clsLoc ?? loc);
  if (legal) facts.legal_reference = F(legal, legalSrc ?? src, legalLoc ?? loc);
  if (est) facts.established = F(est, estSrc ?? src, estLoc ?? loc);
  out.push({ key: key ?? `geo/${slug(name)}`, type: 'wine_geography', name, review: 'reviewed', aliases, facts });
}
const country = (o) => geo({ ...o, level: 'country' }, countries);

// --- Australia
country({ name: 'Australia', cc: 'AU', src: 'nw-wineaustralia-gis', loc: 'Australian wine geographical indications: GIs of the Australian wine sector (zones, regions, sub-regions) in the Register kept by Wine Australia' });
const AU_STATE_LOC = 'Australian wine geographical indications: "each state is a protected GI term"';
geo({ name: 'South Eastern Australia', level: 'region', parent: 'geo/australia', cc: 'AU', src: 'nw-halliday-adelaide-hills-subregions', loc: 'para. 2: South Eastern Australia, the broadest GI (NSW, Victoria, Tasmania and the grape-growing parts of Queensland and South Australia)', cls: 'GI' });
geo({ name: 'South Australia', level: 'region', parent: 'geo/australia', cc: 'AU', src: 'nw-wikipedia-barossa-zone', loc: 'infobox: Part Of South Australia; Country Australia', cls: 'GI', clsSrc: 'nw-wineaustralia-gis', clsLoc: AU_STATE_LOC });
geo({ name: 'Western Australia', level: 'region', parent: 'geo/australia', cc: 'AU', src: 'nw-wineaustralia-gi-great-southern', loc: 'GI textual description: "within the State of Western Australia"', cls: 'GI', clsSrc: 'nw-wineaustralia-gis', clsLoc: AU_STATE_LOC });
// zones (level region, parent state)
geo({ name: 'Barossa', key: 'geo/barossa', level: 'region', parent: 'geo/south-australia', cc: 'AU', src: 'nw-barossa-gi-zone', loc: 'The Barossa zone (or Barossa), located north of Adelaide in South Australia', cls: 'GI', clsSrc: 'nw-wikipedia-barossa-zone', clsLoc: 'infobox: Type Australian Geographical Indication; the term Barossa registered as an AGI', aliases: [{ name: 'Barossa zone', lang: 'en', kind: 'common_name', source: 'nw-barossa-gi-zone', locator: '"The Barossa zone (or Barossa, as often coined)"' }] });
geo({ name: 'Mount Lofty Ranges', level: 'region', parent: 'geo/south-australia', cc: 'AU', src: 'nw-knowledgr-mount-lofty-ranges', loc: 'Zone Mount Lofty Ranges: Weinzone in Südaustralien', cls: 'GI', est: '1996-12-27', estLoc: 'Umfang und Berufung: registered as AGI on 27 December 1996 (Wine Australia Corporation Act 1980)' });
const WA_LOC = 'Five Wine Zones (whole of Western Australia)';
for (const z of ['Central Western Australia', 'Greater Perth', 'South West Australia'])
  geo({ name: z, level: 'region', parent: 'geo/western-australia', cc: 'AU', src: 'nw-winevinewa-wa-gis', loc: `${WA_LOC}: ${z}`, cls: 'GI', clsLoc: 'zones, regions and subregions formally designated as Geographical Indications (GIs) of Australia' });
// GI regions (level subregion, parent zone)
const BAROSSA_LOC = 'Barossa zone is made up of two distinct wine regions: Barossa Valley and Eden Valley';
geo({ name: 'Barossa Valley', level: 'subregion', parent: 'geo/barossa', cc: 'AU', src: 'nw-barossa-gi-zone', loc: BAROSSA_LOC, cls: 'GI', clsSrc: 'nw-wineaustralia-gis', clsLoc: 'Australian wine geographical indications: "For example: Margaret River, Barossa Valley"' });
geo({ name: 'Eden Valley', level: 'subregion', parent: 'geo/barossa', cc: 'AU', src: 'nw-barossa-gi-zone', loc: BAROSSA_LOC, cls: 'GI', clsSrc: 'nw-wikipedia-barossa-zone', clsLoc: 'the zone contains two regions with AGI appellation: Barossa Valley and Eden Valley' });
const MLR_LOC = 'Konstituierende Regionen: Adelaide Hills, Adelaide Plains and Clare Valley';
geo({ name: 'Adelaide Hills', level: 'subregion', parent: 'geo/mount-lofty-ranges', cc: 'AU', src: 'nw-knowledgr-mount-lofty-ranges', loc: MLR_LOC, cls: 'GI', est: '1998-02-09', estLoc: 'Weinregion Adelaide Hills: registered as AGI on 9 February 1998' });
geo({ name: 'Adelaide Plains', level: 'subregion', parent: 'geo/mount-lofty-ranges', cc: 'AU', src: 'nw-knowledgr-mount-lofty-ranges', loc: MLR_LOC, cls: 'GI' });
geo({ name: 'Clare Valley', level: 'subregion', parent: 'geo/mount-lofty-ranges', cc: 'AU', src: 'nw-knowledgr-mount-lofty-ranges', loc: MLR_LOC, cls: 'GI', est: '1999-03-25', estLoc: 'Weinregion Clare Valley: AGI on 25 March 1999' });
const WA_R = 'Nine Wine Regions & Six Subregions';
for (const r of ['Peel', 'Perth Hills', 'Swan District'])
  geo({ name: r, level: 'subregion', parent: 'geo/greater-perth', cc: 'AU', src: 'nw-winevinewa-wa-gis', loc: `${WA_R}: Zone 3 ("Greater Perth"): ${r} (R)`, cls: 'GI' });
for (const r of ['Blackwood Valley', 'Geographe', 'Manjimup', 'Margaret River', 'Pemberton'])
  geo({ name: r, level: 'subregion', parent: 'geo/south-west-australia', cc: 'AU', src: 'nw-winevinewa-wa-gis', loc: `${WA_R}: Zone 4 ("South West Australia"): ${r} (R)`, cls: 'GI', ...(r === 'Margaret River' ? { clsSrc: 'nw-wineaustralia-gis', clsLoc: 'Australian wine geographical indications: "For example: Margaret River, Barossa Valley"' } : {}) });
geo({ name: 'Great Southern', level: 'subregion', parent: 'geo/south-west-australia', cc: 'AU', src: 'nw-wineaustralia-gi-great-southern', loc: 'Great Southern (region); GI textual description: located within the Geographical Indication "South West Australia"', cls: 'GI', est: '1996-10-30', estLoc: 'entered in the Register of Protected Names on 30 October 1996' });
// GI subregions (level appellation, parent region)
geo({ name: 'High Eden', level: 'appellation', parent: 'geo/eden-valley', cc: 'AU', src: 'nw-barossa-gi-zone', loc: 'Within Eden Valley, High Eden is Barossa\'s only officially declared sub-region', cls: 'GI' });
for (const s of ['Lenswood', 'Piccadilly Valley'])
  geo({ name: s, level: 'appellation', parent: 'geo/adelaide-hills', cc: 'AU', src: 'nw-halliday-adelaide-hills-subregions', loc: `title and para. 1: Adelaide Hills subregional GIs, "subregions like Lenswood or Piccadilly Valley"`, cls: 'GI' });
geo({ name: 'Swan Valley', level: 'appellation', parent: 'geo/swan-district', cc: 'AU', src: 'nw-winevinewa-wa-gis', loc: `${WA_R}: Swan District (R) - Swan Valley (S); Common Confusions: Swan Valley is a Subregion of Swan District`, cls: 'GI' });
geo({ name: 'Frankland River', level: 'appellation', parent: 'geo/great-southern', cc: 'AU', src: 'nw-wa-gi-frankland-river', loc: 'Frankland River (sub region); located within the region Great Southern, within the zone South West Australia', cls: 'GI', est: '2000-08-24', estLoc: 'entered in the Register of Protected Names on 24 August 2000' });
for (const s of ['Albany', 'Mount Barker', 'Porongurup'])
  geo({ name: s, level: 'appellation', parent: 'geo/great-southern', cc: 'AU', src: 'nw-winevinewa-wa-gis', loc: `${WA_R}: Great Southern (R) - ${s} (S)`, cls: 'GI' });

// more Australian register entries (Wine Australia GI pages)
const wa = (k) => `nw-wa-gi-${k}`;
geo({ name: 'Victoria', level: 'region', parent: 'geo/australia', cc: 'AU', src: wa('yarra-valley'), loc: 'GI textual description: "within the State of Victoria, Australia"', cls: 'GI', clsSrc: 'nw-wineaustralia-gis', clsLoc: AU_STATE_LOC });
geo({ name: 'New South Wales', level: 'region', parent: 'geo/australia', cc: 'AU', src: wa('pokolbin'), loc: 'GI textual description: "within the State of New South Wales, Australia"', cls: 'GI', clsSrc: 'nw-wineaustralia-gis', clsLoc: AU_STATE_LOC });
geo({ name: 'Limestone Coast', level: 'region', parent: 'geo/south-australia', cc: 'AU', src: wa('mount-gambier'), loc: 'GI textual description: the zone of Limestone Coast, within the State of South Australia', cls: 'GI', est: '1996-12-27', estSrc: 'nw-wikipedia-limestone-coast-zone', estLoc: 'Extent and appellation: Limestone Coast registered as an AGI on 27 December 1996' });
geo({ name: 'Fleurieu', level: 'region', parent: 'geo/south-australia', cc: 'AU', src: wa('mclaren-vale'), loc: 'GI textual description: the zone "Fleurieu", within the State of South Australia', cls: 'GI', clsSrc: wa('fleurieu'), clsLoc: 'Australian Geographical Indication "Fleurieu"', est: '1996-12-27', estSrc: wa('fleurieu'), estLoc: 'entered in the Register of Protected Names on 27 December 1996' });
geo({ name: 'Port Phillip', level: 'region', parent: 'geo/victoria', cc: 'AU', src: wa('yarra-valley'), loc: 'GI textual description: the Geographical Indication "Port Phillip" within the State of Victoria', cls: 'GI' });
geo({ name: 'Central Victoria', level: 'region', parent: 'geo/victoria', cc: 'AU', src: wa('nagambie-lakes'), loc: 'GI textual description: the zone of "Central Victoria", within the State of Victoria', cls: 'GI' });
geo({ name: 'North East Victoria', level: 'region', parent: 'geo/victoria', cc: 'AU', src: wa('north-east-victoria'), loc: 'GI textual description: located within the State of Victoria', cls: 'GI', est: '1996-05-01', estLoc: 'entered in the Register of Protected Names on 1 May 1996' });
geo({ name: 'North West Victoria', level: 'region', parent: 'geo/victoria', cc: 'AU', src: wa('north-west-victoria'), loc: 'North West Victoria (zone); GI textual description: located within the State of Victoria', cls: 'GI', est: '1996-05-01', estLoc: 'entered in the Register of Protected Names on 1 May 1996' });
geo({ name: 'Hunter Valley', level: 'region', parent: 'geo/new-south-wales', cc: 'AU', src: wa('pokolbin'), loc: 'GI textual description: the zone of Hunter Valley, within the State of New South Wales', cls: 'GI' });
const LC_LOC = 'Constituent regions: Coonawarra, Mount Benson, Mount Gambier, Robe, Padthaway and Wrattonbully (each an AGI)';
for (const n of ['Coonawarra', 'Mount Benson', 'Robe', 'Padthaway', 'Wrattonbully'])
  geo({ name: n, level: 'subregion', parent: 'geo/limestone-coast', cc: 'AU', src: 'nw-wikipedia-limestone-coast-zone', loc: LC_LOC, cls: 'GI', ...(n === 'Coonawarra' ? { est: '2003-01-06', estLoc: 'Coonawarra wine region: registered as an AGI on 6 January 2003' } : {}) });
geo({ name: 'Mount Gambier', level: 'subregion', parent: 'geo/limestone-coast', cc: 'AU', src: wa('mount-gambier'), loc: 'GI textual description: a region located within the zone of Limestone Coast', cls: 'GI', est: '2010-12-21', estLoc: 'entered in the Register of Protected Geographical Indications and Other Terms on 21 December 2010' });
geo({ name: 'McLaren Vale', level: 'subregion', parent: 'geo/fleurieu', cc: 'AU', src: wa('mclaren-vale'), loc: 'GI textual description: located within the zone "Fleurieu"', cls: 'GI', est: '1997-09-02', estLoc: 'entered in the Register of Protected Names on 2 September 1997' });
geo({ name: 'Yarra Valley', level: 'subregion', parent: 'geo/port-phillip', cc: 'AU', src: wa('yarra-valley'), loc: 'GI textual description: located within the Geographical Indication "Port Phillip"', cls: 'GI', est: '1996-10-30', estLoc: 'entered in the Register of Protected Names on 30 October 1996' });
geo({ name: 'Mornington Peninsula', level: 'subregion', parent: 'geo/victoria', cc: 'AU', src: wa('mornington-peninsula'), loc: 'Mornington Peninsula (region); GI textual description: located within the State of Victoria (no zone named)', cls: 'GI', est: '1997-03-18', estLoc: 'entered in the Register of Protected Names on 18 March 1997' });
geo({ name: 'Goulburn Valley', level: 'subregion', parent: 'geo/central-victoria', cc: 'AU', src: wa('nagambie-lakes'), loc: 'GI textual description: the region of "Goulburn Valley", within the zone of "Central Victoria"', cls: 'GI' });
geo({ name: 'Hunter', level: 'subregion', parent: 'geo/hunter-valley', cc: 'AU', src: wa('pokolbin'), loc: 'GI textual description: the region of Hunter, located within the zone of Hunter Valley', cls: 'GI', est: '1997-03-18', estSrc: wa('hunter'), estLoc: 'entered in the Register of Protected Names on 18 March 1997' });
geo({ name: 'Nagambie Lakes', level: 'appellation', parent: 'geo/goulburn-valley', cc: 'AU', src: wa('nagambie-lakes'), loc: 'Nagambie Lakes (sub region); located within the region of "Goulburn Valley"', cls: 'GI', est: '2001-04-09', estLoc: 'entered in the Register of Protected Names on 9 April 2001' });
geo({ name: 'Pokolbin', level: 'appellation', parent: 'geo/hunter', cc: 'AU', src: wa('pokolbin'), loc: 'a subregion located within the region of Hunter', cls: 'GI', est: '2010-07-29', estLoc: 'entered in the Register of Protected Names on 29 July 2010' });
for (const n of ['Broke Fordwich', 'Upper Hunter Valley'])
  geo({ name: n, level: 'appellation', parent: 'geo/hunter', cc: 'AU', src: 'nw-wikipedia-hunter-valley', loc: 'three named subregions in the Hunter region: Upper Hunter Valley, Broke Fordwich and Pokolbin', cls: 'GI' });

// --- New Zealand
country({ name: 'New Zealand', cc: 'NZ', src: 'nw-iponz-register', loc: 'Part 1: enduring New Zealand GIs, namely New Zealand, North Island and South Island' });
for (const n of ['North Island', 'South Island'])
  geo({ name: n, level: 'region', parent: 'geo/new-zealand', cc: 'NZ', src: 'nw-iponz-register', loc: 'Part 1: enduring New Zealand GIs, namely New Zealand, North Island and South Island', cls: 'GI' });
const NZ_APPS = ['Northland', 'Auckland', 'Matakana', 'Kumeu', 'Waiheke Island', 'Gisborne', "Hawke's Bay", "Central Hawke's Bay", 'Wairarapa', 'Gladstone', 'Martinborough', 'Nelson', 'Marlborough', 'Canterbury', 'North Canterbury', 'Waipara Valley', 'Waitaki Valley North Otago', 'Central Otago'];
for (const n of NZ_APPS) {
  const o = { name: n, level: 'region', parent: 'geo/new-zealand', cc: 'NZ', src: 'nw-drinksint-nz-gi-applications', loc: `GI applications filed 27 July 2017 (list): ${n}` };
  if (n === 'Marlborough' || n === "Hawke's Bay") Object.assign(o, { cls: 'GI', clsSrc: 'nw-iponz-criteria', clsLoc: 'para. 1: registration of place name GIs for wines, such as Marlborough or Hawke\'s Bay' });
  if (n === 'Central Otago') Object.assign(o, { cls: 'GI', clsSrc: 'nw-thenews-bannockburn', clsLoc: 'para. 2: registration of the broader Central Otago wine region in 2018' });
  geo(o);
}
geo({ name: 'Bannockburn', level: 'subregion', parent: 'geo/central-otago', cc: 'NZ', src: 'nw-thenews-bannockburn', loc: 'para. 1-2: Bannockburn formally registered as a GI; a Central Otago subregion', cls: 'GI' });

// --- South Africa
country({ name: 'South Africa', cc: 'ZA', src: 'nw-wosa-wo-scheme', loc: 'Importance of Origin: origin control adopted by the South African wine industry and enforced by law in 1973 (Wine of Origin)' });
const GU_LOC = 'Wine of Origin: the geographical units are Western Cape, Northern Cape, Eastern Cape, Kwa-Zulu Natal, Limpopo and Free State';
for (const [n, alias] of [['Western Cape'], ['Northern Cape'], ['Eastern Cape'], ['KwaZulu-Natal', 'Kwa-Zulu Natal'], ['Limpopo'], ['Free State']])
  geo({ name: n, level: 'region', parent: 'geo/south-africa', cc: 'ZA', src: 'nw-winefundi-production-areas', loc: GU_LOC, aliases: alias ? [{ name: alias, lang: 'en', kind: 'synonym', source: 'nw-winefundi-production-areas', locator: GU_LOC }] : [] });
const WC_LOC = 'six regions in the geographical unit of the Western Cape: Breede River Valley, Cape South Coast, Coastal Region, Klein Karoo, Olifants River and Boberg';
for (const n of ['Breede River Valley', 'Cape South Coast', 'Coastal Region', 'Klein Karoo', 'Olifants River', 'Boberg'])
  geo({ name: n, level: 'subregion', parent: 'geo/western-cape', cc: 'ZA', src: 'nw-winefundi-production-areas', loc: WC_LOC });
for (const n of ['Stellenbosch', 'Paarl'])
  geo({ name: n, level: 'appellation', parent: 'geo/coastal-region', cc: 'ZA', src: 'nw-winefundi-production-areas', loc: 'Stellenbosch ... followed closely by Paarl, both of which are in the Western Cape\'s Coastal Region', ...(n === 'Stellenbosch' ? { aliases: [{ name: 'Wine of Origin Stellenbosch', lang: 'en', kind: 'protected_name', source: 'nw-wosa-wo-scheme', locator: 'Importance of Origin: "Wine of Origin" or "W. O." with the name of a production area, such as Stellenbosch' }] } : {}) });
for (const n of ['Banghoek', 'Bottelary', 'Devon Valley', 'Jonkershoek Valley', 'Papegaaiberg', 'Polkadraai Hills', 'Simonsberg-Stellenbosch'])
  geo({ name: n, level: 'appellation', parent: 'geo/stellenbosch', cc: 'ZA', src: 'nw-winemag-stellenbosch-wards', loc: 'para. 1: the wards of the Stellenbosch district (Papegaaiberg; the other six are Banghoek, Bottelary, Devon Valley, Jonkershoek Valley, Polkadraai Hills and Simonsberg-Stellenbosch)' });

// --- Argentina
country({ name: 'Argentina', cc: 'AR', src: 'nw-losandes-doc-ig', loc: 'para. 2: Ley 25.163 (1999), INV as the authority for Argentine geographical names of wines', legal: 'Ley 25.163 (1999)', legalLoc: 'para. 2' });
geo({ name: 'Mendoza', level: 'region', parent: 'geo/argentina', cc: 'AR', src: 'nw-losandes-doc-ig', loc: 'title and last para.: Mendoza holds about 30% of the approved IGs and both DOCs' });
geo({ name: 'Luján de Cuyo', level: 'appellation', parent: 'geo/mendoza', cc: 'AR', src: 'nw-vinomanos-ig-doc', loc: 'para. 3: Luján de Cuyo, where most of the wineries of Mendoza stand; map of the DOC Luján de Cuyo', cls: 'DOC', legal: 'Ley 25.163', legalSrc: 'nw-losandes-doc-ig', legalLoc: 'para. 2' });
geo({ name: 'Cafayate', level: 'appellation', parent: 'geo/argentina', cc: 'AR', src: 'nw-rioja24-calingasta', loc: 'last para.: places officially declared as IG, such as Luján de Cuyo and Cafayate', cls: 'GI' });
for (const n of ['Paraje Altamira', 'Los Chacayes'])
  geo({ name: n, level: 'appellation', parent: 'geo/argentina', cc: 'AR', src: 'nw-vinomanos-ig-doc', loc: 'para. 5: IGs such as Paraje Altamira and Los Chacayes have legal validity', cls: 'GI' });
geo({ name: 'Calingasta', level: 'appellation', parent: 'geo/argentina', cc: 'AR', src: 'nw-rioja24-calingasta', loc: 'para. 1: the IG of Calingasta, a valley of the province of San Juan', cls: 'GI' });
for (const n of ['Tamberías', 'Hilario', 'Sorocayense'])
  geo({ name: n, level: 'appellation', parent: 'geo/calingasta', cc: 'AR', src: 'nw-losandes-inv-calingasta', loc: 'para. 2: INV recognised Tamberías, Hilario and Sorocayense, all in the Valle de Calingasta (San Juan)', cls: 'GI', legal: 'INV resoluciones 35/2023, 36/2023 y 37/2023 (one per IG; which is which not read)', legalLoc: 'para. 3', ...(n === 'Sorocayense' ? { aliases: [{ name: 'Paraje Sorocayense', lang: 'es', kind: 'synonym', source: 'nw-losandes-inv-calingasta', locator: 'para. 2: "Sorocayense o también conocido como Paraje Sorocayense"' }] } : {}) });

// --- Chile
country({ name: 'Chile', cc: 'CL', src: 'nw-bcn-decreto-464', loc: 'Decreto 464 (1994): zonificación vitícola of Chile (denominaciones de origen of regions, subregions, zones and areas)', legal: 'Decreto 464 de 1994, Ministerio de Agricultura', legalLoc: 'title' });
geo({ name: 'Secano Interior', level: 'appellation', parent: 'geo/chile', cc: 'CL', src: 'nw-bcn-decreto-7-2015', loc: 'Art. 3 bis as replaced: denominación de origen especial "Secano Interior"', cls: 'DO', legal: 'Decreto 464 de 1994, Art. 3 bis', legalLoc: 'Art. 3 bis' });
geo({ name: 'Chillán', level: 'appellation', parent: 'geo/chile', cc: 'CL', src: 'nw-bcn-decreto-7-2015', loc: 'Art. 1 No. 5 A) a) as replaced: Chillán (communes Chillán, Bulnes, San Carlos, Chillán Viejo, Ñiquén)', cls: 'DO', clsSrc: 'nw-bcn-decreto-464', clsLoc: 'Art. 2 a): wines with DO come from the viticultural regions of Art. 1', legal: 'Decreto 464 de 1994, Art. 1 No. 5 A) a)', legalLoc: 'Art. 1 No. 5 A) a)' });

// --- Canada
country({ name: 'Canada', cc: 'CA', src: 'nw-vqaontario-appellations', loc: 'Across Canada, eight primary Viticultural Areas recognised for VQA appellation wines (southern Ontario and British Columbia)' });
geo({ name: 'Ontario', level: 'region', parent: 'geo/canada', cc: 'CA', src: 'nw-vqaontario-news', loc: 'regulated terms "VQA", "Prince Edward County" and "Ontario"', legal: 'Vintners Quality Alliance Act, 1999', legalSrc: 'nw-vqaontario-news', legalLoc: 'VQA Ontario administers the Vintners Quality Alliance Act, 1999' });
for (const n of ['Niagara Peninsula', 'Lake Erie North Shore', 'Prince Edward County'])
  geo({ name: n, level: 'appellation', parent: 'geo/ontario', cc: 'CA', src: 'nw-vqaontario-news', loc: 'designated label terms: geographical terms such as "Niagara Peninsula", "Lake Erie North Shore" and "Prince Edward County"', legal: 'Vintners Quality Alliance Act, 1999', legalLoc: 'VQA Ontario administers the Vintners Quality Alliance Act, 1999' });

// --- Japan (National Tax Agency GIs for wine)
country({ name: 'Japan', cc: 'JP', src: 'nw-nta-liquor-gis', loc: 'GIs designated by the Commissioner of the National Tax Agency (Japan): category Wine' });
for (const [n, ja, pref, date] of [['Yamanashi', '山梨', 'Yamanashi Prefecture', '2013-07-16'], ['Hokkaido', '北海道', 'Hokkaido Prefecture', '2018-06-28'], ['Yamagata', '山形', 'Yamagata Prefecture', '2021-06-30']])
  geo({ name: n, level: 'region', parent: 'geo/japan', cc: 'JP', src: 'nw-nta-liquor-gis', loc: `table row ${n}: geographical area ${pref}, category Wine`, cls: 'GI', est: date, estLoc: `table row ${n}: designation date`, aliases: [{ name: ja, lang: 'ja', kind: 'other_language', source: 'nw-nta-liquor-gis', locator: `table row ${n}: name ${ja}(${n})` }] });

// --- Georgia (key geo/georgia is the US state; the country gets geo/georgia-country, the name is declared ambiguous)
country({ name: 'Georgia', key: 'geo/georgia-country', cc: 'GE', src: 'nw-georgia-wine-agency-pdo', loc: 'Protected Designations of Origin (PDO) of the National Wine Agency, Georgia (Tbilisi)' });
geo({ name: 'Tibaani', level: 'appellation', parent: 'geo/georgia-country', cc: 'GE', src: 'nw-georgia-wine-agency-pdo', loc: 'PDO Tibaani: micro-zone in Inner Kakheti', cls: 'PDO', est: '2007-12-10', estLoc: 'PDO Tibaani: date of registration 10/12/2007 (registration number 796)' });
const GE_LOC = 'table of appellations registered with Sakpatenti';
for (const [n, region, alias] of [['Akhasheni', 'Kakheti'], ['Akhmeta', 'Kakheti'], ['Asuretuli shala', 'Kartli'], ['Ateni', 'Shida Kartli', 'Atenuri'], ['Bolnisi', 'Kvemo Kartli'], ['Gurjaani', 'Kakheti'], ['Kakheti', 'Kakheti'], ['Kardenakhi', 'Kakheti'], ['Khashmi Saperavi', 'Kakheti'], ['Khvanchkara', 'Racha-Lechkhumi and Kvemo Svaneti'], ['Kindzmarauli', 'Kakheti'], ['Kisi magrani', 'Kakheti'], ['Kotekhi', 'Kakheti'], ['Kvareli', 'Kakheti'], ['Manavi', 'Kakheti'], ['Mukuzani', 'Kakheti'], ['Napareuli', 'Kakheti'], ['Okami', 'Kartli'], ['Okureshis Usakhelouri', 'Racha-Lechkhumi'], ['Salkhino Ojaleshi', 'Samegrelo'], ['Sviri', 'Imereti']])
  geo({ name: n, level: 'appellation', parent: 'geo/georgia-country', cc: 'GE', src: 'nw-wikimili-georgian-appellations', loc: `${GE_LOC}: ${n} (region ${region})`, cls: 'PDO', clsLoc: `${GE_LOC}: registered appellation of origin ${n}`, aliases: alias ? [{ name: alias, lang: 'ka-Latn', kind: 'synonym', source: 'nw-wikimili-georgian-appellations', locator: `${GE_LOC}: "Ateni, Atenuri"` }] : [] });

// --- Moldova (PGIs submitted for EU protection; AGEPI)
country({ name: 'Moldova', cc: 'MD', src: 'nw-agepi-moldova-gis', loc: 'GIs and AOs originating in Moldova (Republic of Moldova)', aliases: [{ name: 'Republic of Moldova', lang: 'en', kind: 'synonym', source: 'nw-agepi-moldova-gis', locator: 'title: protected in the Republic of Moldova' }] });
for (const [n, asRead] of [['Codru', 'CODRU'], ['Ştefan Vodă', 'ŞTEFAN VODĂ'], ['Valul lui Traian', 'VALUL LUI TRAIAN']])
  geo({ name: n, level: 'region', parent: 'geo/moldova', cc: 'MD', src: 'nw-agepi-moldova-gis', loc: `4 geographical indications originating in Moldova: ${asRead}`, cls: 'PGI', clsSrc: 'nw-wine-and-spirits-md-pgi', clsLoc: `associations of PGI product producers: Codru, Stefan-Voda, Valul-lui-Traian (PGI wines managed by ONVV)` });

// --- Uruguay, Mexico (countries only; no official register of their regions was read)
country({ name: 'Uruguay', cc: 'UY', src: 'nw-gubuy-tannat-day', loc: 'para. 1: Uruguay as a wine-producing country (país productor de vinos); INAVI' });
country({ name: 'Mexico', cc: 'MX', src: 'nw-senado-mx-ley-vitivinicola', loc: 'Ley General de Fomento a la Industria Vitivinícola: the Mexican wine sector (sector vitivinícola ... en el país)', aliases: [{ name: 'México', lang: 'es', kind: 'other_language', source: 'nw-senado-mx-ley-vitivinicola', locator: 'Senado de la República (Mexico) bulletin, Spanish text' }] });

// ------------------------------------------------------------------ exonyms on records kept elsewhere
const EXONYMS = [
  { entity: 'geo/piemonte', aliases: [{ name: 'Piedmont', lang: 'en', kind: 'common_name', source: 'nw-oj-c-2020-91-07-piemonte', locator: 'Description of and reasons for the approved amendment, 1. Main wine grape varieties: "suitable for cultivation in the Piedmont region"' }] },
  { entity: 'geo/bourgogne', aliases: [{ name: 'Burgundy', lang: 'en', kind: 'common_name', source: 'nw-bivb-press-burgundy', locator: 'press release (English): "press conference for Burgundy wines"; "City of Wines and Climates of Burgundy"' }] },
];
const AMBIGUITIES = [
  { term: 'Georgia', entities: ['geo/georgia', 'geo/georgia-country'], note: 'The US state (AVAs; countries.json) and the country of Georgia (Georgian PDO wines). Both are wine geographies; the query needs context.' },
];

// ------------------------------------------------------------------ write
function write(rel, data) {
  const p = join(ROOT, rel);
  mkdirSync(dirname(p), { recursive: true });
  const tmp = `${p}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
  renameSync(tmp, p);
}
const keys = new Set();
for (const r of [...countries, ...regions]) {
  if (keys.has(r.key)) throw new Error(`duplicate key ${r.key}`);
  keys.add(r.key);
}
write('data/sources/new-world.json', SOURCES);
write('data/geographies/world-countries.json', countries);
write('data/geographies/new-world.json', regions);
write('data/aliases/exonyms.json', EXONYMS);
write('data/ambiguities/new-world.json', AMBIGUITIES);
const byC = {};
for (const r of [...countries, ...regions]) byC[r.facts.country.value] = (byC[r.facts.country.value] ?? 0) + 1;
console.log(`countries ${countries.length}, regions ${regions.length}, sources ${SOURCES.length}, exonyms ${EXONYMS.length}`, byC);
