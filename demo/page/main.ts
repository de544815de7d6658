/**
 * The demo page: a playground map with live options (its session's area too) and the code for them,
 * every callback in a log, the four styles side by side, the themes and languages side by side, and a
 * short session that expires and is remounted (or renewed). It uses only what an integrator has: `LOC`
 * from loc-embed.js and its own server's `/api/session`.
 */
import type { LocEmbedError, LocHandle, LocMountOptions } from '../../src/embed/public-types.ts';
import { changesOf, readControls, sameArea } from './controls.ts';
import { expiry } from './expiry.ts';
import { STYLES, THEMES } from './mount-options.ts';
import { pageProblems, showControlProblems } from './problems.ts';
import { appearanceOf, integratorSnippet, type SessionArea, type SnippetOptions } from './snippet.ts';

interface Session {
  session_token: string;
  expires_at: string;
}

/** Where the playground (as its form starts, in index.html) and the side-by-side maps open: the Eiffel Tower. */
const START_VIEW = { center: { lat: 48.8584, lng: 2.2945 }, zoom: 17 };

/**
 * The cell at START_VIEW's centre, a code an edit page would have saved: the theme and language maps
 * open on it (`value`), so their panel shows, in its colours and its words.
 */
const START_CODE = 'FR-0RMB-CLY0';

/**
 * The languages shown side by side — one with accents, one right to left, one of another script —
 * by their names in the page's language, English.
 */
const SIDE_BY_SIDE_LOCALES = { fr: 'French', ar: 'Arabic', ja: 'Japanese' } as const;

/**
 * The accessible names of the page's maps (the iframes' titles): twelve maps that all read "Map: choose
 * a location", the loader's default, cannot be told apart by a screen reader's list of frames.
 */
const TITLES = {
  playground: 'Playground map: choose a location',
  style: (style: string) => `${style[0].toUpperCase()}${style.slice(1)} style map: choose a location`,
  theme: (theme: string) => `${theme[0].toUpperCase()}${theme.slice(1)} theme map: choose a location`,
  // In the page's language, as every title: the map's own language is what the map shows.
  locale: (language: string) => `Map in ${language}: choose a location`,
  expiry: 'Short-session map: choose a location',
};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** A session from this site's own server, which holds the API key: of a lifetime, of an area, or the API's default. */
async function createSession(request: { ttl?: number } & SessionArea = {}): Promise<Session> {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = (await response.json()) as Session & { message?: string };
  if (!response.ok) throw new Error(body.message ?? `The session request failed with ${response.status}.`);
  return body;
}

/** The page's own problems (sessions, the loader); the form's are shown beside it (problems.ts). */
const showProblem = pageProblems($('problem'));

/** Adds a callback to the log, newest first; one without an argument (`onClear`) is its name alone. */
function log(source: string, name: string, payload?: unknown): void {
  const item = document.createElement('li');
  const time = new Date().toLocaleTimeString();
  item.textContent = `${time} ${source} ${name}${payload === undefined ? '' : ` ${JSON.stringify(payload)}`}`;
  if (name === 'onError') item.className = 'error';
  $('log').prepend(item);
}

/** The five callbacks, logged under `source`; `onError` also goes to `extra`. */
function logged(
  source: string,
  extra?: (error: LocEmbedError) => void,
): Pick<LocMountOptions, 'onSelect' | 'onPreview' | 'onClear' | 'onError' | 'onReady'> {
  return {
    onReady: (info) => log(source, 'onReady', info),
    onSelect: (result) => log(source, 'onSelect', result),
    onPreview: (result) => log(source, 'onPreview', result),
    onClear: () => log(source, 'onClear'),
    onError: (error) => {
      log(source, 'onError', error);
      extra?.(error);
    },
  };
}

type Fields = HTMLFormControlsCollection & Record<string, HTMLInputElement>;

/** What the playground holds between events: its options, its map, and the sessions it asked for. */
interface Playground {
  options: SnippetOptions;
  handle?: LocHandle;
  token: string;
  /** The area of the last session asked for: a new one is asked for only when the form's differs. */
  askedArea: SessionArea | undefined;
  /** Counts the sessions asked for: only the last one asked for is mounted. */
  asked: number;
  useLastCode: HTMLButtonElement;
}

