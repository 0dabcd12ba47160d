#!/usr/bin/env python3
"""Builds three more whole-source held-out sets (issue 32, item 6): heldout-nl-beer.json (a Dutch café's
beer list), heldout-us-menus.json (a US brewery's and a US bar's beer lists, styles as menus write them)
and heldout-es.json (Spanish-language wine and spirit lists from Spain, Argentina and Ecuador).

Raw files are read from /tmp/heldout-raw-3/ (outside the repo; HELDOUT.md says where each came from):
  lolev-beer.csv               lolevbeer/site @ca90db0, _data/beer.csv (last version before the file moved)
  belltown-beer-<commit>.csv   kjiwa/belltownpizza, _data/beer.csv, all 7 versions in its history
  dosa-Menu.tsx                Papparazzi76cm/casa-de-dosa-fusion @1a65136, src/pages/Menu.tsx ("Carta de Vinos" tab)
  huequita-productos.js        Edupaul1524/La-Huequita-Quitenia @de79044, productos.js
  bodegasdelsur.js             JohanaMM/BodegasDelSur @38092bd, js/BODEGONESDELSUR.js
The Dutch list (fresman69/de-scheffers-spot @e50b3e3, src/lib/menu/beers.ts) has no snapshot to fetch; it was
read with the code index (read_file) and its 62 rows (category, name, description) are transcribed below.

Every name is counted by the product rows that carry it. LABELS were written by hand from what each name
means BEFORE the resolver was run on any of them; keys were spelled by looking up the English name of that
meaning among data/ keys (never the Dutch or Spanish name). Nobody tunes on these sets.
"""
import csv, glob, json, re, sys
from collections import Counter

RAW = '/tmp/heldout-raw-3'
BUILT = '2026-12-07'

from heldout_labels import E, A, NO, write_sets
OOS = {'kind': 'out_of_scope'}
UNR = {'kind': 'unresolved'}

B = lambda s: f'beer/{s}'
IPA = A(B('21a-american-ipa'), B('12c-english-ipa'))
BOCK = A(B('4c-helles-bock'), B('6c-dunkles-bock'), B('9a-doppelbock'), B('9b-eisbock'))
BARLEYWINE = A(B('17d-english-barley-wine'), B('22c-american-barleywine'))
PILSNER = A(B('5d-german-pils'), B('3b-czech-premium-pale-lager'))
PORTER = A(B('13c-english-porter'), B('20a-american-porter'))
PALE_ALE = A(B('18b-american-pale-ale'), B('24b-belgian-pale-ale'))
SPEC_IPA = B('21b-specialty-ipa')

