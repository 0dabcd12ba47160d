// The playground page's script (runs in the browser; bundled by src/routes/playground.ts).
// It calls only the keyless /v1/demo/ twins of this service, never holds a key, and renders what
// the API says: resolution state, facts with their sources, aliases, relations, taste profile and
// pairing guidance, or the API's boundary message where the evidence stops. All text goes in
// through textContent (source data is never parsed as HTML) and links only ever point to http(s).
// Demo limits are shown honestly: on DEMO_RATE_LIMITED / DEMO_DAILY_CAP_REACHED the page shows the
// API's message and waits until the retry time before it sends anything again; it never retries
// on its own.

type Json = Record<string, any>;

const DEBOUNCE_MS = 300;
const MIN_TERM = 2;

// ---------------------------------------------------------------------------------------------
// DOM building

type Child = Node | string | null | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string | boolean | ((e: Event) => void)> = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false) el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

function $(id: string): HTMLElement {
  return document.getElementById(id)!;
}

/** A link to an outside source, or plain text when the address is not http(s). */
function sourceLink(url: unknown, text: string): Node {
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) return h('a', { href: url, rel: 'noopener noreferrer external' }, text);
  return document.createTextNode(text);
}

function label(key: string): string {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

let languageNames: Intl.DisplayNames | undefined;
function languageName(code: string): string {
  try {
    languageNames ??= new Intl.DisplayNames(['en'], { type: 'language' });
    const name = languageNames.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code || 'no language given';
  }
}

// ---------------------------------------------------------------------------------------------
// Talking to the demo twins

/** The demo refused this call (sent: true) or the page held it back until the retry time (sent: false). */
class DemoLimited extends Error {
  constructor(readonly sent: boolean) {
    super(sent ? 'refused by the demo limit' : 'held back until the demo limit resets');
  }
}

interface DemoResult {
  ok: boolean;
  status: number;
  body: Json;
}

let blockedUntil = 0;
/** The last refusal's message and retry time, repeated in the status of the section that was refused. */
let refusal = '';

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}

function showLimit(body: Json, retryAfterSeconds: number) {
  const err = body.error ?? {};
  blockedUntil = Date.now() + retryAfterSeconds * 1000;
  const at = new Date(blockedUntil);
  const box = $('limit');
  box.replaceChildren(
    h('strong', {}, err.code === 'DEMO_DAILY_CAP_REACHED' ? 'The demo daily cap is reached.' : 'Demo limit reached.'),
    h('p', { id: 'limit-message' }, String(err.message ?? 'The demo limit is reached.')),
    h('p', { id: 'limit-retry' }, `You can try again at ${at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short' })} (in ${duration(retryAfterSeconds)}). The page will not retry on its own.`),
    h('p', {}, h('a', { href: typeof err.plans === 'string' ? err.plans : '/plans', id: 'limit-plans' }, 'See the plans and get a key'), ' for more requests.'),
  );
  box.hidden = false;
  refusal = `${String(err.message ?? 'The demo limit is reached.')} You can try again at ${at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short' })}.`;
}

function updateDemo(demo: Json | undefined) {
  if (!demo) return;
  if (typeof demo.remaining_this_hour === 'number') {
    $('remaining').textContent = `Demo requests left this hour: ${demo.remaining_this_hour}.`;
    // the same count at the top of the page: on a phone the side panel is at the very bottom
    $('remaining-top').textContent = `Demo requests left this hour: ${demo.remaining_this_hour}.`;
  }
  const lim = demo.limits ?? {};
  if (typeof lim.per_ip_per_hour === 'number' && typeof lim.per_ip_per_minute === 'number') {
    $('budget').textContent = `Without a key you have ${lim.per_ip_per_hour} demo requests an hour (at most ${lim.per_ip_per_minute} a minute). Each search (sent when you stop typing), opening an entity, comparison, wine-list line and food uses one; opening an entity's food pairing uses one more.`;
  }
  if (typeof demo.authenticated_equivalent === 'string') $('curl').replaceChildren(h('code', {}, demo.authenticated_equivalent));
  if (typeof demo.plans === 'string') $('plans-link').setAttribute('href', demo.plans);
}

