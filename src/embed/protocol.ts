/**
 * The wire contract between the loader (`loc-embed.js`, in the integrator's page) and the map frame
 * (`iframe-app/`, on the service's origin). Types only: both sides import it, neither bundle ships it.
 *
 * 1. The loader creates the iframe `{base}/embed/frame/{sid}#{FrameStart as URL parameters}` and listens
 *    for messages on its window. It also creates a `MessageChannel` and calls `FrameApi.init` on its
 *    end at once, with the session token (which never appears in a URL) and the host callbacks, passed
 *    as `comlink.proxy` would; init, and every call the page makes after it, wait on the other end.
 * 2. The frame, once its script runs, posts a `HelloMessage` to `window.parent`, aimed at the session's
 *    origin only (the browser drops it for any other parent).
 * 3. The loader accepts it only from that iframe's window, from the service's exact origin and with the
 *    mount's nonce; it answers with a `ConnectMessage` carrying the channel's other end, aimed at the
 *    service's origin.
 * 4. The frame accepts that only from its parent, from the session's origin and with the nonce of its
 *    fragment, and exposes `FrameApi` on the port with comlink, which then delivers init and the calls
 *    behind it, in order. Nothing after that uses window messages.
 *
 * Loaders before `select` and `clear` called init only once the frame connected, with the view as it
 * was then, and dropped setStyle and setView until then; the frame takes both ways.
 */
import type { ProxyMarked } from 'comlink';
import type { ErrorCode } from '../errors.ts';
import type { LocEmbedError, LocErrorCode, LocReadyInfo, LocResolveResult, LocSelectResult, LocStyle } from './public-types.ts';

export type * from './public-types.ts';
export type * from './frame-contract.ts';

/** Compiles only while every code the embed reports is a code of the one error catalogue. */
type InCatalogue<T extends ErrorCode> = T;
export type EmbedErrorCode = InCatalogue<LocErrorCode>;

/** Step 2: the frame is loaded and listening. */
export interface HelloMessage {
  type: 'loc:hello';
  nonce: string;
}

/** Step 3: the loader's answer; `event.ports[0]` is the frame's end of the channel. */
export interface ConnectMessage {
  type: 'loc:connect';
  nonce: string;
}

/** A point as the two sides exchange it: always an object, whatever shape the integrator used. */
export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * Non-secret start options, written as URL parameters in the frame URL's fragment (which browsers
 * never send to a server), so that the map draws its first tiles while the handshake runs.
 */
export interface FrameStart {
  nonce: string;
  style: LocStyle;
  lat: number;
  lng: number;
  zoom: number;
  /** When the loader stops waiting for the hello (epoch ms): mount time plus `loadTimeout`. */
  until: number;
  /** `LocMountOptions.search`; loaders before it send none, which reads as true. */
  search: boolean;
  /** `LocMountOptions.locale`, only when the integrator gave one. */
  locale?: string;
  /** The page's language, which the frame cannot see: `<html lang>`, else the browser's. */
  pageLocale: string;
  /** `LocMountOptions.appearance`, as JSON: the first paint is in its colours. */
  appearance: string;
}

/** Step 1: what the loader hands over. */
export interface FrameInit {
  /** `<sid>.<secret>`; its sid must be the frame's. */
  token: string;
  style: LocStyle;
  center: LatLng;
  zoom: number;
  /** See `LocMountOptions.confirm`. */
  confirm: boolean;
  /** Whether `HostCallbacks.renew` can give a fresh token (the integrator passed `getSessionToken`). */
  renewable: boolean;
  /** `LocMountOptions.value`: the code to open on, as chosen. */
  value?: string;
}

/** What the page side offers the frame: the integrator's callbacks, wrapped, and the token source. */
export interface HostCallbacks {
  ready(info: LocReadyInfo): void;
  select(result: LocSelectResult): void;
  /**
   * `onPreview` and `onClear`. Added after the first callbacks: a loader before them answers a call
   * of either as one of no method, with nothing.
   */
  preview(result: LocResolveResult): void;
  clear(): void;
  error(error: LocEmbedError): void;
  /**
   * A fresh session token from the integrator's `getSessionToken`, as it gave it (a string or a
   * promise); over the port the frame always gets a promise, which rejects when that fails.
   */
  renew(): string | Promise<string>;
}

/** What the frame exposes over the port. Every call is asynchronous across the channel. */
export interface FrameApi {
  /** Hands over the token and callbacks; `ready` follows once the map is interactive. */
  init(init: FrameInit, host: HostCallbacks & ProxyMarked): void;
  setStyle(style: LocStyle): void;
  /** Moves the map; keeps the zoom when `zoom` is undefined. */
  setView(center: LatLng, zoom: number | undefined): void;
  /**
   * `LocHandle.select`: chooses the cell of a code (a string) or of a point, as a confirmed choice
   * would, once the map is ready (or stopped), and answers after `HostCallbacks.select`. Fails with a
   * `LocEmbedError`, or with an `AbortError` when a later choice or clear dropped it. Added after the
   * first three: a loader that never calls it works as before.
   */
  select(target: string | LatLng): Promise<LocSelectResult>;
  /** `LocHandle.clear`: removes the choice, silently, once select would go ahead; answers once done. */
  clear(): Promise<void>;
}

/**
 * The slice of comlink's wire format (comlink 4, `src/protocol.ts` there) that the loader speaks by
 * hand: the frame runs comlink itself, but comlink would take half of the loader's first 3 KB budget, and
 * the loader only makes calls and answers calls to its callbacks. A test runs the loader's side against
 * the real comlink to keep the two in step.
 */
export type WireValue =
  | { type: 'RAW'; value: unknown }
  /**
   * `proxy`: `value` is a MessagePort to call the object on; `throw`: `value` is what was thrown, as
   * comlink writes it — `{ isError: true, value: { message, name, stack } }` for an Error (a
   * DOMException too), `{ isError: false, value }` for anything else.
   */
  | { type: 'HANDLER'; name: 'proxy' | 'throw'; value: unknown };

/** A call across the channel; the answer is a `WireValue` with the same `id`. */
export interface WireMessage {
  id: string;
  type: 'APPLY' | 'GET' | 'SET' | 'CONSTRUCT' | 'ENDPOINT' | 'RELEASE';
  path: string[];
  argumentList?: WireValue[];
}

/** The answer to a `WireMessage`. */
export type WireReply = WireValue & { id: string };
