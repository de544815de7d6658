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
import { kindOf, readLatLng, readOptions, readStyle, readZoom, type MountSettings } from './options.ts';
import type { ConnectMessage, FrameApi, FrameInit, FrameStart, HelloMessage, HostCallbacks } from './protocol.ts';
import type { LocEmbedError, LocErrorCode, LocGlobal, LocHandle } from './public-types.ts';
import { callFrame } from './wire.ts';

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

/** The service the loader came from: the base URL of its embed paths, and the origin its frames speak from. */
interface Service {
  base: string;
  origin: string;
}

/** The map's style and view that init hands the frame. */
type View = Pick<FrameInit, 'style' | 'center' | 'zoom'>;

/**
 * One mount: the frame in `element`, the session's check beside it, and the integrator's handle on
 * both; `forget` lets the loader drop the handle once it is destroyed.
 */
function mountFrame(service: Service, settings: MountSettings, element: Element, forget: () => void): LocHandle {
  // The options' view, as setStyle and setView change it: what init tells a frame that connects later.
  const view: View = { style: settings.style, center: settings.center, zoom: settings.zoom };
  const page = pageCallbacks(settings, () => frame.stopWaiting());
  const frame = openFrame(service, settings, view, page);
  const abort = new AbortController();
  checkSession(`${service.base}/embed/session/${settings.sid}`, abort.signal, page.fail);
  element.append(frame.iframe);

  return {
    iframe: frame.iframe,
    destroy() {
      if (page.destroyed) return;
      page.destroyed = true;
      frame.close();
      abort.abort();
      frame.iframe.remove();
      forget();
    },
    setStyle(style) {
      view.style = readStyle(style, 'setStyle: style');
      frame.call('setStyle', [view.style]);
    },
    setView(center, zoom) {
      view.center = readLatLng(center, 'setView: center');
      if (zoom !== undefined) view.zoom = readZoom(zoom, 'setView: zoom');
      frame.call('setView', [view.center, zoom]);
    },
  };
}

interface PageCallbacks {
  /** Set by destroy(): no callback is called any more. */
  destroyed: boolean;
  /** The callbacks as the frame calls them, over the channel. */
  host: HostCallbacks;
  /** Reports an error the map cannot go on from, found by the loader itself. */
  fail(code: LocErrorCode, message: string): void;
}

/**
 * The integrator's callbacks, as the frame and the loader's own checks call them. An exception thrown
 * in one is the integrator's: reported (`reportError`) without breaking the embed. The first error the
 * map cannot go on from stops the mount: later errors would only repeat it, a frame that connected
 * before it may still call but is not passed on, and `onStop` lets no late frame in. After destroy()
 * nothing is called at all.
 */
function pageCallbacks(settings: MountSettings, onStop: () => void): PageCallbacks {
  let stopped = false;
  const call = <T>(callback: ((arg: T) => void) | undefined, arg: T) => {
    if (page.destroyed || !callback) return;
    try {
      callback(arg);
    } catch (error) {
      reportError(error);
    }
  };
  const report = (error: LocEmbedError) => {
    if (stopped) return;
    stopped = !error.recoverable;
    if (stopped) onStop();
    call(settings.onError, error);
  };
  const page: PageCallbacks = {
    destroyed: false,
    host: {
      ready: (info) => {
        if (!stopped) call(settings.onReady, info);
      },
      select: (result) => {
        if (!stopped) call(settings.onSelect, result);
      },
      error: report,
      // The frame asks only when init said `renewable`, that is when there is a getSessionToken.
      renew: () => settings.getSessionToken!(),
    },
    fail: (code, message) => report({ code, message, recoverable: false }),
  };
  return page;
}

/** The frame as the page holds it. */
interface PageFrame {
  iframe: HTMLIFrameElement;
  /** Stops waiting for the frame's hello: the mount stopped, and a late frame is not let in. */
  stopWaiting(): void;
  /** Calls the frame's API once it connected; before that, nothing: init will carry the view. */
  call<K extends keyof FrameApi>(method: K, args: unknown[]): void;
  /** Stops waiting, and closes the channel, and with it every call the frame could still make. */
  close(): void;
}