/** One call to a demo twin. Throws DemoLimited while (or when) the demo refuses; never retries. */
async function callDemo(endpoint: string, params: Record<string, string>, signal?: AbortSignal): Promise<DemoResult> {
  if (Date.now() < blockedUntil) throw new DemoLimited(false);
  const res = await fetch(`/v1/demo/${endpoint}?${new URLSearchParams(params)}`, { signal, headers: { Accept: 'application/json' } });
  let body: Json;
  try {
    body = await res.json();
  } catch {
    body = { ok: false, error: { code: 'INTERNAL_ERROR', message: `The service answered ${res.status} without a JSON body.` } };
  }
  const code = body?.error?.code;
  if (code === 'DEMO_RATE_LIMITED' || code === 'DEMO_DAILY_CAP_REACHED') {
    const retry = Number.parseInt(res.headers.get('Retry-After') ?? '', 10);
    showLimit(body, Number.isFinite(retry) && retry > 0 ? retry : 60);
    throw new DemoLimited(true);
  }
  if (res.ok) {
    $('limit').hidden = true;
    updateDemo(body.demo);
  }
  return { ok: res.ok, status: res.status, body };
}

function errorText(err: unknown): string {
  // the refusal is said here, beside the form that was refused (the alert box may be far up the page)
  if (err instanceof DemoLimited) return `${err.sent ? 'Refused' : 'Not sent'}: the demo limit is reached. ${refusal}`.trim();
  return 'The service did not answer. Check that it is running and try again.';
}

// ---------------------------------------------------------------------------------------------
// Search: resolve as you type

let timer: ReturnType<typeof setTimeout> | undefined;
let inflight: AbortController | undefined;
let lastTerm = '';

function matchButton(m: Json): HTMLElement {
  // suggestions (below the resolve threshold) carry no matched_on
  const how = m.matched_on ? `matched on ${String(m.matched_on).replace(/_/g, ' ')} “${m.match_value ?? ''}”` : `near “${m.match_value ?? ''}”`;
  const why = [String(m.entity_type ?? '').replace(/_/g, ' '), m.domain, how].filter(Boolean).join(' · ');
  return h(
    'li',
    {},
    h(
      'button',
      { type: 'button', class: 'match', 'data-entity-id': String(m.entity_id), onclick: () => openEntity(String(m.entity_id), String(m.canonical_name)) },
      // the spaces keep the button's accessible name readable ("Syrah score 97 grape · …")
      h('span', { class: 'name' }, String(m.canonical_name)),
      ' ',
      h('span', { class: 'score' }, `score ${m.match_score}`),
      ' ',
      h('span', { class: 'why' }, why),
    ),
  );
}

function renderResolve(term: string, body: Json) {
  const status = $('search-status');
  const list = $('matches');
  const state = String(body.state);
  const badge = h('span', { class: `state ${state}`, 'data-state': state }, state === 'resolved' ? 'Resolved' : state === 'ambiguous' ? 'Ambiguous' : 'Not resolved');
  const matches: Json[] = Array.isArray(body.matches) ? body.matches : [];
  if (state === 'resolved') {
    status.replaceChildren(badge, `“${term}” is ${matches[0]?.canonical_name} (${String(matches[0]?.entity_type ?? '').replace(/_/g, ' ')}). Choose it to see what the service knows.`);
    list.replaceChildren(...matches.map(matchButton));
  } else if (state === 'ambiguous') {
    status.replaceChildren(badge, `“${term}” can mean ${matches.length} entities. Pick one:`);
    list.replaceChildren(...matches.map(matchButton));
  } else {
    const suggestions: Json[] = Array.isArray(body.suggestions) ? body.suggestions : [];
    const why = body.coverage === 'out_of_scope' ? ' It names a drink outside wine, spirits and beer, which this service does not cover.' : ' The service knows no entity by this name.';
    status.replaceChildren(badge, `No match for “${term}”.${why}`, suggestions.length ? ' Nearest names:' : '');
    list.replaceChildren(...suggestions.map(matchButton));
  }
}

async function search(term: string) {
  lastTerm = term;
  inflight?.abort();
  const ctl = (inflight = new AbortController());
  $('search-status').textContent = `Searching for “${term}”…`;
  try {
    const r = await callDemo('resolve-entity', { q: term }, ctl.signal);
    if (ctl.signal.aborted) return;
    if (r.ok) renderResolve(term, r.body);
    else {
      $('search-status').textContent = String(r.body?.error?.message ?? `The service answered ${r.status}.`);
      $('matches').replaceChildren();
    }
  } catch (err) {
    if (ctl.signal.aborted) return;
    lastTerm = ''; // not answered: the same term may be sent again by the user
    $('search-status').textContent = errorText(err);
    $('matches').replaceChildren(); // the list belonged to another term
  }
}

