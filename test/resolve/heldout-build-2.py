#!/usr/bin/env python3
"""Builds the whole-source held-out sets heldout-ko.json, heldout-zh.json and heldout-fr-spirits.json
(issue 32, item 6; second batch, next to heldout-build.py which builds heldout-ja.json and heldout-de.json).

Raw files are read from /tmp/heldout-raw2/ (outside the repo; see HELDOUT.md for where each came from):
  naracellar_scraped_wines.csv   sangho24/naracellar-poc @c7b05d8, output/scraped_wines.csv
                                 (a scrape of naracellar.com, the catalogue of the Korean importer Nara Cellar)
  ahll-provider.data.js          ahll/ahll.github.io @ae27df4, provider.data.js (section "zh_CN")
  bourvence.sql                  cakounette13/bourvence @981ea8e, bd_bourvence.sql

Every name is counted by the product rows that carry it (for the Chinese list: the winery rows). LABELS
below were written by hand from what each name means (the entity a sommelier would name) BEFORE the
resolver was run on any of them; keys were spelled by looking up the English name of that meaning among
data/ keys (never the Korean, Chinese or French name). Meanings with no record get the key our
convention gives. Nobody tunes on these sets: every query is split held_out, each source held out whole.
"""
import csv, json, re, sys
from collections import Counter

RAW = '/tmp/heldout-raw2'
BUILT = '2026-12-07'

from heldout_labels import E, A, NO, write_sets

LOIRE = ('geo/vallee-de-la-loire', 'geo/loire-valley', 'geo/val-de-loire')
RHONE = ('geo/vallee-du-rhone', 'geo/rhone-valley')
BORDEAUX = ('geo/bordeaux',)
BURGUNDY = ('geo/bourgogne',)
CHAMPAGNE = ('geo/champagne',)
MUSCAT = ('grape/muscat', 'grape/muscat-a-petits-grains-blancs', 'grape/muscat-of-alexandria',
          'grape/muscat-ottonel', 'grape/muscat-a-petits-grains-roses')

# ================================ Korean: Nara Cellar catalogue ================================
# country column (as printed)
KO_COUNTRY = {
 '프랑스': (E('geo/france'), None),
 '미국': (E('geo/us'), None),
 '이태리': (E('geo/italy'), 'Italy (older spelling, next to 이탈리아)'),
 '칠레': (E('geo/chile'), None),
 '스페인': (E('geo/spain'), None),
 '호주': (E('geo/australia'), None),
 '독일': (E('geo/germany'), None),
 '포르투갈': (E('geo/portugal'), None),
 '뉴질랜드': (E('geo/new-zealand'), None),
 '아르헨티나': (E('geo/argentina'), None),
 '오스트리아': (E('geo/austria'), None),
 '일본': (E('geo/japan'), None),
}

