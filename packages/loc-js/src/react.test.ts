// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://shop.example/checkout"}
/**
 * <LocPicker> in React 19's development build (the one that double-runs effects under StrictMode),
 * against a fake `LOC` on window: it records each mount — its element, its options, its handle —
 * and puts an iframe into the element as the real loader does, replacing an earlier mount there.
 * The test plays the map by calling the recorded callbacks. The real loader and frame in a real
 * browser are e2e/react.spec.ts's.
 */
import { readFileSync } from 'node:fs';
import { StrictMode, act, createElement, createRef, useEffect, type ReactNode, type Ref } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocEmbedError, LocGlobal, LocHandle, LocMountOptions, LocReadyInfo, LocSelectResult } from './embed.ts';
import { LocPicker, type LocPickerProps } from './react.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const BASE_URL = 'https://loc.example';
const READY: LocReadyInfo = { style: 'streets', center: { lat: 20, lng: 0 }, zoom: 2, expiresAt: '2030-01-01T00:15:00.000Z', locale: 'en', requiredMessage: 'Choose a location on the map.' };
const RESULT = { success: true, loc_code: 'FR-0RMB-CLY0', source: 'visitor' } as LocSelectResult;
const EXPIRED: LocEmbedError = { code: 'session_expired', message: 'The session expired.', recoverable: false };

interface FakeMount {
  element: Element;
  options: LocMountOptions;
  handle: LocHandle & { [K in 'destroy' | 'setStyle' | 'setView']: ReturnType<typeof vi.fn> };
}

/** Every `LOC.mount` so far, in order. */
let mounts: FakeMount[];

const FAKE_LOC: LocGlobal = {
  version: 'fake',
  mount(target, options) {
    const element = target as Element;
    for (const earlier of mounts) if (earlier.element === element) earlier.handle.destroy();
    const iframe = element.appendChild(document.createElement('iframe'));
    const handle = {
      iframe,
      destroy: vi.fn(() => iframe.remove()),
      setStyle: vi.fn(),
      setView: vi.fn(),
      select: vi.fn(),
      clear: vi.fn(),
    };
    mounts.push({ element, options, handle });
    return handle;
  },
};

/** Lets promises settle and React commit what they set. */
const settle = () => act(() => new Promise((done) => setTimeout(done, 0)));

