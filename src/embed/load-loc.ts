/**
 * `loadLoc({ baseUrl })`: the promise of the global `LOC` that the service's `loc-embed.js` defines,
 * for code that loads the script rather than a page's tag: loc-js/embed, and the `<loc-picker>`
 * element, served (loc-picker.js) and bundled (loc-js/picker).
 *
 * As @stripe/stripe-js's loader does: the script is injected once per service (a tag already in the
 * page is reused), every call for that service shares one promise, and a failed load forgets its
 * promise, and its tag, so that a later call tries again. Importing this module changes nothing.
 * A load is also forgotten once `window.LOC` is no longer the `LOC` it resolved with: a component test
 * installs a fresh fake `LOC` per test (loc-js/testing), and each test's loadLoc must give its own.
 */
import type { LocGlobal } from './public-types.ts';

/** The page's `LOC`, if its script ran; typed here as loc-js sees it, possibly undefined. */
const pageLoc = (): LocGlobal | undefined => (window as { LOC?: LocGlobal }).LOC;

/** The options of `loadLoc`. */
export interface LoadLocOptions {
  /**
   * The service's public base URL (`{base_url}`: what `embed_url` in a session response starts with),
   * e.g. `'https://loc.example'`; the script is `{baseUrl}/embed/v1/loc-embed.js`.
   */
  baseUrl: string;
}

/** The loader's path below the base URL: version 1 of the embed, evergreen. */
const SCRIPT_PATH = '/embed/v1/loc-embed.js';

/** What the loader's own URL looks like, under either path the service serves it at. */
const SCRIPT_URL = /^(.*)\/embed\/(v1\/)?loc-embed\.js$/;

/** A load of the script: its promise, and the `LOC` it resolved with, once it did. */
interface Load {
  promise: Promise<LocGlobal>;
  LOC?: LocGlobal;
}

/** One load per script URL, until it fails or the page's `LOC` is another. */
const loads = new Map<string, Load>();

/**
 * Loads the service's `loc-embed.js` into the page and resolves with `LOC` once it is defined.
 * Rejects outside a browser, on a `baseUrl` that is not an absolute http(s) URL, when the script
 * cannot be loaded or does not define `LOC`, and when the page already has `LOC` from another service.
 */
export function loadLoc(options: LoadLocOptions): Promise<LocGlobal> {
  try {
    const src = scriptUrl(options);
    let load = loads.get(src);
    if (load?.LOC !== undefined && load.LOC !== pageLoc()) load = undefined;
    if (load === undefined) {
      const started: Load = { promise: inject(src) };
      loads.set(src, (load = started));
      started.promise.then(
        (LOC) => (started.LOC = LOC),
        () => loads.get(src) === started && loads.delete(src),
      );
    }
    return load.promise;
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The script's URL for `options`, or a thrown Error that names what is wrong with them. */
function scriptUrl(options: LoadLocOptions): string {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new Error('loadLoc: runs in a browser, where there is a page to load the script into; call it from browser code (not during server-side rendering).');
  }
  const baseUrl: unknown = options?.baseUrl;
  let url: URL | undefined;
  try {
    url = new URL(baseUrl as string);
  } catch {
    // Named below, with what was received.
  }
  if (typeof baseUrl !== 'string' || !url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new Error(`loadLoc: baseUrl must be the service's absolute http(s) URL without query or fragment, e.g. "https://loc.example"; received ${typeof baseUrl === 'string' ? JSON.stringify(baseUrl) : baseUrl === null ? 'null' : typeof baseUrl}.`);
  }
  return url.href.replace(/\/+$/, '') + SCRIPT_PATH;
}

/** The base URL a loc-embed.js `src` names, or null when it is not the loader's URL. */
const baseOf = (src: string): string | null => SCRIPT_URL.exec(src.replace(/[?#].*$/, ''))?.[1] ?? null;

function inject(src: string): Promise<LocGlobal> {
  return new Promise((resolve, reject) => {
    const base = baseOf(src);
    const tags = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src*="/loc-embed.js"]'));
    const ours = tags.find((tag) => baseOf(tag.src) === base);
    const others = tags.map((tag) => baseOf(tag.src)).filter((other) => other !== null && other !== base);
    // One LOC per page: the script keeps the first. A LOC of another service would mount that service's maps.
    if (!ours && others.length > 0) {
      reject(new Error(`loadLoc: this page already loads the loc service at ${others[0]}; one page uses one service, so LOC cannot come from ${base} as well.`));
      return;
    }
    const defined = pageLoc();
    if (defined) {
      resolve(defined);
      return;
    }
    const script = ours ?? Object.assign(document.createElement('script'), { src, async: true });
    const fail = (message: string) => {
      script.remove();
      reject(new Error(message));
    };
    script.addEventListener('load', () => {
      const loaded = pageLoc();
      if (loaded) resolve(loaded);
      else fail(`loadLoc: ${script.src} loaded but did not define LOC; is ${base} a loc service?`);
    });
    script.addEventListener('error', () => fail(`loadLoc: could not load ${script.src}; check that the service at ${base} is up and that the page may load scripts from it (Content-Security-Policy script-src).`));
    if (!ours) (document.head ?? document.body).append(script);
  });
}
