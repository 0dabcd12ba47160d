// The playground page (issue 13) driven end to end in Debian's Chromium through playwright-core,
// against the real service on a real port: search states, entity view (sources, boundaries),
// compare, the demo limit message, keyboard-only use, no request to any other host, an axe-core
// check in the page, and the layout at 360 px. Screenshots of the main states go to
// artifacts/playground/ (git-ignored).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildTestApp, ROOT, sharedEngine } from '../helper.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>;

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = path.join(ROOT, 'artifacts', 'playground');
const WAIT = { timeout: 15_000 };
// outside CI a machine without Chromium skips these tests (saying so); in CI (.ci/run installs it) they must run
const NO_BROWSER = !fs.existsSync(CHROMIUM) && !process.env.CI && `Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`;
const HIGH_LIMITS = { DEMO_PER_IP_PER_MINUTE: '100000', DEMO_PER_IP_PER_HOUR: '100000', DEMO_PER_SUBNET_PER_HOUR: '100000', DEMO_PER_SITE_PER_HOUR: '100000', DEMO_DAILY_CAP: '1000000' };

async function serve(env: Record<string, string>) {
  const t = await buildTestApp({ env });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base: address.replace(/\/$/, '') };
}

/** A page that records every request it makes. */
async function openPage(browser: Browser, base: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-GB' });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${base}/`);
  await page.waitForSelector('html[data-ready=true]', WAIT);
  return { page, requests, close: () => context.close() };
}

/** The message of the first demo refusal (429 or 503) the page receives. */
function refusalMessage(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.on('response', async (r) => {
      if (r.status() === 429 || r.status() === 503) resolve(String(((await r.json()) as { error: { message: string } }).error.message));
    });
  });
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  // an entity state is shown from the entity's heading down (the side panel stays in view)
  if (name.startsWith('entity')) await page.evaluate(() => document.getElementById('entity')?.scrollIntoView());
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function searchFor(page: Page, term: string) {
  await page.fill('#q', term);
  await page.waitForFunction((t) => document.getElementById('search-status')?.textContent?.includes(`“${t}”`) && !document.getElementById('search-status')?.textContent?.startsWith('Searching'), term, WAIT);
}

async function openMatch(page: Page, name: string) {
  await page.click(`#matches button.match:has(.name:text-is("${name}"))`);
  await page.waitForFunction((n) => document.getElementById('entity-h')?.textContent === n && !!document.querySelector('#entity-body h3'), name, WAIT);
}

/** A term the API answers as unresolved with suggestions, and their names (found in the real knowledge base). */
function nearMiss(): { term: string; suggestions: string[] } {
  const engine = sharedEngine();
  for (const e of engine.kb.entities) {
    const words = e.name.split(' ');
    if (words.length !== 3 || words[0]!.length < 7 || !/^[a-z]+$/i.test(words[0]!)) continue;
    const w = words[0]!.toLowerCase();
    const term = w.slice(0, -2) + w.at(-1) + w.at(-2);
    const body = engine.resolveEntity({ q: term, limit: 5 }).body as { state: string; suggestions?: { canonical_name: string }[] };
    if (body.state === 'unresolved' && body.suggestions?.length) return { term, suggestions: body.suggestions.map((s) => s.canonical_name) };
  }
  throw new Error('no term with suggestions in the knowledge base');
}