function scheduleSearch(now: boolean) {
  clearTimeout(timer);
  const term = (($('q') as HTMLInputElement).value ?? '').trim();
  if (term.length < MIN_TERM) {
    inflight?.abort();
    lastTerm = '';
    $('search-status').textContent = term ? `Type at least ${MIN_TERM} letters.` : '';
    $('matches').replaceChildren();
    return;
  }
  if (term === lastTerm) return; // already shown: no second call for the same term
  if (now) void search(term);
  else timer = setTimeout(() => void search(term), DEBOUNCE_MS);
}

// ---------------------------------------------------------------------------------------------
// Entity view: explain + pair

function entityButton(ref: Json): HTMLElement {
  return h('button', { type: 'button', class: 'link', onclick: () => openEntity(String(ref.entity_id), String(ref.canonical_name)) }, String(ref.canonical_name));
}

function renderValue(v: unknown): Child[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => (i ? [', ', ...renderValue(x)] : renderValue(x)));
  if (v && typeof v === 'object' && 'entity_id' in (v as Json)) return [entityButton(v as Json)];
  if (v && typeof v === 'object') return [JSON.stringify(v)];
  return [String(v)];
}

function provenanceOf(p: Json | undefined): HTMLElement | null {
  if (!p) return null;
  const name = [p.source_publisher, p.source_title].filter(Boolean).join(': ') || String(p.source_key ?? 'source');
  const via = p.retrieved_via;
  return h(
    'span',
    { class: 'src' },
    'Source: ',
    sourceLink(p.source_url, name),
    p.locator ? `, ${p.locator}` : '',
    via ? [' (read via ', sourceLink(via.url, via.kind ? String(via.kind) : 'a copy'), ')'] : null,
  );
}

function boundary(message: string): HTMLElement {
  return h('p', { class: 'boundary', 'data-boundary': '' }, message);
}

/** A profile's facts, each with its value and its source; the boundary when there are none. */
function factsList(profile: Json): HTMLElement {
  // catalogue ids (VIVC number, file number, style id…) last: they identify, they do not describe
  const CATALOGUE = new Set(['vivc_id', 'vivc_prime_name', 'file_number', 'style_id', 'legal_reference', 'cfr_section', 'wikidata_id']);
  const facts = Object.entries((profile.facts ?? {}) as Json).sort((a, b) => Number(CATALOGUE.has(a[0])) - Number(CATALOGUE.has(b[0])));
  if (!facts.length) return boundary('No sourced facts are recorded for this entity in this release.');
  // a country code or a VIVC country name is shown as the country entity it names (relations.country)
  const country = profile.relations?.country as Json | null | undefined;
  const valueOf = (k: string, v: unknown): Child[] =>
    country && (k === 'country' || k === 'country_of_origin') ? [entityButton(country), k === 'country' ? ` (${String(v)})` : ''] : renderValue(v);
  // a compare side gives a fact's source by source_key only: its title, publisher and url are in the profile's sources
  const sources = new Map(((profile.sources ?? []) as Json[]).map((s) => [s.source_key, s]));
  const withSource = (p: Json | undefined): Json | undefined => {
    const s = p && !p.source_title ? sources.get(p.source_key) : undefined;
    return s ? { ...p, source_title: s.title, source_publisher: s.publisher, source_url: s.url, retrieved_via: s.retrieved_via } : p;
  };
  // a cut list (an appellation's grape rules) says how many more there are
  const more = (f: Json) => (Array.isArray(f.value) && typeof f.value_total === 'number' && f.value_total > f.value.length ? ` and ${f.value_total - f.value.length} more` : '');
  return h('dl', { class: 'facts' }, ...facts.flatMap(([k, f]) => [h('dt', {}, label(k)), h('dd', {}, ...valueOf(k, (f as Json).value), more(f as Json), provenanceOf(withSource((f as Json).provenance)))]));
}

function factsSection(profile: Json): HTMLElement[] {
  return [h('h3', {}, 'Facts'), factsList(profile)];
}

function aliasesSection(profile: Json): HTMLElement[] {
  const aliases: Json[] = Array.isArray(profile.aliases) ? profile.aliases : [];
  if (!aliases.length) return [h('h3', {}, 'Other names'), h('p', {}, 'No other names are recorded.')];
  const byLang = new Map<string, Json[]>();
  for (const a of aliases) {
    const code = String(a.language_code ?? '');
    byLang.set(code, [...(byLang.get(code) ?? []), a]);
  }
  return [
    h('h3', {}, 'Other names, by language'),
    ...[...byLang.entries()].flatMap(([code, list]) => [
      h('h4', {}, languageName(code)),
      h('ul', { class: 'chips', 'data-language': code }, ...list.map((a) => h('li', {}, String(a.name), a.kind && a.kind !== 'synonym' ? ` (${String(a.kind).replace(/_/g, ' ')})` : ''))),
    ]),
  ];
}

