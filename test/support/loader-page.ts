/**
 * The map frame as the loader's unit tests (jsdom) play it: the hello the frame sends, forged at will,
 * and its window's postMessage, replaced to see what the loader sends and to take the port.
 */
import { vi } from 'vitest';

/** The start options the loader wrote into the frame URL's fragment. */
export const fragment = (iframe: HTMLIFrameElement) => new URLSearchParams(new URL(iframe.src).hash.slice(1));

/** A hello as the frame would send it from `service`; any field can be forged. */
export function hello(iframe: HTMLIFrameElement, service: string, forged: { source?: unknown; origin?: string; nonce?: string; type?: string } = {}) {
  const event = new MessageEvent('message', {
    data: { type: forged.type ?? 'loc:hello', nonce: forged.nonce ?? fragment(iframe).get('nonce') },
    origin: forged.origin ?? service,
  });
  // jsdom checks `source` in MessageEventInit against its own Window type; define it as the browser would set it.
  Object.defineProperty(event, 'source', { value: 'source' in forged ? forged.source : iframe.contentWindow });
  window.dispatchEvent(event);
}

/** Replaces the frame window's postMessage, to see what the loader sends and take the port. */
export function spyOnFrame(iframe: HTMLIFrameElement) {
  const post = vi.fn();
  Object.defineProperty(iframe.contentWindow, 'postMessage', { value: post });
  return post;
}
