/**
 * The browser suite's React page: <LocPicker> from the built loc-js/react, under <StrictMode>, in
 * React's development build (the one that runs each effect, its cleanup and the effect again), with a
 * `getSession` that asks the page's own server for a session as an integrator's page does.
 * react.spec.ts bundles it with esbuild and drives it through `window.reactPage`.
 */
import { StrictMode, createElement, createRef, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { LocHandle, LocMountOptions } from 'loc-js/embed';
import { LocPicker } from 'loc-js/react';

/** Where the page's server makes sessions (the spec answers it). */
export const SESSION_PATH = '/react/session';

export interface ReactEvent {
  /** Which render's callbacks heard it: each render passes new functions. */
  generation: number;
  name: 'ready' | 'select' | 'error' | 'loadError';
  payload: unknown;
}

export interface ReactPage {
  events: ReactEvent[];
  /** How often a probe's mount effect ran: 2 shows that StrictMode double-ran the effects. */
  probeRuns: number;
  picker: { current: LocHandle | null };
  /** Renders (or renders again) the picker; `generation` labels the callbacks of this render. */
  render(generation: number, baseUrl: string, view: Pick<LocMountOptions, 'center' | 'zoom'>): void;
  unmount(): void;
}

declare global {
  interface Window {
    reactPage: ReactPage;
  }
}

function Probe() {
  useEffect(() => void page.probeRuns++, []);
  return null;
}

const root = createRoot(document.getElementById('app')!);

const getSession = () =>
  fetch(SESSION_PATH, { method: 'POST' })
    .then((response) => response.json() as Promise<{ session_token: string }>)
    .then((session) => session.session_token);

const page: ReactPage = {
  events: [],
  probeRuns: 0,
  picker: createRef<LocHandle>(),
  render(generation, baseUrl, view) {
    const record = (name: ReactEvent['name']) => (payload: unknown) => void page.events.push({ generation, name, payload });
    const picker = createElement(LocPicker, {
      ref: page.picker,
      baseUrl,
      getSession,
      ...view,
      containerStyle: { width: '800px' },
      onReady: record('ready'),
      onSelect: record('select'),
      onError: record('error'),
      onLoadError: (error: Error) => record('loadError')(error.message),
    });
    root.render(createElement(StrictMode, null, createElement(Probe), picker));
  },
  unmount() {
    root.render(null);
  },
};
window.reactPage = page;
