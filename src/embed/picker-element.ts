/**
 * `<loc-picker>`: the map picker as a form field, for pages with no script of their own. It is
 * form-associated (ElementInternals, field-internals.ts): the chosen code is its value, in the form's
 * data, checked by `required`, reset with the form and restored when the visitor comes back to the
 * page. Its map — session, mounts, renewal — is `FieldMap`'s (field-map.ts), in its shadow root.
 *
 * In the page it holds:
 * - One session per field: moving the element (which reloads any iframe) mounts the map again with
 *   the session it has and the code chosen; an atomic move (`moveBefore`) keeps the frame as it is.
 * - No leftover frame: removed from the page, it destroys its map in a microtask, unless it was put
 *   back in the same task (a move); a session that arrives after that mounts nothing.
 *
 * Built into the served `loc-picker.js` and into loc-js/picker, each with its own way of loading the
 * loader's script. Importing it touches nothing, on a server too: the class stands on `HTMLElement`
 * only where there is one, and only `defineLocPicker` defines the element.
 */
import { normalizeCode } from '../code/spelling.ts';
import { fieldInternals } from './field-internals.ts';
import { attributeOptions, OPTION_ATTRIBUTES, sessionAsker } from './picker-options.ts';
import { FieldMap } from './field-map.ts';
import type { LocPickerElement, LocPickerEvents } from './picker-types.ts';
import type { LocAppearance, LocEmbedError, LocGlobal, LocHandle, LocMountOptions, LocStyle } from './public-types.ts';

/** The element's name. */
export const PICKER_TAG = 'loc-picker' as const;

/** Properties a framework may set before the element is defined. */
const PROPERTIES = ['value', 'sessionToken', 'getSessionToken', 'appearance'] as const;

/** The validation message until the map has said its own, in its language. */
const REQUIRED_MESSAGE = 'Choose a location on the map.';

/** Defines `<loc-picker>` once per page; `load` gives the page's `LOC`. */
export function defineLocPicker(load: () => Promise<LocGlobal>): void {
  if (customElements.get(PICKER_TAG)) return;
  customElements.define(PICKER_TAG, class extends LocPicker {
    static override load = load;
  });
}

// A server has no HTMLElement: the class is then never constructed, only declared.
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

