/**
 * An integrator's page script, written against loc-js alone as its README shows: load LOC, mount a
 * map, wait for it to be ready; read codes out of a text. The test bundles it with esbuild and runs
 * it in Chromium against a real `loc serve`; `window.runLoc` is what the test calls.
 */
import { loadLoc, type LocApiErrorCode, type LocEmbedError, type LocGlobal, type LocMountOptions, type LocReadyInfo } from 'loc-js/embed';
import { findCodes, isCodeFormat, normalizeCode } from 'loc-js/code';

export interface Outcome {
  version: string;
  /** Whether a second call gave the same promise. */
  sameLoad: boolean;
  /** The loader's script tags in the page. */
  scripts: string[];
  /** The map frame's URL, up to its fragment. */
  frame: string;
  ready: LocReadyInfo;
  codes: string[];
  normalized: string | null;
  loose: boolean;
}

async function runLoc(baseUrl: string, sessionToken: string): Promise<Outcome> {
  const load = loadLoc({ baseUrl });
  const LOC: LocGlobal = await load;
  const sameLoad = loadLoc({ baseUrl }) === load;
  let frame = '';
  const ready = await new Promise<LocReadyInfo>((resolve, reject) => {
    const options: LocMountOptions = {
      sessionToken,
      center: { lat: 48.8584, lng: 2.2945 },
      zoom: 12,
      onReady: resolve,
      onError: (error: LocEmbedError) => reject(new Error(`${error.code}: ${error.message}`)),
    };
    frame = LOC.mount('#map', options).iframe.src.replace(/#.*$/, '');
  });
  const scripts = Array.from(document.querySelectorAll('script[src*="loc-embed"]'), (script) => (script as HTMLScriptElement).src);
  const codes = findCodes('Deliver to fr-0rmb-cly0, or US-550M-RQ5L.').map((found) => found.code);
  return { version: LOC.version, sameLoad, scripts, frame, ready, codes, normalized: normalizeCode(' fr0rmbcly0 '), loose: isCodeFormat('FR-0RMB-CLY0') };
}

/** The types hold integrators to what the service accepts: a wrong option is a type error. */
export const misused: LocMountOptions = {
  sessionToken: 'sid.secret',
  // @ts-expect-error: the service has no such style.
  style: 'night',
};
export const apiCode: LocApiErrorCode = 'rate_limited';

declare global {
  interface Window {
    runLoc: typeof runLoc;
  }
}
window.runLoc = runLoc;
