#!/usr/bin/env python3
"""Builds the whole-source held-out sets heldout-ja.json and heldout-de.json (issue 32, item 6).

Raw files are read from /tmp/heldout-raw/ (outside the repo; see HELDOUT.md for where each came from):
  ofuro_wines.csv            yumaeda/sei-ya @4a0b4c9, latest_src/ofuro/admin/csv/ofuro_wines.csv
  casavazquez-{tintos,blancos,rosados}.ts   ibericoder/bar-casavazquez @14e31ad, data/*.ts
  beerbook-beers.md          beerbook/beerbook.github.io @e866a40, _pages/beers.md

Every name is counted by the product rows that carry it. LABELS below were written by hand from what
each name means (the entity a sommelier would name) BEFORE the resolver was run on any of them; keys
were spelled by looking up the English name of that meaning (never the Japanese or German name).
Nobody tunes on these sets: every query is split held_out, and each source is held out whole.
"""
import csv, json, re, sys
from collections import Counter

RAW = '/tmp/heldout-raw'
BUILT = '2026-12-07'

def E(*keys): return {'kind': 'entity', 'keys': list(keys)}
def A(*keys): return {'kind': 'ambiguous', 'keys': list(keys)}
NO = {'kind': 'no_entity'}

LOIRE = ('geo/vallee-de-la-loire', 'geo/loire-valley', 'geo/val-de-loire')
RHONE = ('geo/vallee-du-rhone', 'geo/rhone-valley')
BORDEAUX = ('geo/bordeaux',)
BURGUNDY = ('geo/bourgogne',)
CHAMPAGNE = ('geo/champagne',)