/** A promise and its resolve/reject, to settle at a moment the test picks. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

let container: HTMLElement;
let root: Root;

async function render(node: ReactNode) {
  await act(() => root.render(node));
  await settle();
}

const picker = (props: LocPickerProps & { ref?: Ref<LocHandle> }) => createElement(LocPicker, props);
const iframes = () => container.querySelectorAll('iframe');

beforeEach(() => {
  mounts = [];
  window.LOC = FAKE_LOC;
  container = document.body.appendChild(document.createElement('main'));
  root = createRoot(container);
});

afterEach(async () => {
  await act(() => root.unmount());
  container.remove();
});

describe('<LocPicker>', () => {
  it('under StrictMode, which runs its effects twice, mounts one map with one session from getSession', async () => {
    let probeRuns = 0;
    function Probe() {
      useEffect(() => void probeRuns++, []);
      return null;
    }
    const getSession = vi.fn(async () => 'sid1.secret');
    const ref = createRef<LocHandle>();
    await render(createElement(StrictMode, null, createElement(Probe), picker({ baseUrl: BASE_URL, getSession, ref, className: 'map', containerStyle: { width: '600px' } })));

    expect(probeRuns, 'StrictMode ran the effects twice').toBe(2);
    expect(getSession).toHaveBeenCalledTimes(1);
    expect(mounts).toHaveLength(1);
    expect(mounts[0].options.sessionToken).toBe('sid1.secret');
    expect(mounts[0].handle.destroy).not.toHaveBeenCalled();
    expect(iframes()).toHaveLength(1);
    expect(mounts[0].element).toBe(container.querySelector('div.map'));
    expect((mounts[0].element as HTMLElement).style.width).toBe('600px');
    expect(ref.current).toBe(mounts[0].handle);
  });

  it('puts id, className, data-* and aria-* on its <div>, not into the options, and mounts the map there', async () => {
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', id: 'delivery', className: 'map', 'data-testid': 'loc-map', 'aria-label': 'Delivery point', 'aria-describedby': 'hint', containerStyle: { width: '600px' }, zoom: 12 }));
    const div = container.querySelector<HTMLElement>('[data-testid="loc-map"]');
    expect(div).not.toBeNull();
    expect([div!.tagName, div!.id, div!.className, div!.getAttribute('aria-label'), div!.getAttribute('aria-describedby'), div!.style.width]).toEqual(['DIV', 'delivery', 'map', 'Delivery point', 'hint', '600px']);
    expect(mounts).toHaveLength(1);
    expect(mounts[0].element).toBe(div);
    expect(div!.querySelector('iframe')).toBe(mounts[0].handle.iframe);
    const { onReady, onSelect, onPreview, onClear, onError, getSessionToken, ...options } = mounts[0].options;
    expect(options).toEqual({ sessionToken: 'sid.secret', zoom: 12 });
  });

  it('gives LOC.mount every map option, the token, and getSession as getSessionToken, which asks the latest getSession', async () => {
    const first = vi.fn(async () => 'sid1.secret');
    const props = { baseUrl: BASE_URL, sessionToken: 'sid0.secret', getSession: first, center: { lat: 48.85, lng: 2.29 }, zoom: 17, style: 'satellite', confirm: false, height: '300px', loadTimeout: 5000, title: 'Pick the gate', search: false, value: 'FR-0RMB-CLY0' } as const;
    await render(picker(props));
    expect(first).not.toHaveBeenCalled();
    const { onReady, onSelect, onPreview, onClear, onError, getSessionToken, ...options } = mounts[0].options;
    expect(options).toEqual({ sessionToken: 'sid0.secret', center: { lat: 48.85, lng: 2.29 }, zoom: 17, style: 'satellite', confirm: false, height: '300px', loadTimeout: 5000, title: 'Pick the gate', search: false, value: 'FR-0RMB-CLY0' });
    expect([onReady, onSelect, onPreview, onClear, onError].map((callback) => typeof callback)).toEqual(Array(5).fill('function'));

    const second = vi.fn(async () => 'sid2.secret');
    await render(picker({ ...props, getSession: second }));
    await expect(getSessionToken!()).resolves.toBe('sid2.secret');
    expect(first).not.toHaveBeenCalled();
    expect(mounts).toHaveLength(1);
  });

  it('calls the latest callbacks without mounting again', async () => {
    const firsts = { onReady: vi.fn(), onSelect: vi.fn(), onPreview: vi.fn(), onClear: vi.fn(), onError: vi.fn() };
    const seconds = { onReady: vi.fn(), onSelect: vi.fn(), onPreview: vi.fn(), onClear: vi.fn(), onError: vi.fn() };
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', ...firsts }));
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', ...seconds }));
    const { options } = mounts[0];
    const network: LocEmbedError = { code: 'network', message: 'offline', recoverable: true };
    options.onReady!(READY);
    options.onSelect!(RESULT);
    options.onPreview!(RESULT);
    options.onClear!();
    options.onError!(network);
    expect(mounts).toHaveLength(1);
    expect(seconds.onReady).toHaveBeenCalledWith(READY);
    expect(seconds.onSelect).toHaveBeenCalledWith(RESULT);
    expect(seconds.onPreview).toHaveBeenCalledWith(RESULT);
    expect(seconds.onClear).toHaveBeenCalledTimes(1);
    expect(seconds.onError).toHaveBeenCalledWith(network);
    expect(Object.values(firsts).flatMap((callback) => callback.mock.calls)).toEqual([]);
  });

  it('switches the style with setStyle, once per change, and moves nothing when center, zoom or value change', async () => {
    const props = { baseUrl: BASE_URL, sessionToken: 'sid.secret', style: 'streets', center: { lat: 1, lng: 2 }, zoom: 3, value: 'FR-0RMB-CLY0' } as const;
    await render(picker(props));
    expect(mounts[0].handle.setStyle).not.toHaveBeenCalled();
    await render(picker({ ...props, style: 'satellite' }));
    // A page passing back what onSelect gave must not remount the map at each choice.
    await render(picker({ ...props, style: 'satellite', center: { lat: 5, lng: 6 }, zoom: 9, value: 'FR-0RMB-CQXT' }));
    expect(mounts[0].options.value).toBe('FR-0RMB-CLY0');
    expect(mounts[0].handle.setStyle.mock.calls).toEqual([['satellite']]);
    expect(mounts[0].handle.setView).not.toHaveBeenCalled();
    expect(mounts).toHaveLength(1);
  });

  it('mounts again, and destroys the earlier map, when the token or another option the map is made with changes', async () => {
    const ref = createRef<LocHandle>();
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid1.secret', ref }));
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid2.secret', ref }));
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid2.secret', ref, confirm: false }));
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid2.secret', ref, confirm: false, search: false }));
    expect(mounts.map((mount) => [mount.options.sessionToken, mount.options.confirm, mount.options.search, mount.handle.destroy.mock.calls.length > 0])).toEqual([
      ['sid1.secret', undefined, undefined, true],
      ['sid2.secret', undefined, undefined, true],
      ['sid2.secret', false, undefined, true],
      ['sid2.secret', false, false, false],
    ]);
    expect(iframes()).toHaveLength(1);
    expect(ref.current).toBe(mounts[3].handle);
  });

  it('mounts again when the locale or the appearance changes, and not for an equal appearance made anew each render', async () => {
    const look = () => ({ theme: 'dark' as const, variables: { colorPrimary: '#8ab4f8' } });
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', locale: 'fr', appearance: look() }));
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', locale: 'fr', appearance: look() }));
    expect(mounts).toHaveLength(1);
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', locale: 'ar', appearance: look() }));
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', locale: 'ar', appearance: { ...look(), theme: 'auto' } }));
    expect(mounts.map((mount) => [mount.options.locale, mount.options.appearance?.theme])).toEqual([
      ['fr', 'dark'],
      ['ar', 'dark'],
      ['ar', 'auto'],
    ]);
    expect(iframes()).toHaveLength(1);
  });

  it('mounts again for a change of exactly the props the guide and the README say, and of no other option', async () => {
    const changes: Record<string, [unknown, unknown]> = {
      baseUrl: [BASE_URL, `${BASE_URL}/`], sessionToken: ['sid1.secret', 'sid2.secret'], height: [300, 400], confirm: [true, false], loadTimeout: [10_000, 20_000],
      title: ['Map', 'Delivery point'], search: [true, false], locale: ['fr', 'ar'], appearance: [{ theme: 'dark' }, { theme: 'light' }], style: ['streets', 'satellite'],
      center: [{ lat: 1, lng: 2 }, { lat: 3, lng: 4 }], zoom: [3, 9], value: ['FR-0RMB-CLY0', 'FR-0RMB-CQXT'],
    };
    const remounting: string[] = [];
    for (const [name, [before, after]] of Object.entries(changes)) {
      const props = { baseUrl: BASE_URL, sessionToken: 'sid1.secret', key: name };
      await render(picker({ ...props, [name]: before }));
      const mounted = mounts.length;
      await render(picker({ ...props, [name]: after }));
      if (mounts.length > mounted) remounting.push(name);
    }
    const listed = (file: string, list: RegExp): string[] => [...(list.exec(readFileSync(new URL(file, import.meta.url), 'utf8'))?.[1] ?? '').matchAll(/`(\w+)`/g)].map(([, name]) => name);
    expect(listed('../../../docs/embed.md', /^- (`baseUrl`(?:[^:\n]|\n {2})*): a new mount/m)).toEqual(remounting);
    expect(listed('../README.md', /(`baseUrl`, `sessionToken`[\s\S]*?) mount it again/)).toEqual(remounting);
  });

  it('destroys the map on unmount: no iframe, no ref, no callback after', async () => {
    const onSelect = vi.fn();
    const ref = createRef<LocHandle>();
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', onSelect, ref }));
    await act(() => root.render(null));
    await settle();
    expect(mounts[0].handle.destroy).toHaveBeenCalledTimes(1);
    expect(iframes()).toHaveLength(0);
    expect(ref.current).toBeNull();
    // The real loader's destroy silences the map; this one's callbacks are still there to call.
    mounts[0].options.onSelect!(RESULT);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('mounts nothing when getSession settles after the unmount', async () => {
    const session = deferred<string>();
    await render(picker({ baseUrl: BASE_URL, getSession: () => session.promise }));
    await act(() => root.render(null));
    session.resolve('sid.secret');
    await settle();
    expect(mounts).toHaveLength(0);
    expect(iframes()).toHaveLength(0);
  });

  it('mounts nothing when the script loads after the unmount', async () => {
    delete (window as { LOC?: LocGlobal }).LOC;
    const baseUrl = 'https://slow.loc.example';
    await render(picker({ baseUrl, sessionToken: 'sid.secret' }));
    const tag = document.querySelector<HTMLScriptElement>(`script[src="${baseUrl}/embed/v1/loc-embed.js"]`)!;
    expect(tag).not.toBeNull();
    await act(() => root.render(null));
    window.LOC = FAKE_LOC;
    tag.dispatchEvent(new Event('load'));
    await settle();
    tag.remove();
    expect(mounts).toHaveLength(0);
  });

  it('on session_expired mounts again with a session from getSession, once until that map is ready', async () => {
    const tokens = ['sid1.secret', 'sid2.secret', 'sid3.secret', 'sid4.secret'];
    const getSession = vi.fn(async () => tokens.shift()!);
    const onError = vi.fn();
    const ref = createRef<LocHandle>();
    await render(picker({ baseUrl: BASE_URL, getSession, onError, ref }));
    mounts[0].options.onReady!(READY);

    mounts[0].options.onError!(EXPIRED);
    await settle();
    expect(mounts.map((mount) => mount.options.sessionToken)).toEqual(['sid1.secret', 'sid2.secret']);
    expect(mounts[1].element).toBe(mounts[0].element);
    expect(mounts[0].handle.destroy).toHaveBeenCalled();
    expect(iframes()).toHaveLength(1);
    expect(ref.current).toBe(mounts[1].handle);
    expect(onError).not.toHaveBeenCalled();

    // Expired again before it was ready: the fresh session did not help, so the page hears it.
    mounts[1].options.onError!(EXPIRED);
    await settle();
    expect(mounts).toHaveLength(2);
    expect(onError.mock.calls).toEqual([[EXPIRED]]);

    // A map that was ready and expires later (its renewals failed) is mounted again.
    await render(picker({ baseUrl: BASE_URL, getSession, onError, ref, sessionToken: undefined, title: 'again' }));
    mounts[2].options.onReady!(READY);
    mounts[2].options.onError!(EXPIRED);
    await settle();
    expect(mounts.map((mount) => mount.options.sessionToken)).toEqual(['sid1.secret', 'sid2.secret', 'sid3.secret', 'sid4.secret']);
    expect(mounts[3].options.title).toBe('again');
    expect(getSession).toHaveBeenCalledTimes(4);
  });

  it('reports session_expired with why when getSession fails, and as it is without getSession', async () => {
    const onError = vi.fn();
    const getSession = vi.fn().mockResolvedValueOnce('sid1.secret').mockRejectedValueOnce(new Error('503 from /my/session'));
    await render(picker({ baseUrl: BASE_URL, getSession, onError }));
    mounts[0].options.onError!(EXPIRED);
    await settle();
    expect(mounts).toHaveLength(1);
    expect(onError.mock.calls).toEqual([[{ ...EXPIRED, message: 'The session expired. No new session: getSession failed: Error: 503 from /my/session' }]]);

    await act(() => root.render(null));
    onError.mockClear();
    await render(picker({ baseUrl: BASE_URL, sessionToken: 'sid.secret', onError }));
    mounts[1].options.onError!(EXPIRED);
    await settle();
    expect(mounts).toHaveLength(2);
    expect(onError.mock.calls).toEqual([[EXPIRED]]);
  });

  it('reports what kept the map from mounting to onLoadError: no session, a failed getSession, options LOC.mount refuses', async () => {
    const onLoadError = vi.fn();
    await render(picker({ baseUrl: BASE_URL, onLoadError } as unknown as LocPickerProps));
    await render(picker({ baseUrl: BASE_URL, onLoadError, getSession: () => Promise.reject(new Error('no session for you')), title: 'b' }));
    const mount = FAKE_LOC.mount;
    FAKE_LOC.mount = () => {
      throw new TypeError('LOC.mount: options.zoom must be an integer from 0 to 20; received 99.');
    };
    try {
      await render(picker({ baseUrl: BASE_URL, onLoadError, sessionToken: 'sid.secret', zoom: 99 }));
    } finally {
      FAKE_LOC.mount = mount;
    }
    expect(onLoadError.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'LocPicker: give it a sessionToken or a getSession function that returns one; it has neither.',
      'no session for you',
      'LOC.mount: options.zoom must be an integer from 0 to 20; received 99.',
    ]);
  });
});
