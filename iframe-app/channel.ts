/**
 * The frame's side of the handshake (protocol.ts): say hello to the parent — only if the parent is the
 * session's origin, which `postMessage`'s target origin enforces — then accept the port only from the
 * parent window, from that origin, with the nonce of the URL fragment, and expose the frame's API on it
 * with comlink. The port is private to this mount, so nothing else can call the API; and comlink is
 * let act only on calls of the API's own methods (see `onlyCalls`).
 */
import { expose, type Endpoint } from 'comlink';
import type { ConnectMessage, FrameApi, HelloMessage, LocEmbedError, WireMessage, WireReply } from '../src/embed/protocol.ts';

/**
 * How long past the page's deadline (`FrameStart.until`) the frame still waits for its connect. The
 * loader answers a hello at once, in its message listener, until its `loadTimeout` ends (or another
 * error stops the mount); after that the hello goes unanswered for good. A hello sent before the
 * deadline may still be answered a little after it when the page's main thread is busy.
 */
export const CONNECT_GRACE_MS = 2000;

/** The methods of `FrameApi`: the whole protocol. Typed as a record so that a new method must be listed. */
const METHODS: Record<keyof FrameApi, true> = { init: true, setStyle: true, setView: true, select: true, clear: true };

export interface Handshake {
  /** The session's origin, the only parent this frame talks to. */
  origin: string;
  nonce: string;
  api: FrameApi;
  /** When the page stops waiting for the hello (epoch ms). */
  until: number;
  /**
   * Called when no connect came by `until` plus `CONNECT_GRACE_MS`: the page has given up on this
   * frame. A connect that comes later is still accepted, so that the page can be told why the frame stopped.
   */
  onUnanswered(): void;
}

/** Starts the handshake in `win`; returns a function that stops listening. */
export function connect(win: Window, { origin, nonce, api, until, onUnanswered }: Handshake): () => void {
  const timer = setTimeout(onUnanswered, Math.max(0, until - Date.now()) + CONNECT_GRACE_MS);
  const stop = () => {
    clearTimeout(timer);
    win.removeEventListener('message', onMessage);
  };
  const onMessage = (event: MessageEvent<ConnectMessage>) => {
    const port = event.ports[0];
    if (event.source !== win.parent || event.origin !== origin || event.data?.type !== 'loc:connect' || event.data.nonce !== nonce || !port) return;
    stop();
    // The port's messages come only from the loader that created it (their origin reads as "").
    expose(api, onlyCalls(port));
  };
  win.addEventListener('message', onMessage);
  win.parent.postMessage({ type: 'loc:hello', nonce } satisfies HelloMessage, origin);
  return stop;
}

/** The method a call names: an APPLY of one name, or null for anything else. */
function calledName(data: Partial<WireMessage> | null | undefined): string | null {
  const path = data?.path;
  return data?.type === 'APPLY' && Array.isArray(path) && path.length === 1 && typeof path[0] === 'string' ? path[0] : null;
}

/**
 * Whether comlink may act on `data`: a call of one API method by name, or a RELEASE (comlink's "done
 * with this port", which only reads along its path and then lets the port go).
 */
function isProtocol(data: Partial<WireMessage> | null | undefined): boolean {
  const name = calledName(data);
  return data?.type === 'RELEASE' || (name !== null && Object.hasOwn(METHODS, name));
}

/**
 * The answer to a call of a method this frame does not have, thrown as the frame throws its own
 * errors (a plain LocEmbedError, comlink's non-Error throw). A loader of a later v1 may call one that
 * came after this frame (a rolling deploy, a page kept open across one): its promise must settle,
 * with a code the page already handles, and the map goes on.
 */
function unknownMethod(id: string, name: string): WireReply {
  const error: LocEmbedError = {
    code: 'internal_error',
    message: `This map has no ${JSON.stringify(name)}: it was served by an earlier version of the service than the loader. Reload the page.`,
    recoverable: true,
  };
  return { type: 'HANDLER', name: 'throw', value: { isError: false, value: error }, id };
}

/**
 * The port as comlink's endpoint, passing on only protocol messages. Left alone, `expose` walks any
 * property path it is sent — GET reads it, SET writes it, ENDPOINT exposes the object again on a new
 * port — so whoever holds the page's end could read the frame's state or, with a path through
 * `__proto__`, write to `Object.prototype` on the service's origin. A call of a method the frame
 * does not have is answered with an error (`unknownMethod`); everything else is dropped unanswered:
 * the loader never sends it.
 */
function onlyCalls(port: MessagePort): Endpoint {
  const filtered = new Map<EventListenerOrEventListenerObject, (event: MessageEvent) => void>();
  return {
    postMessage: (message: unknown, transfer: Transferable[] = []) => port.postMessage(message, transfer),
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      const pass = (event: MessageEvent) => {
        if (!isProtocol(event.data)) {
          const name = calledName(event.data);
          if (name !== null && typeof event.data.id === 'string') port.postMessage(unknownMethod(event.data.id, name));
          return;
        }
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      filtered.set(listener, pass);
      port.addEventListener(type, pass as EventListener);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      port.removeEventListener(type, filtered.get(listener) as EventListener);
      filtered.delete(listener);
      // comlink lets go of its endpoint only after a RELEASE, and closes it only when it is a real
      // MessagePort; this wrapper is not, so it closes the port for it.
      port.close();
    },
    start: () => port.start(),
  };
}