async function axeViolations(page: Page) {
  await page.evaluate(fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(() => (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('playground page in Chromium', { skip: NO_BROWSER }, () => {
  let browser: Browser;
  let svc: { t: App; base: string };

  before(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    svc = await serve(HIGH_LIMITS);
  });
  after(async () => {
    await browser?.close();
    await svc?.t.close();
  });

  test('GET / serves the page and its assets from the service, with a strict CSP', async () => {
    const r = await fetch(`${svc.base}/`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/html/);
    assert.match(r.headers.get('content-security-policy')!, /connect-src 'self'/);
    const html = await r.text();
    assert.ok(!/https?:\/\//.test(html), 'the page names no other host');
    const js = await fetch(`${svc.base}/playground/app.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type')!, /javascript/);
    const again = await fetch(`${svc.base}/playground/app.js`, { headers: { 'If-None-Match': js.headers.get('etag')! } });
    assert.equal(again.status, 304);
    assert.equal((await fetch(`${svc.base}/playground/app.css`)).status, 200);
    const doc = (await (await fetch(`${svc.base}/openapi.json`)).json()) as { info: { description: string } };
    assert.match(doc.info.description, /\[playground\]\(\/\)/, '/docs links the playground');
  });

  test('typing "shiraz" shows Syrah as resolved, with type, score, matched_on and the matched name', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await page.type('#q', 'shiraz', { delay: 20 });
    const state = await page.waitForSelector('#search-status [data-state]', WAIT);
    assert.equal(await state.getAttribute('data-state'), 'resolved');
    const first = page.locator('#matches button.match').first();
    assert.equal(await first.locator('.name').textContent(), 'Syrah');
    assert.equal(await first.locator('.score').textContent(), 'score 97');
    assert.match((await first.locator('.why').textContent())!, /grape · wine · matched on alias “Shiraz”/);
    // the demo object: remaining requests and the keyed equivalent
    assert.match((await page.textContent('#remaining'))!, /Demo requests left this hour: \d+\./);
    assert.match((await page.textContent('#curl'))!, /curl -H "Authorization: Bearer \$DRINKS_API_KEY" ".*\/v1\/resolve-entity\?q=shiraz"/);
    await shot(page, 'search-resolved');
    await openMatch(page, 'Syrah');
    // facts carry their source as a link; aliases are grouped by language; a taste profile exists
    const vivc = page.locator('#entity-body dl.facts a[href="https://www.vivc.de/"]').first();
    assert.match((await vivc.textContent())!, /Julius Kühn-Institut.*VIVC/);
    assert.ok(await page.locator('#entity-body ul[data-language="fr"] li', { hasText: 'Sirah' }).count());
    assert.match((await page.locator('#entity-body h4', { hasText: 'French (fr)' }).textContent())!, /French/);
    assert.ok(await page.locator('#entity-body .taste h4', { hasText: 'Shiraz, Australia' }).count());
    await shot(page, 'entity-syrah');
    await close();
  });

  test('"pinot" shows the ambiguity list to pick from', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await searchFor(page, 'pinot');
    assert.equal(await page.getAttribute('#search-status [data-state]', 'data-state'), 'ambiguous');
    assert.match((await page.textContent('#search-status'))!, /can mean 4 entities\. Pick one/);
    const names = await page.locator('#matches .name').allTextContents();
    assert.deepEqual([...names].sort(), ['Pinot Blanc', 'Pinot Gris', 'Pinot Meunier', 'Pinot Noir']);
    await shot(page, 'search-ambiguous');
    await openMatch(page, 'Pinot Noir');
    await close();
  });

  test('an unknown term shows the unresolved state, with the suggestions where the API gives them', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await searchFor(page, 'xqzzy');
    assert.equal(await page.getAttribute('#search-status [data-state]', 'data-state'), 'unresolved');
    assert.match((await page.textContent('#search-status'))!, /No match for “xqzzy”\. The service knows no entity by this name\./);
    assert.equal(await page.locator('#matches li').count(), 0);
    await searchFor(page, 'sake');
    assert.match((await page.textContent('#search-status'))!, /outside wine, spirits and beer/);
    // a misspelt first word of a three-word name scores below the threshold: the API suggests names
    const near = nearMiss();
    await searchFor(page, near.term);
    assert.equal(await page.getAttribute('#search-status [data-state]', 'data-state'), 'unresolved');
    assert.match((await page.textContent('#search-status'))!, /Nearest names:/);
    assert.deepEqual(await page.locator('#matches .name').allTextContents(), near.suggestions);
    assert.match((await page.locator('#matches .why').first().textContent())!, /near “/);
    await close();
  });

  test('a term without pairing evidence shows the boundary message, never an empty box; a geography shows its parent', async () => {
    const { page, close } = await openPage(browser, svc.base);
    // (Gattinara has no verified pairing set; Barolo got one in 2026.11.3)
    await searchFor(page, 'gattinara');
    await openMatch(page, 'Gattinara');
    const pairingHead = page.locator('#entity-body details[data-pairing] summary h3', { hasText: 'Food pairing' });
    assert.equal(await pairingHead.count(), 1);
    await pairingHead.click();
    const boundary = page.locator('#entity-body details[data-pairing] p[data-boundary]');
    await boundary.waitFor(WAIT);
    assert.match((await boundary.textContent())!, /No verified, source-backed pairing evidence exists for this entity.*Generic pairing guidance is never substituted/);
    assert.equal(await page.locator('#entity-body dl.facts button', { hasText: 'Italy' }).first().textContent(), 'Italy');
    await shot(page, 'entity-gattinara-boundary');
    await close();
  });

  test('the footer names the knowledge-base release from GET /v1/kb, with its counts and the link to its notes (issue 36)', async () => {
    const { page, requests, close } = await openPage(browser, svc.base);
    const kb = sharedEngine().kb;
    await page.waitForFunction((v) => document.getElementById('kb-release')!.textContent!.includes(v), kb.version, WAIT);
    const text = (await page.textContent('#kb-release'))!;
    assert.match(text, new RegExp(`Knowledge base release ${kb.version.replace(/\./g, '\\.')}`));
    assert.ok(text.includes(kb.entities.length.toLocaleString('en')), text);
    if (kb.releaseNotes() !== null) assert.equal(await page.getAttribute('#kb-release a', 'href'), '/v1/kb/notes');
    assert.ok(requests.some((u) => u.endsWith('/v1/kb')), 'read from /v1/kb');
    assert.ok(!requests.some((u) => u.includes('/v1/demo/kb')), 'no demo request spent on it');
    await close();
  });

  test('an entity view costs one demo request, its food pairing one more only when opened; the page states the budget (issue 24, item 5)', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await searchFor(page, 'barolo');
    const left = async () => Number(/left this hour: (\d+)/.exec((await page.textContent('#remaining'))!)![1]);
    assert.match((await page.textContent('#budget'))!, /Without a key you have \d+ demo requests an hour \(at most \d+ a minute\)\. .*opening an entity's food pairing uses one more/);
    const before = await left();
    await openMatch(page, 'Barolo');
    await page.waitForFunction((n) => new RegExp(`left this hour: ${n}\\.`).test(document.getElementById('remaining')!.textContent!), before - 1, WAIT);
    assert.equal(await left(), before - 1, 'opening the entity used one request');
    assert.equal(await page.locator('#entity-body details[data-pairing][open]').count(), 0, 'the pairing is closed until asked for');
    await page.locator('#entity-body details[data-pairing] summary').click();
    await page.locator('#entity-body details[data-pairing] li[data-pairing-key]').first().waitFor(WAIT);
    assert.equal(await left(), before - 2, 'opening the pairing used one more');
    // closing and opening again asks nothing more
    await page.locator('#entity-body details[data-pairing] summary').click();
    await page.locator('#entity-body details[data-pairing] summary').click();
    assert.equal(await left(), before - 2);
    await close();
  });

  test('a pairing item links to its source, with excerpt and authority, grouped by scope; a missing taste profile shows its boundary', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await searchFor(page, 'vinho verde');
    await openMatch(page, 'Vinho Verde');
    // the country fact shows the country it names, with its code (issue 24, item 3)
    assert.match((await page.locator('#entity-body dl.facts dt:text-is("Country") + dd').textContent())!, /^Portugal \(PT\)/);
    await page.locator('#entity-body details[data-pairing] summary').click();
    const item = page.locator('#entity-body li[data-pairing-key="grilled_sardines"]');
    await item.waitFor(WAIT);
    const link = item.locator('a[href="https://www.winesofportugal.com/en/discover/gastronomy/"]');
    assert.match((await link.textContent())!, /ViniPortugal \(Wines of Portugal\): Gastronomy and Portuguese Wines/);
    assert.match((await item.locator('blockquote').textContent())!, /red Vinho Verde can seriously go well with grilled sardines/);
    assert.match((await item.textContent())!, /Authority: official regional wine body/);
    assert.ok(await page.locator('#entity-body h4', { hasText: 'For Geography: Vinho Verde · Style: red' }).count());
    const taste = page.locator('#entity-body h3:text-is("Taste profile") + p[data-boundary]');
    assert.match((await taste.textContent())!, /No sourced sensory reference expression exists/);
    await shot(page, 'entity-vinho-verde');
    await close();
  });

  test('compare shows two entities side by side', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await page.fill('#left', 'syrah');
    await page.fill('#right', 'barolo');
    await page.click('#compare-form button[type=submit]');
    await page.waitForSelector('#compare-result [data-side=right] h3', WAIT);
    assert.equal(await page.textContent('#compare-result [data-side=left] h3'), 'Syrah');
    assert.equal(await page.textContent('#compare-result [data-side=right] h3'), 'Barolo');
    const boxes = await Promise.all(['left', 'right'].map((s) => page.locator(`#compare-result [data-side=${s}]`).boundingBox()));
    assert.ok(boxes[0] && boxes[1] && Math.abs(boxes[0].y - boxes[1].y) < 2 && boxes[0].x < boxes[1].x, 'side by side on a desktop');
    await shot(page, 'compare');
    await close();
  });

  test('compare says what sets the two apart first: differences and contrasts above the two profiles (issue 33, items 5 and 7)', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await page.fill('#left', 'pinot noir');
    await page.fill('#right', 'gamay');
    await page.click('#compare-form button[type=submit]');
    await page.waitForSelector('#compare-result [data-comparison] h3', WAIT);
    assert.equal(await page.textContent('#compare-result [data-comparison] h3'), 'What sets them apart');
    const part = (await page.textContent('#compare-result [data-comparison]'))!;
    assert.match(part, /Appellations only for Pinot Noir \(\d+\)/);
    assert.match(part, /Appellations only for Gamay \(\d+\)/);
    const boxes = await Promise.all(['[data-comparison]', '[data-side=left]'].map((s) => page.locator(`#compare-result ${s}`).boundingBox()));
    assert.ok(boxes[0] && boxes[1] && boxes[0].y < boxes[1].y, 'the comparison comes before the profiles');
    // a profile's catalogue id comes after the facts that describe it
    const terms = await page.locator('#compare-result [data-side=left] dl.facts dt').allTextContents();
    assert.equal(terms.at(-1), 'Vivc id', terms.join(','));
    // a compare side names each fact's source by key; the page still shows its publisher and title, from the side's sources
    const vivc = sharedEngine().kb.sources.get('vivc')!;
    const line = (await page.locator('#compare-result [data-side=left] dl.facts dd .src').last().textContent())!;
    assert.ok(line.startsWith(`Source: ${vivc.publisher}: ${vivc.title}`), line);
    // the allowance left is shown at the top of the page too (on a phone the side panel is at the bottom)
    assert.match((await page.textContent('#remaining-top'))!, /^Demo requests left this hour: \d+\.$/);
    await close();
  });

  test('a line with a colour word says which scope it applied, and implies the grapes of that colour only (issue 33, items 1 and 7)', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await page.fill('#line', 'Sancerre rouge 2020, Domaine Vacheron');
    await page.click('#line-form button[type=submit]');
    await page.waitForSelector('#line-result [data-applied-scope]', WAIT);
    assert.match((await page.textContent('#line-result [data-applied-scope]'))!, /^Read as red \(the word “rouge”\)/);
    assert.ok(await page.locator('#line-result li', { hasText: "Grape from the appellation's rules: Pinot Noir" }).count());
    assert.equal(await page.locator('#line-result li', { hasText: "Grape from the appellation's rules: Sauvignon Blanc" }).count(), 0);
    assert.match((await page.textContent('#line-hint'))!, /up to 80 characters/);
    await close();
  });

  test('a pasted wine-list line is read: the appellation, the producer unexplained, the vintage', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await page.fill('#line', 'Brunello di Montalcino Casanova di Neri 2016');
    await page.click('#line-form button[type=submit]');
    await page.waitForSelector('#line-result .line mark.mention', WAIT);
    assert.equal(await page.textContent('#line-result .line mark.mention'), 'Brunello di Montalcino');
    assert.equal(await page.textContent('#line-result .line mark.unexplained'), 'Casanova di Neri');
    assert.equal(await page.textContent('#line-result .line mark.term'), '2016');
    assert.match((await page.textContent('#line-status'))!, /This line is about Brunello di Montalcino/);
    assert.ok(await page.locator('#line-result li', { hasText: 'Vintage 2016' }).count());
    assert.ok(await page.locator('#line-result li', { hasText: "Grape from the appellation's rules: Sangiovese" }).count());
    await shot(page, 'parse-line');
    await close();
  });

  test('what to drink with a food: ranked drinks, each item with its excerpt and a link to its source; a near miss suggests foods', async () => {
    const { page, close } = await openPage(browser, svc.base);
    await page.fill('#food', 'oysters');
    await page.click('#food-form button[type=submit]');
    await page.waitForSelector('#food-result ol.drinks > li', WAIT);
    assert.match((await page.textContent('#food-status'))!, /verified sources pair with oysters/);
    const first = page.locator('#food-result ol.drinks > li').first();
    assert.ok(await first.locator('button.link').count(), 'the drink opens its entity');
    const href = await first.locator('ul.evidence li a').first().getAttribute('href');
    assert.match(href!, /^https?:\/\//);
    assert.ok((await first.locator('ul.evidence li span.excerpt').first().textContent())!.length >= 20, 'the excerpt is shown');
    await shot(page, 'pair-food');
    await page.fill('#food', 'salomn');
    await page.click('#food-form button[type=submit]');
    await page.waitForFunction(() => /Did you mean/.test(document.querySelector('#food-status')?.textContent ?? ''), undefined, WAIT);
    assert.match((await page.textContent('#food-status'))!, /salmon/);
    await close();
  });

  test('keyboard only: search, pick a result, read the entity view, start a comparison', async () => {
    const { page, close } = await openPage(browser, svc.base);
    const active = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', cls: document.activeElement?.className ?? '', text: document.activeElement?.textContent ?? '' }));
    for (let i = 0; i < 10 && (await active()).id !== 'q'; i++) await page.keyboard.press('Tab');
    assert.equal((await active()).id, 'q', 'the search box is reached with Tab');
    await page.keyboard.type('syrah');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#search-status [data-state=resolved]', WAIT);
    await page.keyboard.press('Tab');
    const onMatch = await active();
    assert.equal(onMatch.cls, 'match');
    assert.match(onMatch.text, /^Syrah/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'entity-h' && document.activeElement.textContent === 'Syrah', null, WAIT);
    await page.keyboard.press('Tab');
    assert.equal((await active()).text, 'Compare with another');
    await page.keyboard.press('Enter');
    assert.equal((await active()).id, 'right');
    assert.equal(await page.inputValue('#left'), 'Syrah');
    await page.keyboard.type('nebbiolo');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#compare-result [data-side=right] h3', WAIT);
    assert.equal(await page.textContent('#compare-result [data-side=right] h3'), 'Nebbiolo');
    await close();
  });

  test('no request leaves for any host but the service', async () => {
    const { page, requests, close } = await openPage(browser, svc.base);
    await searchFor(page, 'vinho verde');
    await openMatch(page, 'Vinho Verde');
    await page.locator('#entity-body details[data-pairing] summary').click();
    await page.locator('#entity-body details[data-pairing] li[data-pairing-key]').first().waitFor(WAIT);
    await page.fill('#left', 'syrah');
    await page.fill('#right', 'vinho verde');
    await page.click('#compare-form button[type=submit]');
    await page.waitForSelector('#compare-result [data-side=right] h3', WAIT);
    const origin = new URL(svc.base).origin;
    const elsewhere = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
    assert.deepEqual(elsewhere, []);
    const api = requests.filter((u) => new URL(u).pathname.startsWith('/v1/'));
    assert.ok(api.length >= 4);
    // the demo twins, and the keyless, never-counted release summary of the footer (issue 36)
    assert.deepEqual(api.filter((u) => !new URL(u).pathname.startsWith('/v1/demo/') && new URL(u).pathname !== '/v1/kb'), [], 'only the demo twins and /v1/kb are called');
    await close();
  });

  test('axe-core finds no serious or critical violation; the layout holds at 360 px and on a desktop', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 360, height: 740 }]) {
      const { page, close } = await openPage(browser, svc.base, viewport);
      if (viewport.width > 360) assert.deepEqual(await axeViolations(page), [], 'empty page');
      await searchFor(page, 'syrah');
      await openMatch(page, 'Syrah');
      await page.fill('#left', 'syrah');
      await page.fill('#right', 'barolo');
      await page.click('#compare-form button[type=submit]');
      await page.waitForSelector('#compare-result [data-side=right] h3', WAIT);
      assert.deepEqual(await axeViolations(page), [], `entity view and compare at ${viewport.width} px`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `no horizontal scrolling at ${viewport.width} px (overflow ${overflow} px)`);
      if (viewport.width === 360) await shot(page, 'entity-360px');
      await close();
    }
  });
});