# --- Japanese: a Tokyo restaurant's wine list, column region_jpn split on "/" -------------------
# (family, expect, note)
JA = {
 'ブルゴーニュ地方': ('region', E(*BURGUNDY), 'Burgundy; 地方 = region'),
 'コート・ドゥ・ニュイ地区': ('region', E('geo/cote-de-nuits', *BURGUNDY), 'Côte de Nuits; 地区 = district'),
 'コート・ドゥ・ボーヌ地区': ('region', E('geo/cote-de-beaune', *BURGUNDY), 'Côte de Beaune'),
 'ローヌ河流域': ('region', E(*RHONE), 'Rhône Valley; 河流域 = river basin'),
 'ロワール河流域': ('region', E(*LOIRE), 'Loire Valley (IGP Val de Loire names the same valley)'),
 'ボルドー地方': ('region', E(*BORDEAUX), 'Bordeaux'),
 'ローヌ地方南部の栽培地域': ('region', E('geo/southern-rhone', *RHONE), '"growing areas of the southern Rhône": Southern Rhône (parent listed)'),
 'シャンパーニュ地方': ('region', E(*CHAMPAGNE), 'the Champagne region (地方 rules out the other readings)'),
 'ローヌ地方北部の栽培地域': ('region', E('geo/northern-rhone', *RHONE), 'Northern Rhône (parent listed)'),
 'メドック地区': ('region', E('geo/medoc', *BORDEAUX), 'Médoc'),
 'ラングドック地方': ('region', E('geo/languedoc'), 'Languedoc'),
 'アルザス地方': ('region', E('geo/alsace'), 'Alsace'),
 'プロヴァンス地方': ('region', E('geo/provence'), 'Provence'),
 'トゥーレーヌ地区': ('region', E('geo/touraine', *LOIRE), 'Touraine'),
 '中央フランス地区': ('region', E('geo/centre-loire', *LOIRE), '"central France district" of the Loire list (Sancerre, Pouilly, Menetou-Salon): Centre-Loire (judged)'),
 'アンジュー＆ソミュール地区': ('region', E('geo/anjou-saumur', 'geo/anjou', 'geo/saumur', *LOIRE), 'Anjou-Saumur, the Loire sub-region (judged: one region, not two places)'),
 '南西地方': ('region', NO, 'South-West France: a grouping, no_entity as in DEMAND.md/MARKET.md'),
 'シャブリ地区': ('region', E('geo/chablis', *BURGUNDY), 'Chablis'),
 'ジュラ地方': ('region', E('geo/jura'), 'Jura'),
 'モンターニュ・ド・ランス地区': ('region', E('geo/montagne-de-reims', *CHAMPAGNE), 'Montagne de Reims (area of Champagne; parent listed)'),
 'コート・デ・ブラン地区': ('region', E('geo/cote-des-blancs', *CHAMPAGNE), 'Côte des Blancs'),
 'オー・メドック': ('region', E('geo/haut-medoc', 'geo/medoc', *BORDEAUX), 'Haut-Médoc'),
 'ペイ・ナント地区': ('region', E('geo/pays-nantais', *LOIRE), 'Pays Nantais'),
 'ボジョレー地区': ('region', E('geo/beaujolais'), 'Beaujolais'),
 'ポムロル地区': ('region', E('geo/pomerol', *BORDEAUX), 'Pomerol'),
 'ゲヴェルツトラミネール': ('grape', E('grape/gewurztraminer'), 'Gewürztraminer (Alsace list by grape)'),
 'ヴァレ・ド・ラ・マルヌ地区': ('region', E('geo/vallee-de-la-marne', *CHAMPAGNE), 'Vallée de la Marne'),
 'ラングドック地方とルーション地方のその他の栽培地域': ('region', NO, '"other growing areas of Languedoc and Roussillon"'),
 'オレゴン州': ('region', E('geo/oregon'), 'Oregon; 州 = state'),
 'コート・シャロネーズ地区': ('region', E('geo/cote-chalonnaise', 'geo/bourgogne-cote-chalonnaise', *BURGUNDY), 'Côte Chalonnaise'),
 'コート・デュ・ローヌ': ('region', E('geo/cotes-du-rhone'), 'Côtes du Rhône AOC'),
 'ルーション地方': ('region', E('geo/roussillon'), 'Roussillon'),
 'ウィラメット・ヴァレー': ('region', E('geo/willamette-valley'), 'Willamette Valley'),
 'カルフォルニア州': ('region', E('geo/california'), 'California (common misspelling of カリフォルニア)'),
 'サヴォワ地方': ('region', E('geo/savoie', 'geo/vin-de-savoie'), 'Savoie'),
 'サン・テミリオン地区': ('region', E('geo/saint-emilion', *BORDEAUX), 'Saint-Émilion'),
 'ピノ・グリ': ('grape', E('grape/pinot-gris'), 'Pinot Gris'),
 'サンタ・バーバラ': ('region', E('geo/santa-barbara-county'), 'Santa Barbara (County AVA)'),
 'ニーダーエスタライヒ州': ('region', E('geo/niederosterreich'), 'Niederösterreich'),
 'フランシュ・コンテ地方': ('region', E('geo/franche-comte'), 'Franche-Comté (IGP; the row is a Vin de Pays de Franche-Comté)'),
 'マコネー地区': ('region', E('geo/maconnais', 'geo/macon', *BURGUNDY), 'Mâconnais'),
 'ピエモンテ州': ('region', E('geo/piemonte'), 'Piemonte'),
 'トレンティーノ・アルト・アディジェ州': ('region', E('geo/trentino-alto-adige'), 'Trentino-Alto Adige'),
 'サン・テミリオン地区\u3000(サンテミリオン特級）': ('region', E('geo/saint-emilion-grand-cru', 'geo/saint-emilion'), 'Saint-Émilion, "(Saint-Émilion grand cru)"'),
 'リースリング': ('grape', E('grape/riesling'), 'Riesling'),
 'コート・デ・バール地区': ('region', E('geo/cote-des-bar', *CHAMPAGNE), 'Côte des Bar'),
 'サン・ジュリアン（第４級）': ('region', E('geo/saint-julien'), 'Saint-Julien "(4th growth)"'),
 'サン・ジュリアン（第２級）': ('region', E('geo/saint-julien'), 'Saint-Julien "(2nd growth)"'),
 'ミュスカ': ('grape', A('grape/muscat', 'grape/muscat-a-petits-grains-blancs', 'grape/muscat-ottonel', 'grape/muscat-a-petits-grains-roses'), 'Muscat (Alsace allows several Muscat varieties)'),
 'その他の栽培地域': ('region', NO, '"other growing areas"'),
 '西ケープ州': ('region', E('geo/western-cape'), 'Western Cape'),
 '南島': ('region', E('geo/south-island'), 'South Island (NZ GI)'),
 'イースト･サセックス州': ('region', NO, 'East Sussex (county; no wine GI of that name, PDO Sussex covers it; judged)'),
 'サン・テステフ（第２級）': ('region', E('geo/saint-estephe'), 'Saint-Estèphe "(2nd growth)"'),
 'サン・テミリオン地区\u3000(サンテミリオン特別級）': ('region', E('geo/saint-emilion-grand-cru', 'geo/saint-emilion'), 'Saint-Émilion "(grand cru classé)"'),
 'サウス・オーストラリア州': ('region', E('geo/south-australia'), 'South Australia'),
 '北島': ('region', E('geo/north-island'), 'North Island (NZ GI)'),
 'セントラル・オタゴ地区': ('region', E('geo/central-otago'), 'Central Otago'),
 'ピノ・ノワール': ('grape', E('grape/pinot-noir'), 'Pinot Noir'),
 'プティ・エ・グラン・モン地区': ('region', NO, '"Petit et Grand-Mont" (Champagne list, Ulysse Collin): no recognised area of that name (judged)'),
 'ラインガウ地区': ('region', E('geo/rheingau'), 'Rheingau'),
 'ポイヤック（第１級）': ('region', E('geo/pauillac'), 'Pauillac "(1st growth)"'),
 'ポイヤック（第５級）': ('region', E('geo/pauillac'), 'Pauillac "(5th growth)"'),
 'ポイヤック（第１級・セカンド）': ('region', E('geo/pauillac'), 'Pauillac "(1st growth, second wine)"'),
 'ドルドーニュ右岸地区': ('region', NO, '"right bank of the Dordogne": a grouping'),
 'コート・ド・カスティヨン': ('region', E('geo/castillon-cotes-de-bordeaux', 'geo/cotes-de-castillon'), 'Côtes de Castillon, now Castillon Côtes de Bordeaux'),
 'コート・デュ・ローヌ・ヴィラージュ': ('region', E('geo/cotes-du-rhone-villages'), 'Côtes du Rhône Villages'),
 'フリウリ・ヴェネツァ・ジューリア州': ('region', E('geo/friuli-venezia-giulia', 'geo/friuli'), 'Friuli-Venezia Giulia (as printed, ヴェネツァ for ヴェネツィア); DOC Friuli was DOC Friuli Venezia Giulia'),
 'マクラーレン・ヴェール地区': ('region', E('geo/mclaren-vale'), 'McLaren Vale'),
 'シルヴァネール': ('grape', E('grape/silvaner'), 'Sylvaner'),
 'グラーヴ地区': ('region', E('geo/graves', *BORDEAUX), 'Graves'),
 'クレムスタール地区': ('region', E('geo/kremstal'), 'Kremstal'),
 'カンプタール地区': ('region', E('geo/kamptal'), 'Kamptal'),
 'ACボルドー': ('region', E(*BORDEAUX), 'AC Bordeaux'),
 'マーティンボロ地区': ('region', E('geo/martinborough'), 'Martinborough'),
 'ピノ・ブラン': ('grape', E('grape/pinot-blanc'), 'Pinot Blanc'),
 'トスカーナ州': ('region', E('geo/toscana', 'geo/toscano'), 'Tuscany (IGT Toscano/Toscana names the region)'),
 'ヴァーグラム地区': ('region', E('geo/wagram'), 'Wagram'),
 'モーゼル・ザール・ルーヴァー': ('region', E('geo/mosel'), 'Mosel-Saar-Ruwer, the former name of Mosel'),
 'ポイヤック（第２級）': ('region', E('geo/pauillac'), 'Pauillac'),
 'ポイヤック（第４級）': ('region', E('geo/pauillac'), 'Pauillac'),
 'メドック地区マルゴー': ('region', E('geo/margaux', 'geo/medoc'), 'Médoc: Margaux'),
 'ムーリ（グラン・ブルジョア・エクセプショネル級）': ('region', E('geo/moulis'), 'Moulis "(cru bourgeois exceptionnel)"'),
 'アブルッツォ州': ('region', E('geo/abruzzo'), 'Abruzzo'),
 'バロッサ・ヴァレー': ('region', E('geo/barossa-valley', 'geo/barossa'), 'Barossa Valley'),
 '山梨県': ('region', E('geo/yamanashi'), 'Yamanashi (GI Yamanashi)'),
 'ブルゲンラント州': ('region', E('geo/burgenland'), 'Burgenland'),
 'ノイジードラーゼー地区': ('region', E('geo/neusiedlersee'), 'Neusiedlersee'),
 'ガリシア州': ('region', E('geo/galicia'), 'Galicia'),
 'サン・テミリオン地区\u3000(サンテミリオン第１特別A級・セカンド）': ('region', E('geo/saint-emilion-grand-cru', 'geo/saint-emilion'), 'Saint-Émilion "(premier grand cru classé A, second wine)"'),
 'ペサック・レオニャン': ('region', E('geo/pessac-leognan'), 'Pessac-Léognan'),
 'ナパ・ヴァレー': ('region', E('geo/napa-valley'), 'Napa Valley'),
 'ヴィクトリア州': ('region', E('geo/victoria'), 'Victoria (Australia)'),
 'ギップスランド': ('region', E('geo/gippsland'), 'Gippsland'),
 'オーセロワ地区': ('region', E('geo/grand-auxerrois', *BURGUNDY), 'the Auxerrois of Burgundy (Irancy row), not the grape (judged)'),
 'サン・ジュリアン（第４級・セカンド）': ('region', E('geo/saint-julien'), 'Saint-Julien'),
 'ワイヘキ地区': ('region', E('geo/waiheke-island'), 'Waiheke Island'),
 'サン・ジュリアン（第２級・セカンド）': ('region', E('geo/saint-julien'), 'Saint-Julien'),
 'メンドーサ州': ('region', E('geo/mendoza'), 'Mendoza'),
 '新潟県': ('region', NO, 'Niigata prefecture: a place, no wine GI'),
 'カンパーニャ州': ('region', E('geo/campania'), 'Campania'),
 'シチリア島': ('region', E('geo/sicilia'), 'Sicily; 島 = island'),
 'マルゴー\u3000(ブルジョワ級）': ('region', E('geo/margaux'), 'Margaux "(cru bourgeois)"'),
 'オー・メドック（ブルジョワ級）': ('region', E('geo/haut-medoc', 'geo/medoc'), 'Haut-Médoc "(cru bourgeois)"'),
 'サン・テミリオン地区\u3000(サンテミリオン第１特別A級）': ('region', E('geo/saint-emilion-grand-cru', 'geo/saint-emilion'), 'Saint-Émilion "(premier grand cru classé A)"'),
 'バジリカータ州': ('region', E('geo/basilicata'), 'Basilicata'),
 'ウンブリア州': ('region', E('geo/umbria'), 'Umbria'),
 'マルゴー': ('region', E('geo/margaux'), 'Margaux'),
 'ACボルドー・クラレット': ('region', E('geo/bordeaux-clairet', *BORDEAUX), 'AC Bordeaux Clairet'),
 'クレマン': ('wine_style', E('style/cremant', 'geo/cremant-d-alsace'), 'Crémant (Alsace section: Crémant d\'Alsace)'),
 'アントル・ドゥー・メール': ('region', E('geo/entre-deux-mers'), 'Entre-Deux-Mers'),
 'マールボロ地区': ('region', E('geo/marlborough'), 'Marlborough'),
 'カーネロス': ('region', E('geo/los-carneros'), 'Carneros (Los Carneros AVA)'),
}