# ------------------------------------------------------------------------------------------------
# Dutch: "Bierkaart" of a café in Dordrecht (fresman69/de-scheffers-spot @e50b3e3, src/lib/menu/beers.ts).
# Transcribed rows: (category, name, description) as printed.
NL_ROWS = [
 ('Van de Tap', 'Gouwe Ary', 'Ons eigen huisbier: goudblond, zacht van mout en met een frisse afdronk.'),
 ('Van de Tap', 'Heineken — Fluitje, Vaas of Pul', 'Vertrouwde pilsener, koud getapt met een stevige schuimkraag.'),
 ('Van de Tap', 'Zes wisselende tapkranen', 'Een roulerende selectie speciaalbier, afgestemd op het seizoen.'),
 ('Blond', 'Affligem — Blond', 'Klassiek Belgisch abdijblond met tonen van honing, kruidnagel en mout.'),
 ('Blond', 'Van Moll — Toewijding', 'Licht en toegankelijk blond met een fijne hopbitterheid en droge afdronk.'),
 ('Blond', 'Scheldebrouwerij — Strandgaper', 'Fruitig blond met citrus, kruiden en een zachte, ronde afdronk.'),
 ('Dubbel', 'La Trappe — Dubbel', 'Donkerbruin trappistenbier met karamel, gedroogd fruit en een volle mout.'),
 ('Dubbel', 'Corsendonk — Pater Dubbel', 'Zacht en moutig met tonen van rozijn, karamel en donkere chocolade.'),
 ('Dubbel', 'Lefort — Belgian Brown Ale', 'Bruine ale met rood fruit, kruiden en een licht zoete, warme afdronk.'),
 ('Dubbel', 'Westmalle — Dubbel', 'Diepbruine trappist met een rijke mout, donker fruit en een droge finale.'),
 ('Tripel', 'La Trappe — Tripel', 'Goudblonde trappist met banaan, kruidnagel en een stevige, warme afdronk.'),
 ('Tripel', 'Tripel Karmeliet', 'Zijdezacht tripel van gerst, tarwe en haver, met vanille en citrus.'),
 ('Tripel', 'Gouden Carolus — Tripel', 'Vol en kruidig tripel met honing, koriander en een lange, droge afdronk.'),
 ('Tripel', 'Scheldebrouwerij — Zeezuiper', 'Fris tripel met citrus en kruiden, verrassend licht op de tong.'),
 ('Quad / Barley Wine', 'Trappistes Rochefort 10', 'Zwaar en donker met port, pruim, chocolade en een fluweelzachte afdronk.'),
 ('Quad / Barley Wine', 'Kees — Barley Wine', 'Krachtige barley wine met karamel, toffee en gedroogd fruit.'),
 ('Quad / Barley Wine', 'Gouden Carolus — Whisky Infused', 'Quadrupel gerijpt op whiskyvaten, met vanille, eiken en warme mout.'),
 ('Quad / Barley Wine', 'St. Bernardus — Abt 12', 'Volle quadrupel met donker fruit, karamel en een romige, lange afdronk.'),
 ('Indian Pale Ale', 'Two Chefs — Bon Chef', 'Sappige IPA met tropisch fruit, citrus en een stevige hopbitterheid.'),
 ('Indian Pale Ale', 'Kees — Hazy Sunrise', 'Troebele hazy IPA met mango, perzik en een zachte, romige body.'),
 ('Indian Pale Ale', 'BrewDog — Elvis Juice', 'Grapefruit-IPA: fris, bitterzoet en lekker scherp in de afdronk.'),
 ('Indian Pale Ale', 'Van de Streek — Hop Art IPA', 'Klassieke IPA met dennen, hars en een droge, bittere finale.'),
 ('Indian Pale Ale', 'De Eeuwige Jeugd — Gladjanus White IPA', 'Witbier en IPA in één: koriander, citrus en een frisse hoptoets.'),
 ('Zwaar Blond', 'Duvel', 'Krachtig blond met een verfijnde bitterheid en fijne, fruitige aroma\'s.'),
 ('Zwaar Blond', 'La Chouffe Blond', 'Blond bier met een fruitig aroma, kruiden en een lichte hopbitterheid.'),
 ('Zwaar Blond', 'Corsendonk — Agnus', 'Krachtig abdijbier met een volle smaak van mout, fruit en kruiden.'),
 ('Zwaar Blond', 'Omer — Traditional Blond', 'Zwaar blond met een rijke moutsmaak en een fijne hopbitterheid.'),
 ('Wit / Weizen', 'Paulaner — Hefeweizen', 'Traditioneel Duits weizenbier: tonig, fris en licht fruitig.'),
 ('Wit / Weizen', '\'t IJ — IJwit', 'Fris en kruidig witbier met citrus en koriander. Troebel en zacht.'),
 ('Wit / Weizen', 'Vedett — Extra White', 'Licht en verfrissend witbier met een vleugje citrus.'),
 ('Wit / Weizen', 'De Eeuwige Jeugd — Bullebak Weizen Tripel', 'Krachtige weizentripel vol banaan, karamel en kruidige tonen.'),
 ('Amber', 'Seef — Bootjes Bier', 'Amberkleurig bier met karamelmout, een lichte zoetheid en droge afdronk.'),
 ('Fruit / Zoeter', 'Kasteel — Rouge', 'Robijnrood bier met zoete fruittonen van kersen, vanille en amandel. Zacht en verrassend vol.'),
 ('Fruit / Zoeter', 'Liefmans — Fruitesse', 'Fruitig en verfrissend bier met tonen van aardbei, framboos, kers en bosbes. Licht zoet en sprankelend.'),
 ('Fruit / Zoeter', 'Boon — Kriek Boon', 'Traditionele kriek met honderd procent verse krieken. Fris, zuur en fruitig met een droge afdronk.'),
 ('Fruit / Zoeter', 'Desperados', 'Mexicaans geïnspireerd bier met tequila-aroma. Fris, lichtzoet en een tikje rebels.'),
 ('Fruit / Zoeter', 'Corona Extra', 'Licht en verfrissend Mexicaans bier met een zachte moutbasis en citrus. Het lekkerst met een partje limoen.'),
 ('Stout / Porter', 'Guinness — Draught Stout', 'De iconische Ierse stout. Romig, zacht en vol van smaak, met tonen van koffie en pure chocolade.'),
 ('Stout / Porter', 'Kees — Export Porter 1750', 'Rijke porter met aroma\'s van koffie, donkere chocolade en karamel. Vol, warm en krachtig.'),
 ('Stout / Porter', 'Kompaan — Bloedbroeder Imperial Stout', 'Intense imperial stout vol donkere mout, koffie, cacao en een vleugje vanille. Krachtig en complex.'),
 ('Saison', 'Oedipus — Mannenliefde', 'Frisse, hoppige saison met citrus, kruiden en een zachte bitterheid. Licht troebel en dorstlessend.'),
 ('Saison', 'Oersoep — Lazy Daisy', 'Bloemig en kruidig met tonen van citrus, granen en een zachte bitterheid. Fris en licht droog.'),
 ('Saison', 'Saison Dupont', 'De klassieker onder de saisons. Droog, kruidig en verfrissend met een lichte fruitigheid.'),
 ('Sour / Geuze', 'Rodenbach — Grand Cru', 'Vlaams roodbruin bier, gerijpt op eiken foeders. Zacht zuur, met toetsen van rode bessen en karamel.'),
 ('Sour / Geuze', 'Oedipus — Polyamorie', 'Fruitig en fris zuur bier met mango, passievrucht en een vleugje limoen. Tropisch, sprankelend en dorstlessend.'),
 ('Sour / Geuze', 'Reijngoud — Zuurbier', 'Een wild en funky zuur bier met een frisse, droge afdronk. Licht, doordrinkbaar en vol karakter.'),
 ('Sour / Geuze', 'Oude Geuze Boon', 'Authentieke lambiekgeuze uit de Pajottenland. Droog, sprankelend en complex met toetsen van appel en citrus.'),
 ('Cider', 'Magners', 'Frisse Ierse cider met een lichtzoete, fruitige smaak.'),
 ('Cider', 'Magners — Pear', 'Fruitige cider met de sappige smaak van peer.'),
 ('Cider', 'Magners — Dark Fruit', 'Cider met zwarte bessen en bosvruchten. Zoetzuur en verfrissend.'),
 ('Cider', 'Magners — Pint', 'Dezelfde frisse cider, in een groter formaat om extra lang van te genieten.'),
 ('Cider', 'La Trappe — Isid\'or', 'Amberkleurig trappistenbier met karamel, mout en een kruidige afdronk.'),
 ('0.0 / Alcoholarm', 'Heineken 0.0', 'De verfrissende Heineken-smaak, maar dan zonder alcohol.'),
 ('0.0 / Alcoholarm', 'Amstel Radler 2,0%', 'Lichtzoete radler met een frisse toets van citroen.'),
 ('0.0 / Alcoholarm', 'Frontaal — Juice Punch', 'Tropisch en sappig IPA-karakter, alcoholarm maar vol smaak.'),
 ('0.0 / Alcoholarm', 'Van Moll — Wanderlust', 'Sessie-IPA met citrus en tropisch fruit.'),
 ('0.0 / Alcoholarm', 'Kromme Haring — Sand Diver', 'Fris, hoppig en dorstlessend.'),
 ('0.0 / Alcoholarm', 'Lowlander — Wit', 'Alcoholvrij witbier met citrus en kruiden.'),
 ('0.0 / Alcoholarm', 'Oersoep — Starchaser', 'Alcoholvrije IPA met tropische aroma\'s.'),
 ('0.0 / Alcoholarm', 'Amstel Radler 0.0', 'Frisse citroenradler, volledig alcoholvrij.'),
 ('0.0 / Alcoholarm', 'Affligem Blond 0.0', 'Alcoholvrij abdijbier, zacht en vol van smaak.'),
 ('0.0 / Alcoholarm', 'La Trappe — Nillis Donker', 'Alcoholvrij donker abdijbier, rijk en zacht.'),
]

