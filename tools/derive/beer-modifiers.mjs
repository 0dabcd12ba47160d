// Derives data/beer-modifiers.json: the word classes that read a menu's beer description as a base style
// plus modifiers ("Bourbon Barrel Aged Stout", "DIPA with Tangerines"), and the BJCP 2021 specialty style
// each class of modifier goes to. Usage:
//   node tools/derive/beer-modifiers.mjs [data dir]   (writes <data dir>/beer-modifiers.json)
// Word classes:
//   - fruit, spice: the names of every entry of the Open Food Facts ingredients taxonomy
//     (data/food/vocabulary.json) under en:fruit and of the categories taxonomy under en:fruits (BJCP 2021 category 29: culinary
//     fruit), and under en:spice, en:herb, en:vegetable, en:nut, en:coffee, en:chocolate and en:spices (category 30: "all culinary
//     spices, herbs, and vegetables, as well as nuts …, chile peppers, coffee, chocolate"). Names of one
//     to three words, in the vocabulary's languages, without the words of a processed form (juice,
//     extract, powder…). A name under both fruit and a category 30 root goes to spice: category 30
//     names nuts ("anything with 'nut' in the name, including coconut") and does not include fruit.
//   - wood, alcohol, wild, smoke, and the generic class words: the words of the BJCP 2021 text itself
//     (33A, 33B, 28 introduction, 28C, 29 and 30 introductions, 32A), listed below with their locators.
// Nothing else is added by hand.
import fs from 'node:fs';
import path from 'node:path';

