/**
 * The loader: `LOC.mount` puts a map frame into the integrator's page, talks to it over a private
 * `MessageChannel` (comlink's protocol, wire.ts), and turns what the frame reports into the
 * integrator's callbacks.
 *
 * The handshake (protocol.ts) trusts a window message only from the mount's own iframe, from the
 * service's exact origin and with the mount's nonce; the port it hands over is the only channel after
 * that, and the session token travels over it, never in a URL.
 *
 * A mount is three parts, wired by `mountFrame`: the frame (`openFrame`: its iframe, the handshake,
 * the channel), the integrator's callbacks as the frame calls them (`pageCallbacks`), and the check of
 * the session's public record (`checkSession`).
 */
import { findElement, readLatLng, readOptions, readStyle, readZoom, type MountSettings } from './options.ts';
import type { ConnectMessage, FrameApi, FrameInit, FrameStart, HelloMessage, HostCallbacks } from './protocol.ts';
import type { LocAbortError, LocEmbedError, LocErrorCode, LocGlobal, LocHandle, LocSelectResult } from './public-types.ts';
import { frameChannel, type FrameChannel } from './wire.ts';

/**
 * Sandbox flags of the frame, as few as work: scripts for the map; same-origin so the frame keeps its
 * real origin (postMessage origin checks, same-origin calls to the API, clipboard, geolocation);
 * popups that escape the sandbox for the share link and tile attributions, which open in a new tab.
 * No forms, no top navigation, no modals.
 */