function relationsSection(profile: Json): HTMLElement[] {
  const rel: Json = profile.relations ?? {};
  const isGeo = /geograph/.test(String(profile.entity_type));
  const out: HTMLElement[] = [];
  if (isGeo) {
    const children: Json[] = rel.children ?? [];
    out.push(
      h('h3', {}, 'Where it sits'),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Parent'),
        h('dd', {}, rel.parent ? entityButton(rel.parent) : 'None: this is a top-level area.'),
        h('dt', {}, 'Within'),
        h('dd', {}, ...(rel.ancestors?.length ? renderValue(rel.ancestors) : ['—'])),
        h('dt', {}, 'Children'),
        h('dd', {}, ...(children.length ? renderValue(children) : ['No smaller areas are recorded.'])),
      ),
    );
  }
  if (rel.grapes?.length) out.push(h('h3', {}, 'Grapes'), h('p', {}, ...renderValue(rel.grapes)));
  if (rel.geographies?.length) out.push(h('h3', {}, 'Places'), h('p', {}, ...renderValue(rel.geographies)));
  return out;
}

function tasteSection(explain: Json): HTMLElement[] {
  const exprs: Json[] = Array.isArray(explain.reference_expressions) ? explain.reference_expressions : [];
  if (!exprs.length) {
    return [h('h3', {}, 'Taste profile'), boundary(String(explain.sensory_boundary?.message ?? 'No sourced taste profile exists for this entity in this release; none is generated.'))];
  }
  return [
    h('h3', {}, 'Taste profile'),
    ...exprs.map((x) => {
      const scope = [x.geography_scope, x.style_scope].filter(Boolean).join(' · ');
      const dims = (['body', 'tannin', 'acidity', 'aromatic_intensity'] as const).filter((k) => x[k] !== null && x[k] !== undefined);
      const aromas: string[] = [...(x.primary_aromas ?? []), ...(x.development_aromas ?? [])];
      return h(
        'div',
        { class: 'taste' },
        h('h4', {}, String(x.expression_name)),
        scope ? h('p', { class: 'meta' }, `Scope: ${scope}`) : null,
        dims.length ? h('dl', { class: 'facts' }, ...dims.flatMap((k) => [h('dt', {}, label(k)), h('dd', {}, String(x[k]))])) : null,
        x.common_styles?.length ? h('p', {}, `Styles: ${x.common_styles.join(', ')}`) : null,
        aromas.length ? h('p', {}, `Aromas: ${aromas.join(', ')}`) : null,
        x.variation_notes?.length ? h('ul', {}, ...x.variation_notes.map((n: string) => h('li', {}, n))) : null,
        ...(x.provenance ?? []).map((p: Json) => h('span', { class: 'src' }, 'Source: ', sourceLink(p.locator, String(p.source)), p.supports?.length ? ` (for ${p.supports.join(', ').replace(/_/g, ' ')})` : '')),
      );
    }),
  ];
}

const SCOPES = ['geography_scope', 'style_scope', 'oak_scope', 'serving_scope', 'wine_age_scope', 'sweetness_scope'] as const;

/**
 * The food pairing of an entity view, asked for only when the visitor opens it: an entity view
 * costs one demo request (explain), and the pairing one more, only for those who want it.
 */
function pairingSection(id: string): HTMLElement[] {
  const body = h('div', { class: 'pairing-body' }, h('p', { class: 'meta' }, 'Open to load the verified pairing evidence (one more demo request).'));
  let state: 'idle' | 'loading' | 'done' = 'idle';
  const details = h('details', { 'data-pairing': '' }, h('summary', {}, h('h3', {}, 'Food pairing')), body);
  details.addEventListener('toggle', () => {
    if (!details.open || state !== 'idle') return;
    state = 'loading';
    body.replaceChildren(h('p', { role: 'status' }, 'Loading the pairing…'));
    callDemo('pair', { q: id }).then(
      (pair) => {
        state = 'done';
        body.replaceChildren(...pairingContent(pair));
      },
      (err) => {
        state = 'idle'; // closing and opening again asks again
        body.replaceChildren(h('p', {}, errorText(err)));
      },
    );
  });
  return [details];
}