# (lang, expect, note); family beer_style unless out_of_scope
NL_CATEGORY = {
 'Van de Tap': ('nl', NO, '"on tap": a menu section, no style'),
 'Blond': ('nl', E(B('25a-belgian-blond-ale')), 'Belgian/Dutch blond (Affligem Blond): Belgian Blond Ale (judged)'),
 'Dubbel': ('nl', E(B('26b-belgian-dubbel')), None),
 'Tripel': ('nl', E(B('26c-belgian-tripel')), None),
 'Quad / Barley Wine': ('nl', A(B('26d-belgian-dark-strong-ale'), B('17d-english-barley-wine'), B('22c-american-barleywine')), 'names two styles: quadrupel (26D) and barley wine'),
 'Indian Pale Ale': ('en', IPA, 'IPA spelt "Indian": bare IPA, ambiguous as in MARKET.md'),
 'Zwaar Blond': ('nl', E(B('25c-belgian-golden-strong-ale')), '"heavy blond" (Duvel, La Chouffe): Belgian Golden Strong Ale (judged)'),
 'Wit / Weizen': ('nl', A(B('24a-witbier'), B('10a-weissbier')), 'names two styles: witbier and Weizen'),
 'Amber': ('nl', NO, 'a colour word'),
 'Fruit / Zoeter': ('nl', NO, '"fruit / sweeter": a menu grouping'),
 'Stout / Porter': ('en', NO, 'retail grouping of two families (as "porter & stout" in MARKET.md)'),
 'Saison': ('fr', E(B('25b-saison')), None),
 'Sour / Geuze': ('nl', NO, 'grouping: sour beers (a family) and geuze'),
 'Cider': ('nl', OOS, 'cider'),
 '0.0 / Alcoholarm': ('nl', NO, '"0.0 / low-alcohol": non-alcoholic class'),
}
# style words in the beer names, chosen by reading the names; a name counts for the longest word it carries
NL_NAME = {
 'Blond': ('nl', E(B('25a-belgian-blond-ale')), 'as the category "Blond" (judged)'),
 'Traditional Blond': ('en', E(B('25a-belgian-blond-ale')), 'Omer Traditional Blond (judged; the list files it under "Zwaar Blond")'),
 'Dubbel': ('nl', E(B('26b-belgian-dubbel')), None),
 'Pater Dubbel': ('nl', E(B('26b-belgian-dubbel')), '"father dubbel": abbey dubbel'),
 'Tripel': ('nl', E(B('26c-belgian-tripel')), None),
 'Weizen Tripel': ('nl', NO, 'a strong wheat "tripel": no BJCP style (judged)'),
 'Belgian Brown Ale': ('en', NO, 'no single BJCP style (judged)'),
 'Barley Wine': ('en', BARLEYWINE, None),
 'Abt': ('nl', E(B('26d-belgian-dark-strong-ale')), 'Abt (St. Bernardus Abt 12): quadrupel, as "abt och kvadrupel" in MARKET.md'),
 'Hazy Sunrise': None,  # brand name, not counted (kept here to say it was read and rejected)
 'IPA': ('en', IPA, 'bare IPA'),
 'White IPA': ('en', E(B('21b-white-ipa'), SPEC_IPA), None),
 'Hefeweizen': ('de', E(B('10a-weissbier')), None),
 'Kriek': ('nl', E(B('23f-fruit-lambic')), 'kriek (Boon): cherry lambic, Fruit Lambic'),
 'Oude Geuze': ('nl', E(B('23e-gueuze')), '"old geuze": Gueuze'),
 'Draught Stout': ('en', E(B('15b-irish-stout')), 'Guinness Draught: Irish Stout (judged)'),
 'Export Porter': ('en', NO, 'historical Dutch export porter: no single BJCP style (judged)'),
 'Imperial Stout': ('en', E(B('20c-imperial-stout')), None),
 'Radler': ('de', NO, 'beer-lemonade mix (as in DEMAND.md)'),
 'Wit': ('nl', E(B('24a-witbier')), '"white": witbier (Lowlander Wit)'),
 'Donker': ('nl', NO, '"dark": a colour word'),
}
# Dutch style words in the descriptions, chosen by reading them; a description counts for the longest it carries
NL_DESC = {
 'pilsener': ('nl', E(B('2a-international-pale-lager')), 'Dutch pilsener (Heineken): International Pale Lager (judged)'),
 'abdijblond': ('nl', E(B('25a-belgian-blond-ale')), '"abbey blond": Belgian Blond Ale'),
 'blond': ('nl', E(B('25a-belgian-blond-ale')), 'blond (judged)'),
 'blond bier': ('nl', E(B('25a-belgian-blond-ale')), '"blond beer" (judged)'),
 'zwaar blond': ('nl', E(B('25c-belgian-golden-strong-ale')), '"heavy blond" (judged)'),
 'trappistenbier': ('nl', NO, '"trappist beer": a designation of origin (brewed in a trappist abbey), no style'),
 'trappist': ('nl', NO, 'trappist: a designation, no style'),
 'tripel': ('nl', E(B('26c-belgian-tripel')), None),
 'barley wine': ('en', BARLEYWINE, None),
 'quadrupel': ('nl', E(B('26d-belgian-dark-strong-ale')), 'as "Quadrupel (Quad)" in DEMAND.md'),
 'IPA': ('en', IPA, 'bare IPA'),
 'hazy IPA': ('en', E(B('21c-hazy-ipa')), None),
 'Grapefruit-IPA': ('en', E(B('29a-fruit-beer')), 'IPA with grapefruit: fruit beer (29A); base American IPA (21A)'),
 'Sessie-IPA': ('nl', E(SPEC_IPA), 'session IPA (Dutch "sessie"): 21B, as "session ipa" in MARKET.md'),
 'Alcoholvrije IPA': ('nl', NO, 'non-alcoholic IPA: no BJCP style (as in MARKET.md)'),
 'abdijbier': ('nl', NO, '"abbey beer": a designation, no style'),
 'weizenbier': ('de', E(B('10a-weissbier')), None),
 'witbier': ('nl', E(B('24a-witbier')), None),
 'Alcoholvrij witbier': ('nl', NO, 'non-alcoholic witbier: no BJCP style'),
 'weizentripel': ('nl', NO, 'strong wheat beer: no BJCP style (judged)'),
 'kriek': ('nl', E(B('23f-fruit-lambic')), 'traditional kriek: cherry lambic'),
 'Ierse stout': ('nl', E(B('15b-irish-stout')), '"Irish stout"'),
 'imperial stout': ('en', E(B('20c-imperial-stout')), None),
 'porter': ('en', PORTER, 'bare porter: English or American'),
 'saison': ('fr', E(B('25b-saison')), None),
 'Vlaams roodbruin bier': ('nl', E(B('23b-flanders-red-ale')), '"Flemish red-brown beer" (Rodenbach): Flanders Red Ale (judged)'),
 'zuur bier': ('nl', NO, '"sour beer": a family'),
 'lambiekgeuze': ('nl', E(B('23e-gueuze')), '"lambic geuze": Gueuze'),
 'radler': ('de', NO, 'beer-lemonade mix'),
 'citroenradler': ('nl', NO, '"lemon radler": beer-lemonade mix'),
 'cider': ('en', OOS, 'cider'),
}