# --- Japanese: the same list's wine names (name_jpn): the appellation, grape or category word that
# heads the name. Heads chosen by reading the names (3+ rows); a row counts for the longest head it
# starts with (the half-width middle dot and spaces read as ・ for matching; queries keep ・).
def G(k): return E(f'geo/{k}')
JA_HEAD = {
 'シャトーヌッフ・デュ・パプ': ('region', G('chateauneuf-du-pape'), 'Châteauneuf-du-Pape'),
 'ジュヴレ・シャンベルタン': ('region', G('gevrey-chambertin'), None),
 'ニュイ・サン・ジョルジュ': ('region', G('nuits-saint-georges'), None),
 'ヴァン・ド・ペイ': ('wine_style', NO, 'Vin de Pays: a category word (designation), no_entity as in MARKET.md'),
 'ヴァン・ドゥ・ペイ': ('wine_style', NO, 'Vin de Pays, other spelling'),
 'モレ・サン・ドニ': ('region', G('morey-saint-denis'), None),
 'バンドール': ('region', G('bandol'), None),
 'ピュリニー・モンラッシェ': ('region', G('puligny-montrachet'), None),
 'シャンボール・ミュジニー': ('region', G('chambolle-musigny'), None),
 'コトー・デュ・ラングドック': ('region', G('languedoc'), 'Coteaux du Languedoc, former name of AOC Languedoc'),
 'ヴォーヌ・ロマネ': ('region', G('vosne-romanee'), None),
 'コート・デュ・ジュラ': ('region', G('cotes-du-jura'), None),
 'シノン': ('region', G('chinon'), None),
 'ソミュール・シャンピニィ': ('region', E('geo/saumur-champigny', 'geo/saumur'), 'Saumur-Champigny'),
 'サンセール': ('region', G('sancerre'), None),
 'シャブリ・グラン・クリュ': ('region', E('geo/chablis-grand-cru', 'geo/chablis'), None),
 'ポマール': ('region', G('pommard'), None),
 'ジゴンダス': ('region', G('gigondas'), None),
 'シャルム・シャンベルタン': ('region', G('charmes-chambertin'), None),
 'コルトン': ('region', G('corton'), None),
 'エルミタージュ': ('region', G('hermitage'), None),
 'ブラン・フュメ・ドゥ・プイィ': ('region', G('pouilly-fume'), 'Blanc Fumé de Pouilly = Pouilly-Fumé'),
 'シャサーニュ・モンラッシェ': ('region', G('chassagne-montrachet'), None),
 'カオール': ('region', G('cahors'), None),
 'コルナス': ('region', G('cornas'), None),
 'リースリング': ('grape', E('grape/riesling'), None),
 'サン・ジョセフ': ('region', G('saint-joseph'), None),
 'コート・デュ・ローヌ': ('region', G('cotes-du-rhone'), None),
 'ゲヴェルツトラミネール': ('grape', E('grape/gewurztraminer'), None),
 'シャブリ・プルミエ・クリュ': ('region', E('geo/chablis-premier-cru', 'geo/chablis'), 'Chablis Premier Cru'),
 'ミュスカデ・セーヴル・エ・メーヌ': ('region', E('geo/muscadet-sevre-et-maine', 'geo/muscadet'), None),
 'マディラン': ('region', G('madiran'), None),
 'ムルソー': ('region', G('meursault'), None),
 'コンドリュー': ('region', G('condrieu'), None),
 'ボンヌ・マール': ('region', G('bonnes-mares'), None),
 'コート・ロティ': ('region', G('cote-rotie'), None),
 'ブルゴーニュ・シャルドネ': ('region', E('geo/bourgogne'), 'Bourgogne (Chardonnay): the appellation, with its grape'),
 'ブルゴーニュ': ('region', G('bourgogne'), None),
 'ヴァケラス': ('region', G('vacqueyras'), None),
 'コート・デュ・ルーシヨン': ('region', G('cotes-du-roussillon'), None),
 'ピノ・グリ': ('grape', E('grape/pinot-gris'), None),
 'ピノ・ノワール': ('grape', E('grape/pinot-noir'), None),
 'ブルグイユ': ('region', G('bourgueil'), None),
 'シャンベルタン・クロ・ド・ベズ': ('region', G('chambertin-clos-de-beze'), None),
 'クロ・ド・ヴージョ': ('region', G('clos-de-vougeot'), None),
 'シュヴァリエ・モンラッシェ': ('region', G('chevalier-montrachet'), None),
 'ペルナン・ヴェルジュレス': ('region', G('pernand-vergelesses'), None),
 'エシェゾー': ('region', G('echezeaux'), None),
 'コルトン・シャルルマーニュ': ('region', G('corton-charlemagne'), None),
 'ボーヌ': ('region', G('beaune'), None),
 'ヴーヴレ': ('region', G('vouvray'), None),
 'シャブリ': ('region', G('chablis'), None),
 'クロ・ヴージョ': ('region', G('clos-de-vougeot'), 'Clos Vougeot = Clos de Vougeot'),
 'クローズ・エルミタージュ': ('region', G('crozes-hermitage'), None),
 'ボジョレー': ('region', G('beaujolais'), None),
 'フォージェール': ('region', G('faugeres'), None),
 'レ・ボー・ドゥ・プロヴァンス': ('region', G('les-baux-de-provence'), None),
 'ソミュール': ('region', G('saumur'), None),
 'サン・トーバン': ('region', G('saint-aubin'), None),
 'サヴィニィ・レ・ボーヌ': ('region', G('savigny-les-beaune'), None),
 'ジヴリィ': ('region', G('givry'), None),
 'プイィ・フュメ': ('region', G('pouilly-fume'), None),
 'バタール・モンラッシェ': ('region', G('batard-montrachet'), None),
 'アロース・コルトン': ('region', G('aloxe-corton'), None),
 'ラトリシエール・シャンベルタン': ('region', G('latricieres-chambertin'), None),
}