function pairingContent(pair: DemoResult): HTMLElement[] {
  if (!pair.ok) return [h('p', {}, String(pair.body?.error?.message ?? 'Pairing could not be loaded.'))];
  const items: Json[] = pair.body.pairing?.guidance ?? [];
  if (!items.length) return [boundary(String(pair.body.boundary?.message ?? 'No verified, source-backed pairing evidence exists for this entity in this release.'))];
  const groups = new Map<string, Json[]>();
  for (const it of items) {
    const scope = SCOPES.filter((k) => it[k]).map((k) => `${label(k.replace(/_scope$/, ''))}: ${it[k]}`).join(' · ');
    groups.set(scope, [...(groups.get(scope) ?? []), it]);
  }
  // items tied to no style come first, under no "For …" heading (or one that says so beside scoped groups)
  const ordered = [...groups.entries()].sort((a, b) => (a[0] === '' ? -1 : b[0] === '' ? 1 : 0));
  return [
    ...ordered.flatMap(([scope, list]) => [
      ...(scope ? [h('h4', {}, `For ${scope}`)] : groups.size > 1 ? [h('h4', {}, 'Not tied to one style')] : []),
      h(
        'ul',
        { class: 'pairing' },
        ...list.map((it) =>
          h(
            'li',
            { 'data-pairing-key': String(it.pairing_key ?? '') },
            h('strong', {}, String(it.pairing_text ?? it.dish ?? it.food_item)),
            h('span', { class: 'src' }, [label(String(it.pairing_relationship ?? '')), it.dish, it.qualifier].filter(Boolean).join(' · ')),
            it.pairing_rationale ? h('p', {}, String(it.pairing_rationale)) : null,
            it.source_excerpt ? h('blockquote', typeof it.source_url === 'string' && /^https?:/.test(it.source_url) ? { cite: it.source_url } : {}, quoted(String(it.source_excerpt))) : null,
            h(
              'span',
              { class: 'src' },
              'Source: ',
              sourceLink(it.source_url, [it.source_publisher, it.source_title].filter(Boolean).join(': ')),
              it.source_section ? `, ${it.source_section}` : '',
              it.source_page ? `, p. ${it.source_page}` : '',
              it.source_authority ? `. Authority: ${String(it.source_authority).replace(/_/g, ' ')}.` : '',
            ),
          ),
        ),
      ),
    ]),
  ];
}