/** The form's controls as text and ticks, as readControls reads them. */
function controlValues(fields: Fields) {
  return {
    height: fields.height.value,
    lat: fields.lat.value,
    lng: fields.lng.value,
    zoom: fields.zoom.value,
    style: (fields.style as unknown as HTMLSelectElement).value,
    confirm: fields.confirm.checked,
    renew: fields.renew.checked,
    title: fields.title.value,
    search: fields.search.checked,
    value: fields.value.value,
    countries: fields.countries.value,
    south: fields.south.value,
    west: fields.west.value,
    north: fields.north.value,
    east: fields.east.value,
    locale: (fields.locale as unknown as HTMLSelectElement).value,
    theme: (fields.theme as unknown as HTMLSelectElement).value,
    // A colour input always holds a colour: its box says whether it is set.
    colorPrimary: fields.colorPrimaryOn.checked ? fields.colorPrimary.value : '',
    colorBackground: fields.colorBackgroundOn.checked ? fields.colorBackground.value : '',
    colorText: fields.colorTextOn.checked ? fields.colorText.value : '',
    fontFamily: fields.fontFamily.value,
    borderRadius: fields.borderRadius.value,
  };
}

/** The playground's options before the form is read: what its controls show when the page opens. */
const PLAYGROUND_START: SnippetOptions = {
  apiUrl: document.body.dataset.apiUrl ?? '',
  height: '420px',
  ...START_VIEW,
  style: 'streets',
  confirm: true,
  renew: false,
  search: true,
  theme: 'light',
  variables: {},
};

/** Mounts the playground's map with its options and session, in place of the one before. */
function mountPlayground(state: Playground): void {
  const { options } = state;
  state.handle = LOC.mount('#playground-map', {
    sessionToken: state.token,
    height: options.height,
    center: options.center,
    zoom: options.zoom,
    style: options.style,
    confirm: options.confirm,
    title: options.title ?? TITLES.playground,
    search: options.search,
    ...(options.value === undefined ? {} : { value: options.value }),
    ...(options.locale === undefined ? {} : { locale: options.locale }),
    ...(appearanceOf(options) ? { appearance: appearanceOf(options) } : {}),
    // A renewed session keeps the area: the next one is asked for with it too.
    ...(options.renew ? { getSessionToken: () => createSession(state.options.area).then((s) => (state.token = s.session_token)) } : {}),
    ...logged('playground', (error) => {
      if (error.code === 'session_expired') void startPlayground(state, state.options.area);
    }),
    onSelect: (result) => {
      log('playground', 'onSelect', result);
      // What "Use the last chosen code" fills in: the value an edit page would open on.
      state.useLastCode.dataset.code = result.loc_code;
      state.useLastCode.disabled = false;
    },
  });
}

/**
 * A session of `area` from this site's server, then a mount with it. The area is the options' once
 * the service took it; one it refused (422) is the page's problem, and the map keeps its session.
 */
async function startPlayground(state: Playground, area: SessionArea | undefined): Promise<void> {
  const mine = ++state.asked;
  try {
    const session = await createSession(area);
    if (mine !== state.asked) return;
    state.token = session.session_token;
    state.options = { ...state.options, area };
    $('snippet').textContent = integratorSnippet(state.options);
    showProblem('playground', null);
    mountPlayground(state);
  } catch (error) {
    if (mine !== state.asked) return;
    showProblem('playground', `Cannot create a session for the playground: ${(error as Error).message}`);
  }
}

/** Applies the form to the map: a new session for a new area, else a remount, or the style or view changed in place. */
function applyControls(state: Playground, form: HTMLFormElement, fields: Fields, compare: () => LocHandle[]): void {
  const read = readControls(controlValues(fields), state.options);
  (fields.zoomValue as unknown as HTMLOutputElement).value = fields.zoom.value;
  showControlProblems(form, $('control-problems'), read.problems);
  // The area is the service's to judge: it joins the options once a session of it is made (startPlayground).
  const area = read.options.area;
  const changes = changesOf(state.options, { ...read.options, area: state.options.area });
  state.options = { ...read.options, area: state.options.area };
  $('snippet').textContent = integratorSnippet(state.options);
  if (!sameArea(area, state.askedArea)) {
    state.askedArea = area;
    return void startPlayground(state, area);
  }
  const { handle, options } = state;
  if (!handle) return;
  if (changes.remount) return mountPlayground(state);
  if (changes.style) handle.setStyle(options.style);
  if (changes.view) {
    handle.setView(options.center, options.zoom);
    for (const other of compare()) other.setView(options.center, options.zoom);
  }
}

