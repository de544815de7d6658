/**
 * The demo page: a playground map with live options and the code for them, every callback in a log,
 * the four styles side by side, and a short session that expires and is remounted (or renewed). It
 * uses only what an integrator has: `LOC` from loc-embed.js and its own server's `/api/session`.
 */
import type { LocEmbedError, LocHandle, LocMountOptions } from '../../src/embed/public-types.ts';
import { changesOf, readControls } from './controls.ts';
import { STYLES } from './mount-options.ts';
import { pageProblems, showControlProblems } from './problems.ts';
import { integratorSnippet, type SnippetOptions } from './snippet.ts';

interface Session {
  session_token: string;
  expires_at: string;
}

/** Lifetime of the expiry demo's sessions: the shortest the API allows. */
const SHORT_TTL = 60;

/** Where the playground (as its form starts, in index.html) and the style maps open: the Eiffel Tower. */
const START_VIEW = { center: { lat: 48.8584, lng: 2.2945 }, zoom: 17 };

/**
 * The accessible names of the page's maps (the iframes' titles): six maps that all read "Map: choose a
 * location", the loader's default, cannot be told apart by a screen reader's list of frames.
 */
const TITLES = {
  playground: 'Playground map: choose a location',
  style: (style: string) => `${style[0].toUpperCase()}${style.slice(1)} style map: choose a location`,
  look: (locale: string, theme: string) => `${theme[0].toUpperCase()}${theme.slice(1)} theme map in ${new Intl.DisplayNames(['en'], { type: 'language' }).of(locale)}: choose a location`,
  expiry: 'Short-session map: choose a location',
};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** A session from this site's own server, which holds the API key. */
async function createSession(ttl?: number): Promise<Session> {
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ttl === undefined ? {} : { ttl }),
  });
  const body = (await response.json()) as Session & { message?: string };
  if (!response.ok) throw new Error(body.message ?? `The session request failed with ${response.status}.`);
  return body;
}

/** The page's own problems (sessions, the loader); the form's are shown beside it (problems.ts). */
const showProblem = pageProblems($('problem'));

/** Adds a callback to the log, newest first. */
function log(source: string, name: string, payload: unknown): void {
  const item = document.createElement('li');
  const time = new Date().toLocaleTimeString();
  item.textContent = `${time} ${source} ${name} ${JSON.stringify(payload)}`;
  if (name === 'onError') item.className = 'error';
  $('log').prepend(item);
}

/** The three callbacks, logged under `source`; `onError` also goes to `extra`. */
function logged(source: string, extra?: (error: LocEmbedError) => void): Pick<LocMountOptions, 'onSelect' | 'onError' | 'onReady'> {
  return {
    onReady: (info) => log(source, 'onReady', info),
    onSelect: (result) => log(source, 'onSelect', result),
    onError: (error) => {
      log(source, 'onError', error);
      extra?.(error);
    },
  };
}

function playground(compare: () => LocHandle[]): void {
  const form = $<HTMLFormElement>('controls');
  const fields = form.elements as HTMLFormControlsCollection & Record<string, HTMLInputElement>;
  const values = () => ({
    height: fields.height.value,
    lat: fields.lat.value,
    lng: fields.lng.value,
    zoom: fields.zoom.value,
    style: (fields.style as unknown as HTMLSelectElement).value,
    confirm: fields.confirm.checked,
    renew: fields.renew.checked,
    title: fields.title.value,
    locale: (fields.locale as unknown as HTMLSelectElement).value,
    theme: (fields.theme as unknown as HTMLSelectElement).value,
    colorPrimary: fields.colorPrimary.value,
  });
  let options: SnippetOptions = readControls(values(), {
    apiUrl: document.body.dataset.apiUrl ?? '',
    height: '420px',
    ...START_VIEW,
    style: 'streets',
    confirm: true,
    renew: false,
    theme: 'light',
  }).options;
  let handle: LocHandle | undefined;
  let token = '';

  const mount = () => {
    handle = LOC.mount('#playground-map', {
      sessionToken: token,
      height: options.height,
      center: options.center,
      zoom: options.zoom,
      style: options.style,
      confirm: options.confirm,
      title: options.title ?? TITLES.playground,
      ...(options.locale ? { locale: options.locale } : {}),
      appearance: { theme: options.theme, ...(options.colorPrimary ? { variables: { colorPrimary: options.colorPrimary } } : {}) },
      ...(options.renew ? { getSessionToken: () => createSession().then((s) => (token = s.session_token)) } : {}),
      ...logged('playground', (error) => {
        if (error.code === 'session_expired') void start();
      }),
    });
  };
  const start = async () => {
    try {
      token = (await createSession()).session_token;
      showProblem('playground', null);
      mount();
    } catch (error) {
      showProblem('playground', `Cannot create a session for the playground: ${(error as Error).message}`);
    }
  };

  const update = () => {
    const read = readControls(values(), options);
    (fields.zoomValue as unknown as HTMLOutputElement).value = fields.zoom.value;
    showControlProblems(form, $('control-problems'), read.problems);
    const changes = changesOf(options, read.options);
    options = read.options;
    $('snippet').textContent = integratorSnippet(options);
    if (!handle) return;
    if (changes.remount) return mount();
    if (changes.style) handle.setStyle(options.style);
    if (changes.view) {
      handle.setView(options.center, options.zoom);
      for (const other of compare()) other.setView(options.center, options.zoom);
    }
  };
  // A blank title field stands for the demo's own name of the map, which it shows.
  fields.title.placeholder = TITLES.playground;
  form.addEventListener('input', update);
  form.addEventListener('submit', (event) => event.preventDefault());
  $('snippet').textContent = integratorSnippet(options);
  void start();
}