# region column, split on ">" (region > sub-region > commune or vineyard)
KO_REGION = {
 '캘리포니아': (E('geo/california'), None),
 '부르고뉴': (E(*BURGUNDY), None),
 '꼬뜨 드 본': (E('geo/cote-de-beaune', *BURGUNDY), 'Côte de Beaune'),
 '나파 밸리': (E('geo/napa-valley'), None),
 '샹파뉴': (E(*CHAMPAGNE), 'Champagne (French form)'),
 '피에몬테': (E('geo/piemonte'), None),
 '소노마 코스트': (E('geo/sonoma-coast'), None),
 '꼬뜨 드 뉘': (E('geo/cote-de-nuits', *BURGUNDY), 'Côte de Nuits'),
 '콜차구아 밸리': (E('geo/valle-de-colchagua'), 'Colchagua Valley'),
 '남호주': (E('geo/south-australia'), '"South Australia"'),
 '토스카나': (E('geo/toscana', 'geo/toscano'), 'Tuscany (IGT Toscana/Toscano names the region)'),
 '샤블리': (E('geo/chablis', *BURGUNDY), None),
 '시칠리아': (E('geo/sicilia'), None),
 '랑그독 루시용': (E('geo/languedoc-roussillon', 'geo/languedoc'), 'Languedoc-Roussillon, the former region; Languedoc listed (judged)'),
 '도우루': (E('geo/douro'), None),
 '루아르 밸리': (E(*LOIRE), 'Loire Valley'),
 '모젤': (E('geo/mosel'), None),
 '알토 아디제': (E('geo/alto-adige', 'geo/trentino-alto-adige'), 'Alto Adige / Südtirol (parent listed)'),
 '말보로': (E('geo/marlborough'), None),
 '베네토': (E('geo/veneto'), None),
 '리오하': (E('geo/rioja'), None),
 '워싱턴주': (E('geo/washington'), 'Washington State; 주 = state'),
 '뽀마르': (E('geo/pommard'), None),
 '산타 리타 힐즈': (E('geo/sta-rita-hills'), 'Sta. Rita Hills AVA'),
 '에밀리아-로마냐': (E('geo/emilia-romagna'), None),
 '러시안 리버 밸리': (E('geo/russian-river-valley'), None),
 '카사블랑카 밸리': (E('geo/valle-de-casablanca'), 'Casablanca Valley'),
 '알자스': (E('geo/alsace'), None),
 '멘도사': (E('geo/mendoza'), None),
 '론': (E(*RHONE), 'Rhône'),
 '바하우': (E('geo/wachau'), None),
 '풀리아': (E('geo/puglia'), None),
 '몬탈치노': (A('geo/brunello-di-montalcino', 'geo/rosso-di-montalcino'), 'Montalcino: the commune names two DOC(G)s (judged ambiguous)'),
 '꼬드 드 뉘': (E('geo/cote-de-nuits', *BURGUNDY), 'Côte de Nuits, misspelt (꼬드 for 꼬뜨)'),
 '뉘 생 조르쥬': (E('geo/nuits-saint-georges'), None),
 '페네데스': (E('geo/penedes'), None),
 '에덴 밸리': (E('geo/eden-valley'), None),
 '페르낭 베르쥴레스': (E('geo/pernand-vergelesses'), None),
 '프리오랏': (E('geo/priorat'), None),
 '아콩카구아 코스타': (E('geo/aconcagua-costa', 'geo/aconcagua'), 'Aconcagua Costa (coastal area of the Aconcagua region; parent listed)'),
 '발레 드 라 마른': (E('geo/vallee-de-la-marne', *CHAMPAGNE), 'Vallée de la Marne'),
 '바로사 밸리': (E('geo/barossa-valley', 'geo/barossa'), None),
 '본': (E('geo/beaune'), 'Beaune'),
 '쥬브레-샹베르땅': (E('geo/gevrey-chambertin'), None),
 '비에르조': (E('geo/bierzo'), None),
 '사비니 레 본': (E('geo/savigny-les-beaune'), None),
 '샤샤뉴 몽라쉐': (E('geo/chassagne-montrachet'), None),
 '퓔리니 몽라쉐': (E('geo/puligny-montrachet'), None),
 '바덴': (E('geo/baden'), None),
 '마운튼 할란': (E('geo/mt-harlan'), 'Mount Harlan AVA'),
 '산타 이네즈 밸리': (E('geo/santa-ynez-valley'), None),
 '로다이': (E('geo/lodi'), 'Lodi AVA'),
 '콜럼비아 밸리': (E('geo/columbia-valley'), None),
 '로이브너': (NO, '"Loibner": of Loiben, a Wachau village (Knoll); no GI of its own (judged)'),
 '뫼르소': (E('geo/meursault'), None),
 '마꼬네': (E('geo/maconnais', 'geo/macon', *BURGUNDY), 'Mâconnais'),
 '센트럴 코스트': (E('geo/central-coast'), 'Central Coast AVA (California rows)'),
 '루아르': (E(*LOIRE), 'Loire'),
 '꼬뜨 데 블랑': (E('geo/cote-des-blancs', *CHAMPAGNE), None),
 '보르도': (E(*BORDEAUX), None),
 '사보이': (E('geo/savoie', 'geo/vin-de-savoie'), 'Savoie (from the English "Savoy")'),
 '노스 코스트': (E('geo/north-coast'), 'North Coast AVA'),
 '몽뗄리': (E('geo/monthelie'), None),
 '알록스 꼬르통': (E('geo/aloxe-corton'), None),
 '앤더슨 밸리': (E('geo/anderson-valley'), None),
 '볼네': (E('geo/volnay'), None),
 '야마나시': (E('geo/yamanashi'), 'GI Yamanashi'),
 '부지': (E('geo/bouzy', *CHAMPAGNE), 'Bouzy, a Champagne grand cru village (parent listed)'),
 '빈치': (NO, 'Vinci, a Tuscan commune; no GI of its own (judged)'),
 '끼안티': (E('geo/chianti'), None),
 '프란치아코르타': (E('geo/franciacorta'), None),
 '클레어 밸리': (E('geo/clare-valley'), None),
 '라만차': (E('geo/la-mancha'), 'La Mancha DO'),
 '알렉산더 밸리': (E('geo/alexander-valley'), None),
 '리드 슈트': (NO, 'Ried Schütt, a Wachau single vineyard (judged)'),
 '본-로마네': (E('geo/vosne-romanee'), 'Vosne-Romanée'),
 '꼬뜨 살로네즈': (E('geo/cote-chalonnaise', 'geo/bourgogne-cote-chalonnaise', *BURGUNDY), 'Côte Chalonnaise'),
 '산타 바바라': (E('geo/santa-barbara-county'), 'Santa Barbara (County AVA)'),
 '멘도치노': (E('geo/mendocino'), 'Mendocino AVA'),
 '알록스-꼬르똥': (E('geo/aloxe-corton'), None),
 '캄파니아': (E('geo/campania'), None),
 '뿌이 퓌메': (E('geo/pouilly-fume'), None),
 '리아스 바이사스': (E('geo/rias-baixas'), None),
 '상뜨네': (E('geo/santenay'), None),
 '샹몰 뮈지니': (E('geo/chambolle-musigny'), 'Chambolle-Musigny, misspelt (샹몰 for 샹볼)'),
 '쿠리코 밸리': (E('geo/curico-valley'), None),
 '리드 크로이틀레스': (NO, 'Ried Kreutles, a Wachau single vineyard (judged)'),
 '꼬르똥 샤를마뉴': (E('geo/corton-charlemagne'), None),
 '르 꼬르똥': (E('geo/corton'), '"Le Corton", a climat of Corton grand cru: the appellation Corton (judged)'),
 '룰리': (E('geo/rully'), None),
 '부즈롱': (E('geo/bouzeron'), None),
 '오레곤': (E('geo/oregon'), None),
 '윌라매트 밸리': (E('geo/willamette-valley'), None),
 '멘도치노 카운티': (E('geo/mendocino-county'), 'Mendocino County'),
 '꼬르똥 르나드': (E('geo/corton'), 'Corton "Les Renardes", a climat of Corton grand cru (judged)'),
 '파소 로블스': (E('geo/paso-robles'), None),
 '몬테마라노': (NO, 'Montemarano, a commune of the Taurasi zone; no GI of its own (judged)'),
 '라피오': (NO, 'Lapio, a commune of the Fiano di Avellino zone; no GI of its own (judged)'),
 '뿌이 쉬르 루아르': (E('geo/pouilly-sur-loire'), None),
 '아비즈': (E('geo/avize', *CHAMPAGNE), 'Avize, a Côte des Blancs grand cru village (parent listed)'),
 '시농': (E('geo/chinon'), None),
 '꼬또 살로네즈': (E('geo/cote-chalonnaise', 'geo/bourgogne-cote-chalonnaise', *BURGUNDY), '"Coteau Chalonnais": the Côte Chalonnaise (judged)'),
 '지브리': (E('geo/givry'), None),
 '생또방': (E('geo/saint-aubin'), 'Saint-Aubin'),
 '빅토리아': (E('geo/victoria'), 'Victoria (Australia)'),
 '비치워스': (E('geo/beechworth'), None),
 '오뜨 꼬뜨 드 뉘': (E('geo/hautes-cotes-de-nuits', 'geo/bourgogne-hautes-cotes-de-nuits', *BURGUNDY), 'Hautes-Côtes de Nuits'),
 '야마가타': (E('geo/yamagata'), 'GI Yamagata'),
 '소노마': (E('geo/sonoma-county'), 'Sonoma (County) (judged)'),
 '살타': (E('geo/salta'), None),
 '야키마 밸리': (E('geo/yakima-valley'), None),
 '카츠누마 ,야마나시현': (E('geo/yamanashi'), '"Katsunuma, Yamanashi prefecture": GI Yamanashi (judged)'),
 '까오르': (E('geo/cahors'), None),
 '센트럴 밸리': (E('geo/valle-central'), 'Central Valley (Chile rows: Valle Central)'),
 '왈라왈라 밸리': (E('geo/walla-walla-valley'), None),
}