# --- German: a Spanish bar's German-language wine menu, fields origin and grape ---------------------
# (family, lang, expect, note)
DE_ORIGIN = {
 'Spanien': ('country', 'de', E('geo/spain'), None),
 'Rioja DOCa': ('region', 'es', E('geo/rioja'), None),
 'Pfalz': ('region', 'de', E('geo/pfalz'), None),
 'Deutschland': ('country', 'de', E('geo/germany'), None),
 'Italien': ('country', 'de', E('geo/italy'), None),
 'Toskana': ('region', 'de', E('geo/toscana', 'geo/toscano'), 'German exonym of Toscana'),
 'Piemont': ('region', 'de', E('geo/piemonte'), 'German exonym of Piemonte'),
 'Veneto': ('region', 'it', E('geo/veneto'), None),
 'Valdepenas': ('region', 'es', E('geo/valdepenas'), 'Valdepeñas without the tilde'),
 'Valencia': ('region', 'es', E('geo/valencia'), 'DO Valencia'),
 'Navarra': ('region', 'es', E('geo/navarra'), None),
 'Rueda': ('region', 'es', E('geo/rueda'), None),
 'Ribera del Duero': ('region', 'es', E('geo/ribera-del-duero'), None),
 'Pays d’Oc': ('region', 'fr', E('geo/pays-d-oc'), 'typographic apostrophe as printed'),
 'Frankreich': ('country', 'de', E('geo/france'), None),
 'Lombardia': ('region', 'it', E('geo/lombardia'), None),
 'Lombardei': ('region', 'de', E('geo/lombardia'), 'German exonym'),
 'Laumersheim': ('region', 'de', NO, 'a wine village of the Pfalz; no record of its own (judged)'),
 'Kastilien': ('region', 'de', E('geo/castilla'), 'German exonym of Castilla (the row is a Vino de la Tierra de Castilla; judged)'),
 'Kampanien': ('region', 'de', E('geo/campania'), 'German exonym'),
 'Südtirol': ('region', 'de', E('geo/alto-adige'), 'German name of the DOC Alto Adige / Südtirol'),
 'Sizilien (Canicatti)': ('region', 'de', E('geo/sicilia'), 'Sicily (town in brackets)'),
 'Apulien (Puglia IGT)': ('region', 'de', E('geo/puglia'), 'Puglia'),
 'Apulien': ('region', 'de', E('geo/puglia'), 'German exonym'),
 'Provence': ('region', 'fr', E('geo/provence'), None),
 'Côtes de Provence': ('region', 'fr', E('geo/cotes-de-provence'), None),
 'Coteaux du Languedoc': ('region', 'fr', E('geo/languedoc'), 'former name of AOC Languedoc'),
 'Campo de Borja': ('region', 'es', E('geo/campo-de-borja'), None),
 'Bulgarien': ('country', 'de', E('geo/bulgaria'), None),
 'Oberthrakische Tiefebene (Ausbau Flörsheim-Dalsheim)': ('region', 'de', E('geo/trakiiska-nizina'), 'Thracian Lowlands PGI, "(matured in Flörsheim-Dalsheim)"'),
 'Abruzzen': ('region', 'de', E('geo/abruzzo'), 'German exonym'),
}
DE_GRAPE = {
 'Tempranillo': ('es', E('grape/tempranillo'), None),
 'Sangiovese': ('it', E('grape/sangiovese'), None),
 'Saint Laurent': ('fr', E('grape/st-laurent'), None),
 'Viura': ('es', E('grape/macabeo'), 'Viura = Macabeo'),
 'Sauvignon Blanc': ('fr', E('grape/sauvignon-blanc'), None),
 'Verdejo': ('es', E('grape/verdejo'), None),
 'Chardonnay': ('fr', E('grape/chardonnay'), None),
 'Viura (Macabeo)': ('es', E('grape/macabeo'), None),
 'Muscadelle': ('fr', E('grape/muscadelle'), None),
 'Tempranillo Blanco': ('es', E('grape/tempranillo-blanco'), None),
 'Garnacha Blanca': ('es', E('grape/grenache-blanc'), 'Garnacha Blanca = Grenache Blanc'),
 'Merlot': ('fr', E('grape/merlot'), None),
 'Syrah': ('fr', E('grape/syrah'), None),
 'Graciano': ('es', E('grape/graciano'), None),
 'Maturana': ('es', A('grape/maturana-tinta', 'grape/maturana-blanca'), 'Maturana Tinta or Blanca (the row is a red Rioja: Tinta meant)'),
 'Garnacha': ('es', E('grape/grenache'), 'Garnacha = Grenache'),
 'Spätburgunder': ('de', E('grape/pinot-noir'), 'Spätburgunder = Pinot Noir'),
 'Nebbiolo': ('it', E('grape/nebbiolo'), None),
 'Gropello': ('it', E('grape/groppello', 'grape/groppello-gentile'), 'Groppello as printed with one p'),
 'Marzemino': ('it', E('grape/marzemino'), None),
 'Barbera': ('it', E('grape/barbera'), None),
 'Grenache': ('fr', E('grape/grenache'), None),
 'Cinsault': ('fr', E('grape/cinsault'), None),
 'Rolle': ('fr', E('grape/vermentino'), 'Rolle = Vermentino'),
 'Cabernet Sauvignon': ('fr', E('grape/cabernet-sauvignon'), None),
 'Portugieser': ('de', E('grape/blauer-portugieser'), 'Blauer Portugieser'),
 'Corvina': ('it', E('grape/corvina'), None),
 'Rondinella': ('it', E('grape/rondinella'), None),
 'Molinara': ('it', E('grape/molinara'), None),
 'Bronner': ('de', E('grape/bronner'), 'fungus-resistant white variety (Freiburg 1975)'),
 'Dolcetto': ('it', E('grape/dolcetto'), None),
 'Cabernet Franc': ('fr', E('grape/cabernet-franc'), None),
 'Petit Verdot': ('fr', E('grape/petit-verdot'), None),
 'Fiano': ('it', E('grape/fiano'), None),
 'Trebbiano di Lugana (Turbiana)': ('it', E('grape/turbiana', 'grape/verdicchio'), 'Turbiana (Trebbiano di Lugana), a Verdicchio biotype'),
 'Tinto Fino': ('es', E('grape/tempranillo'), 'Tinto Fino = Tempranillo'),
 'Sirica': ('it', E('grape/sirica'), 'rare Campanian red variety (row: 100% Sirica, Kampanien; judged)'),
 'Primitivo': ('it', E('grape/primitivo'), None),
 'Grauburgunder (Pinot Gris)': ('de', E('grape/pinot-gris'), None),
 "Nero d'Avola": ('it', E('grape/nero-d-avola'), None),
 'Dornfelder': ('de', E('grape/dornfelder'), None),
 'Cabernet‑Sorten': ('de', NO, '"Cabernet varieties": a group of the German Cabernet crossings'),
}