const dataDir = process.argv[2] ?? 'data';
const vocab = JSON.parse(fs.readFileSync(path.join(dataDir, 'food', 'vocabulary.json'), 'utf8'));
const kids = new Map();
for (const n of vocab.nodes) for (const p of n.parents) (kids.get(p) ?? kids.set(p, []).get(p)).push(n);
const byId = new Map(vocab.nodes.map((n) => [n.id, n]));
function under(root) {
  const out = new Set();
  const stack = [root];
  while (stack.length) {
    const id = stack.pop();
    const n = byId.get(id);
    if (!n || out.has(n)) continue;
    out.add(n);
    for (const k of kids.get(id) ?? []) stack.push(k.id);
  }
  return [...out];
}
// the words of a processed form or of a catch-all entry: such a name is not one fruit or spice
const PROCESSED = /\b(juice|juices|jus|saft|zumo|succo|suco|extract|extracts|extrait|extrakt|concentrate|concentrated|concentre|konzentrat|powder|poudre|pulver|puree|purée|jam|confiture|filling|paste|sauce|pieces|flavouring|flavoring|arome|arôme|aroma|natural|organic|biologique|bio|dried|dehydrated|freeze|mixed|mix|blend|preparation|with|from|and|et|und|y|e|of|de|di|du|des|la|le|leaves|leaf|seed|seeds|flour|oil|vinegar|syrup|sirop|sugar|chips|chunks|cream|milk|drink|tea|infusion|fresh|frozen|raw|pulp|ground|whole|powdered|lyophilized|cooked|pickled|zest|peel|ecorce|ecorces|skin|kernel|kernels|without|salt)\b/i;
const fold = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[-'’]/g, ' ').replace(/\s+/g, ' ').trim();
function names(nodes) {
  const out = new Set();
  for (const n of nodes) {
    for (const list of Object.values(n.names)) {
      for (const raw of list) {
        const f = fold(raw);
        const words = f.split(' ');
        if (!f || words.length > 3 || f.length < 3 || PROCESSED.test(f) || /[^a-z ]/.test(f)) continue;
        out.add(f);
      }
    }
  }
  return out;
}
const fruitRoots = ['ing:en:fruit', 'cat:en:fruits'];
const spiceRoots = ['ing:en:spice', 'ing:en:herb', 'ing:en:vegetable', 'ing:en:nut', 'ing:en:coffee', 'ing:en:chocolate', 'cat:en:spices'];
const fruit = names(fruitRoots.flatMap(under));
const spice = names(spiceRoots.flatMap(under));
for (const w of spice) fruit.delete(w);
// a food name that is a word of a beer style's name is that name's word first ("golden" is an apple in
// French and a word of "British Golden Ale"; "black" of "Black IPA"): left out of the food classes (the
// class words the BJCP names itself, below, are kept)
const beerWords = new Set();
const addWords = (name) => { for (const w of fold(name).split(' ')) beerWords.add(w); };
for (const f of fs.readdirSync(path.join(dataDir, 'beer-styles')).filter((f) => f.endsWith('.json'))) {
  for (const r of JSON.parse(fs.readFileSync(path.join(dataDir, 'beer-styles', f), 'utf8'))) {
    addWords(r.name);
    for (const a of r.aliases ?? []) addWords(a.name);
  }
}
for (const f of fs.readdirSync(path.join(dataDir, 'aliases')).filter((f) => f.endsWith('.json'))) {
  for (const r of JSON.parse(fs.readFileSync(path.join(dataDir, 'aliases', f), 'utf8'))) {
    if (String(r.entity).startsWith('beer/')) for (const a of r.aliases ?? []) addWords(a.name);
  }
}
for (const set of [fruit, spice]) for (const w of [...set]) if (!w.includes(' ') && beerWords.has(w)) set.delete(w);
const sorted = (s) => [...s].sort();

const BJCP = 'bjcp-2021-specialty-text';
const OFF = 'off-ingredients-taxonomy';
const out = {
  about:
    'Word classes that read a beer description as a base style plus modifiers, and the BJCP 2021 specialty style each class goes to (src/engine/beer-modifiers.ts). Derived by tools/derive/beer-modifiers.mjs; do not edit by hand.',
  derived_by: 'tools/derive/beer-modifiers.mjs',
  classes: [
    {
      class: 'fruit',
      words: sorted(fruit),
      sources: [
        { source: OFF, locator: `ingredients taxonomy: every entry under ${fruitRoots.join(', ')} (data/food/vocabulary.json), names of 1-3 words in en, fr, de, es, it, pt` },
        { source: BJCP, locator: '29. Fruit Beer, introduction: the culinary definition of fruit (pome, stone, berries, currants, citrus, dried, tropical fruit, figs, pomegranate, prickly pear)' },
      ],
    },
    {
      class: 'spice',
      words: sorted(spice),
      sources: [
        { source: OFF, locator: `ingredients taxonomy: every entry under ${spiceRoots.join(', ')} (data/food/vocabulary.json), names of 1-3 words in en, fr, de, es, it, pt` },
        { source: BJCP, locator: '30. Spiced Beer, introduction: all culinary spices, herbs and vegetables, nuts, chile peppers, coffee, chocolate, spruce tips, rose hips, hibiscus, rhubarb' },
      ],
    },
    {
      // words of the class itself, as the guideline names its categories and ingredients
      class: 'fruit',
      words: ['fruit', 'fruited', 'fruity', 'berry'],
      sources: [{ source: BJCP, locator: "29. Fruit Beer, introduction ('berries (any fruit with the word \u2018berry\u2019 in it)'); 28C Overall Impression ('fruit')" }],
    },
    {
      class: 'spice',
      words: ['spice', 'spiced', 'spicy', 'herb', 'herbal', 'vegetable', 'chile', 'chili', 'spruce', 'spruce tips', 'rose hips', 'hibiscus', 'rhubarb', 'nut', 'coconut', 'coffee', 'chocolate'],
      sources: [{ source: BJCP, locator: '30. Spiced Beer, introduction (spices, herbs, vegetables; nuts, coconut, chile peppers, coffee, chocolate, spruce tips, rose hips, hibiscus, rhubarb)' }],
    },
    {
      class: 'wood',
      words: ['wood', 'wooden', 'oak', 'oaked', 'barrel', 'barrels', 'cask', 'casks', 'staves', 'cedar', 'spanish cedar', 'amburana'],
      sources: [
        { source: BJCP, locator: '33A Wood-Aged Beer, Characteristic Ingredients (wooden casks or barrels, chips, staves) and History (oak cask and barrels)' },
        { source: BJCP, locator: '28C Wild Specialty Beer, introduction (non-traditional wood varieties, e.g. Spanish Cedar, Amburana)' },
      ],
    },
    {
      class: 'alcohol',
      words: ['whiskey', 'whisky', 'bourbon', 'rum', 'gin', 'tequila', 'port', 'sherry', 'madeira', 'wine', 'spirits', 'cider'],
      sources: [
        { source: BJCP, locator: '33B Specialty Wood-Aged Beer, Characteristic Ingredients (barrels previously used to store alcohol: whiskey, bourbon, rum, gin, tequila, port, sherry, Madeira, wine)' },
        { source: BJCP, locator: '28C Wild Specialty Beer, introduction (barrels previously containing another alcohol: spirits, wine, cider)' },
      ],
    },
    {
      class: 'wild',
      words: ['wild', 'sour', 'soured', 'brett', 'brettanomyces', 'lacto', 'lactobacillus', 'pedio', 'pediococcus', 'funky', 'mixed fermentation'],
      sources: [
        { source: BJCP, locator: '28. American Wild Ale, introduction (Wild; sour; Brett for Brettanomyces, Lacto for Lactobacillus, Pedio for Pediococcus; mixed-fermentation)' },
        { source: BJCP, locator: "28C Wild Specialty Beer, Style Comparison ('sour or funky')" },
      ],
    },
    {
      class: 'smoke',
      words: ['smoke', 'smoked'],
      sources: [{ source: BJCP, locator: "32A Classic Style Smoked Beer, introduction ('Intended for smoked versions of Classic Style beers') and 32. Smoked Beer (tag 'smoke')" }],
    },
  ],
  // words that join a description's parts and explain nothing on their own: read only beside a modifier
  joiners: {
    words: ['with', 'and', 'aged', 'in', 'on', 'infused', 'conditioned', 'finished', 'added'],
    source: BJCP,
    locator: '33A/33B titles and Characteristic Ingredients (aged in wooden casks or barrels); 29A, 30A entry instructions (beer made with fruit, spices)',
  },
  // the specialty style a set of modifier classes goes to; the first rule whose classes are all present wins
  styles: [
    { classes: ['wild'], with_any: ['fruit', 'spice', 'wood', 'alcohol'], style: 'beer/28c-wild-specialty-beer', source: BJCP, locator: '28C Wild Specialty Beer, introduction and Comments (fruited and other Specialty-Type versions of 28A, 28B, 28D; aging in barrels that held another alcohol)' },
    { classes: ['wood', 'alcohol'], style: 'beer/33b-specialty-wood-aged-beer', source: BJCP, locator: '33B Specialty Wood-Aged Beer, introduction (wood with added alcohol character from previous use of the barrel: bourbon-barrel beers)' },
    { classes: ['smoke'], with_any: ['fruit', 'spice'], style: 'beer/32b-specialty-smoked-beer', source: BJCP, locator: '32A Classic Style Smoked Beer, Characteristic Ingredients (smoked malts combined with other unusual ingredients, e.g. fruits, vegetables, spices, honey: 32B Specialty Smoked Beer)' },
    { classes: ['fruit', 'spice'], style: 'beer/29b-fruit-and-spice-beer', source: BJCP, locator: '29B Fruit and Spice Beer, introduction' },
    { classes: ['fruit'], base: ['beer/23d-lambic', 'beer/23e-gueuze'], style: 'beer/23f-fruit-lambic', source: BJCP, locator: '28C Wild Specialty Beer, Comments; 29A Fruit Beer, Comments (fruited versions of Lambic go to 23F Fruit Lambic)' },
    { classes: ['fruit'], style: 'beer/29a-fruit-beer', source: BJCP, locator: '29A Fruit Beer, Comments (fruit beers based on a Classic Style; fruited sour Classic Styles)' },
    { classes: ['spice'], style: 'beer/30a-spice-herb-or-vegetable-beer', source: BJCP, locator: '30. Spiced Beer, introduction' },
    { classes: ['wood'], style: 'beer/33a-wood-aged-beer', also: ['beer/33b-specialty-wood-aged-beer'], source: BJCP, locator: '33A Wood-Aged Beer, introduction (wood without added alcohol character; bourbon-barrel or other beers with an added alcohol character go to 33B: a barrel whose previous use is not named is either)' },
    { classes: ['wild'], style: 'beer/28b-mixed-fermentation-sour-beer', also: ['beer/28a-brett-beer', 'beer/28d-straight-sour-beer'], source: BJCP, locator: '28. American Wild Ale, introduction (styles differentiated by the yeast and bacteria used)' },
    { classes: ['smoke'], style: 'beer/32a-classic-style-smoked-beer', also: ['beer/32b-specialty-smoked-beer'], source: BJCP, locator: "32A Classic Style Smoked Beer, introduction ('Intended for smoked versions of Classic Style beers, except if the Classic Style beer has smoke as an inherent part of its definition'); a smoked beer on another base is 32B Specialty Smoked Beer" },
  ],
  // a base style whose BJCP tags hold the class already has the modifier ("Flemish Sour Brown": Oud Bruin is sour)
  inherent_tags: { fruit: ['fruit'], spice: ['spice'], wood: ['wood'], wild: ['sour', 'wild-fermented', 'wild-fermentation'], smoke: ['smoke'] },
  inherent_source: { source: 'bjcp-2021', locator: 'style tags of each base style (reference table bjcp-2021-beer-styles.csv, column tags)' },
};
fs.writeFileSync(path.join(dataDir, 'beer-modifiers.json'), JSON.stringify(out, null, 1) + '\n');
console.log(`fruit ${fruit.size}, spice ${spice.size} words`);
