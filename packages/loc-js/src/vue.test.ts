// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://shop.example/checkout"}
/**
 * LocPicker of loc-js/vue in Vue's development build (the one with the hot-reload runtime), against
 * the fake `LOC` of loc-js/testing, which checks each mount's options as the loader does and puts an
 * iframe where the map would be. The test plays the map and the visitor through the fake's mounts;
 * the app re-renders from its reactive state. Vue's warnings fail the test.
 */
import { KeepAlive, createApp, defineComponent, h, nextTick, reactive, ref, type App, type VNode } from 'vue';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocEmbedError, LocGlobal, LocSelectResult } from './embed.ts';
import { createFakeLoc, type FakeLoc, type FakeMount } from './fake-loc.ts';
import { LocPicker, type LocPickerHandle, type LocPickerProps } from './vue.ts';

const BASE_URL = 'https://loc.example';
const CLY0 = 'FR-0RMB-CLY0';
const CQXT = 'FR-0RMB-CQXT';

/** Vue's hot-reload runtime, which its development build defines and the bundlers' Vue plugins call. */
const hotReload = (globalThis as { __VUE_HMR_RUNTIME__?: { reload(id: string, component: unknown): void; rerender(id: string, render: () => VNode): void } }).__VUE_HMR_RUNTIME__!;

let fake: FakeLoc;
let uninstall: () => void;
let container: HTMLElement;
let app: App | undefined;
let warnings: string[];

/** Lets promises settle and Vue render what they changed. */
const settle = async () => {
  await new Promise((done) => setTimeout(done, 0));
  await nextTick();
};

/** Mounts an app whose root renders `root`; its reactive state re-renders it. */
async function render(root: () => VNode) {
  app = createApp({ render: root });
  app.config.warnHandler = (message) => void warnings.push(message);
  app.mount(container);
  await settle();
}

async function unmount() {
  app?.unmount();
  app = undefined;
  await settle();
}

/** A getSession that gives `sid1.secret`, `sid2.secret` … in turn. */
const sessions = () => {
  let count = 0;
  return vi.fn(async () => `sid${++count}.secret`);
};

/** The options a mount got, without its callbacks. */
const mapOptions = ({ options: { onReady, onSelect, onPreview, onClear, onError, getSessionToken, ...options } }: FakeMount) => options;
const iframes = () => document.querySelectorAll('iframe').length;

beforeEach(() => {
  fake = createFakeLoc({ baseUrl: BASE_URL });
  uninstall = fake.install();
  container = document.body.appendChild(document.createElement('main'));
  warnings = [];
});

afterEach(async () => {
  await unmount();
  container.remove();
  uninstall();
  vi.unstubAllGlobals();
  expect(warnings).toEqual([]);
});

