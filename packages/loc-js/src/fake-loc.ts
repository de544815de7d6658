/**
 * A fake `LOC` for component tests in jsdom, as Stripe Elements' integrators test their forms: it
 * implements `LocGlobal` exactly, checks `LOC.mount`'s options with the real loader's own checks (so a
 * wrong call fails the test as it would fail the page), and puts an empty iframe where the map would
 * be. Nothing happens by itself: the test drives each mount — `ready()`, `preview()`, `select()`,
 * `clear()`, `error()`, `expire()`, `renew()` — and reads what the component did with the handle in `calls`.
 *
 * Installed as `window.LOC`, it is what `loadLoc` from loc-js/embed resolves with, without a network,
 * as long as the page has no loc-embed.js tag of another service.
 */
import { findElement, readOptions, type MountSettings } from '../../../src/embed/options.ts';
import type {
  LocEmbedError,
  LocErrorCode,
  LocGlobal,
  LocHandle,
  LocMountOptions,
  LocReadyInfo,
  LocResolveResult,
  LocSelectResult,
  LocSelectSource,
  LocStyle,
} from '../../../src/embed/public-types.ts';
import { RECOVERABLE } from '../../../src/embed/recoverable.ts';
import { fakeHandle } from './fake-handle.ts';
import { assertAlive, callComponent, stopMap, type FakeHandleCall, type FakeMap } from './fake-map.ts';
import { fakeResults, refusedCode, unsourced, type ResultFor } from './fake-results.ts';

export type { FakeHandleCall } from './fake-map.ts';

/** One `LOC.mount`, as the test sees and drives it. */
export interface FakeMount {
  /** The element it mounted into. */
  readonly target: Element;
  /** The options exactly as the component passed them. */
  readonly options: LocMountOptions;
  /** The handle `LOC.mount` returned. */
  readonly handle: LocHandle;
  /** Every call the component made on the handle, in order. */
  readonly calls: readonly FakeHandleCall[];
  /** The style and view the map would show now (the options', then `setStyle` / `setView`'s). */
  readonly style: LocStyle;
  readonly view: { center: { lat: number; lng: number }; zoom: number };
  /** Whether `onReady` was called. */
  readonly isReady: boolean;
  /** Whether the map stopped: destroyed, replaced by another mount, or stopped by an error it cannot go on from. */
  readonly isStopped: boolean;
  /**
   * Calls `onReady`, once, with the current view; `expiresAt` a quarter of an hour from now unless
   * given; with the `value` option, `value` as the real map opens it (the sample with that code).
   */
  ready(info?: Partial<LocReadyInfo>): LocReadyInfo;
  /**
   * The visitor previews a cell (the real map does so with `confirm: true`): calls `onPreview` with a
   * result as `select` makes one, unsaved and without `source`, and returns it.
   */
  preview(target?: string | Partial<LocResolveResult>): LocResolveResult;
  /**
   * The visitor chooses (`source: 'visitor'` unless given): calls `onSelect` with a complete result — a
   * code's (normalized; the coordinates, cell and address stay the sample's, FR-0RMB-CLY0's), or the
   * sample with your fields over it — and returns it. The map must be ready and not stopped.
   */
  select(target?: string | Partial<LocSelectResult>, source?: LocSelectSource): LocSelectResult;
  /**
   * Reports `code` through `onError`, with `recoverable` as the real map sets it for that code; one the
   * map cannot go on from stops the mount, as the loader does. Returns what `onError` received.
   */
  error(code: LocErrorCode, message?: string): LocEmbedError;
  /** The session ran out: `error('session_expired', 'The session has expired.')`. */
  expire(): LocEmbedError;
  /** The visitor removes the previewed or chosen cell (Escape): calls `onClear`. */
  clear(): void;
  /**
   * The map renews its session: calls the component's `getSessionToken` and resolves with the token it
   * gave. Rejects when there is none, or it gave no `<sid>.<secret>` token, as the real map would fail.
   */
  renew(): Promise<string>;
}

export interface FakeLoc extends LocGlobal {
  /** Every mount so far, in order, destroyed ones included. */
  readonly mounts: readonly FakeMount[];
  /** The last mount, or an error when there is none. */
  lastMount(): FakeMount;
  /**
   * Sets `window.LOC` to this fake; returns the function that puts back what was there. `loadLoc`
   * resolves with this fake from then on, even after it resolved with another (a fake per test).
   */
  install(): () => void;
}

/** A fresh session's lifetime when the test gives no `expiresAt`: the service's default. */
const SESSION_MS = 15 * 60_000;