export const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** `scriptSrc` is the loader's own URL, `{base_url}/embed/v1/loc-embed.js` or `{base_url}/embed/loc-embed.js`: the service is found from it. */
export function createLoc(scriptSrc: string, version: string): LocGlobal {
  const base = scriptSrc.replace(/\/embed\/(v1\/)?loc-embed\.js([?#].*)?$/, '');
  const service: Service = { base, origin: new URL(base).origin };
  // One mount per element: mounting into it again replaces the mount.
  const mounts = new WeakMap<Element, LocHandle>();

  function mount(target: string | Element, options: Parameters<LocGlobal['mount']>[1]): LocHandle {
    const settings = readOptions(options);
    const element = findElement(target);
    mounts.get(element)?.destroy();
    const handle = mountFrame(service, settings, element, () => {
      if (mounts.get(element) === handle) mounts.delete(element);
    });
    mounts.set(element, handle);
    return handle;
  }

  return { version, mount };
}

/** What the page's select and clear reject with once the mount is destroyed, as an aborted fetch does. */
const DESTROYED: LocAbortError = { name: 'AbortError', message: 'The map was destroyed.' };

/** The service the loader came from: the base URL of its embed paths, and the origin its frames speak from. */
interface Service {
  base: string;
  origin: string;
}

/**
 * One mount: the frame in `element`, the session's check beside it, and the integrator's handle on
 * both; `forget` lets the loader drop the handle once it is destroyed.
 */
function mountFrame(service: Service, settings: MountSettings, element: Element, forget: () => void): LocHandle {
  const page = pageCallbacks(settings, (error) => frame.close(error));
  const frame = openFrame(service, settings, page);
  checkSession(`${service.base}/embed/session/${settings.sid}`, page.fail);
  element.append(frame.iframe);

  return {
    iframe: frame.iframe,
    // Each step is safe twice, so destroy() is.
    destroy() {
      page.stop(DESTROYED);
      frame.iframe.remove();
      forget();
    },
    setStyle: (style) => frame.call('setStyle', [readStyle(style, 'setStyle: style')]),
    setView: (center, zoom) => frame.call('setView', [readLatLng(center, 'setView: center'), zoom === undefined ? zoom : readZoom(zoom, 'setView: zoom')]),
    // Any string is a code, which the service judges (invalid_code); anything else must be a point, or
    // throws at once, as setView's does: that is the page's mistake, not the map's.
    select: (target) => frame.ask('select', [typeof target === 'string' ? target : readLatLng(target, 'select: target')]) as Promise<LocSelectResult>,
    clear: () => frame.ask('clear', []) as Promise<void>,
  };
}

interface PageCallbacks {
  /** The callbacks as the frame calls them, over the channel. */
  host: HostCallbacks;
  /** Reports an error the map cannot go on from, found by the loader itself. */
  fail(code: LocErrorCode, message: string): void;
  /** Stops the mount for `reason` (an error, or destroy()); the first stop counts. */
  stop(reason: unknown): void;
}

/**
 * The integrator's callbacks, as the frame and the loader's own checks call them. An exception thrown
 * in one is the integrator's: reported (`reportError`) without breaking the embed. The first error the
 * map cannot go on from stops the mount, once `onError` has it, and so does destroy(): nothing is
 * called after that — later errors would only repeat it — and `onStop` cuts the frame off, lets no
 * late frame in and gives what the page asks of the frame the reason.
 */
function pageCallbacks(settings: MountSettings, onStop: (reason: unknown) => void): PageCallbacks {
  let stopped = false;
  const call = <T>(callback: ((arg: T) => void) | undefined, arg: T) => {
    if (stopped || !callback) return;
    try {
      callback(arg);
    } catch (error) {
      reportError(error);
    }
  };
  const stop = (reason: unknown) => {
    if (!stopped) onStop(reason);
    stopped = true;
  };
  const report = (error: LocEmbedError) => {
    call(settings.onError, error);
    if (!error.recoverable) stop(error);
  };
  return {
    host: {
      ready: (info) => call(settings.onReady, info),
      select: (result) => call(settings.onSelect, result),
      preview: (result) => call(settings.onPreview, result),
      clear: () => call(settings.onClear, undefined),
      error: report,
      // The frame asks only when init said `renewable`, that is when there is a getSessionToken.
      renew: () => settings.getSessionToken!(),
    },
    fail: (code, message) => report({ code, message, recoverable: false }),
    stop,
  };
}

/** The frame as the page holds it. */
interface PageFrame extends Omit<FrameChannel, 'close'> {
  iframe: HTMLIFrameElement;
  /**
   * Stops waiting for the hello, so that no late frame is let in, and closes the channel and with it
   * every call the frame could still make; what is asked, then or later, rejects with `reason`.
   */
  close(reason: unknown): void;
}

/**
 * The frame as the page sees it: its iframe, whose hello is awaited until `loadTimeout` — taken only
 * from that iframe's window, from the service's exact origin and with the mount's nonce — and the
 * channel, whose other end goes to that frame alone. Init goes first on it, at once, with the token
 * and the options' view; every call the page makes before the frame connects waits behind it, in the
 * order made, on the port the frame is handed, so that the frame gets them all, in that order.
 */
function openFrame(service: Service, settings: MountSettings, page: PageCallbacks): PageFrame {
  const { style, center, zoom, search } = settings;
  const nonce = crypto.randomUUID();
  const start: FrameStart = {
    nonce, style, ...center, zoom, until: Date.now() + settings.loadTimeout, search,
    ...(settings.locale ? { locale: settings.locale } : {}),
    pageLocale: document.documentElement.lang || navigator.language,
    appearance: JSON.stringify(settings.appearance),
  };
  const iframe = document.createElement('iframe');
  // URLSearchParams writes each number as String() does.
  iframe.src = `${service.base}/embed/frame/${settings.sid}#${new URLSearchParams(start as unknown as Record<string, string>)}`;
  const attributes = { title: settings.title, sandbox: SANDBOX, allow: 'geolocation; clipboard-write', referrerpolicy: 'no-referrer' };
  for (const [name, value] of Object.entries(attributes)) iframe.setAttribute(name, value);
  iframe.style.cssText = `display:block;width:100%;border:0;height:${settings.height}`;

  const ports = new MessageChannel();
  const init: FrameInit = { token: settings.token, style, center, zoom, confirm: settings.confirm, renewable: !!settings.getSessionToken, value: settings.value };
  const channel = frameChannel(ports.port1, init, page.host);
  const onMessage = (event: MessageEvent<HelloMessage>) => {
    const hello = event.data;
    const win = iframe.contentWindow;
    if (!win || event.source !== win || event.origin !== service.origin || hello?.type !== 'loc:hello' || hello.nonce !== nonce) return;
    stopWaiting();
    win.postMessage({ type: 'loc:connect', nonce } satisfies ConnectMessage, service.origin, [ports.port2]);
  };
  const stopWaiting = () => {
    clearTimeout(timer);
    removeEventListener('message', onMessage);
  };
  addEventListener('message', onMessage);
  const timer = setTimeout(() => page.fail('load_timeout', `The map frame did not answer within ${settings.loadTimeout} ms.`), settings.loadTimeout);

  return {
    iframe,
    ...channel,
    close(reason) {
      stopWaiting();
      channel.close(reason);
    },
  };
}

/**
 * In parallel with the frame: a page on the wrong origin would only see the browser block the frame
 * (frame-ancestors), and a session the service does not know gets a frame page no one may frame, so
 * the session's public record tells the integrator why, at once. What the frame can say itself it
 * says: a disabled key or an account no longer a partner (its page's `refusal`), before `onReady`.
 * After destroy() the answer is still read, and goes nowhere (`pageCallbacks`).
 */
function checkSession(url: string, fail: (code: LocErrorCode, message: string) => void): void {
  fetch(url, { credentials: 'omit' })
    .then(async (response) => {
      const session = (await response.json()) as { origin?: string; code?: 'invalid_session'; message?: string };
      if (session.code === 'invalid_session') fail(session.code, session.message!);
      else if (response.ok && session.origin !== location.origin) {
        fail('origin_mismatch', `The session is for ${session.origin}, this page is ${location.origin}.`);
      }
    })
    .catch(() => {
      // Unreachable: the frame reports what matters (network, load_timeout) itself.
    });
}
