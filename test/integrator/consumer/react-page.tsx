/**
 * An integrator's React page, written against loc-js alone as its README shows: <LocPicker> under
 * <StrictMode>, its session from a `getSession` (here it counts its calls and gives the test's token),
 * its handle through `ref`. The test bundles it with esbuild, React from this project's
 * node_modules, and runs it in Chromium against a real `loc serve`; `window.runReact` is what it calls.
 */
import { StrictMode, createRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { LocHandle, LocReadyInfo, LocSelectResult } from 'loc-js/embed';
import { LocPicker, type LocPickerProps } from 'loc-js/react';

export interface ReactOutcome {
  ready: LocReadyInfo;
  /** How often getSession was asked: once, StrictMode or not. */
  sessions: number;
  /** iframes in the picker's own `<div>`, found by its `data-testid`. */
  iframes: number;
  refIsHandle: boolean;
  /** iframes left once the picker was unmounted. */
  afterUnmount: number;
}

function runReact(baseUrl: string, sessionToken: string): Promise<ReactOutcome> {
  const element = document.getElementById('map')!;
  const root = createRoot(element);
  const ref = createRef<LocHandle>();
  let sessions = 0;
  const getSession = async () => {
    sessions++;
    return sessionToken;
  };
  return new Promise((resolve, reject) => {
    const onReady = (ready: LocReadyInfo) => {
      const outcome = { ready, sessions, iframes: element.querySelectorAll('[data-testid="loc-map"] > iframe').length, refIsHandle: ref.current?.iframe === element.querySelector('iframe') };
      root.unmount();
      // The picker destroys its map in a microtask after its cleanup: a task later it is gone.
      setTimeout(() => resolve({ ...outcome, afterUnmount: element.querySelectorAll('iframe').length }));
    };
    root.render(
      <StrictMode>
        <LocPicker
          ref={ref}
          baseUrl={baseUrl}
          getSession={getSession}
          center={{ lat: 48.8584, lng: 2.2945 }}
          zoom={12}
          style="streets"
          containerStyle={{ width: 600 }}
          data-testid="loc-map"
          aria-label="Delivery point"
          onReady={onReady}
          onSelect={(result: LocSelectResult) => console.log(result.loc_code)}
          onError={(error) => reject(new Error(`${error.code}: ${error.message}`))}
          onLoadError={reject}
        />
      </StrictMode>,
    );
  });
}

/** The types hold integrators to what the picker accepts. */
export const misused: LocPickerProps[] = [
  // @ts-expect-error: neither a sessionToken nor a getSession.
  { baseUrl: 'https://loc.example' },
  // @ts-expect-error: the service has no such style.
  { baseUrl: 'https://loc.example', sessionToken: 'sid.secret', style: 'night' },
  // @ts-expect-error: the container's CSS is containerStyle; style is the map's.
  { baseUrl: 'https://loc.example', sessionToken: 'sid.secret', style: { width: 600 } },
  // @ts-expect-error: neither an option of the map nor an attribute the container takes.
  { baseUrl: 'https://loc.example', sessionToken: 'sid.secret', tabIndex: 0 },
];

declare global {
  interface Window {
    runReact: typeof runReact;
  }
}
window.runReact = runReact;