/** The form's controls: each applies as it is typed, or once typed or picked; the last code button fills in the value. */
function watchControls(form: HTMLFormElement, fields: Fields, useLastCode: HTMLButtonElement, apply: () => void): void {
  // Fields marked data-apply="change" (a code, the area, the font, the radius, the colours) apply once
  // typed or picked, not at each keystroke or drag of the picker: a half-typed code or length would be
  // refused, each area is a new session, and each of the others a remount.
  const appliesOnChange = (event: Event) => (event.target as HTMLElement).dataset.apply === 'change';
  form.addEventListener('input', (event) => {
    // Picking a colour sets it: its box ticks itself (untick it for the theme's colour again).
    const target = event.target as HTMLInputElement;
    if (target.type === 'color') fields[`${target.name}On`].checked = true;
    if (!appliesOnChange(event)) apply();
  });
  form.addEventListener('change', (event) => appliesOnChange(event) && apply());
  form.addEventListener('submit', (event) => event.preventDefault());
  useLastCode.addEventListener('click', () => {
    fields.value.value = useLastCode.dataset.code ?? '';
    apply();
  });
}

/** The playground: a form of mount options, the map they make, and the snippet that makes it; `compare` are the maps that follow its view. */
function playground(compare: () => LocHandle[]): void {
  const form = $<HTMLFormElement>('controls');
  const fields = form.elements as Fields;
  const options = readControls(controlValues(fields), PLAYGROUND_START).options;
  const state: Playground = { options, token: '', askedArea: options.area, asked: 0, useLastCode: $<HTMLButtonElement>('use-last-code') };
  // A blank title field stands for the demo's own name of the map, which it shows.
  fields.title.placeholder = TITLES.playground;
  watchControls(form, fields, state.useLastCode, () => applyControls(state, form, fields, compare));
  $('snippet').textContent = integratorSnippet(state.options);
  void startPlayground(state, state.options.area);
}

/** Mounts one map per entry, each with a session of its own from this site's server; resolves with their handles. */
async function mountEach(maps: { source: string; target: string; options: Omit<LocMountOptions, 'sessionToken'> }[]): Promise<LocHandle[]> {
  const handles: LocHandle[] = [];
  for (const { source, target, options } of maps) {
    try {
      const session = await createSession();
      showProblem(source, null);
      handles.push(LOC.mount(target, { sessionToken: session.session_token, ...options, ...logged(source) }));
    } catch (error) {
      showProblem(source, `Cannot create a session for the ${source} map: ${(error as Error).message}`);
    }
  }
  return handles;
}

/** The four styles side by side. */
const styles = () =>
  mountEach(STYLES.map((style) => ({ source: style, target: `#style-${style}`, options: { style, title: TITLES.style(style), height: '260px', ...START_VIEW } })));

/**
 * The themes, then the languages, side by side for designers: each map opens on the same saved code,
 * so its panel shows in that theme's colours and that language's words (Arabic mirrored). Taller than
 * the style maps: room for the panel, which is what these show.
 */
const looks = () =>
  mountEach(
    [
      ...THEMES.map((theme) => ({ source: theme, options: { appearance: { theme }, title: TITLES.theme(theme) } })),
      ...Object.entries(SIDE_BY_SIDE_LOCALES).map(([locale, language]) => ({ source: locale, options: { locale, title: TITLES.locale(language) } })),
    ].map(({ source, options }) => ({ source, target: `#look-${source}`, options: { height: '340px', ...START_VIEW, value: START_CODE, ...options } })),
  );

$('clear-log').addEventListener('click', () => $('log').replaceChildren());
if (typeof LOC === 'undefined') {
  showProblem('loader', `loc-embed.js did not load from ${document.body.dataset.apiUrl}. Is the loc service running?`);
} else {
  // The style, theme and language maps follow the playground's view.
  let compareHandles: LocHandle[] = [];
  void styles().then((handles) => (compareHandles = [...compareHandles, ...handles]));
  void looks().then((handles) => (compareHandles = [...compareHandles, ...handles]));
  playground(() => compareHandles);
  expiry({ createSession, logged, log, showProblem, title: TITLES.expiry });
}