# varietal column: split on ",", "/", "&", "+" and on percentages; English in brackets, "약" (about)
# and "등" (etc.) removed; only names in Hangul kept; names carried by 2+ rows (the column is scraped prose)
KO_GRAPE = {
 '샤도네이': (E('grape/chardonnay'), None),
 '피노 누아': (E('grape/pinot-noir'), None),
 '카버네 소비뇽': (E('grape/cabernet-sauvignon'), None),
 '멀롯': (E('grape/merlot'), None),
 '소비뇽 블랑': (E('grape/sauvignon-blanc'), None),
 '시라': (E('grape/syrah'), None),
 '카버네 프랑': (E('grape/cabernet-franc'), None),
 '쁘띠 베르도': (E('grape/petit-verdot'), None),
 '리슬링': (E('grape/riesling'), None),
 '산지오베제': (E('grape/sangiovese'), None),
 '피노 뫼니에': (E('grape/pinot-meunier', 'grape/meunier'), 'Pinot Meunier'),
 '피노누아': (E('grape/pinot-noir'), 'Pinot Noir, written solid'),
 '쉬라즈': (E('grape/syrah', 'grape/shiraz'), 'Shiraz = Syrah'),
 '진판델': (E('grape/zinfandel', 'grape/primitivo'), 'Zinfandel (= Primitivo)'),
 '네비올로': (E('grape/nebbiolo'), None),
 '말벡': (E('grape/malbec'), None),
 '그르나슈': (E('grape/grenache'), None),
 '가르나차': (E('grape/grenache', 'grape/garnacha'), 'Garnacha = Grenache'),
 '게뷔르츠트라미너': (E('grape/gewurztraminer'), None),
 '모스카토': (A(*MUSCAT), 'Moscato: several Muscat varieties'),
 '템프라니요': (E('grape/tempranillo'), None),
 '뚜리가 나시오날': (E('grape/touriga-nacional'), None),
 '쁘띠 시라': (E('grape/petite-sirah', 'grape/durif'), 'Petite Sirah (= Durif)'),
 '뚜리가 프랑카': (E('grape/touriga-franca'), None),
 '세미용': (E('grape/semillon'), None),
 '카르메네르': (E('grape/carmenere'), None),
 '피노 네로': (E('grape/pinot-noir'), 'Pinot Nero = Pinot Noir'),
 '띤따 바로카': (E('grape/tinta-barroca'), None),
 '멘시아': (E('grape/mencia'), None),
 '네렐로 마스칼레제': (E('grape/nerello-mascalese'), None),
 '카버네소비뇽': (E('grape/cabernet-sauvignon'), 'written solid'),
 '띤따 로리츠 등 토착 품종 블랜딩': (NO, '"Tinta Roriz and other native varieties, blended": a blend description'),
 '비오니에': (E('grape/viognier'), None),
 '까리녜나': (E('grape/carignan', 'grape/carinena'), 'Cariñena the grape (= Carignan), in the grape column'),
 '자렐로': (E('grape/xarel-lo'), 'Xarel·lo'),
 '마케베오': (E('grape/macabeo'), 'Macabeo, as printed'),
 '빠레야다': (E('grape/parellada'), None),
 '기타 화이트': (NO, '"other white"'),
 '그라시아노': (E('grape/graciano'), None),
 '코슈': (E('grape/koshu'), None),
 '피노 비앙코': (E('grape/pinot-blanc', 'grape/pinot-bianco'), 'Pinot Bianco = Pinot Blanc'),
 '베르멘티노': (E('grape/vermentino'), None),
 '네로 다볼라': (E('grape/nero-d-avola'), None),
 '코르비나': (E('grape/corvina'), None),
 '론디넬라': (E('grape/rondinella'), None),
 '까나이올로': (E('grape/canaiolo', 'grape/canaiolo-nero'), None),
 '그뤼너 벨트리너': (E('grape/gruner-veltliner'), None),
 '알리고떼': (E('grape/aligote'), None),
 '마주엘로': (E('grape/carignan', 'grape/mazuelo'), 'Mazuelo = Carignan'),
 '바르베라': (E('grape/barbera'), None),
 '뫼니에': (E('grape/pinot-meunier', 'grape/meunier'), 'Meunier'),
 '람부르스코 살라미노': (E('grape/lambrusco-salamino'), None),
 '피노 블랑': (E('grape/pinot-blanc'), None),
 '슈냉 블랑': (E('grape/chenin-blanc'), None),
 '카베르네 프랑': (E('grape/cabernet-franc'), None),
 '까리냥': (E('grape/carignan'), None),
 '프리미티보': (E('grape/primitivo', 'grape/zinfandel'), None),
 '알테세': (E('grape/altesse'), 'Altesse (Roussette)'),
 '피노 그리지오': (E('grape/pinot-gris', 'grape/pinot-grigio'), 'Pinot Grigio = Pinot Gris'),
 '글레라': (E('grape/glera'), None),
 '가르나챠': (E('grape/grenache', 'grape/garnacha'), 'Garnacha, other spelling'),
 '비우라': (E('grape/macabeo', 'grape/viura'), 'Viura = Macabeo'),
 '알리아니코': (E('grape/aglianico'), None),
 '알바리뇨': (E('grape/albarino'), None),
 '알리고테': (E('grape/aligote'), 'Aligoté, other spelling'),
 '카리칸테': (E('grape/carricante'), None),
 '람부르스코 마라니': (E('grape/lambrusco-marani'), None),
 '피노뫼니에': (E('grape/pinot-meunier', 'grape/meunier'), 'written solid'),
 '토착 품종 블랜딩': (NO, '"native varieties, blended"'),
 '화이트 품종': (NO, '"white varieties"'),
 '네로 디 트로이아': (E('grape/nero-di-troia', 'grape/uva-di-troia'), None),
 '띤따 로리즈': (E('grape/tempranillo', 'grape/tinta-roriz'), 'Tinta Roriz = Tempranillo'),
 '그르나슈 블랑': (E('grape/grenache-blanc'), None),
 '몰리나라': (E('grape/molinara'), None),
 '지비보': (E('grape/muscat-of-alexandria', 'grape/zibibbo'), 'Zibibbo = Muscat of Alexandria'),
}

