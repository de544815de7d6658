/**
 * The loader: `LOC.mount` puts a map frame into the integrator's page, talks to it over a private
 * `MessageChannel` (comlink's protocol, wire.ts), and turns what the frame reports into the
 * integrator's callbacks.
 *
 * The handshake (protocol.ts) trusts a window message only from the mount's own iframe, from the
 * service's exact origin and with the mount's nonce; the port it hands over is the only channel after
 * that, and the session token travels over it, never in a URL.
 */
import { kindOf, readLatLng, readOptions, readStyle, readZoom } from './options.ts';
import type { ConnectMessage, FrameInit, FrameStart, HelloMessage, HostCallbacks } from './protocol.ts';
import type { LocEmbedError, LocErrorCode, LocGlobal, LocHandle } from './public-types.ts';
import { callFrame } from './wire.ts';

/**
 * Sandbox flags of the frame, as few as work: scripts for the map; same-origin so the frame keeps its
 * real origin (postMessage origin checks, same-origin calls to the API, clipboard, geolocation);
 * popups that escape the sandbox for the share link and tile attributions, which open in a new tab.
 * No forms, no top navigation, no modals.
 */
export const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** `scriptSrc` is the loader's own URL, `{base_url}/embed/loc-embed.js`: the service is found from it. */
export function createLoc(scriptSrc: string, version: string): LocGlobal {
  const base = scriptSrc.replace(/\/embed\/loc-embed\.js([?#].*)?$/, '');
  const serviceOrigin = new URL(base).origin;
  const mounts = new WeakMap<Element, LocHandle>();

  function mount(target: string | Element, options: Parameters<LocGlobal['mount']>[1]): LocHandle {
    const settings = readOptions(options);
    const element = findElement(target);
    mounts.get(element)?.destroy();

    const state = { style: settings.style, center: settings.center, zoom: settings.zoom };
    const nonce = crypto.randomUUID();
    const start: Record<keyof FrameStart, string> = {
      nonce,
      style: state.style,
      lat: `${state.center.lat}`,
      lng: `${state.center.lng}`,
      zoom: `${state.zoom}`,
      until: `${Date.now() + settings.loadTimeout}`,
    };
    const iframe = document.createElement('iframe');
    iframe.src = `${base}/embed/frame/${settings.sid}#${new URLSearchParams(start)}`;
    const attributes = { title: settings.title, sandbox: SANDBOX, allow: 'geolocation; clipboard-write', referrerpolicy: 'no-referrer' };
    for (const [name, value] of Object.entries(attributes)) iframe.setAttribute(name, value);
    iframe.style.cssText = `display:block;width:100%;border:0;height:${settings.height}`;

    let destroyed = false;
    let stopped = false;
    let port: MessagePort | undefined;
    let hostPort: MessagePort | undefined;
    const abort = new AbortController();

    /** Runs an integrator callback; its exceptions are theirs, reported without breaking the embed. */
    const call = <T>(callback: ((arg: T) => void) | undefined, arg: T) => {
      if (destroyed || !callback) return;
      try {
        callback(arg);
      } catch (error) {
        reportError(error);
      }
    };
    /** After the first error that stops the map, later ones would only repeat it, and a late frame is not let in. */
    const report = (error: LocEmbedError) => {
      if (stopped) return;
      stopped = !error.recoverable;
      if (stopped) {
        clearTimeout(timer);
        removeEventListener('message', onMessage);
      }
      call(settings.onError, error);
    };
    const fail = (code: LocErrorCode, message: string) => report({ code, message, recoverable: false });

    // A frame that connected before the session check stopped the mount still runs, and may still
    // call: what it says is not passed on.
    const host: HostCallbacks = {
      ready: (info) => {
        if (!stopped) call(settings.onReady, info);
      },
      select: (result) => {
        if (!stopped) call(settings.onSelect, result);
      },
      error: report,
      // The frame asks only when init said `renewable`, that is when there is a getSessionToken.
      renew: () => settings.getSessionToken!(),
    };

    const onMessage = (event: MessageEvent<HelloMessage>) => {
      const hello = event.data;
      const win = iframe.contentWindow;
      if (!win || event.source !== win || event.origin !== serviceOrigin || hello?.type !== 'loc:hello' || hello.nonce !== nonce) return;
      removeEventListener('message', onMessage);
      clearTimeout(timer);
      const channel = new MessageChannel();
      port = channel.port1;
      win.postMessage({ type: 'loc:connect', nonce } satisfies ConnectMessage, serviceOrigin, [channel.port2]);
      const init: FrameInit = { token: settings.token, ...state, confirm: settings.confirm, renewable: !!settings.getSessionToken };
      hostPort = callFrame(port, 'init', [init], host);
    };
    addEventListener('message', onMessage);
    const timer = setTimeout(
      () => fail('load_timeout', `The map frame did not answer within ${settings.loadTimeout} ms.`),
      settings.loadTimeout,
    );

    // In parallel with the frame: a page on the wrong origin would only see the browser block the frame
    // (frame-ancestors), so the session's public record tells the integrator why, at once.
    fetch(`${base}/embed/session/${settings.sid}`, { signal: abort.signal, credentials: 'omit' })
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

    element.append(iframe);

    const handle: LocHandle = {
      iframe,
      destroy() {
        if (destroyed) return;
        destroyed = true;
        clearTimeout(timer);
        removeEventListener('message', onMessage);
        abort.abort();
        port?.close();
        hostPort?.close();
        iframe.remove();
        if (mounts.get(element) === handle) mounts.delete(element);
      },
      setStyle(style) {
        state.style = readStyle(style, 'setStyle: style');
        if (port && !destroyed) callFrame(port, 'setStyle', [state.style]);
      },
      setView(center, zoom) {
        state.center = readLatLng(center, 'setView: center');
        if (zoom !== undefined) state.zoom = readZoom(zoom, 'setView: zoom');
        if (port && !destroyed) callFrame(port, 'setView', [state.center, zoom]);
      },
    };
    mounts.set(element, handle);
    return handle;
  }

  return { version, mount };
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