describe('playground under the demo limit', { skip: NO_BROWSER }, () => {
  let browser: Browser;
  let svc: { t: App; base: string };

  before(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    svc = await serve({ ...HIGH_LIMITS, DEMO_PER_IP_PER_MINUTE: '3' });
  });
  after(async () => {
    await browser?.close();
    await svc?.t.close();
  });

  test('past the per-minute limit the page shows the API message, the retry time and the plans link, and sends nothing more', async () => {
    const { page, requests, close } = await openPage(browser, svc.base);
    const demoCalls = () => requests.filter((u) => new URL(u).pathname.startsWith('/v1/demo/')).length;
    await searchFor(page, 'syrah'); // 1
    await openMatch(page, 'Syrah'); // 2: explain
    assert.equal(demoCalls(), 2);
    await page.locator('#entity-body details[data-pairing] summary').click(); // 3: pair, once opened
    await page.locator('#entity-body details[data-pairing] li[data-pairing-key], #entity-body details[data-pairing] p[data-boundary]').first().waitFor(WAIT);
    assert.equal(demoCalls(), 3);
    const refused = refusalMessage(page);
    await page.fill('#q', 'barolo'); // 4: refused
    const alert = await page.waitForSelector('#limit:not([hidden])', WAIT);
    assert.equal(await alert.getAttribute('role'), 'alert');
    const message = await page.textContent('#limit-message');
    assert.equal(message, await refused, "the API's own message");
    assert.match(message!, /^Demo limit of 3 requests per minute per IP reached.*Get a key at .*\/plans/);
    assert.match((await page.textContent('#limit-retry'))!, /You can try again at \d\d:\d\d:\d\d UTC \(in \d+ s\)\. The page will not retry on its own\./);
    assert.match((await page.getAttribute('#limit-plans', 'href'))!, /\/plans$/);
    assert.equal(demoCalls(), 4);
    await page.waitForFunction(() => document.getElementById('search-status')?.textContent?.startsWith('Refused: the demo limit is reached'), null, WAIT);
    assert.equal(await page.locator('#matches li').count(), 0, 'no list left over from another term');
    await shot(page, 'rate-limited');
    // more typing while refused sends nothing: the page says so instead
    await page.fill('#q', 'nebbiolo');
    await page.waitForFunction(() => document.getElementById('search-status')?.textContent?.startsWith('Not sent: the demo limit is reached'), null, WAIT);
    await page.fill('#left', 'syrah');
    await page.fill('#right', 'barolo');
    await page.click('#compare-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('compare-status')?.textContent?.startsWith('Not sent: the demo limit is reached'), null, WAIT);
    // the refusal is said beside the form that was refused, with the API's message and the retry time
    assert.match((await page.textContent('#compare-status'))!, /^Not sent: the demo limit is reached\. Demo limit of 3 requests per minute .* You can try again at \d\d:\d\d:\d\d UTC\.$/);
    assert.equal(demoCalls(), 4, 'no request after the refusal');
    await close();
  });

  test('at the daily cap the page shows the API message with its retry time and sends nothing more', async () => {
    const capped = await serve({ ...HIGH_LIMITS, DEMO_DAILY_CAP: '1' });
    try {
      const { page, requests, close } = await openPage(browser, capped.base);
      await searchFor(page, 'syrah');
      const refused = refusalMessage(page);
      await page.fill('#q', 'barolo');
      await page.waitForSelector('#limit:not([hidden])', WAIT);
      assert.equal(await page.textContent('#limit strong'), 'The demo daily cap is reached.');
      const message = await page.textContent('#limit-message');
      assert.equal(message, await refused, "the API's own message");
      assert.match(message!, /^The demo daily cap of 1 requests across all callers is reached/);
      assert.match((await page.textContent('#limit-retry'))!, /You can try again at \d\d:\d\d:\d\d UTC \(in (\d+ h )?\d+ (min|s)\)/);
      const sent = requests.length;
      await page.fill('#q', 'nebbiolo');
      await page.waitForFunction(() => document.getElementById('search-status')?.textContent?.startsWith('Not sent'), null, WAIT);
      assert.equal(requests.length, sent);
      await close();
    } finally {
      await capped.t.close();
    }
  });
});