# type column
KO_TYPE = {
 '레드': (NO, '"red": catalogue type, as MARKET.md labels "rött vin"'),
 '화이트': (NO, '"white"'),
 '스파클링': (E('style/sparkling-wine'), '"sparkling"'),
 '로제': (E('style/rose-wine'), '"rosé"'),
 '주정강화': (E('style/liqueur-wine'), '"fortified": the EU category liqueur wine (judged)'),
 '디저트': (NO, '"dessert"'),
}

HANGUL = re.compile(r'[\uac00-\ud7a3]')

def ko_grapes(v):
    v = re.sub(r'\([^)]*\)?', '', v)
    out = {}
    for p in re.split(r'[,/&+]|\d+(?:\.\d+)?\s*(?:~\s*\d+(?:\.\d+)?)?\s*%+|\d+\s*~', v):
        p = re.sub(r'\s+', ' ', p).strip(' -~.')
        p = re.sub(r'\s*(약|등)$', '', p).strip()
        p = re.sub(r'^약\s*', '', p).strip()
        if p and HANGUL.search(p): out[p] = True
    return list(out)

def queries(counts, source, label):
    """One held-out query per counted name, heaviest first; label(name) -> (family, lang, expect, note)."""
    out = []
    for name, w in sorted(counts.items(), key=lambda x: (-x[1], x[0])):
        fam, lang, exp, note = label(name)
        q = {'q': name, 'family': fam, 'source': source, 'lang': lang, 'weight': w, 'expect': exp, 'split': 'held_out'}
        if note: q['note'] = note
        out.append(q)
    return out