def whole(word):
    return re.compile(r'(?<![\w\'-])' + re.escape(word) + r'(?![\w\'-])', re.I)

def count_longest(texts, words):
    """Each text counts once for every listed word it carries that no longer listed word covers."""
    pats = sorted(words, key=len, reverse=True)
    c = Counter()
    for t in texts:
        spans = []
        for w in pats:
            for m in whole(w).finditer(t):
                if any(a <= m.start() and m.end() <= b for a, b in spans): continue
                spans.append((m.start(), m.end()))
                c[w] += 1
                break
    return c

def queries(counts, source, label, family='beer_style'):
    out = []
    for name, w in counts.most_common():
        lab = label(name)
        fam = lab[3] if len(lab) > 3 else family
        lang, exp, note = lab[:3]
        q = {'q': name, 'family': fam, 'source': source, 'lang': lang, 'weight': w, 'expect': exp, 'split': 'held_out'}
        if note: q['note'] = note
        out.append(q)
    return out

def need(counts, labels, what):
    missing = [n for n in counts if n not in labels]
    if missing: sys.exit(f'unlabelled {what}: {missing}')
    zero = [n for n, v in labels.items() if v is not None and counts[n] == 0]
    if zero: sys.exit(f'{what} not found: {zero}')

def nl_set():
    cc = Counter(c for c, n, d in NL_ROWS)
    need(cc, NL_CATEGORY, 'nl categories')
    name_words = {k: v for k, v in NL_NAME.items() if v is not None}
    cn = count_longest([n for c, n, d in NL_ROWS], name_words)
    need(cn, name_words, 'nl name words')
    cd = count_longest([d for c, n, d in NL_ROWS], NL_DESC)
    need(cd, NL_DESC, 'nl description words')
    base = {'market': 'Netherlands', 'language': 'nl', 'kind': 'café beer list (bierkaart)',
            'retailer': 'Stadscafé in Dordrecht (site repository "de-scheffers-spot"; earlier versions titled "Rijke & Zn.")',
            'repository': 'fresman69/de-scheffers-spot', 'path': 'src/lib/menu/beers.ts',
            'commit': 'e50b3e327a0080fd500223c26faa4f727a01797c', 'rows_read': len(NL_ROWS), 'read': BUILT,
            'retrieved_via': 'code index read_file (no snapshot could be fetched); rows transcribed into heldout-build-3.py',
            'split': 'held_out', 'holdout': 'whole_source'}
    oos = lambda lab: lab + ('beer_style',)
    qs = (queries(cc, 'scheffers-category', lambda n: NL_CATEGORY[n])
          + queries(cn, 'scheffers-name', lambda n: NL_NAME[n])
          + queries(cd, 'scheffers-description', lambda n: NL_DESC[n]))
    src = [dict(base, id='scheffers-category', columns=['category'], weight='beers in the category', queries=len(cc)),
           dict(base, id='scheffers-name', columns=['name: style words as printed, whole words, longest first'], weight='beers whose name carries the word', queries=len(cn)),
           dict(base, id='scheffers-description', columns=['description: Dutch style words as printed, whole words, longest first'], weight='beers whose description carries the word', queries=len(cd))]
    return {'description': 'Whole-source held-out set (issue 32 item 6): a Dutch café beer list (category column, style words of the beer names and of the Dutch descriptions), labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

# ------------------------------------------------------------------------------------------------
# US menus: Lolev Beer (Pittsburgh brewery) beer catalogue, column "type"; Belltown Pizza (Seattle bar)
# beer list, column "Style", union of the file's 7 versions (beer rows only: Ciders, Seltzers and kombucha left out).
US_LOLEV = {
 'India Pale Ale': ('en', IPA, 'bare IPA: ambiguous as in MARKET.md (an American brewery: American IPA meant)'),
 'Double IPA': ('en', E(B('22a-double-ipa')), None),
 'Barleywine': ('en', BARLEYWINE, None),
 'Pale Ale': ('en', PALE_ALE, 'as in heldout-de'),
 'Saison': ('en', E(B('25b-saison')), None),
 'Imperial Stout': ('en', E(B('20c-imperial-stout')), None),
 'Unfiltered Pilsner': ('en', PILSNER, 'unfiltered pilsner: bare Pilsner (German or Czech)'),
 'Vienna Lager': ('en', E(B('7a-vienna-lager')), None),
 'Gose': ('en', E(B('23g-gose')), None),
 'West Coast IPA': ('en', E(B('21a-american-ipa')), 'West Coast IPA: the American IPA'),
 'Sour Ale': ('en', NO, 'sour beers: a family'),
 'Imperial Saison': ('en', E(B('25b-super-saison'), B('25b-saison')), 'strong saison: the super saison strength of 25B'),
 'Bock': ('en', BOCK, 'as in DEMAND.md'),
 'Sparkling Hop Water': ('en', NO, 'hop water: not a beer'),
 'Kölsch': ('de', E(B('5b-kolsch')), None),
 'Grisette': ('fr', NO, 'no BJCP 2021 style (as in DEMAND.md)'),
 'Session IPA': ('en', E(SPEC_IPA), 'as in MARKET.md'),
 'Scotch Ale': ('en', E(B('17c-wee-heavy')), 'as "Scotch Ale / Wee Heavy" in DEMAND.md'),
 'Dry Irish Stout': ('en', E(B('15b-irish-stout')), None),
 'Cream Ale': ('en', E(B('1c-cream-ale')), None),
 'Matcha Ale': ('en', E(B('30a-spice-herb-or-vegetable-beer')), 'matcha (tea): spice/herb beer 30A; base an ale'),
 'Raspberry Smoothie Sour': ('en', E(B('28c-wild-specialty-beer')), 'fruited (raspberry, smoothie) sour: 28C; base straight sour 28D (judged)'),
 'Ultra Light Rice Ale': ('en', E(B('31a-alternative-grain-beer')), 'rice ale: alternative grain 31A; base a light ale (judged)'),
 'Märzen': ('de', E(B('6a-marzen')), None),
 'Matcha Lager': ('en', E(B('30a-spice-herb-or-vegetable-beer')), 'matcha: 30A; base a pale lager'),
 'Smoothie Sour': ('en', E(B('28c-wild-specialty-beer')), 'smoothie sour (fruit purée): 28C; base 28D (judged)'),
 'Imperial Pilsner': ('en', NO, 'no BJCP 2021 equivalent (as in DEMAND.md)'),
 'Doppelbock': ('de', E(B('9a-doppelbock')), None),
 'Cookie Brown Ale': ('en', E(B('30a-spice-herb-or-vegetable-beer')), 'cookie flavouring: 30A (judged, as "Coffee Beer" in DEMAND.md); base American Brown Ale 19C'),
 'Czech Dark Lager': ('en', E(B('3d-czech-dark-lager')), None),
 'Raspberry Rose Gose': ('en', E(B('29b-fruit-and-spice-beer')), 'raspberry and rose: fruit and spice beer 29B; base Gose 23G (judged)'),
 'Coffee Porter': ('en', E(B('30a-spice-herb-or-vegetable-beer')), 'coffee: 30A; base porter'),
 'Matcha Wheat Ale': ('en', E(B('30a-spice-herb-or-vegetable-beer')), 'matcha: 30A; base American Wheat 1D'),
 'Imperial Plum Saison': ('en', E(B('29a-fruit-beer')), 'plum: fruit beer 29A; base super saison 25B'),
 'Helles Lager': ('en', E(B('4a-munich-helles')), None),
 'Heller Bock Lager': ('de', E(B('4c-helles-bock')), None),
 'West Coast Imperial Pilsner': ('en', NO, 'imperial pilsner: no BJCP 2021 equivalent'),
 'Belgian Wit': ('en', E(B('24a-witbier')), None),
 'Baltic Porter': ('en', E(B('9c-baltic-porter')), None),
 'Czech Amber Lager': ('en', E(B('3c-czech-amber-lager')), None),
 'Flanders Red': ('en', E(B('23b-flanders-red-ale')), None),
 'Pilsner': ('en', PILSNER, 'bare Pilsner on a US list: German or Czech'),
 'Mexican Dark Lager': ('en', A(B('2c-international-dark-lager'), B('7a-vienna-lager')), 'Mexican dark lager: international dark lager or the Vienna-style Mexican lagers (judged)'),
 'Black IPA': ('en', E(B('21b-black-ipa'), SPEC_IPA), None),
 'Japanese Rice Lager': ('en', E(B('2a-international-pale-lager')), 'Japanese rice lager: International Pale Lager (judged)'),
 'Mexican Lager': ('en', E(B('2a-international-pale-lager')), 'Mexican lager: International Pale Lager (judged)'),
 'Plum Saison': ('en', E(B('29a-fruit-beer')), 'plum: 29A; base Saison 25B'),
 'Pumpkin Stout': ('en', E(B('30b-autumn-seasonal-beer')), 'pumpkin: 30B, as "Pumpkin Ale" in DEMAND.md; base stout'),
}
US_BELLTOWN = {
 'Lager': ('en', NO, 'a family'),
 'Pilsner': ('en', PILSNER, 'bare Pilsner'),
 'India Pale Ale': ('en', IPA, 'bare IPA'),
 'IPA': ('en', IPA, 'bare IPA'),
 'Amber Ale': ('en', E(B('19a-american-amber-ale')), 'as "amber ale" in MARKET.md (judged closest)'),
 'Flanders Red Ale': ('en', E(B('23b-flanders-red-ale')), None),
 'Stout': ('en', NO, 'a family (no single BJCP style)'),
 'Pilsner-Style Lager': ('en', PILSNER, 'as bare Pilsner'),
 'Belgian Pale Ale': ('en', E(B('24b-belgian-pale-ale')), None),
 'Hefeweizen': ('de', E(B('10a-weissbier')), None),
 'Berliner Weisse': ('de', E(B('23a-berliner-weisse')), None),
 'Imperial Oatmeal Stout': ('en', E(B('20c-imperial-stout')), 'imperial stout with oats: still 20C (judged)'),
 'Dessert Stout': ('en', NO, 'as "Dessert Stout or Pastry Stout" in DEMAND.md: no BJCP style'),
 'Flanders Sour': ('en', A(B('23b-flanders-red-ale'), B('23c-oud-bruin')), 'Flanders red or brown'),
 'Gose': ('en', E(B('23g-gose')), None),
 'Brett Grisette': ('en', E(B('28a-brett-beer')), 'Brett: Brett Beer 28A; base grisette'),
 'Sake Style Saison': ('en', E(B('34b-mixed-style-beer')), 'saison brewed like sake: mixed-style 34B (judged)'),
 'Rotating Seasonal Sours': ('en', NO, 'rotating sours: a family'),
 'Golden Ale': ('en', A(B('18a-blonde-ale'), B('12a-british-golden-ale')), 'golden ale: American blonde or British golden'),
 'Imperial Stout': ('en', E(B('20c-imperial-stout')), None),
 'Porter': ('en', PORTER, 'bare porter'),
 'Raspberry Ale': ('en', E(B('29a-fruit-beer')), 'raspberry: 29A; base an ale'),
 'Pale Lager': ('en', NO, 'a family of several styles'),
 'Raspberry Lambic Beer': ('en', E(B('23f-fruit-lambic')), 'framboise: Fruit Lambic'),
 'Belgian Strong': ('en', A(B('25c-belgian-golden-strong-ale'), B('26d-belgian-dark-strong-ale')), 'strong golden or dark'),
 'Belgian Wit Ale': ('en', E(B('24a-witbier')), None),
 'Coconut Porter': ('en', E(B('30a-spice-herb-or-vegetable-beer')), 'coconut: 30A (judged); base porter'),
 'Northwest Lager': ('en', NO, 'regional marketing term, no style'),
 'Double IPA': ('en', E(B('22a-double-ipa')), None),
 'Passion Fruit and Toasted Coconut Sour': ('en', E(B('28c-wild-specialty-beer')), 'sour with fruit and coconut: 28C (judged); base straight sour'),
 'Belgian Amber Ale': ('en', NO, 'no single BJCP style (judged)'),
 'American Imperial Stout': ('en', E(B('20c-imperial-stout')), None),
}

def us_set():
    lolev = list(csv.DictReader(open(f'{RAW}/lolev-beer.csv', encoding='utf-8')))
    cl = Counter(r['type'].strip() for r in lolev if r['type'].strip())
    need(cl, US_LOLEV, 'lolev types')
    files = sorted(glob.glob(f'{RAW}/belltown-beer-*.csv'))
    if len(files) != 7: sys.exit(f'expected 7 Belltown versions, got {len(files)}')
    rows = {}
    for f in files:
        for r in csv.DictReader(open(f, encoding='utf-8')):
            st = (r.get('Style') or '').strip()
            if r['Category'] in ('Ciders', 'Seltzers') or not st or 'Kombucha' in st: continue
            rows[(r['Name'].strip(), st)] = True
    cb = Counter(st for n, st in rows)
    need(cb, US_BELLTOWN, 'belltown styles')
    qs = (queries(cl, 'lolev-type', lambda n: US_LOLEV[n]) + queries(cb, 'belltown-style', lambda n: US_BELLTOWN[n]))
    src = [
     {'id': 'lolev-type', 'market': 'United States', 'language': 'en', 'kind': 'brewery beer list (taproom menu data)',
      'retailer': 'Lolev Beer (brewery, Pittsburgh PA; Lawrenceville and Zelienople taprooms)', 'repository': 'lolevbeer/site',
      'path': '_data/beer.csv', 'commit': 'ca90db07bea57aeb6ec478d349f7bd693e679972', 'columns': ['type'],
      'rows_read': len(lolev), 'weight': 'beers of that type', 'queries': len(cl), 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'},
     {'id': 'belltown-style', 'market': 'United States', 'language': 'en', 'kind': 'bar beer list',
      'retailer': 'Belltown Pizza (bar and restaurant, Seattle WA)', 'repository': 'kjiwa/belltownpizza',
      'path': '_data/beer.csv', 'commit': 'c31fa50abb807e79531998464d2f113ff36e2549',
      'columns': ['Style, union of the 7 versions of the file (2023-12 to 2024-12); beer rows only (categories Ciders, Seltzers and kombucha rows left out)'],
      'rows_read': len(rows), 'weight': 'distinct beers (name, style) listed with the style', 'queries': len(cb), 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}]
    return {'description': 'Whole-source held-out set (issue 32 item 6): style descriptions of two US beer menus (a brewery and a bar), labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

# ------------------------------------------------------------------------------------------------
# Spanish: (1) Casa de Dosa (restaurant, Castilla y León, Spain) "Carta de Vinos": origin split on " - ",
# grapes split on "," and " y ", section heads; (2) La Huequita (liquor store, Quito, Ecuador): categoria
# of the drink rows and the drink words of the product names; (3) Bodegones del Sur (Argentine wine shop):
# category and the grape/place words of the product names.
G = lambda k: f'grape/{k}'
ES_ORIGIN = {
 'D.O. Rueda': ('region', E('geo/rueda'), None),
 'Serrada': ('region', NO, 'a village of DO Rueda, no GI of its own'),
 'Pozaldez': ('region', NO, 'village'),
 'La Seca': ('region', NO, 'village of DO Rueda (the row has no D.O.)'),
 'V.T. Castilla y León': ('region', E('geo/castilla-y-leon'), 'Vino de la Tierra de Castilla y León'),
 'Medina del Campo': ('region', NO, 'town'),
 'D.O. Txakoli de Álava': ('region', E('geo/arabako-txakolina'), 'Txakoli de Álava = Arabako Txakolina'),
 'Okondo': ('region', NO, 'village'),
 'D.O. Valdehorras': ('region', E('geo/valdeorras'), 'Valdeorras, misspelt with an h as printed'),
 'A Rúa Orense': ('region', NO, 'town and province (A Rúa, Ourense)'),
 'D.O. Cigales': ('region', E('geo/cigales'), None),
 'Corcos del Valle': ('region', NO, 'village'),
 'Mucientes': ('region', NO, 'village'),
 'D.O. Ribera del Duero': ('region', E('geo/ribera-del-duero'), None),
 'Boada de Roa': ('region', NO, 'village'),
 'Pesquera': ('region', NO, 'village (Pesquera de Duero)'),
 'Peñafiel': ('region', NO, 'town'),
 'La Parrilla': ('region', NO, 'village'),
 'Valtiendas': ('region', E('geo/valtiendas'), 'the row is a Valtiendas wine: the Vino de Calidad (now DOP) Valtiendas (judged)'),
 'Segovia': ('region', NO, 'province, no wine GI of that name'),
 'Sierra de Salamanca': ('region', E('geo/sierra-de-salamanca'), None),
 'Sotoserrano': ('region', NO, 'village'),
 'D.O.Ca. Rioja': ('region', E('geo/rioja'), None),
 'Baños de Ebro': ('region', NO, 'village'),
 'Álava': ('region', NO, 'province (Rioja Alavesa lies in it; judged)'),
 'Valbuena de Duero': ('region', NO, 'village'),
 'Mambrilla de Castrejón': ('region', NO, 'village'),
 'Finca los Hoyales': ('region', NO, 'a vineyard estate'),
 'D.O. Toro': ('region', E('geo/toro'), None),
 'San Román de Hornija': ('region', NO, 'village'),
 'Valle del Maipo': ('region', E('geo/maipo-valley'), 'Maipo Valley (Chile)'),
 'Chile': ('country', E('geo/chile'), None),
 'Valladolid': ('region', NO, 'province, no wine GI of that name'),
 "D.O.C.G. Moscato D'Asti": ('region', E('geo/moscato-d-asti', 'geo/asti'), "Moscato d'Asti, a type of the DOCG Asti (parent listed)"),
 'Piamonte': ('region', E('geo/piemonte'), 'Spanish name of Piemonte'),
 'Italia': ('country', E('geo/italy'), None),
}
ES_GRAPE = {
 'Verdejo': E(G('verdejo')), 'Sauvignon Blanc': E(G('sauvignon-blanc')),
 'Hondarrabi Zuri': E(G('hondarrabi-zuri')), 'Godello': E(G('godello')), 'Tempranillo': E(G('tempranillo')),
 'Albillo': E(G('albillo-mayor')), 'Tinto Fino': E(G('tempranillo')), 'Pinot Noir': E(G('pinot-noir')),
 'Rufete': E(G('rufete')), 'Cabernet Sauvignon': E(G('cabernet-sauvignon')), 'Tinta de Toro': E(G('tempranillo')),
 'Carmenere': E(G('carmenere')), 'Syrah': E(G('syrah')), 'Petit Verdot': E(G('petit-verdot')), 'Moscato Bianco': E(G('muscat')),
}
ES_GRAPE_NOTE = {
 'Albillo': 'in Cigales rosado: Albillo Mayor (judged)', 'Tinto Fino': 'Tinto Fino = Tempranillo (Ribera del Duero)',
 'Tinta de Toro': 'Tinta de Toro = Tempranillo', 'Moscato Bianco': 'Muscat Blanc à Petits Grains; KB record grape/muscat (as "Moscato" in DEMAND.md)',
 'Hondarrabi Zuri': 'white Txakoli variety (no record expected; key by convention)', 'Godello': 'key by convention',
}
ES_GRAPE_LANG = {'Pinot Noir': 'fr', 'Cabernet Sauvignon': 'fr', 'Sauvignon Blanc': 'fr', 'Syrah': 'fr', 'Petit Verdot': 'fr',
                 'Carmenere': 'fr', 'Moscato Bianco': 'it', 'Hondarrabi Zuri': 'eu'}
ES_SECTION = {
 'ESPUMOSOS': E('style/sparkling-wine'), 'BLANCOS': NO, 'ROSADOS': E('style/rose-wine'), 'TINTOS ROBLE': NO,
 'TINTOS CRIANZA': NO, 'TINTOS RESERVA': NO, 'TINTOS GRAN RESERVA': NO, 'DULCES': NO,
}
ES_SECTION_NOTE = {'BLANCOS': '"whites": wine colour, no_entity as "vitt vin" in MARKET.md', 'TINTOS ROBLE': '"oaked reds": colour and oak, no record',
                   'TINTOS CRIANZA': 'reds of the Crianza ageing designation: a designation, no_entity', 'TINTOS RESERVA': 'Reserva reds: designation',
                   'TINTOS GRAN RESERVA': 'Gran Reserva reds: designation', 'DULCES': '"sweet (wines)"', 'ESPUMOSOS': '"sparkling (wines)"', 'ROSADOS': '"rosés"'}

def dosa_rows():
    t = open(f'{RAW}/dosa-Menu.tsx', encoding='utf-8').read()
    i = t.index('value="carta-vinos"', t.index('<TabsContent'))
    seg = t[i:t.index('</TabsContent>', i)]
    lines = [re.sub(r'<[^>]+>', '', l).strip() for l in seg.split('\n')]
    lines = [l for l in lines if l and not l.startswith(('<', 'src=', 'alt=', 'className=', '/>'))]
    rows, section = [], None
    for k, l in enumerate(lines):
        m = re.fullmatch(r'\{/\* (.+?) \*/\}', l)
        if m: section = m.group(1); continue
        if l.startswith('🍇'):
            rows.append({'name': lines[k - 2], 'origin': lines[k - 1], 'grapes': l[1:].strip(), 'section': section})
    return rows

HQ_DRINK_CATS = ('WHISKY', 'AGUARDIENTE', 'RON', 'VINO', 'CERVEZA', 'ZHUMIR', 'VODKA', 'COCTEL', 'TEQUILA', 'LICOR DE HIERBAS', 'GINEBRA', 'CHAMPAGNE')
ES_HQ_CAT = {
 'WHISKY': ('es', E('spirit/whisky'), None, 'spirit'),
 'AGUARDIENTE': ('es', NO, '"aguardiente": generic Andean cane spirit (Ecuador, Colombia), no single legal category (judged)', 'spirit'),
 'RON': ('es', E('spirit/rum'), None, 'spirit'),
 'VINO': ('es', NO, '"wine": generic', 'wine_style'),
 'CERVEZA': ('es', NO, '"beer": generic', 'beer_style'),
 'ZHUMIR': ('es', NO, 'a brand of Ecuadorian aguardiente', 'spirit'),
 'VODKA': ('es', E('spirit/vodka'), None, 'spirit'),
 'COCTEL': ('es', UNR, '"cocktail": ready-mixed drinks, nothing named (as in MARKET.md)', 'spirit'),
 'TEQUILA': ('es', E('spirit/tequila'), None, 'spirit'),
 'LICOR DE HIERBAS': ('es', E('spirit/herbal-liqueur', 'spirit/liqueur'), '"herbal liqueur" (as "örtlikör" in MARKET.md)', 'spirit'),
 'GINEBRA': ('es', E('spirit/gin'), None, 'spirit'),
 'CHAMPAGNE': ('es', E('style/sparkling-wine', 'geo/champagne'), 'used as a shelf word for sparkling wine (the row is not a Champagne); either reading accepted (judged)', 'wine_style'),
}
ES_HQ_NAME = {
 'CABERNET': ('es', E(G('cabernet-sauvignon')), 'Chilean "Cabernet" (Concha y Toro, Maipo): Cabernet Sauvignon (judged)', 'grape'),
 'MERLOT': ('fr', E(G('merlot')), None, 'grape'),
 'GIN': ('en', E('spirit/gin'), None, 'spirit'),
 'LONDON DRY': ('en', E('spirit/london-gin', 'spirit/gin'), 'London Dry gin', 'spirit'),
 'PIÑA COLADA': ('es', UNR, 'a cocktail', 'spirit'),
 'SANGRIA': ('es', UNR, 'a mixed wine drink, nothing named (as in MARKET.md)', 'wine_style'),
 'AGUARDIENTE': ('es', NO, 'generic cane spirit (judged)', 'spirit'),
 'CAÑA': ('es', NO, '"cane": cane spirit, generic', 'spirit'),
 'RON': ('es', E('spirit/rum'), None, 'spirit'),
 'VODKA': ('en', E('spirit/vodka'), None, 'spirit'),
 'VINO': ('es', NO, '"wine": generic', 'wine_style'),
 'TINTO': ('es', NO, '"red": wine colour', 'wine_style'),
}
ES_BDS_CAT = {
 'Tinto': ('es', NO, '"red (wine)"', 'wine_style'), 'Blanco': ('es', NO, '"white (wine)"', 'wine_style'),
 'Rosado': ('es', E('style/rose-wine'), None, 'wine_style'), 'Organicos y Veganos': ('es', NO, '"organic and vegan": a shelf', 'wine_style'),
}
ES_BDS_NAME = {
 'Bonarda': ('es', A(G('bonarda-piemontese'), G('croatina'), G('douce-noir')), 'as in DEMAND.md; in Argentina Bonarda is Douce Noir', 'grape'),
 'Chardonnay': ('fr', E(G('chardonnay')), None, 'grape'),
 'Malbec': ('fr', E(G('malbec')), None, 'grape'),
 'Cabernet Sauvignon': ('fr', E(G('cabernet-sauvignon')), None, 'grape'),
 'Barbera': ('it', E(G('barbera')), None, 'grape'),
 'Cab Franc': ('en', E(G('cabernet-franc')), 'abbreviation of Cabernet Franc', 'grape'),
 'Ancelotta': ('it', E(G('ancellotta')), 'Ancellotta, printed with one l. Key corrected after the first run (2026-12-07): the label named grape/ancelotta, a key that never existed; the variety is spelt Ancellotta (same meaning)', 'grape'),
 'Torrontes': ('es', E(G('torrontes-riojano'), G('torrontes')), 'Torrontés without accent; unqualified Argentine Torrontés is Torrontés Riojano (judged)', 'grape'),
 'Pinot Noir': ('fr', E(G('pinot-noir')), None, 'grape'),
 'Sauvignon Blanc': ('fr', E(G('sauvignon-blanc')), None, 'grape'),
 'Petit Verdot': ('fr', E(G('petit-verdot')), None, 'grape'),
 'Valle de Uco': ('es', E('geo/valle-de-uco'), 'Uco Valley (Mendoza)', 'region'),
 'Rose': ('es', E('style/rose-wine'), '"rosé" without accent', 'wine_style'),
 'Rosado': ('es', E('style/rose-wine'), None, 'wine_style'),
}

def split_grapes(g):
    return [p.strip() for p in re.split(r',|\sy\s', g) if p.strip()]

def load_js_array(path, marker):
    t = open(path, encoding='utf-8').read()
    j = t.index('[', t.index(marker)); depth = 0
    for k in range(j, len(t)):
        if t[k] == '[': depth += 1
        elif t[k] == ']':
            depth -= 1
            if depth == 0: return json.loads(re.sub(r',\s*([\]}])', r'\1', t[j:k + 1]))

def es_set():
    rows = dosa_rows()
    if len(rows) != 23: sys.exit(f"expected 23 wines in the Carta de Vinos, got {len(rows)}")
    co, cg, cs = Counter(), Counter(), Counter()
    for r in rows:
        for p in dict.fromkeys(x.strip() for x in r['origin'].split(' - ') if x.strip()): co[p] += 1
        for p in dict.fromkeys(split_grapes(r['grapes'])): cg[p] += 1
        cs[r['section']] += 1
    need(co, ES_ORIGIN, 'es origins'); need(cg, ES_GRAPE, 'es grapes'); need(cs, ES_SECTION, 'es sections')
    hq = load_js_array(f'{RAW}/huequita-productos.js', 'window.HUEQUITA_PRODUCTS')
    hq = [p for p in hq if p['categoria'] in HQ_DRINK_CATS]
    ch = Counter(p['categoria'] for p in hq)
    need(ch, ES_HQ_CAT, 'huequita categories')
    chn = count_longest([p['nombre'] for p in hq], ES_HQ_NAME)
    need(chn, ES_HQ_NAME, 'huequita name words')
    bds = load_js_array(f'{RAW}/bodegasdelsur.js', '"bebidas"')
    cbc = Counter(p['category'] for p in bds)
    need(cbc, ES_BDS_CAT, 'bodegasdelsur categories')
    cbn = count_longest([p['name'] for p in bds], ES_BDS_NAME)
    need(cbn, ES_BDS_NAME, 'bodegasdelsur name words')
    lang_o = lambda n: 'es' if n not in ("D.O.C.G. Moscato D'Asti",) else 'it'
    qs = (queries(co, 'casadedosa-origin', lambda n: (lang_o(n), ES_ORIGIN[n][1], ES_ORIGIN[n][2], ES_ORIGIN[n][0]))
          + queries(cg, 'casadedosa-grape', lambda n: (ES_GRAPE_LANG.get(n, 'es'), ES_GRAPE[n], ES_GRAPE_NOTE.get(n), 'grape'))
          + queries(cs, 'casadedosa-section', lambda n: ('es', ES_SECTION[n], ES_SECTION_NOTE.get(n), 'wine_style'))
          + queries(ch, 'huequita-category', lambda n: ES_HQ_CAT[n])
          + queries(chn, 'huequita-name', lambda n: ES_HQ_NAME[n])
          + queries(cbc, 'bodegasdelsur-category', lambda n: ES_BDS_CAT[n])
          + queries(cbn, 'bodegasdelsur-name', lambda n: ES_BDS_NAME[n]))
    dosa = {'market': 'Spain', 'language': 'es', 'kind': 'restaurant wine list (Carta de Vinos)',
            'retailer': 'Casa de Dosa (restaurant, Castilla y León)', 'repository': 'Papparazzi76cm/casa-de-dosa-fusion',
            'path': 'src/pages/Menu.tsx ("Carta de Vinos" tab)', 'commit': '1a6513626011468a013ed10325b6ef87e39184ed',
            'rows_read': len(rows), 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    hqb = {'market': 'Ecuador', 'language': 'es', 'kind': 'liquor store catalogue', 'retailer': 'La Huequita (liquor stores, Quito)',
           'repository': 'Edupaul1524/La-Huequita-Quitenia', 'path': 'productos.js', 'commit': 'de790441d3edc7e472bed38d43a9ca1a257217ff',
           'rows_read': len(hq), 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    bdb = {'market': 'Argentina', 'language': 'es', 'kind': 'wine shop catalogue', 'retailer': 'Bodegones del Sur (wine shop site)',
           'repository': 'JohanaMM/BodegasDelSur', 'path': 'js/BODEGONESDELSUR.js (last version, before the file moved to public/)',
           'commit': '38092bda53e60a8ca6b21a6d74820a09178d9eda', 'rows_read': len(bds), 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    src = [dict(dosa, id='casadedosa-origin', columns=['origin line, split on " - "'], weight='wines carrying the name', queries=len(co)),
           dict(dosa, id='casadedosa-grape', columns=['grape line (after 🍇), split on "," and " y "'], weight='wines carrying the grape', queries=len(cg)),
           dict(dosa, id='casadedosa-section', columns=['section heading'], weight='wines in the section', queries=len(cs)),
           dict(hqb, id='huequita-category', columns=['categoria, drink rows only (confitería, cigarrillos, varios and soft drinks left out)'], weight='products in the category', queries=len(ch)),
           dict(hqb, id='huequita-name', columns=['nombre: drink words as printed (upper case), whole words, longest first; drink rows only'], weight='products whose name carries the word', queries=len(chn)),
           dict(bdb, id='bodegasdelsur-category', columns=['category'], weight='wines in the category', queries=len(cbc)),
           dict(bdb, id='bodegasdelsur-name', columns=['name: grape, place and style words as printed, whole words (case-insensitive), longest first'], weight='wines whose name carries the word', queries=len(cbn))]
    return {'description': 'Whole-source held-out set (issue 32 item 6): Spanish-language lists — a restaurant wine list in Spain (origin, grapes, sections), a liquor store in Ecuador and a wine shop in Argentina (categories and the drink words of product names) — labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

if __name__ == '__main__':
    write_sets(sys.argv[1] if len(sys.argv) > 1 else 'test/resolve', (('heldout-nl-beer.json', nl_set()), ('heldout-us-menus.json', us_set()), ('heldout-es.json', es_set())))