export function createFakeLoc(options: { version?: string; baseUrl?: string } = {}): FakeLoc {
  const baseUrl = (options.baseUrl ?? 'https://loc.example').replace(/\/+$/, '');
  const mounts: FakeMount[] = [];
  const byElement = new WeakMap<Element, FakeMount>();

  const resultFor = fakeResults(baseUrl);

  const fake: FakeLoc = {
    version: options.version ?? '0.0.0-fake',
    mounts,
    mount(target, mountOptions) {
      const settings = readOptions(mountOptions);
      const element = findElement(target);
      byElement.get(element)?.handle.destroy();
      const mounted = fakeMount(element, mountOptions, settings, resultFor);
      byElement.set(element, mounted);
      mounts.push(mounted);
      return mounted.handle;
    },
    lastMount() {
      const last = mounts.at(-1);
      if (!last) throw new Error('FakeLoc: nothing was mounted.');
      return last;
    },
    install() {
      const before = Object.getOwnPropertyDescriptor(window, 'LOC');
      window.LOC = fake;
      return () => {
        if (before) Object.defineProperty(window, 'LOC', before);
        else delete (window as { LOC?: LocGlobal }).LOC;
      };
    },
  };
  return fake;
}

/** A mount in `element`: an empty iframe where the map would be, its handle, and the test's controls. */
function fakeMount(element: Element, options: LocMountOptions, settings: MountSettings, resultFor: ResultFor): FakeMount {
  const map: FakeMap = { options, value: settings.value, resultFor, calls: [], style: settings.style, view: { center: settings.center, zoom: settings.zoom }, ready: false, stopped: undefined, waiting: [] };
  const iframe = document.createElement('iframe');
  iframe.title = settings.title;
  iframe.style.cssText = `width:100%;height:${settings.height};border:0;display:block`;
  element.append(iframe);
  return mountControls(element, map, fakeHandle(map, iframe));
}

/** The mount as the test sees it: what the map shows now, and the visitor's and the map's doings to drive. */
function mountControls(element: Element, map: FakeMap, handle: LocHandle): FakeMount {
  const { options, value, resultFor } = map;
  return {
    target: element,
    options,
    handle,
    calls: map.calls,
    get style() {
      return map.style;
    },
    get view() {
      return map.view;
    },
    get isReady() {
      return map.ready;
    },
    get isStopped() {
      return map.stopped !== undefined;
    },
    ready(info = {}) {
      assertAlive(map, 'ready');
      if (map.ready) throw new Error('FakeMount.ready: onReady was called already; the real map calls it once per mount.');
      map.ready = true;
      // A value that is no code is reported, as the real map reports its failed lookup, before onReady.
      const refused = value === undefined ? null : refusedCode(value);
      if (refused) callComponent(map, options.onError, refused);
      const opened = value === undefined || refused ? {} : { value: unsourced(resultFor(value, 'page')) };
      const told: LocReadyInfo = { style: map.style, center: map.view.center, zoom: map.view.zoom, expiresAt: new Date(Date.now() + SESSION_MS).toISOString(), locale: 'en', requiredMessage: 'Choose a location on the map.', ...opened, ...info };
      callComponent(map, options.onReady, told);
      for (const request of map.waiting) request.go();
      map.waiting = [];
      return told;
    },
    select(target = {}, source = 'visitor') {
      assertAlive(map, 'select');
      if (!map.ready) throw new Error('FakeMount.select: call ready() first; the real map chooses nothing before onReady.');
      const result = resultFor(target, source);
      callComponent(map, options.onSelect, result);
      return result;
    },
    preview(target = {}) {
      assertAlive(map, 'preview');
      if (!map.ready) throw new Error('FakeMount.preview: call ready() first; the real map previews nothing before onReady.');
      const result = { ...unsourced(resultFor(target, 'visitor')), saved: false };
      callComponent(map, options.onPreview, result);
      return result;
    },
    clear() {
      assertAlive(map, 'clear');
      callComponent(map, options.onClear, undefined);
    },
    error(code, message = `A test reported ${code}.`) {
      assertAlive(map, 'error');
      if (!(code in RECOVERABLE)) throw new TypeError(`FakeMount.error: ${JSON.stringify(code)} is not a LocErrorCode.`);
      const error: LocEmbedError = { code, message, recoverable: RECOVERABLE[code] };
      callComponent(map, options.onError, error);
      if (!error.recoverable) stopMap(map, error);
      return error;
    },
    expire() {
      return this.error('session_expired', 'The session has expired.');
    },
    async renew() {
      assertAlive(map, 'renew');
      if (!options.getSessionToken) throw new Error('FakeMount.renew: the mount has no getSessionToken; the real map would let the session expire.');
      const token: unknown = await options.getSessionToken();
      if (typeof token !== 'string' || !/^[\w-]+\.[\w-]+$/.test(token)) {
        throw new TypeError('FakeMount.renew: getSessionToken must resolve with the session_token, "<sid>.<secret>"; the real map would fail the renewal.');
      }
      return token;
    },
  };
}