def need(counts, labels, what):
    missing = [n for n in counts if n not in labels]
    if missing: sys.exit(f'unlabelled {what}: {missing}')
    extra = [n for n in labels if n not in counts]
    if extra: sys.exit(f'labelled but not in the source ({what}): {extra}')

def ko_set():
    rows = list(csv.DictReader(open(f'{RAW}/naracellar_scraped_wines.csv', encoding='utf-8-sig')))
    cc, cr, cg, ct = Counter(), Counter(), Counter(), Counter()
    for r in rows:
        if r['country'].strip(): cc[r['country'].strip()] += 1
        for p in dict.fromkeys(x.strip() for x in r['region'].split('>') if x.strip()): cr[p] += 1
        for p in ko_grapes(r['varietal']): cg[p] += 1
        if r['type'].strip(): ct[r['type'].strip()] += 1
    cg = Counter({k: v for k, v in cg.items() if v >= 2})
    need(cc, KO_COUNTRY, 'ko country'); need(cr, KO_REGION, 'ko region'); need(cg, KO_GRAPE, 'ko grape'); need(ct, KO_TYPE, 'ko type')
    fam_geo = lambda n: 'country' if n in KO_COUNTRY else 'region'
    qs = (queries(cc, 'naracellar-country', lambda n: ('country', 'ko', *KO_COUNTRY[n]))
          + queries(cr, 'naracellar-region', lambda n: ('region', 'ko', *KO_REGION[n]))
          + queries(cg, 'naracellar-grape', lambda n: ('grape', 'ko', *KO_GRAPE[n]))
          + queries(ct, 'naracellar-type', lambda n: ('wine_style', 'ko', *KO_TYPE[n])))
    base = {'market': 'Korea', 'language': 'ko', 'kind': 'importer catalogue (scraped web shop pages)',
            'retailer': 'Nara Cellar (naracellar.com), Korean wine importer; scraped by a third party',
            'repository': 'sangho24/naracellar-poc', 'path': 'output/scraped_wines.csv',
            'commit': 'c7b05d8cded2642a4b5e29b2a5d24e56e4585eec', 'rows_read': len(rows),
            'weight': 'wine rows carrying the name', 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    src = [dict(base, id='naracellar-country', columns=['country'], queries=len(cc)),
           dict(base, id='naracellar-region', columns=['region (split on ">")'], queries=len(cr)),
           dict(base, id='naracellar-grape', columns=['varietal (split on ",", "/", "&", "+" and percentages; English in brackets, 약 and 등 removed; Hangul names on 2+ rows)'], queries=len(cg)),
           dict(base, id='naracellar-type', columns=['type'], queries=len(ct))]
    return {'description': 'Whole-source held-out set (issue 32 item 6): a Korean importer catalogue (Nara Cellar), its country, region, grape and type columns in Hangul, labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

# ================================ Chinese: a Spanish-wine export platform's winery list ========
ZH_REGION = {
 '西班牙': ('country', E('geo/spain'), None),
 '里奥哈': ('region', E('geo/rioja'), None),
 '加泰罗尼亚': ('region', E('geo/cataluna', 'geo/catalunya'), 'Catalonia (DO Catalunya names it)'),
 '卡斯蒂利亚-拉曼恰': ('region', E('geo/castilla-la-mancha', 'geo/castilla'), 'Castilla-La Mancha (VT Castilla covers it)'),
 '卡斯蒂利亚-莱昂': ('region', E('geo/castilla-y-leon'), 'Castilla y León'),
 '纳瓦拉': ('region', E('geo/navarra'), None),
 '阿拉贡': ('region', E('geo/aragon'), 'Aragón'),
 '加利西亚': ('region', E('geo/galicia'), None),
 '穆尔西亚': ('region', E('geo/murcia'), None),
 '埃斯特雷马杜拉': ('region', E('geo/extremadura'), None),
 '安达路西亚': ('region', E('geo/andalucia', 'geo/andalusia'), 'Andalusia'),
 '马德里': ('region', E('geo/madrid', 'geo/vinos-de-madrid'), 'Madrid (DO Vinos de Madrid); the region row (judged)'),
 '巴斯克': ('region', E('geo/pais-vasco', 'geo/basque-country'), 'the Basque Country'),
 '瓦伦西亚': ('region', E('geo/valencia'), 'Valencia'),
}
ZH_GRAPE = {
 '丹魄': (E('grape/tempranillo'), None),
 '歌海娜': (E('grape/grenache', 'grape/garnacha'), 'Grenache/Garnacha'),
 '赤霞珠': (E('grape/cabernet-sauvignon'), None),
 '格拉西亚诺': (E('grape/graciano'), None),
 '西拉': (E('grape/syrah'), None),
 '维尤拉': (E('grape/macabeo', 'grape/viura'), 'Viura = Macabeo'),
 '美乐': (E('grape/merlot'), None),
 '马卡贝澳': (E('grape/macabeo'), None),
 '霞多丽': (E('grape/chardonnay'), None),
 '玛祖爱罗': (E('grape/carignan', 'grape/mazuelo'), 'Mazuelo = Carignan'),
 '沙雷洛': (E('grape/xarel-lo'), 'Xarel·lo'),
 '黑歌海娜': (E('grape/grenache', 'grape/garnacha'), '"black Grenache": Grenache (noir)'),
 '白帕雷拉达': (E('grape/parellada'), '"white Parellada"'),
 '青葡萄': (E('grape/verdejo'), 'Verdejo ("green grape"; judged from the column)'),
 '长相思': (E('grape/sauvignon-blanc'), None),
 '玛尔维萨': (A('grape/malvasia', 'grape/malvasia-bianca-lunga', 'grape/malvasia-fina', 'grape/malvasia-riojana'), 'Malvasia: several varieties'),
 '佳利酿': (E('grape/carignan'), 'Carignan, one spelling'),
 '黑皮诺': (E('grape/pinot-noir'), None),
 '慕合怀特': (E('grape/mourvedre', 'grape/monastrell'), 'Monastrell = Mourvèdre'),
 '爱人': (E('grape/airen'), 'Airén'),
 '麝香': (A(*MUSCAT), 'Muscat/Moscatel: several varieties'),
 '阿尔巴利诺': (E('grape/albarino'), None),
 '小维多': (E('grape/petit-verdot'), None),
 '品丽珠': (E('grape/cabernet-franc'), None),
 '佳丽酿': (E('grape/carignan'), 'Carignan, other spelling'),
 '特雷帕特': (E('grape/trepat'), None),
 '白歌海娜': (E('grape/grenache-blanc'), None),
 '紫北塞': (E('grape/alicante-bouschet'), None),
 '马家婆': (E('grape/macabeo'), 'Maccabeu = Macabeo'),
 '博巴尔': (E('grape/bobal'), None),
 '白麦翠娜': (E('grape/maturana-blanca'), None),
 '维欧尼': (E('grape/viognier'), None),
 '雷司令': (E('grape/riesling'), None),
 '幕尔伟德': (E('grape/mourvedre', 'grape/monastrell'), 'Mourvèdre, other transcription'),
 '白丹魄': (E('grape/tempranillo-blanco'), None),
 '马尔贝克': (E('grape/malbec'), None),
 '帕洛米诺': (E('grape/palomino', 'grape/palomino-fino'), None),
 '佩德罗-西门内': (E('grape/pedro-ximenez'), None),
 '亚历山大麝香': (E('grape/muscat-of-alexandria'), None),
 '小西拉': (E('grape/petite-sirah', 'grape/durif'), 'Petite Sirah (= Durif)'),
 '小白玫瑰': (E('grape/muscat', 'grape/muscat-a-petits-grains-blancs'), 'Muscat Blanc à Petits Grains'),
 '白玉霓': (E('grape/trebbiano', 'grape/ugni-blanc', 'grape/trebbiano-toscano'), 'Ugni Blanc (= Trebbiano Toscano)'),
 '鸽笼白': (E('grape/colombard'), None),
 '白福尔': (E('grape/folle-blanche'), None),
 '黑麦翠娜': (E('grape/maturana-tinta', 'grape/castets'), 'Maturana Tinta (identified as Castets; judged)'),
 '白诗南': (E('grape/chenin-blanc'), None),
 '格德约': (E('grape/godello', 'grape/gouveio'), 'Godello (= Gouveio)'),
 '特雷萨杜拉': (E('grape/treixadura', 'grape/trajadura'), 'Treixadura (= Trajadura)'),
 '慕斯卡德': (A('grape/muscadelle', *MUSCAT), '"Muscadel" as printed: Muscadelle or a Muscat (judged ambiguous)'),
 '门西亚': (E('grape/mencia'), None),
 '巴氏塔都': (E('grape/bastardo', 'grape/trousseau'), 'Bastardo (= Trousseau)'),
 '阿弗里奥': (E('grape/alvarelhao'), 'Alvarelhão'),
 '黑凯诺': (E('grape/caino-tinto'), 'Caíño Tinto'),
 '琼瑶浆': (E('grape/gewurztraminer'), None),
 '珍珠': (E('grape/perle'), '"Perle" as printed: the German crossing Perle (judged)'),
}

HAN = re.compile(r'[\u4e00-\u9fff·\-]+')

def zh_rows():
    t = open(f'{RAW}/ahll-provider.data.js', encoding='utf-8').read()
    zh = t[t.index('"zh_CN"'):]
    items = re.findall(r'"name": "([^"]*)".*?"countryArea": \{\s*"title": "[^"]*",\s*"value": "([^"]*)".*?"majorVarieties": \{\s*"title": "[^"]*",\s*"value": "([^"]*)"', zh, re.S)
    return items

def zh_set():
    items = zh_rows()
    cr, cg = Counter(), Counter()
    for name, area, varieties in items:
        for p in dict.fromkeys(x.strip() for x in area.split('-', 1) if x.strip()): cr[p] += 1
        names = {}
        for p in re.split(r'[、，,]', varieties):
            h = ''.join(HAN.findall(p)).strip('-·')
            if h: names[h] = True
        for h in names: cg[h] += 1
    need(cr, ZH_REGION, 'zh region'); need(cg, ZH_GRAPE, 'zh grape')
    qs = (queries(cr, 'winedroad-region', lambda n: (ZH_REGION[n][0], 'zh', *ZH_REGION[n][1:]))
          + queries(cg, 'winedroad-grape', lambda n: ('grape', 'zh', *ZH_GRAPE[n])))
    base = {'market': 'China', 'language': 'zh', 'kind': 'winery list of a Spanish-wine export platform (Chinese section)',
            'retailer': '"The Wine Road" (西班牙酒庄), a platform exporting Spanish wine to China; entries in the style of wines-info.com',
            'repository': 'ahll/ahll.github.io', 'path': 'provider.data.js (section "zh_CN")',
            'commit': 'ae27df473cc7af69128b846e5252083ae68d653b', 'rows_read': len(items),
            'weight': 'winery rows carrying the name', 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    src = [dict(base, id='winedroad-region', columns=['countryArea 所在产区 (split on the first "-": country, region)'], queries=len(cr)),
           dict(base, id='winedroad-grape', columns=['majorVarieties 葡萄品种 (split on "、"; the Chinese name of each "Latin 中文" pair)'], queries=len(cg))]
    return {'description': 'Whole-source held-out set (issue 32 item 6): the Chinese winery list of a Spanish-wine export platform, its region and grape columns in Chinese script, labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

# ================================ French: a caviste's spirits shelves ==========================
FR_SHELF = {
 'Whiskies': ('spirit', E('spirit/whisky'), None),
 'Rhums': ('spirit', E('spirit/rum'), None),
 'Liqueurs': ('spirit', E('spirit/liqueur'), None),
 'Eaux de Vie': ('spirit', E('spirit/fruit-spirit'), 'the shelf of fruit eaux-de-vie (poire, framboise, mirabelle, prune) (judged)'),
 'Armagnacs': ('spirit', E('spirit/armagnac'), None),
 'Crèmes': ('spirit', E('spirit/creme-de', 'spirit/liqueur'), '"crèmes de" fruit liqueurs (parent listed)'),
 'Cognacs': ('spirit', E('spirit/cognac'), None),
 'Portos': ('wine_style', E('geo/porto'), 'Port, on the spirits shelves (MARKET.md: Portvin = Porto)'),
 'Calvados': ('spirit', E('spirit/calvados'), None),
 'Gins': ('spirit', E('spirit/gin'), None),
 'Vodkas': ('spirit', E('spirit/vodka'), None),
 'Téquilas': ('spirit', E('spirit/tequila'), None),
}
# the word(s) heading each spirits product name; a row counts for the longest head it starts with
FR_HEAD = {
 'Rhum': ('spirit', 'fr', E('spirit/rum'), None),
 'Whisky': ('spirit', 'fr', E('spirit/whisky'), None),
 'Whiksy': ('spirit', 'fr', E('spirit/whisky'), 'misspelt Whisky'),
 'Liqueur': ('spirit', 'fr', E('spirit/liqueur'), None),
 'Bas Armagnac': ('spirit', 'fr', E('spirit/bas-armagnac', 'spirit/armagnac'), None),
 'Cognac': ('spirit', 'fr', E('spirit/cognac'), None),
 "Calvados Pays d'Auge": ('spirit', 'fr', E('spirit/calvados-pays-d-auge', 'spirit/calvados'), None),
 'Porto': ('wine_style', 'fr', E('geo/porto'), None),
 'Porto LBV': ('wine_style', 'fr', E('style/late-bottled-vintage-port', 'geo/porto'), None),
 'Eau de Vie': ('spirit', 'fr', E('spirit/fruit-spirit'), 'heads fruit eaux-de-vie (poire, prune) (judged)'),
 'Vieille Eau de Vie de Prune': ('spirit', 'fr', E('spirit/fruit-spirit'), 'aged plum eau-de-vie'),
 'Framboise Sauvage': ('spirit', 'fr', E('spirit/fruit-spirit', 'spirit/geist'), 'raspberry eau-de-vie (by maceration and distillation, or fruit spirit)'),
 'Mirabelle': ('spirit', 'fr', E('spirit/fruit-spirit'), 'mirabelle eau-de-vie (Burgundy producer, not a GI)'),
 'Quetsche': ('spirit', 'fr', E('spirit/fruit-spirit'), 'quetsch plum eau-de-vie'),
 "Poire William'S": ('spirit', 'fr', E('spirit/fruit-spirit'), 'Williams pear eau-de-vie, as printed'),
 'Poire Williams': ('spirit', 'fr', E('spirit/fruit-spirit'), 'Williams pear eau-de-vie'),
 'Marc de Bourgogne': ('spirit', 'fr', E('spirit/marc-de-bourgogne'), None),
 'Limoncello': ('spirit', 'it', E('spirit/limoncello', 'spirit/liqueur'), 'lemon liqueur (parent listed)'),
 'Limoncello di Sorrento': ('spirit', 'it', E('spirit/liquore-di-limone-di-sorrento', 'spirit/limoncello'), 'Limoncello di Sorrento (GI Liquore di limone di Sorrento)'),
 'Ratafia de Bourgogne': ('spirit', 'fr', E('spirit/ratafia-de-bourgogne'), 'Burgundy ratafia (grape must and marc); no record (convention key)'),
 'Crème de Framboise': ('spirit', 'fr', E('spirit/creme-de', 'spirit/liqueur'), None),
 'Crème de Mûre': ('spirit', 'fr', E('spirit/creme-de', 'spirit/liqueur'), None),
 'Crème de Pêche de Vigne': ('spirit', 'fr', E('spirit/creme-de', 'spirit/liqueur'), None),
 'Double Crème de Cassis': ('spirit', 'fr', E('spirit/creme-de-cassis'), '"double" crème de cassis'),
 'Gin': ('spirit', 'en', E('spirit/gin'), None),
 'Vodka': ('spirit', 'fr', E('spirit/vodka'), None),
 'Bourbon': ('spirit', 'en', E('spirit/bourbon'), None),
 'Tequilla': ('spirit', 'fr', E('spirit/tequila'), 'misspelt Tequila'),
 'Bocal': ('spirit', 'fr', NO, '"jar" (cherries in eau-de-vie): packaging word'),
}

def fr_rows():
    t = open(f'{RAW}/bourvence.sql', encoding='utf-8').read()
    regions = dict(re.findall(r'\("(\d+)", "([^"]+)"\)', t[t.index('INSERT INTO regions'):t.index('INSERT INTO roles')]))
    families = dict(re.findall(r'\("(\d+)", "([^"]+)"\)', t[t.index('INSERT INTO families'):t.index('INSERT INTO fournisseurs')]))
    body = t[t.index('INSERT INTO Products'):]
    rows = re.findall(r'^\("(\d+)", "((?:[^"\\]|\\.)*)", "(?:[^"\\]|\\.)*", "(\d+)", "(\d+)", "(\d+)", "(\d+)",\s*"(\d+)", "(\d+)", "[^"]*", "(\d)"\)', body, re.M | re.S)
    assert len(rows) == body.count('\n("'), 'product rows not all parsed'
    assert families['7'] == 'Spiritueux'
    return [(name.strip(), regions[reg]) for pid, name, frs, fam, app, reg, col, cont, act in rows if fam == '7'], len(rows)

def fr_set():
    spirits, allrows = fr_rows()
    cs = Counter(shelf for _, shelf in spirits)
    heads = sorted(FR_HEAD, key=len, reverse=True)
    ch = Counter()
    for name, _ in spirits:
        h = next((h for h in heads if name.startswith(h) and (len(name) == len(h) or not name[len(h)].isalnum())), None)
        if h is None: sys.exit(f'spirits row without a head: {name}')
        ch[h] += 1
    need(cs, FR_SHELF, 'fr shelf'); need(ch, FR_HEAD, 'fr head')
    qs = (queries(cs, 'bourvence-spirit-shelf', lambda n: (FR_SHELF[n][0], 'fr', *FR_SHELF[n][1:]))
          + queries(ch, 'bourvence-spirit-head', lambda n: FR_HEAD[n]))
    base = {'market': 'France', 'language': 'fr', 'kind': 'caviste catalogue (wine shop site database), spirits family',
            'retailer': 'Bourvence, a French caviste (wines, spirits, beers); site database',
            'repository': 'cakounette13/bourvence', 'path': 'bd_bourvence.sql', 'commit': '981ea8e55f1107d0509dff749b9892b37801fc39',
            'rows_read': len(spirits), 'read': BUILT, 'split': 'held_out', 'holdout': 'whole_source'}
    src = [dict(base, id='bourvence-spirit-shelf', columns=[f'products.region_id -> regions.region_name, rows of family "Spiritueux" ({len(spirits)} of {allrows} products)'],
                weight='spirits rows on the shelf', queries=len(cs)),
           dict(base, id='bourvence-spirit-head', columns=['products.prod_name of family "Spiritueux": the category word(s) heading the name (longest listed head; every row has one)'],
                weight='spirits rows whose name starts with the head', queries=len(ch))]
    return {'description': 'Whole-source held-out set (issue 32 item 6): a French caviste\'s spirits shelves and the category words heading its spirits product names, labelled by meaning before any resolver run. See HELDOUT.md.',
            'built': BUILT, 'sources': src, 'queries': qs}

if __name__ == '__main__':
    write_sets(sys.argv[1] if len(sys.argv) > 1 else 'test/resolve', (('heldout-ko.json', ko_set()), ('heldout-zh.json', zh_set()), ('heldout-fr-spirits.json', fr_set())))
