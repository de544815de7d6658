/**
 * The frame's side of the handshake (protocol.ts): say hello to the parent — only if the parent is the
 * session's origin, which `postMessage`'s target origin enforces — then accept the port only from the
 * parent window, from that origin, with the nonce of the URL fragment, and expose the frame's API on it
 * with comlink. The port is private to this mount, so nothing else can call the API.
 */
import { expose } from 'comlink';
import type { ConnectMessage, FrameApi, HelloMessage } from '../src/embed/protocol.ts';

export interface Handshake {
  /** The session's origin, the only parent this frame talks to. */
  origin: string;
  nonce: string;
  api: FrameApi;
}

/** Starts the handshake in `win`; returns a function that stops listening. */
export function connect(win: Window, { origin, nonce, api }: Handshake): () => void {
  const onMessage = (event: MessageEvent<ConnectMessage>) => {
    const port = event.ports[0];
    if (event.source !== win.parent || event.origin !== origin || event.data?.type !== 'loc:connect' || event.data.nonce !== nonce || !port) return;
    win.removeEventListener('message', onMessage);
    // The port's messages come only from the loader that created it (their origin reads as "").
    expose(api, port);
  };
  win.addEventListener('message', onMessage);
  win.parent.postMessage({ type: 'loc:hello', nonce } satisfies HelloMessage, origin);
  return () => win.removeEventListener('message', onMessage);
}