# --- German (Austria): beer names of an Austrian beer guide's index, style words as printed ----------
# Every listed word is a style name or a style-family word found in the names (chosen by reading, not by
# the resolver); its weight is the number of Austrian beers whose name carries it as a whole word.
BOCK = ('beer/4c-helles-bock', 'beer/6c-dunkles-bock', 'beer/9a-doppelbock', 'beer/9b-eisbock')
KELLER = ('beer/27-kellerbier', 'beer/27-historical-beer')
DE_BEER = {
 'Märzen': ('de', E('beer/6a-marzen'), 'Austrian Märzen is paler than the BJCP one; the name names the style'),
 'Pils': ('de', E('beer/5d-german-pils'), 'Pils in an Austrian/German name: German Pils (judged)'),
 'Zwickl': ('de', E(*KELLER), 'Zwickel(bier), unfiltered lager: the Kellerbier style'),
 'Bock': ('de', A(*BOCK), 'Bock: the family (4C, 6C, 9A, 9B), as DEMAND.md labels it'),
 'Hell': ('de', E('beer/4a-munich-helles'), 'Hell(es): pale lager'),
 'Dunkel': ('de', E('beer/8a-munich-dunkel'), 'Dunkel: dark lager (judged; not Dunkles Bock)'),
 'Helles': ('de', E('beer/4a-munich-helles'), None),
 'Weisse': ('de', E('beer/10a-weissbier'), None),
 'Export': ('de', E('beer/5c-german-helles-exportbier'), 'Austrian/German Export: pale lager, not Scottish Export (judged)'),
 'Dunkles': ('de', E('beer/8a-munich-dunkel'), None),
 'Naturtrüb': ('de', NO, '"naturally cloudy"'),
 'Ale': ('en', NO, 'a family, no single style'),
 'Weizen': ('de', E('beer/10a-weissbier'), None),
 'Lager': ('en', NO, 'a family, no single style'),
 'Kellerbier': ('de', E(*KELLER), None),
 'Leicht': ('de', NO, '"light" (lower-alcohol beer)'),
 'Doppelmalz': ('de', NO, '"double malt": Austrian dark lager name, no style record (judged)'),
 'Dunkle': ('de', E('beer/8a-munich-dunkel'), None),
 'Helle': ('de', E('beer/4a-munich-helles'), None),
 'Roggen': ('de', E('beer/27-roggenbier', 'beer/27-historical-beer'), 'rye: Roggenbier'),
 'Festbock': ('de', E('beer/4c-helles-bock', 'beer/6c-dunkles-bock'), 'a festive bock (judged)'),
 'Weissbier': ('de', E('beer/10a-weissbier'), None),
 'Pale Ale': ('en', A('beer/18b-american-pale-ale', 'beer/24b-belgian-pale-ale'), 'a family across several styles'),
 'Amber': ('en', NO, 'a colour word'),
 'Doppelbock': ('de', E('beer/9a-doppelbock'), None),
 'Honigbier': ('de', E('beer/31b-alternative-sugar-beer'), 'honey beer: BJCP 31B (judged)'),
 'Hefeweizen': ('de', E('beer/10a-weissbier'), None),
 'Bockbier': ('de', A(*BOCK), 'as Bock'),
 'Weiße': ('de', E('beer/10a-weissbier'), None),
 'Bayernweiße': ('de', E('beer/10a-weissbier'), '"Bavarian Weisse" (judged)'),
 'Weißbier': ('de', E('beer/10a-weissbier'), None),
 'Hausbier': ('de', NO, '"house beer"'),
 'Leichte': ('de', NO, '"light"'),
 'Festbier': ('de', E('beer/4b-festbier'), None),
 'Maibock': ('de', E('beer/4c-helles-bock'), 'Maibock = Helles Bock'),
 'Weihnachtsbock': ('de', E('beer/4c-helles-bock', 'beer/6c-dunkles-bock'), 'a Christmas bock (judged)'),
 'Rauchbier': ('de', E('beer/6b-rauchbier'), None),
 'Weizenbier': ('de', E('beer/10a-weissbier'), None),
 'Weißbierbock': ('de', E('beer/10c-weizenbock'), None),
 'Kürbisbier': ('de', E('beer/30b-autumn-seasonal-beer'), 'pumpkin beer: 30B, as DEMAND.md labels Pumpkin Ale'),
 'Hanfbier': ('de', E('beer/30a-spice-herb-or-vegetable-beer'), 'hemp beer (judged)'),
 'Steinbier': ('de', NO, 'stone beer: no BJCP style (judged)'),
 'Winterbier': ('de', E('beer/30c-winter-seasonal-beer'), 'winter seasonal (judged)'),
 'Herbstbier': ('de', E('beer/30b-autumn-seasonal-beer'), 'autumn seasonal (judged)'),
 'Landbier': ('de', NO, '"country beer": no style'),
 'Pilsner': ('de', E('beer/5d-german-pils'), None),
 'IPA': ('en', A('beer/21a-american-ipa', 'beer/12c-english-ipa'), 'bare IPA: ambiguous, as MARKET.md labels it'),
 'Triple': ('en', E('beer/26c-belgian-tripel'), 'Tripel as printed "Triple"'),
 "Dunk'l": ('de', E('beer/8a-munich-dunkel'), 'dialect spelling'),
 "Böck'l": ('de', A(*BOCK), 'dialect diminutive of Bock'),
 "März'n": ('de', E('beer/6a-marzen'), 'dialect spelling'),
 'Hefetrüb': ('de', NO, '"yeast-cloudy"'),
 'Keller': ('de', E(*KELLER), 'Keller(bier)'),
 'Edelmärzen': ('de', E('beer/6a-marzen'), None),
 'Edel-Pils': ('de', E('beer/5d-german-pils'), None),
 'Schwarzes': ('de', E('beer/8b-schwarzbier'), '"the black one": Schwarzbier (judged)'),
}