/**
 * The frame as the page sees it: its iframe, whose hello is awaited until `loadTimeout` — taken only
 * from that iframe's window, from the service's exact origin and with the mount's nonce — then the
 * channel it is handed, on which init goes first with the token and the view at that moment.
 */
function openFrame(service: Service, settings: MountSettings, view: View, page: PageCallbacks): PageFrame {
  const nonce = crypto.randomUUID();
  const start: FrameStart = { nonce, style: view.style, ...view.center, zoom: view.zoom, until: Date.now() + settings.loadTimeout };
  const iframe = document.createElement('iframe');
  // URLSearchParams writes each number as String() does.
  iframe.src = `${service.base}/embed/frame/${settings.sid}#${new URLSearchParams(start as unknown as Record<string, string>)}`;
  const attributes = { title: settings.title, sandbox: SANDBOX, allow: 'geolocation; clipboard-write', referrerpolicy: 'no-referrer' };
  for (const [name, value] of Object.entries(attributes)) iframe.setAttribute(name, value);
  iframe.style.cssText = `display:block;width:100%;border:0;height:${settings.height}`;

  let port: MessagePort | undefined;
  let hostPort: MessagePort | undefined;
  const onMessage = (event: MessageEvent<HelloMessage>) => {
    const hello = event.data;
    const win = iframe.contentWindow;
    if (!win || event.source !== win || event.origin !== service.origin || hello?.type !== 'loc:hello' || hello.nonce !== nonce) return;
    stopWaiting();
    const channel = new MessageChannel();
    port = channel.port1;
    win.postMessage({ type: 'loc:connect', nonce } satisfies ConnectMessage, service.origin, [channel.port2]);
    const init: FrameInit = { token: settings.token, ...view, confirm: settings.confirm, renewable: !!settings.getSessionToken };
    hostPort = callFrame(port, 'init', [init], page.host);
  };
  const stopWaiting = () => {
    clearTimeout(timer);
    removeEventListener('message', onMessage);
  };
  addEventListener('message', onMessage);
  const timer = setTimeout(() => page.fail('load_timeout', `The map frame did not answer within ${settings.loadTimeout} ms.`), settings.loadTimeout);

  return {
    iframe,
    stopWaiting,
    call(method, args) {
      if (port) callFrame(port, method, args);
    },
    close() {
      stopWaiting();
      port?.close();
      hostPort?.close();
      port = undefined;
    },
  };
}

/**
 * In parallel with the frame: a page on the wrong origin would only see the browser block the frame
 * (frame-ancestors), so the session's public record tells the integrator why, at once.
 */
function checkSession(url: string, signal: AbortSignal, fail: (code: LocErrorCode, message: string) => void): void {
  fetch(url, { signal, credentials: 'omit' })
    .then(async (response) => {
      const session = (await response.json()) as { origin?: string; code?: 'invalid_session' | 'key_inactive' | 'partner_required'; message?: string };
      if (session.code === 'invalid_session' || session.code === 'key_inactive' || session.code === 'partner_required') fail(session.code, session.message!);
      else if (response.ok && session.origin !== location.origin) {
        fail('origin_mismatch', `The session is for ${session.origin}, this page is ${location.origin}.`);
      }
    })
    .catch(() => {
      // Unreachable or aborted: the frame reports what matters (network, load_timeout) itself.
    });
}

function findElement(target: unknown): Element {
  if (typeof target === 'string') {
    let element: Element | null;
    try {
      element = document.querySelector(target);
    } catch {
      throw new TypeError(`LOC.mount: the selector must be valid CSS; received ${JSON.stringify(target)}.`);
    }
    if (!element) throw new TypeError(`LOC.mount: no element matches the selector ${JSON.stringify(target)}.`);
    return element;
  }
  if ((target as Node | null)?.nodeType !== 1) {
    throw new TypeError(`LOC.mount: the target must be a CSS selector or an element; received ${kindOf(target)}.`);
  }
  return target as Element;
}