/** An excerpt in quotation marks, without doubling the marks an excerpt already opens or closes with. */
function quoted(text: string): string {
  const opens = /^[“"«„‘'‚]/.test(text);
  const closes = /[”"»“’']$/.test(text);
  return `${opens ? '' : '“'}${text}${closes ? '' : '”'}`;
}

let entityCall = 0;

async function openEntity(id: string, name: string) {
  const call = ++entityCall;
  const section = $('entity');
  const heading = $('entity-h');
  const body = $('entity-body');
  section.hidden = false;
  heading.textContent = name;
  body.replaceChildren(h('p', { role: 'status' }, `Loading what the service knows about ${name}…`));
  let explain: DemoResult;
  try {
    explain = await callDemo('explain', { q: id });
  } catch (err) {
    if (call !== entityCall) return;
    body.replaceChildren(h('p', {}, errorText(err)));
    heading.focus();
    return;
  }
  if (call !== entityCall) return;
  if (!explain.ok) {
    body.replaceChildren(h('p', {}, String(explain.body?.error?.message ?? `The service answered ${explain.status}.`)));
    heading.focus();
    return;
  }
  const profile: Json = explain.body.profile ?? {};
  heading.textContent = String(profile.canonical_name ?? name);
  body.replaceChildren(
    h('p', { class: 'meta' }, [String(profile.entity_type ?? '').replace(/_/g, ' '), profile.domain, profile.review_status && `review: ${profile.review_status}`, `id ${profile.entity_id}`].filter(Boolean).join(' · ')),
    h(
      'p',
      {},
      h('button', { type: 'button', onclick: () => startCompare(String(profile.canonical_name ?? name)) }, 'Compare with another'),
    ),
    ...factsSection(profile),
    ...aliasesSection(profile),
    ...relationsSection(profile),
    ...tasteSection(explain.body),
    ...pairingSection(id),
  );
  heading.focus();
}

// ---------------------------------------------------------------------------------------------
// Compare

function startCompare(name: string) {
  ($('left') as HTMLInputElement).value = name;
  const right = $('right') as HTMLInputElement;
  right.value = '';
  right.focus();
}

function compareSide(side: Json, which: string): HTMLElement {
  const profile: Json = side.profile ?? {};
  const name = String(profile.canonical_name ?? side.resolution?.canonical_name ?? side.query);
  const exprs: Json[] = side.reference_expressions ?? [];
  return h(
    'div',
    { 'data-side': which },
    h('h3', {}, name),
    h('p', { class: 'meta' }, [`“${side.query}”`, side.state, String(profile.entity_type ?? '').replace(/_/g, ' '), profile.domain].filter(Boolean).join(' · ')),
    factsList(profile),
    h('h4', {}, 'Taste profile'),
    exprs.length
      ? h(
          'ul',
          {},
          ...exprs.map((x) => h('li', {}, String(x.expression_name), x.body ? `: ${x.body}` : '', x.primary_aromas?.length ? ` Aromas: ${x.primary_aromas.join(', ')}.` : '')),
          // the compare side shows the first expression; the entity view has them all
          side.reference_expressions_more ? h('li', { 'data-more': '' }, `${side.reference_expressions_more.total - exprs.length} more in the `, h('button', { type: 'button', onclick: () => openEntity(String(profile.entity_id), name) }, `profile of ${name}`), '.') : null,
        )
      : boundary(String(side.sensory_boundary?.message ?? 'No sourced taste profile exists for this entity in this release.')),
  );
}

/** What sets two entities apart (the comparison's differences and contrasts), before their profiles. */
function comparisonPart(c: Json, ln: string, rn: string): HTMLElement {
  const rows: HTMLElement[] = [];
  // a list value shows its first few items; the total says how many there are
  const more = (shown: unknown, total: unknown) => (Array.isArray(shown) && typeof total === 'number' && total > shown.length ? ` and ${total - shown.length} more` : '');
  for (const d of (c.differences ?? []) as Json[]) {
    rows.push(h('li', {}, `${label(String(d.field))}: `, ...renderValue(d.left ?? d.relation), more(d.left, d.left_total), ` (${ln}) against `, ...renderValue(d.right ?? ''), more(d.right, d.right_total), ` (${rn})`));
  }
  const x: Json = c.contrasts ?? {};
  const list = (title: string, part: Json | undefined) => {
    if (!part) return;
    const names = (xs: Json[]) => (xs.length ? renderValue(xs) : ['none']);
    if (part.only_left_total || part.only_right_total) {
      rows.push(h('li', {}, `${title} only for ${ln} (${part.only_left_total}): `, ...names(part.only_left ?? []), part.only_left_total > (part.only_left ?? []).length ? ' …' : ''));
      rows.push(h('li', {}, `${title} only for ${rn} (${part.only_right_total}): `, ...names(part.only_right ?? []), part.only_right_total > (part.only_right ?? []).length ? ' …' : ''));
      rows.push(h('li', {}, `${title} for both: ${part.shared_total}`));
    }
  };
  list('Appellations', x.appellations);
  list('Grapes', x.grapes);
  if (x.pairings) {
    const p: Json = x.pairings;
    // each list shows a few foods; the total says how many there are
    const foods = (xs: string[], total: number | undefined) => `${xs.join(', ')}${total !== undefined && total > xs.length ? ` and ${total - xs.length} more` : ''}`;
    if (p.only_left?.length) rows.push(h('li', {}, `Verified pairings only for ${ln}: ${foods(p.only_left, p.only_left_total)}`));
    if (p.only_right?.length) rows.push(h('li', {}, `Verified pairings only for ${rn}: ${foods(p.only_right, p.only_right_total)}`));
    if (p.shared?.length) rows.push(h('li', {}, `Verified pairings for both: ${foods(p.shared, p.shared_total)}`));
  }
  if (x.sensory && x.sensory.left_available !== x.sensory.right_available) {
    rows.push(h('li', {}, `A sourced taste profile exists only for ${x.sensory.left_available ? ln : rn}.`));
  }
  const same = ((c.shared ?? []) as Json[]).map((s) => label(String(s.field)));
  return h(
    'div',
    { 'data-comparison': '' },
    h('h3', {}, 'What sets them apart'),
    rows.length ? h('ul', { class: 'contrasts' }, ...rows) : h('p', {}, 'Their sourced facts show no difference.'),
    same.length ? h('p', { class: 'meta' }, `The same for both: ${same.join(', ')}.`) : null,
  );
}

async function compare() {
  const left = ($('left') as HTMLInputElement).value.trim();
  const right = ($('right') as HTMLInputElement).value.trim();
  const status = $('compare-status');
  const out = $('compare-result');
  if (!left || !right) {
    status.textContent = 'Give two names to compare.';
    return;
  }
  status.textContent = `Comparing “${left}” with “${right}”…`;
  try {
    const r = await callDemo('compare', { left, right, provenance: 'by_key' });
    if (!r.ok) {
      status.textContent = String(r.body?.error?.message ?? `The service answered ${r.status}.`);
      out.replaceChildren();
      return;
    }
    const ln = String(r.body.left?.profile?.canonical_name ?? left);
    const rn = String(r.body.right?.profile?.canonical_name ?? right);
    status.textContent = `${ln} and ${rn}: what sets them apart first, then side by side.`;
    out.replaceChildren(comparisonPart(r.body.comparison ?? {}, ln, rn), compareSide(r.body.left ?? {}, 'left'), compareSide(r.body.right ?? {}, 'right'));
  } catch (err) {
    status.textContent = errorText(err);
  }
}

/** A product line read by /v1/demo/parse: the line with its spans marked, and what each span is. */
async function readLine() {
  const text = ($('line') as HTMLInputElement).value.trim();
  const status = $('line-status');
  const out = $('line-result');
  if (!text) {
    status.textContent = 'Paste a line to read.';
    return;
  }
  status.textContent = `Reading “${text}”…`;
  try {
    const r = await callDemo('parse', { text });
    if (!r.ok) {
      status.textContent = String(r.body?.error?.message ?? `The service answered ${r.status}.`);
      out.replaceChildren();
      return;
    }
    const b = r.body;
    const primary = b.primary;
    status.textContent = primary
      ? `${b.state === 'resolved' ? 'This line is about' : 'This line may be about'} ${primary.canonical_name} (${String(primary.entity_type).replace(/_/g, ' ')}).`
      : 'No wine, grape, region, style, spirit or beer named in this line.';
    // the line, each span marked by what explains it
    const spans: { start: number; end: number; cls: string; title: string }[] = [
      ...(b.mentions ?? []).map((m: Json) => ({ start: m.start, end: m.end, cls: 'mention', title: `${m.role.replace(/_/g, ' ')}: ${m.match.canonical_name}` })),
      ...(b.terms ?? []).map((t: Json) => ({ start: t.start, end: t.end, cls: 'term', title: `${t.kind.replace(/_/g, ' ')}: ${t.value}` })),
      ...(b.unexplained ?? []).map((u: Json) => ({ start: u.start, end: u.end, cls: 'unexplained', title: 'not explained (producer, cuvée…)' })),
    ].sort((x, y) => x.start - y.start);
    const line: Child[] = [];
    let at = 0;
    for (const s of spans) {
      if (s.start < at) continue;
      line.push(text.slice(at, s.start), h('mark', { class: s.cls, title: s.title }, text.slice(s.start, s.end)));
      at = s.end;
    }
    line.push(text.slice(at));
    const items: HTMLElement[] = [];
    for (const m of b.mentions ?? []) items.push(h('li', {}, `${m.text}: `, entityButton({ entity_id: m.match.entity_id, canonical_name: m.match.canonical_name }), ` (${m.role.replace(/_/g, ' ')})`));
    for (const t of b.terms ?? []) items.push(h('li', {}, `${t.text}: ${t.kind.replace(/_/g, ' ')} ${t.value}`));
    if (b.vintage !== null && b.vintage !== undefined) items.push(h('li', {}, `Vintage ${b.vintage}`));
    for (const g of b.implied ?? []) items.push(h('li', {}, `Grape from the appellation's rules: ${g.canonical_name} (${g.role}${g.scope ? `, ${g.scope}` : ''}) `, sourceLink(g.provenance?.source_url, g.provenance?.source_title ?? 'source')));
    const sc = b.applied_scope;
    if (sc) {
      items.push(
        h('li', { 'data-applied-scope': '' }, `Read as ${[...(sc.colours ?? []), ...(sc.sweetness ?? []), ...(sc.style ?? [])].map(String).join(', ')} (the word${sc.terms.length > 1 ? 's' : ''} “${(sc.terms as string[]).join('”, “')}”): only the grapes of the rules for that scope are shown${sc.left_out ? `; ${sc.left_out} for another scope left out` : ''}.`),
      );
    }
    const reasons = (b.ambiguity_reasons ?? []).length ? [h('p', { class: 'hint' }, `Not sure because: ${(b.ambiguity_reasons as string[]).join('; ')}.`)] : [];
    out.replaceChildren(h('p', { class: 'line', 'data-state': String(b.state) }, ...line), ...reasons, h('ul', { class: 'line-items' }, ...items));
  } catch (err) {
    status.textContent = errorText(err);
  }
}

/** Drinks for a food from /v1/demo/pair-food: each drink with the verified items behind it, sources linked. */
async function drinksFor() {
  const q = ($('food') as HTMLInputElement).value.trim();
  const status = $('food-status');
  const out = $('food-result');
  if (!q) {
    status.textContent = 'Name a food or dish.';
    return;
  }
  status.textContent = `Looking for drinks to go with “${q}”…`;
  try {
    const r = await callDemo('pair-food', { q });
    if (!r.ok) {
      const e = r.body?.error ?? {};
      const hint = Array.isArray(e.suggestions) && e.suggestions.length ? ` Did you mean: ${(e.suggestions as string[]).join(', ')}?` : '';
      status.textContent = String(e.message ?? `The service answered ${r.status}.`) + hint;
      out.replaceChildren();
      return;
    }
    const b = r.body;
    const food = (b.food?.matched ?? []).join(', ');
    if (!(b.drinks ?? []).length) {
      status.textContent = `${food}: ${b.boundary?.message ?? 'no verified pairing evidence.'}`;
      out.replaceChildren();
      return;
    }
    status.textContent = `Drinks that verified sources pair with ${food} (${b.drinks_total} in all, best supported first).`;
    const drinks = (b.drinks as Json[]).map((d) =>
      h(
        'li',
        { class: 'drink' },
        // the name with the scope its evidence is about ("Bordeaux, Clairet"), never the bare place
        entityButton({ entity_id: d.entity_id, canonical_name: d.display_name ?? d.canonical_name }),
        ` (${String(d.entity_type).replace(/_/g, ' ')}; ${d.source_count} source${d.source_count === 1 ? '' : 's'})`,
        h(
          'ul',
          { class: 'evidence' },
          ...(d.guidance as Json[]).map((g) =>
            h('li', {}, `${g.pairing_text} `, h('span', { class: 'excerpt', lang: String(g.language_code) }, quoted(String(g.source_excerpt))), ' — ', sourceLink(g.source_url, String(g.source_publisher))),
          ),
        ),
      ),
    );
    const shown = (b.drinks as Json[]).length;
    const rest = typeof b.drinks_total === 'number' && b.drinks_total > shown
      ? [h('p', { class: 'hint', 'data-more': '' }, `Showing ${shown} of ${b.drinks_total}. The demo returns at most ${shown}; with a key, /v1/pair-food returns up to 25 (the limit parameter).`)]
      : [];
    out.replaceChildren(h('ol', { class: 'drinks' }, ...drinks), ...rest);
  } catch (err) {
    status.textContent = errorText(err);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * The footer's knowledge-base release (GET /v1/kb: keyless and never counted, so it costs no demo
 * request): version, date, entity and source counts, and the link to the release's change notes.
 */
async function showRelease() {
  const p = $('kb-release');
  try {
    const res = await fetch('/v1/kb', { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const b = (await res.json()) as { knowledge_base_version: string; date: string | null; counts: { entities: number; sources: number }; notes_url: string | null };
    const n = (x: number) => x.toLocaleString('en');
    p.textContent = `Knowledge base release ${b.knowledge_base_version}${b.date ? ` of ${b.date}` : ''}: ${n(b.counts.entities)} entities from ${n(b.counts.sources)} sources.`;
    if (b.notes_url) {
      const a = document.createElement('a');
      a.href = b.notes_url;
      a.textContent = 'What changed in this release';
      p.append(' ', a, '.');
    }
  } catch {
    p.textContent = 'Knowledge base release: could not be read.';
  }
}

function start() {
  void showRelease();
  const q = $('q') as HTMLInputElement;
  q.addEventListener('input', () => scheduleSearch(false));
  $('search-form').addEventListener('submit', (e) => {
    e.preventDefault();
    scheduleSearch(true);
  });
  $('compare-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void compare();
  });
  // a paste longer than the demo's 80 characters is cut by the box: say so, with the count
  $('line').addEventListener('paste', (e) => {
    const t = (e as ClipboardEvent).clipboardData?.getData('text') ?? '';
    if ([...t].length > 80) $('line-status').textContent = `The pasted line has ${[...t].length} characters; the demo reads the first 80 (a key reads up to 300).`;
  });
  $('line-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void readLine();
  });
  $('food-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void drinksFor();
  });
  document.documentElement.dataset.ready = 'true';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