def beer_rows():
    t = open(f'{RAW}/beerbook-beers.md', encoding='utf-8').read()
    rows = re.findall(r'^\*\*(.+?)\*\*\s+--\s+(.+?)\s+\(\s*(.+?)\s*\)\s+_#', t, re.M)
    return rows, [n for n, b, p in rows if 'Austria' in p.split('›')[0]]

def queries(counts, source, label):
    """One held-out query per counted name, heaviest first; label(name) -> (family, lang, expect, note)."""
    out = []
    for name, w in counts.most_common():
        fam, lang, exp, note = label(name)
        q = {'q': name, 'family': fam, 'source': source, 'lang': lang, 'weight': w, 'expect': exp, 'split': 'held_out'}
        if note: q['note'] = note
        out.append(q)
    return out

def ja_set():
    rows = list(csv.DictReader(open(f'{RAW}/ofuro_wines.csv', encoding='utf-8')))
    c = Counter()
    for r in rows:
        for p in r['region_jpn'].split('/'):
            p = p.strip()
            if p: c[p] += 1
    missing = [n for n in c if n not in JA]
    if missing: sys.exit(f'unlabelled ja names: {missing}')
    heads = sorted(JA_HEAD, key=len, reverse=True)
    ch = Counter()
    for r in rows:
        n = re.sub(r'[\s\u3000]+', '・', r['name_jpn'].strip()).replace('･', '・')
        h = next((h for h in heads if n.startswith(h) and (len(n) == len(h) or n[len(h)] in '・（(')), None)
        if h: ch[h] += 1
    zero = [h for h in JA_HEAD if ch[h] < 3]
    if zero: sys.exit(f'heads under 3 rows: {zero}')
    qs = (queries(c, 'ofuro-region', lambda n: (JA[n][0], 'ja', *JA[n][1:]))
          + queries(ch, 'ofuro-name-head', lambda n: (JA_HEAD[n][0], 'ja', *JA_HEAD[n][1:])))
    src = [{
        'id': 'ofuro-region', 'market': 'Japan', 'language': 'ja', 'kind': 'restaurant wine list',
        'retailer': 'Ofuro (Tokyo restaurant; list kept by the same team as the Mitsu-getsu list)',
        'repository': 'yumaeda/sei-ya', 'path': 'latest_src/ofuro/admin/csv/ofuro_wines.csv',
        'commit': '4a0b4c97a42101eac59b9bedc9ab0e39d2346cdf', 'columns': ['region_jpn (split on "/")'],
        'rows_read': len(rows), 'weight': 'wine rows carrying the name', 'queries': len(qs), 'read': BUILT,
        'split': 'held_out', 'holdout': 'whole_source'}]
    src.append(dict(src[0], id='ofuro-name-head', columns=['name_jpn (wine name): the appellation, grape or category word heading it (longest listed head, 3+ rows)'],
                    weight='wine rows whose name starts with the head', queries=len(ch)))
    return {'description': 'Whole-source held-out set (issue 32 item 6): Japanese wine-list region column and the heads of its wine names, labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

def de_set():
    rows = []
    for f in ('tintos', 'blancos', 'rosados'):
        t = open(f'{RAW}/casavazquez-{f}.ts', encoding='utf-8').read()
        origins = re.findall(r"^\s*origin:\s*['\"](.*?)['\"],", t, re.M)
        grapes = re.findall(r"^\s*grape:\s*['\"](.*?)['\"],", t, re.M)
        assert len(origins) == len(grapes), f
        rows += list(zip(origins, grapes))
    co, cg = Counter(), Counter()
    for o, g in rows:
        for p in dict.fromkeys(x.strip() for x in o.split(',') if x.strip()): co[p] += 1
        parts = {}
        for x in re.split(r'[,|]', g):
            x = re.sub(r'^\s*(ca\.\s*)?\d+\s*%\s*', '', x.strip())
            x = re.sub(r'^Cuvée\s*-\s*', '', x).strip()
            if x: parts[x] = True
        for p in parts: cg[p] += 1
    all_beer, beers = beer_rows()
    cb = Counter()
    for name in DE_BEER:
        pat = re.compile(r'(?<![\wÄÖÜäöüß\'-])' + re.escape(name) + r'(?![\wÄÖÜäöüß\'-])')
        cb[name] = sum(1 for n in beers if pat.search(n))
    zero = [n for n, w in cb.items() if w == 0]
    if zero: sys.exit(f'beer words not found: {zero}')
    missing = [n for n in co if n not in DE_ORIGIN] + [n for n in cg if n not in DE_GRAPE]
    if missing: sys.exit(f'unlabelled de names: {missing}')
    qs = (queries(co, 'casavazquez-origin', lambda n: DE_ORIGIN[n])
          + queries(cg, 'casavazquez-grape', lambda n: ('grape', *DE_GRAPE[n]))
          + queries(cb, 'beerbook-austria-names', lambda n: ('beer_style', *DE_BEER[n])))
    base = {'market': 'Germany', 'language': 'de', 'kind': 'bar wine menu (German-language)',
            'retailer': 'Casa Vázquez (Spanish wine bar in Germany)', 'repository': 'ibericoder/bar-casavazquez',
            'path': 'data/tintos.ts, data/blancos.ts, data/rosados.ts', 'commit': '14e31ad2aa899deb522499bbdcfaa25f2db3ad46',
            'rows_read': len(rows), 'weight': 'menu wines carrying the name', 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    src = [dict(base, id='casavazquez-origin', columns=['origin (split on ",")'], queries=len(co)),
           dict(base, id='casavazquez-grape', columns=['grape (split on "," and "|"; percentages, "ca." and a leading "Cuvée -" removed)'], queries=len(cg)),
           {'id': 'beerbook-austria-names', 'market': 'Austria', 'language': 'de', 'kind': 'beer guide index (Austrian beers)',
            'retailer': 'beerbook.github.io "Beers A-Z Index" (405 beers of Austria and Czechia)', 'repository': 'beerbook/beerbook.github.io',
            'path': '_pages/beers.md', 'commit': 'e866a405cbf674da4619a73e7005f1805118272f',
            'columns': ['beer name (bold), Austrian rows only: style words as printed, matched as whole words'],
            'rows_read': len(beers), 'weight': 'Austrian beers whose name carries the word', 'queries': len(cb), 'read': BUILT,
            'split': 'held_out', 'holdout': 'whole_source'}]
    return {'description': 'Whole-source held-out set (issue 32 item 6): a German-language wine menu (origin and grape fields) and the style words of an Austrian beer guide\'s beer names, labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else 'test/resolve'
    for name, s in (('heldout-ja.json', ja_set()), ('heldout-de.json', de_set())):
        with open(f'{out}/{name}', 'w', encoding='utf-8') as f:
            json.dump(s, f, ensure_ascii=False, indent=1)
            f.write('\n')
        print(name, len(s['queries']), 'queries', sum(q['weight'] for q in s['queries']), 'weight')
