/**
 * loc embed — the public types of `<loc-picker>`, the map picker as a form field: the element as a
 * page's script sees it, its DOM events, and its tag in `document.createElement` and
 * `querySelector`. The service serves them as `{base_url}/embed/v1/loc-picker.d.ts`; loc-js ships
 * them with `loc-js/picker`. Types only, like public-types.ts.
 */
import type { LocAppearance, LocEmbedError, LocHandle, LocMountOptions, LocReadyInfo, LocResolveResult, LocSelectResult } from './public-types.ts';

/**
 * The element's DOM events. Each bubbles out of the element (and out of a shadow root around it), and
 * its `detail` is what the `LOC.mount` callback of the same name receives.
 */
export interface LocPickerEvents {
  /** `onReady`: the map is interactive. */
  'loc-ready': CustomEvent<LocReadyInfo>;
  /** `onSelect`: a cell was chosen, by the visitor or by the page; `value` is its code already. */
  'loc-select': CustomEvent<LocSelectResult>;
  /** `onPreview`: the visitor previews a cell; nothing is chosen yet. */
  'loc-preview': CustomEvent<LocResolveResult>;
  /** `onClear`: the visitor removed the choice; `value` is `''` already. */
  'loc-clear': CustomEvent<undefined>;
  /** `onError`: what the map reports, with a stable code. A `session_expired` the element renews itself is not reported. */
  'loc-error': CustomEvent<LocEmbedError>;
  /**
   * The map could not be mounted at all: no session from `session-url` or `getSessionToken`, the
   * script did not load, or an attribute's value was refused (the message names it). Unless a
   * listener calls `preventDefault()`, the error also goes to `reportError` (the console, and your
   * error monitoring).
   */
  'loc-load-error': CustomEvent<Error>;
}

/** Every event a `<loc-picker>` dispatches: its own and an element's. */
export interface LocPickerEventMap extends HTMLElementEventMap, LocPickerEvents {}

/**
 * `<loc-picker>`: a form field whose value is the chosen cell's code. Its attributes are the mount
 * options that are strings or numbers — `height`, `center` (`"48.8584,2.2945"`), `zoom`, `map-style`,
 * `locale`, `theme`, `search` and `confirm` (`"false"` turns them off), `map-title`, `load-timeout`,
 * `value` (the code it opens on) — and the field's `name`, `required`, `disabled`, `form`; where
 * its session comes from is `session-url` (or the `sessionToken` and `getSessionToken` properties).
 */
export interface LocPickerElement extends HTMLElement {
  /** The chosen cell's code, `''` while none is. Setting it chooses that code on the map (`''` clears), as `select` would. */
  value: string;
  /** The `value` attribute: the code the map opens on, and what a form reset goes back to. */
  defaultValue: string;
  /** The `name` attribute: the form data's key. */
  name: string;
  /** The `required` attribute: the form refuses to submit while nothing is chosen. */
  required: boolean;
  /** The `disabled` attribute: the map takes no input, and the form leaves the field out. */
  disabled: boolean;
  /** `'loc-picker'`, as a `<select>`'s is `'select-one'`. */
  readonly type: 'loc-picker';
  readonly form: HTMLFormElement | null;
  readonly labels: NodeListOf<HTMLLabelElement>;
  readonly validity: ValidityState;
  /** The map's `requiredMessage`, in its language, while a required picker is empty; else `''`. */
  readonly validationMessage: string;
  readonly willValidate: boolean;
  checkValidity(): boolean;
  reportValidity(): boolean;
  /** A session token your page already has, for the first map; `session-url` or `getSessionToken` renews it. */
  sessionToken: string | undefined;
  /** Your call for a fresh session token, as `LOC.mount`'s `getSessionToken`; used before `session-url`. */
  getSessionToken: LocMountOptions['getSessionToken'];
  /** The theme and your colours over it (`LocAppearance`); its `theme`, when it has one, wins over the `theme` attribute. */
  appearance: LocAppearance | undefined;
  /** The map's iframe while one is mounted, else null. */
  readonly iframe: HTMLIFrameElement | null;
  /** `LocHandle.select`; waits for the map to mount. */
  select: LocHandle['select'];
  /** `LocHandle.clear`; waits for the map to mount. */
  clear: LocHandle['clear'];
  /** Removes the map and its frame; the element mounts a new one only when it is connected again. */
  destroy(): void;
  addEventListener<K extends keyof LocPickerEventMap>(type: K, listener: (this: LocPickerElement, event: LocPickerEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof LocPickerEventMap>(type: K, listener: (this: LocPickerElement, event: LocPickerEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The attributes of `<loc-picker>`, as markup and the frameworks' templates write them; each is a string. */
export interface LocPickerAttributes {
  name?: string;
  value?: string;
  required?: boolean;
  disabled?: boolean;
  form?: string;
  'session-url'?: string;
  height?: string;
  center?: string;
  zoom?: number | string;
  'map-style'?: LocMountOptions['style'];
  locale?: string;
  theme?: 'light' | 'dark' | 'auto';
  search?: boolean | 'true' | 'false';
  confirm?: boolean | 'true' | 'false';
  'map-title'?: string;
  'load-timeout'?: number | string;
}

declare global {
  interface HTMLElementTagNameMap {
    'loc-picker': LocPickerElement;
  }
}