async function styles(): Promise<LocHandle[]> {
  const handles: LocHandle[] = [];
  for (const style of STYLES) {
    try {
      const session = await createSession();
      showProblem(style, null);
      handles.push(
        LOC.mount(`#style-${style}`, {
          sessionToken: session.session_token,
          style,
          title: TITLES.style(style),
          height: '260px',
          ...START_VIEW,
          ...logged(style),
        }),
      );
    } catch (error) {
      showProblem(style, `Cannot create a session for the ${style} map: ${(error as Error).message}`);
    }
  }
  return handles;
}

/** The gallery's maps: a theme and a language each, as a designer compares them. */
const LOOKS = [
  { locale: 'en', theme: 'light' },
  { locale: 'fr', theme: 'dark' },
  { locale: 'de', theme: 'auto' },
  { locale: 'ar', theme: 'dark' },
] as const;

async function looks(): Promise<LocHandle[]> {
  const handles: LocHandle[] = [];
  for (const { locale, theme } of LOOKS) {
    const source = `${locale}_${theme}`;
    try {
      const session = await createSession();
      showProblem(source, null);
      handles.push(
        LOC.mount(`#look-${source}`, {
          sessionToken: session.session_token,
          locale,
          appearance: { theme },
          title: TITLES.look(locale, theme),
          height: '260px',
          ...START_VIEW,
          ...logged(source),
        }),
      );
    } catch (error) {
      showProblem(source, `Cannot create a session for the ${locale} ${theme} map: ${(error as Error).message}`);
    }
  }
  return handles;
}

function expiry(): void {
  const status = $('expiry-status');
  let expiresAt = 0;
  let remounts = 0;

  const mount = async () => {
    const renew = $<HTMLInputElement>('expiry-renew').checked;
    try {
      const session = await createSession(SHORT_TTL);
      expiresAt = Date.parse(session.expires_at);
      showProblem('expiry', null);
      LOC.mount('#expiry-map', {
        sessionToken: session.session_token,
        height: '300px',
        title: TITLES.expiry,
        center: { lat: 51.5007, lng: -0.1246 },
        zoom: 17,
        ...(renew
          ? {
              getSessionToken: async () => {
                const next = await createSession(SHORT_TTL);
                expiresAt = Date.parse(next.expires_at);
                log('expiry', 'getSessionToken', { expires_at: next.expires_at });
                return next.session_token;
              },
            }
          : {}),
        ...logged('expiry', (error) => {
          if (error.code !== 'session_expired') return;
          remounts++;
          void mount();
        }),
      });
    } catch (error) {
      showProblem('expiry', `Cannot create a session for the expiry map: ${(error as Error).message}`);
    }
  };

  setInterval(() => {
    const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
    status.textContent = expiresAt ? `Session expires in ${left} s · remounted ${remounts} times` : '';
  }, 1000);
  $('expiry-restart').addEventListener('click', () => void mount());
  $('expiry-renew').addEventListener('change', () => void mount());
  void mount();
}

$('clear-log').addEventListener('click', () => $('log').replaceChildren());
if (typeof LOC === 'undefined') {
  showProblem('loader', `loc-embed.js did not load from ${document.body.dataset.apiUrl}. Is the loc service running?`);
} else {
  const compare = styles().then(async (handles) => [...handles, ...(await looks())]);
  let compareHandles: LocHandle[] = [];
  void compare.then((handles) => (compareHandles = handles));
  playground(() => compareHandles);
  expiry();
}
