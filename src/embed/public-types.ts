/**
 * loc embed — the public types: the global `LOC` that `loc-embed.js` defines, the options of
 * `LOC.mount`, the handle it returns and what the callbacks receive.
 *
 * This file is the one source of these types. The build emits it as `loc-embed.d.ts`, served at
 * `{base_url}/embed/loc-embed.d.ts` for integrators, with tag-global.d.ts's global `LOC` after it;
 * loc-js ships it as it is, and declares `window.LOC` its own way. The loader and the map frame
 * import it through `protocol.ts`. It declares types only, so it adds nothing to either bundle.
 */

/** A map style: a set of tile layers chosen by the service. */
export type LocStyle = 'streets' | 'satellite' | 'traffic' | 'biking';

/** A point in degrees (WGS 84): `{ lat, lng }` or `[lat, lng]`. Latitude −90…90, longitude −180…180. */
export type LocLatLng = { lat: number; lng: number } | readonly [lat: number, lng: number];

/** Edges of a 3 m × 3 m cell in degrees. The south and west edges belong to the cell. */
export interface LocCell {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** The result of `POST /v1/embed/resolve`: the chosen cell, its code and address. */
export interface LocResolveResult {
  success: true;
  /** The code of the chosen cell, `CC-XXXX-XXXX`. */
  loc_code: string;
  /** Centre of the cell, not the clicked point. */
  latitude: number;
  longitude: number;
  address: string;
  /** ISO 3166-1 alpha-2 code of the country that holds the cell centre. */
  country_code: string;
  cell: LocCell;
  /** Whether the service stored the location (true for every confirmed selection). */
  saved: boolean;
  /** A link that opens the exact cell. */
  share_url: string;
}

/**
 * Who chose the cell: `'visitor'` on the map (a click, the keys, “Use this location”), `'page'` through
 * `handle.select`.
 */
export type LocSelectSource = 'visitor' | 'page';

/** What `onSelect` receives, and `handle.select` resolves with: the resolve result, and who chose. */
export interface LocSelectResult extends LocResolveResult {
  source: LocSelectSource;
}

/**
 * The codes `onError` reports. Each is a code of the service's error catalogue, so a code means the
 * same in the embed as in an API response.
 */
export type LocErrorCode =
  /** The session reached `expires_at`, or the service says it is no longer valid. Remount with a new one. */
  | 'session_expired'
  /** The service does not know the session token. Remount with a token from `POST /v1/embed/sessions`. */
  | 'invalid_session'
  /** The API key that created the session was disabled. */
  | 'key_inactive'
  /** The account that created the session is no longer a partner. */
  | 'partner_required'
  /** This page's origin is not the origin the session was created for. */
  | 'origin_mismatch'
  /** The map frame did not load within `loadTimeout`. */
  | 'load_timeout'
  /** The hourly request limit of the API key's embed sessions is used up; the visitor can try again later. */
  | 'rate_limited'
  /**
   * The session has made all the requests one session may make. With `getSessionToken` the map renews
   * the session and carries on; without it, mount again with a new one.
   */
  | 'session_limit_reached'
  /** The frame could not reach the service. */
  | 'network'
  /** The chosen point is outside every supported country; the visitor can choose another. */
  | 'unsupported_location'
  /**
   * The chosen point is outside the area the session was created with (`countries`, `bounds`); the
   * visitor can choose another. `message` says which part of the area it fails and what the area is.
   */
  | 'outside_session_area'
  /** `handle.select` was given a code that is malformed (not `CC-XXXX-XXXX`, case, spaces and hyphens forgiven). */
  | 'invalid_code'
  /** `handle.select` was given a well-formed code that no cell has. */
  | 'code_not_found'
  /** The service is overloaded or down for a moment. */
  | 'service_unavailable'
  /** Anything else the service reported. */
  | 'internal_error'
  /**
   * A mount option passed the loader's checks of its shape but the map cannot use its value — a
   * `locale` it has no language for, an `appearance` variable that is not a colour or that fails
   * contrast. The map uses its default instead and goes on; `message` names the option, the value and
   * why. The visitor is told nothing.
   */
  | 'invalid_option';

/**
 * What `onError` receives, and what `select` and `clear` reject with when the map refused. Told from
 * a `LocAbortError` by `name`, which this never has (`error.name === 'AbortError'` narrows to
 * that), or by `code`, which that never has.
 */
export interface LocEmbedError {
  /** Never set: `'AbortError'` here means a `LocAbortError`. */
  name?: undefined;
  code: LocErrorCode;
  /** A sentence for developers; the frame shows its own message to the visitor. */
  message: string;
  /**
   * true: the map keeps working and the visitor can try again (rate limit, network, unsupported
   * location, a point outside the session's area, a busy service). false: the map has stopped; mount again with a fresh session.
   */
  recoverable: boolean;
  /** For `rate_limited`: seconds until the limit resets, when the service said. */
  retryAfter?: number;
}

/**
 * What `select` and `clear` reject with when something dropped them — a later choice, the page's or
 * the visitor's, `clear()`, or `destroy()` — named as an aborted `fetch`'s error is. A plain object,
 * as `LocEmbedError` is: what the map answers crosses a channel.
 */
export interface LocAbortError {
  name: 'AbortError';
  /** Never set: a `code` means a `LocEmbedError`. */
  code?: undefined;
  message: string;
}

/** What `onReady` receives: the view the map shows when it becomes interactive. */
export interface LocReadyInfo {
  style: LocStyle;
  center: { lat: number; lng: number };
  zoom: number;
  /** When the current session expires (ISO 8601), as the service states it. */
  expiresAt: string;
  /** The language the map speaks, a BCP 47 tag: `locale`'s, the page's, or English (see `LocMountOptions.locale`). */
  locale: string;
  /** The map's sentence asking for a choice, in its language: `<loc-picker required>`'s message while empty. */
  requiredMessage: string;
  /**
   * The cell of the `value` option, shown as already chosen; absent without `value`, or when it could
   * not be opened (then `onError` said why, before this).
   */
  value?: LocResolveResult;
}

/**
 * The frame's built-in look: `light`, `dark` (a dark panel and controls; the map's tiles stay as they
 * are), or `auto`, which follows the visitor's `prefers-color-scheme` as it changes.
 */
export type LocTheme = 'light' | 'dark' | 'auto';

/**
 * Your values over the theme's, each a CSS value. The frame checks each: a value that is not a colour
 * (`CSS.supports('color', …)`), a length or a font list, or a colour that would not read against the
 * colour it is shown with (WCAG AA: 4.5:1 for text, 3:1 for the cell outline and the focus ring), is
 * not applied — the theme's stays — and `onError` hears `invalid_option` naming the variable, the pair
 * and the contrast. Under `auto` your colours apply to both schemes, and are checked against both.
 */
export interface LocAppearanceVariables {
  /** “Use this location”, links' focus ring, the previewed and chosen cell's outline unless `colorCell` is given; its text is white or black, whichever reads. */
  colorPrimary?: string;
  /** The panel's and the controls' surface. */
  colorBackground?: string;
  /** Text on that surface: the code, the buttons, the controls' icons. */
  colorText?: string;
  /** Secondary text on that surface: the address, “Finding the code…”. */
  colorMuted?: string;
  /** The message line's text (errors), on a tint of itself. */
  colorDanger?: string;
  /** The chosen cell's outline on the map (checked at 3:1 against its white halo). */
  colorCell?: string;
  /** The frame's font, a CSS `font-family` list; no `;`, `{`, `}`. */
  fontFamily?: string;
  /** Corner radius of the panel, buttons and controls, a CSS length such as `'4px'`. */
  borderRadius?: string;
}

/** How the frame looks: passed as data, since a page's CSS cannot reach a cross-origin frame. */
export interface LocAppearance {
  /** @default 'light' */
  theme?: LocTheme;
  variables?: LocAppearanceVariables;
}

/** The options of `LOC.mount`. Only `sessionToken` is required. */
export interface LocMountOptions {
  /** The `session_token` your server received from `POST /v1/embed/sessions`. */
  sessionToken: string;
  /** CSS length of the map's height, e.g. `'400px'` or `'60vh'`. @default '400px' */
  height?: string;
  /** Initial centre of the map. @default { lat: 20, lng: 0 } */
  center?: LocLatLng;
  /** Initial zoom, an integer from 0 (the world) to 20 (single cells); the 3 m grid shows from 18. @default 2 */
  zoom?: number;
  /** Initial map style. @default 'streets' */
  style?: LocStyle;
  /**
   * true: a click previews the cell (code, address) and the visitor confirms with “Use this location”,
   * which saves it and calls `onSelect`. false: a click saves and calls `onSelect` at once.
   * @default true
   */
  confirm?: boolean;
  /** Milliseconds to wait for the map frame before `onError` reports `load_timeout`. @default 15000 */
  loadTimeout?: number;
  /** Accessible name of the map frame, read by screen readers; give it in your page's language. @default 'Map: choose a location' */
  title?: string;
  /**
   * The search box over the map: place names, coordinates, codes. false hides it.
   * @default true
   */
  search?: boolean;
  /**
   * A code chosen earlier (an edit page): the map opens on its cell, shown as chosen. `onSelect` is
   * not called for it; `onReady` carries it as `value`. A code that does not exist, or that is outside
   * the session's area, is reported through `onError` (`invalid_code`, `code_not_found`,
   * `outside_session_area`, all recoverable) and the map opens on `center` and `zoom`.
   */
  value?: string;
  /**
   * Language of the map's text, a BCP 47 tag such as `'fr'` or `'pt-BR'`: the exact tag, else its base
   * language. Without it, the page's language (`<html lang>`, else the browser's), falling back to
   * English. A language the map does not have reaches `onError` as `invalid_option`, and the map speaks
   * the page's language or English instead. Arabic mirrors the layout.
   * @default undefined
   */
  locale?: string;
  /** The map's theme and your colours, font and radius over it (see `LocAppearanceVariables`). @default { theme: 'light' } */
  appearance?: LocAppearance;
  /**
   * Renews the session before it expires, without a remount: return a fresh `session_token` from your
   * server (for the same origin), or a promise of it. Called about a minute before `expires_at` (a
   * quarter of the lifetime for short sessions); when it fails the map retries until expiry, then
   * reports `session_expired`.
   */
  getSessionToken?: () => string | Promise<string>;
  /** Called when a cell is chosen: by the visitor, or by the page through `handle.select` (see `source`). */
  onSelect?: (result: LocSelectResult) => void;
  /**
   * Called when the visitor previews a cell, before confirming it (only with `confirm: true`): what the
   * map shows. Nothing is saved yet; `onSelect` follows if the visitor confirms.
   */
  onPreview?: (result: LocResolveResult) => void;
  /**
   * Called when the visitor removes the previewed or chosen cell (Escape, or the search box's clear),
   * so that the page forgets it too. Not called for the page's own `handle.clear()`.
   */
  onClear?: () => void;
  /** Called on every embed error, with a stable code. */
  onError?: (error: LocEmbedError) => void;
  /** Called once per mount when the map is interactive: connected, session handed over, first tiles drawn. */
  onReady?: (info: LocReadyInfo) => void;
}

/** What `LOC.mount` returns. */
export interface LocHandle {
  /** The map's iframe, already in the page. */
  readonly iframe: HTMLIFrameElement;
  /** Removes the iframe and every listener. Safe to call more than once. */
  destroy(): void;
  /** Switches the map style. */
  setStyle(style: LocStyle): void;
  /** Moves the map; the zoom stays when omitted. */
  setView(center: LocLatLng, zoom?: number): void;
  /**
   * Chooses a cell as the visitor's confirmed choice would: saves it, outlines it, centres the map on
   * it (at zoom 19 or closer) and calls `onSelect` with `source: 'page'`. `target` is a code
   * (`'FR-0RMB-CQXT'`; case, spaces and hyphens are forgiven) or a point, whose cell is chosen.
   * Resolves with what `onSelect` received, after it. Rejects with a `LocEmbedError` (`invalid_code`,
   * `code_not_found`, `unsupported_location`, `outside_session_area`, `network`, `rate_limited`,
   * `session_expired` …; only those that stop the map reach `onError` too), or a `LocAbortError` when a later choice, `clear()`
   * or `destroy()` drops it. A target of neither shape throws a `TypeError` at once, as `setView`'s
   * does. Made before `onReady`, it waits for it.
   */
  select(target: string | LocLatLng): Promise<LocSelectResult>;
  /**
   * Removes the choice — the outline and the code shown — as if nothing had been chosen, and drops a
   * choice under way; calls no callback. Resolves once done; made before `onReady`, it waits for it,
   * in turn with `select`. Rejects as `select` does once the map stopped or was destroyed.
   */
  clear(): Promise<void>;
}

/** The global `LOC` that `loc-embed.js` defines. */
export interface LocGlobal {
  /** Version of the loader. */
  readonly version: string;
  /**
   * Puts a map picker into the element (or the first element that matches the selector). Mounting
   * again into the same element replaces the earlier map. Throws at once on invalid options.
   */
  mount(target: string | Element, options: LocMountOptions): LocHandle;
}