abstract class LocPicker extends Base implements Omit<LocPickerElement, 'addEventListener' | 'removeEventListener'> {
  static formAssociated = true;
  static observedAttributes = [...Object.keys(OPTION_ATTRIBUTES), 'theme', 'value', 'required', 'session-url'];
  /** Where the page's `LOC` comes from: the served script's service, or loc-js's `loadLoc`. */
  static load: () => Promise<LocGlobal>;
  #internals = fieldInternals(this);
  #box = document.createElement('div');
  #value = '';
  /** Chosen since the page set it: the `value` attribute no longer moves it. */
  #dirty = false;
  /** Removed in this task: a move unless it is back before the microtask. */
  #leaving = false;
  #requiredMessage = REQUIRED_MESSAGE;
  #map = new FieldMap(
    {
      box: this.#box,
      options: () => this.#options(),
      asker: () => sessionAsker(this.getSessionToken, this.getAttribute('session-url')),
      firstToken: () => this.sessionToken,
      error: (error) => this.#emit('loc-error', error),
      // jsdom, where integrators' component tests run, has no reportError.
      failed: (error) => this.#emit('loc-load-error', error, true) && (typeof reportError === 'function' ? reportError(error) : console.error(error)),
    },
    () => (this.constructor as typeof LocPicker).load(),
  );
  #sessionToken?: string;
  #getSessionToken: LocMountOptions['getSessionToken'];
  #appearance?: LocAppearance;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    if ('adoptedStyleSheets' in root) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(':host{display:block}:host([hidden]){display:none}:host(:disabled) div{opacity:.6}');
      root.adoptedStyleSheets = [sheet];
    }
    root.append(this.#box);
    this.#internals.role = 'group';
    this.#set('');
    this.#upgradeProperties();
  }

  // Accessors, not fields: frameworks set what the element has (`name in element`) as a property.
  get sessionToken() {
    return this.#sessionToken;
  }
  set sessionToken(token) {
    this.#sessionToken = token;
  }
  get getSessionToken() {
    return this.#getSessionToken;
  }
  set getSessionToken(ask) {
    this.#getSessionToken = ask;
  }
  get appearance() {
    return this.#appearance;
  }
  set appearance(appearance) {
    this.#appearance = appearance;
    if (this.#map.handle) this.#map.remount();
  }
  get value() {
    return this.#value;
  }
  set value(code) {
    this.#dirty = true;
    this.#show(code == null ? '' : String(code));
  }
  get defaultValue() {
    return this.getAttribute('value') ?? '';
  }
  set defaultValue(code) {
    this.setAttribute('value', code);
  }
  get name() {
    return this.getAttribute('name') ?? '';
  }
  set name(name) {
    this.setAttribute('name', name);
  }
  get required() {
    return this.hasAttribute('required');
  }
  set required(on) {
    this.toggleAttribute('required', on);
  }
  get disabled() {
    return this.hasAttribute('disabled');
  }
  set disabled(on) {
    this.toggleAttribute('disabled', on);
  }
  get type() {
    return PICKER_TAG;
  }
  get form() {
    return this.#internals.form;
  }
  get labels() {
    return this.#internals.labels as NodeListOf<HTMLLabelElement>;
  }
  get validity() {
    return this.#internals.validity;
  }
  get validationMessage() {
    return this.#internals.validationMessage;
  }
  get willValidate() {
    return this.#internals.willValidate;
  }
  get iframe() {
    return this.#map.handle?.iframe ?? null;
  }
  checkValidity() {
    return this.#internals.checkValidity();
  }
  reportValidity() {
    return this.#internals.reportValidity();
  }
  select(target: Parameters<LocHandle['select']>[0]) {
    return this.#map.whenMounted().then((handle) => handle.select(target));
  }
  clear() {
    return this.#map.whenMounted().then((handle) => handle.clear());
  }
  destroy() {
    this.#map.stop();
  }

  connectedCallback() {
    if (this.#leaving) {
      // Moved in one task: the browser reloaded the frame, which the loader can no longer reach.
      this.#leaving = false;
      this.#map.remount();
    } else if (!this.#map.started) {
      // After the task, so that a framework's properties, set once the element is in, are read.
      queueMicrotask(() => this.isConnected && !this.#map.started && this.#map.start());
    }
  }

  /** `moveBefore` keeps the frame, its session and the visitor's choice: nothing to do. */
  connectedMoveCallback() {}

  disconnectedCallback() {
    this.#leaving = true;
    // Put back in the same task (a move), the iframe has begun to load the frame again, which the
    // loader cannot reach: stopped now, before the remount replaces it.
    this.#map.handle?.iframe.remove();
    queueMicrotask(() => {
      if (!this.#leaving) return;
      this.#leaving = false;
      this.#map.stop();
    });
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null) {
    if (before === after) return;
    if (name === 'required') return this.#validate();
    if (name === 'value') return void (this.#dirty || this.#show(after ?? ''));
    const handle = this.#map.handle;
    if (!handle) return;
    if (name === 'map-style' && after) return handle.setStyle(after as LocStyle);
    this.#map.remount({ newSession: name === 'session-url' });
  }

  formResetCallback() {
    this.#dirty = false;
    this.#show(this.defaultValue);
  }

  formStateRestoreCallback(state: unknown) {
    if (typeof state === 'string') this.value = state;
  }

  formDisabledCallback(disabled: boolean) {
    this.#box.inert = disabled;
  }

  /** Properties set on the element before it was defined shadow the class's: they are set through it. */
  #upgradeProperties() {
    for (const name of PROPERTIES) {
      if (!Object.hasOwn(this, name)) continue;
      const value: unknown = this[name];
      delete this[name];
      (this as Record<string, unknown>)[name] = value;
    }
  }

  /** The value, for the form and for the check of `required`. */
  #set(code: string) {
    this.#value = code;
    this.#internals.setFormValue(code, code);
    this.#validate();
  }

  /** Sets the value, spelled canonically at once, and makes the map show it; a code the map refuses leaves the value as it was. */
  #show(spelled: string) {
    const code = normalizeCode(spelled) ?? spelled;
    const before = this.#value;
    if (code === before) return;
    this.#set(code);
    const handle = this.#map.handle;
    if (!handle) return;
    (code ? handle.select(code) : handle.clear()).catch((error: LocEmbedError | { name: 'AbortError' }) => {
      if (error.name === 'AbortError' || this.#value !== code) return;
      this.#set(before);
      this.#emit('loc-error', error as LocEmbedError);
    });
  }

  #validate() {
    const missing = this.required && !this.#value;
    this.#internals.setValidity({ valueMissing: missing }, missing ? this.#requiredMessage : '');
  }

  #emit<K extends keyof LocPickerEvents>(type: K, detail: LocPickerEvents[K]['detail'], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  /** A visitor's choice, told as an `<input>` tells one. */
  #changed() {
    this.#dirty = true;
    this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    this.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #options(): ReturnType<ConstructorParameters<typeof FieldMap>[0]['options']> {
    const label = this.labels[0]?.textContent?.trim();
    return {
      ...(label && { title: label }),
      ...attributeOptions(this, this.appearance),
      ...(this.#value && { value: this.#value }),
      onReady: (info) => {
        this.#requiredMessage = info.requiredMessage ?? REQUIRED_MESSAGE;
        if (info.value) this.#set(info.value.loc_code);
        else this.#validate();
        this.#emit('loc-ready', info);
      },
      onSelect: (result) => {
        this.#set(result.loc_code);
        this.#emit('loc-select', result);
        if (result.source === 'visitor') this.#changed();
      },
      onPreview: (result) => this.#emit('loc-preview', result),
      onClear: () => {
        this.#set('');
        this.#emit('loc-clear', undefined);
        this.#changed();
      },
    };
  }
}