describe('LocPicker (loc-js/vue)', () => {
  it('mounts one map with one session from getSession into its <div>, which takes the attributes; LOC.mount gets the map’s options alone', async () => {
    const getSession = sessions();
    const appearance = { theme: 'dark' as const, variables: { colorPrimary: '#8ab4f8' } };
    const options = { center: { lat: 48.85, lng: 2.29 }, zoom: 17, style: 'satellite', confirm: false, height: '300px', loadTimeout: 5000, title: 'Pick the gate', search: false, locale: 'fr', appearance, value: CLY0 } as const;
    await render(() => h(LocPicker, { baseUrl: BASE_URL, getSession, ...options, containerStyle: { width: '600px' }, class: 'map', id: 'delivery', 'data-testid': 'loc-map', 'aria-label': 'Delivery point' }));

    expect(getSession).toHaveBeenCalledTimes(1);
    expect(fake.mounts).toHaveLength(1);
    const div = container.querySelector<HTMLElement>('div.map')!;
    expect([div.id, div.dataset.testid, div.getAttribute('aria-label'), div.style.width]).toEqual(['delivery', 'loc-map', 'Delivery point', '600px']);
    expect(fake.lastMount().target).toBe(div);
    expect(div.querySelector('iframe')).toBe(fake.lastMount().handle.iframe);
    expect(mapOptions(fake.lastMount())).toEqual({ ...options, sessionToken: 'sid1.secret' });
    expect(iframes()).toBe(1);
  });

  it('is, through a template ref, the handle of the map as it is now, and nothing of one before the map is mounted', async () => {
    let give!: (token: string) => void;
    const picker = ref<LocPickerHandle | null>(null);
    const state = reactive({ title: 'Map' });
    await render(() => h(LocPicker, { ref: picker, baseUrl: BASE_URL, getSession: () => new Promise<string>((done) => (give = done)), title: state.title }));
    expect(['select' in picker.value!, picker.value!.iframe]).toEqual([false, undefined]);

    give('sid1.secret');
    await settle();
    const first = fake.lastMount();
    expect(picker.value!.iframe).toBe(first.handle.iframe);
    picker.value!.setView!({ lat: 1, lng: 2 }, 12);
    expect(first.calls).toEqual([{ method: 'setView', args: [{ lat: 1, lng: 2 }, 12] }]);

    state.title = 'Delivery point';
    await settle();
    expect(['select' in picker.value!, picker.value!.iframe]).toEqual([false, undefined]);
    give('sid2.secret');
    await settle();
    expect(fake.mounts).toHaveLength(2);
    expect(picker.value!.iframe).toBe(fake.lastMount().handle.iframe);
  });

  it('tells the map’s callbacks as events, to the listeners of the latest render, without mounting again', async () => {
    const firsts = { onReady: vi.fn(), onSelect: vi.fn(), onPreview: vi.fn(), onClear: vi.fn(), onError: vi.fn() };
    const seconds = { onReady: vi.fn(), onSelect: vi.fn(), onPreview: vi.fn(), onClear: vi.fn(), onError: vi.fn() };
    const state = reactive({ listeners: firsts });
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid.secret', ...state.listeners }));
    state.listeners = seconds;
    await settle();

    const map = fake.lastMount();
    const ready = map.ready();
    const preview = map.preview(CQXT);
    const chosen = map.select(CQXT);
    map.clear();
    const error = map.error('rate_limited');
    expect(fake.mounts).toHaveLength(1);
    expect(Object.values(seconds).map((listener) => listener.mock.calls)).toEqual([[[ready]], [[chosen]], [[preview]], [[]], [[error]]]);
    expect(Object.values(firsts).flatMap((listener) => listener.mock.calls)).toEqual([]);
  });

  it('v-model: the visitor’s choice and clear update the model; a code the page sets is chosen on the map, and what the picker emitted does not come back', async () => {
    const code = ref('');
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid.secret', modelValue: code.value, 'onUpdate:modelValue': (next: string) => (code.value = next) }));
    const map = fake.lastMount();
    expect(mapOptions(map).value).toBeUndefined();
    map.ready();

    map.select(CLY0);
    await settle();
    expect(code.value).toBe(CLY0);
    map.clear();
    await settle();
    expect(code.value).toBe('');
    expect(map.calls).toEqual([]);

    // The map spells the code its way, and the page hears it, once: no second select.
    code.value = 'fr-0rmb-cqxt';
    await settle();
    expect(code.value).toBe(CQXT);
    code.value = '';
    await settle();
    expect(map.calls).toEqual([
      { method: 'select', args: ['fr-0rmb-cqxt'] },
      { method: 'clear', args: [] },
    ]);
    expect(fake.mounts).toHaveLength(1);
  });

  it('leaves the model as it was when the map refuses the code the page set, and tells why as an error', async () => {
    const code = ref(CLY0);
    const onError = vi.fn();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid.secret', modelValue: code.value, 'onUpdate:modelValue': (next: string) => (code.value = next), onError }));
    const map = fake.lastMount();
    // Opened on the model's code, as the map's value.
    expect(mapOptions(map).value).toBe(CLY0);
    map.ready();
    const refused: LocEmbedError = { code: 'code_not_found', message: 'No such code.', recoverable: true };
    map.handle.select = () => Promise.reject(refused);

    code.value = 'FR-0RMB-ZZZZ';
    await settle();
    expect(code.value).toBe(CLY0);
    expect(onError.mock.calls).toEqual([[refused]]);

    // Refused after the page set another code: that one stands.
    let refuse!: (error: LocEmbedError) => void;
    map.handle.select = () => new Promise((_, fail) => (refuse = fail));
    code.value = 'FR-0RMB-ZZZZ';
    await settle();
    map.handle.select = () => new Promise(() => undefined);
    code.value = CQXT;
    await settle();
    refuse(refused);
    await settle();
    expect(code.value).toBe(CQXT);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('switches the style with setStyle, once per change, and mounts nothing again when center, zoom or value change', async () => {
    const state = reactive({ style: 'streets' as 'streets' | 'satellite', center: { lat: 1, lng: 2 }, zoom: 3, value: CLY0 });
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid.secret', ...state }));
    state.style = 'satellite';
    await settle();
    Object.assign(state, { center: { lat: 5, lng: 6 }, zoom: 9, value: CQXT });
    await settle();
    expect(fake.mounts).toHaveLength(1);
    expect(fake.lastMount().calls).toEqual([{ method: 'setStyle', args: ['satellite'] }]);
  });

  it('mounts again for a change of what the map is made with, as React’s picker does, and of no other prop', async () => {
    const changes: Record<string, [unknown, unknown]> = {
      baseUrl: [BASE_URL, `${BASE_URL}/`], sessionToken: ['sid1.secret', 'sid2.secret'], height: ['300px', '400px'], confirm: [true, false], loadTimeout: [10_000, 20_000],
      title: ['Map', 'Delivery point'], search: [true, false], locale: ['fr', 'ar'], appearance: [{ theme: 'dark' }, { theme: 'light' }], style: ['streets', 'satellite'],
      center: [{ lat: 1, lng: 2 }, { lat: 3, lng: 4 }], zoom: [3, 9], value: [CLY0, CQXT], containerStyle: [{ width: '600px' }, { width: '700px' }],
    };
    const remounting: string[] = [];
    for (const [name, [before, after]] of Object.entries(changes)) {
      const state: Record<string, unknown> = reactive({ baseUrl: BASE_URL, sessionToken: 'sid1.secret', [name]: before });
      await render(() => h(LocPicker, { ...state } as unknown as LocPickerProps));
      const mounted = fake.mounts.length;
      state[name] = after;
      await settle();
      if (fake.mounts.length > mounted) remounting.push(name);
      expect(iframes()).toBe(1);
      await unmount();
    }
    expect(remounting).toEqual(['baseUrl', 'sessionToken', 'height', 'confirm', 'loadTimeout', 'title', 'search', 'locale', 'appearance']);
  });

  it('asks getSession for a new session when it mounts again for a new option, unless the page gave sessionToken', async () => {
    const getSession = sessions();
    const state = reactive({ title: 'Map' });
    await render(() => h(LocPicker, { baseUrl: BASE_URL, getSession, title: state.title }));
    state.title = 'Delivery point';
    await settle();
    await unmount();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid0.secret', getSession, title: state.title }));
    state.title = 'Gate';
    await settle();
    expect(fake.mounts.map((mount) => mount.options.sessionToken)).toEqual(['sid1.secret', 'sid2.secret', 'sid0.secret', 'sid0.secret']);
  });

  it('renews through getSession, and on session_expired mounts again with a fresh session and the code chosen, once until that map is ready', async () => {
    const getSession = sessions();
    const onError = vi.fn();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, getSession, onError }));
    const first = fake.lastMount();
    first.ready();
    first.select(CQXT);
    await expect(first.renew()).resolves.toBe('sid2.secret');

    first.expire();
    await settle();
    const second = fake.lastMount();
    expect([second.options.sessionToken, second.options.value, first.isStopped, iframes(), onError.mock.calls]).toEqual(['sid3.secret', CQXT, true, 1, []]);

    // Expired again before it was ready: the fresh session did not help, so the page hears it.
    const expired = second.expire();
    await settle();
    expect(fake.mounts).toHaveLength(2);
    expect(onError.mock.calls).toEqual([[expired]]);
    expect(getSession).toHaveBeenCalledTimes(3);
  });

  it('tells session_expired with why when getSession fails', async () => {
    const onError = vi.fn();
    const getSession = vi.fn().mockResolvedValueOnce('sid1.secret').mockRejectedValueOnce(new Error('503 from /my/session'));
    await render(() => h(LocPicker, { baseUrl: BASE_URL, getSession, onError }));
    fake.lastMount().expire();
    await settle();
    expect(fake.mounts).toHaveLength(1);
    expect(onError.mock.calls).toEqual([[{ code: 'session_expired', recoverable: false, message: 'The session has expired. No new session: getSession failed: Error: 503 from /my/session' }]]);
  });

  it('under KeepAlive: destroyed when deactivated, and back when activated with the session it had and the code chosen, getSession asked nothing more', async () => {
    const getSession = sessions();
    const shown = ref(true);
    const code = ref('');
    const picker = () => h(LocPicker, { baseUrl: BASE_URL, getSession, modelValue: code.value, 'onUpdate:modelValue': (next: string) => (code.value = next) });
    const Elsewhere = defineComponent(() => () => h('p', 'Payment'));
    await render(() => h(KeepAlive, null, { default: () => (shown.value ? picker() : h(Elsewhere)) }));
    const first = fake.lastMount();
    first.ready();
    first.select(CQXT);
    await first.renew();

    shown.value = false;
    await settle();
    expect([first.isStopped, iframes()]).toEqual([true, 0]);
    shown.value = true;
    await settle();
    const second = fake.lastMount();
    expect(fake.mounts).toHaveLength(2);
    expect([second.target, second.options.sessionToken, second.options.value]).toEqual([first.target, 'sid2.secret', CQXT]);
    expect(getSession).toHaveBeenCalledTimes(2);
    expect(iframes()).toBe(1);

    // A code the page sets while the picker is away is the one it comes back on.
    shown.value = false;
    await settle();
    code.value = CLY0;
    shown.value = true;
    await settle();
    expect([fake.mounts.length, fake.lastMount().options.sessionToken, fake.lastMount().options.value]).toEqual([3, 'sid2.secret', CLY0]);
  });

  it('under hot reload: a rerender mounts nothing again, and the picker a reload makes takes over the session of the one it replaces', async () => {
    const getSession = sessions();
    const checkout = (title: string) => defineComponent({ __hmrId: 'loc-checkout', setup: () => () => h(LocPicker, { baseUrl: BASE_URL, getSession, title }) });
    // As a bundler's page holds it: one definition, which the reload updates in place.
    const Checkout = checkout('Map');
    await render(() => h(Checkout));
    const first = fake.lastMount();

    hotReload.rerender('loc-checkout', () => h(LocPicker, { baseUrl: BASE_URL, getSession, title: 'Map' }));
    await settle();
    expect(fake.mounts).toHaveLength(1);

    hotReload.reload('loc-checkout', checkout('Delivery point'));
    await settle();
    expect(fake.mounts).toHaveLength(2);
    expect([first.isStopped, fake.lastMount().options.sessionToken, fake.lastMount().options.title, iframes()]).toEqual([true, 'sid1.secret', 'Delivery point', 1]);
    expect(getSession).toHaveBeenCalledTimes(1);
  });

  it('destroys the map on unmount: no iframe left, and no event after', async () => {
    const onSelect = vi.fn();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid.secret', onSelect }));
    const map = fake.lastMount();
    await unmount();
    expect([map.isStopped, iframes()]).toEqual([true, 0]);
    // The real loader's destroy silences the map; the fake's callbacks are still there to call.
    map.options.onSelect!({ success: true, loc_code: CLY0, source: 'visitor' } as LocSelectResult);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('mounts nothing when getSession or the script comes after the unmount', async () => {
    let give!: (token: string) => void;
    await render(() => h(LocPicker, { baseUrl: BASE_URL, getSession: () => new Promise<string>((done) => (give = done)) }));
    await unmount();
    give('sid.secret');
    await settle();

    uninstall();
    const baseUrl = 'https://slow.loc.example';
    await render(() => h(LocPicker, { baseUrl, sessionToken: 'sid.secret' }));
    const tag = document.querySelector<HTMLScriptElement>(`script[src="${baseUrl}/embed/v1/loc-embed.js"]`)!;
    await unmount();
    window.LOC = fake as LocGlobal;
    tag.dispatchEvent(new Event('load'));
    await settle();
    tag.remove();
    expect([fake.mounts.length, iframes()]).toEqual([0, 0]);
  });

  it('tells what kept the map from mounting to load-error (no session, a failed getSession, options LOC.mount refuses), and to reportError without a listener', async () => {
    const onLoadError = vi.fn();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, onLoadError } as unknown as LocPickerProps));
    await unmount();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, onLoadError, getSession: () => Promise.reject(new Error('no session for you')) }));
    await unmount();
    await render(() => h(LocPicker, { baseUrl: BASE_URL, onLoadError, sessionToken: 'sid.secret', zoom: 99 }));
    await unmount();
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    await render(() => h(LocPicker, { baseUrl: BASE_URL, sessionToken: 'sid.secret', zoom: 99 }));
    expect([...onLoadError.mock.calls, ...reportError.mock.calls].map(([error]) => (error as Error).message)).toEqual([
      'LocPicker: give it a sessionToken or a getSession function that returns one; it has neither.',
      'no session for you',
      expect.stringMatching(/^LOC\.mount: options\.zoom must be an integer/),
      expect.stringMatching(/^LOC\.mount: options\.zoom must be an integer/),
    ]);
  });
});
