/**
 * `<loc-picker>`: the map picker as a form field, for pages with no script of their own. It asks the
 * integrator's endpoint for a session, mounts one map with `LOC.mount` into its shadow root, and is
 * form-associated (ElementInternals): the chosen code is its value, in the form's data, checked by
 * `required`, reset with the form and restored when the visitor comes back to the page.
 *
 * Where the hand-written elements of integrators fall short, it holds:
 * - One session per map: moving the element (which reloads any iframe) mounts again with the session
 *   it has and the code chosen; an atomic move (`moveBefore`) keeps the frame as it is.
 * - No leftover frame: removed from the page, it destroys its map in a microtask, unless it was put
 *   back in the same task (a move); a session that arrives after that mounts nothing.
 * - Renewal before expiry (`getSessionToken`, else `session-url`) and one remount on `session_expired`.
 *
 * Built into the served `loc-picker.js` and into loc-js/picker, each with its own way of loading the
 * loader's script; nothing here touches the page until `defineLocPicker` is called.
 */
import { attributeOptions, askSessionUrl, OPTION_ATTRIBUTES } from './picker-options.ts';
import type { LocPickerElement, LocPickerEvents } from './picker-types.ts';
import type { LocAppearance, LocEmbedError, LocGlobal, LocHandle, LocMountOptions } from './public-types.ts';

/** The element's name. */
export const PICKER_TAG = 'loc-picker' as const;

/** The validation message until the map has said its own, in its language. */
const REQUIRED_MESSAGE = 'Choose a location on the map.';

/** Properties a framework may set before the element is defined; they are set again through the class. */
const PROPERTIES = ['value', 'sessionToken', 'getSessionToken', 'appearance'] as const;

/** One mount of the element's map, from asking for a session to destroy. */
interface Mount {
  handle?: LocHandle;
  /** Destroyed, or replaced by another mount: it mounts nothing more. */
  stopped: boolean;
  /** Made to answer a `session_expired` and not ready yet: another expiry is reported, not renewed. */
  renewing: boolean;
  /** Settled with the handle once mounted: what `select` and `clear` wait for. */
  mounted: Promise<LocHandle>;
  settle: [(handle: LocHandle) => void, (reason: unknown) => void];
}

/** What `select` and `clear` reject with once the map is destroyed, as the loader's handle does. */
const DESTROYED = { name: 'AbortError', message: 'The map was destroyed.' };

function newMount(renewing = false): Mount {
  const mount = { stopped: false, renewing } as Mount;
  mount.mounted = new Promise((...settle) => (mount.settle = settle));
  mount.mounted.catch(() => undefined);
  return mount;
}

/** Defines `<loc-picker>` once per page; `load` gives the page's `LOC`. */
export function defineLocPicker(load: () => Promise<LocGlobal>): void {
  if (!customElements.get(PICKER_TAG)) customElements.define(PICKER_TAG, pickerClass(load));
}

function pickerClass(load: () => Promise<LocGlobal>): CustomElementConstructor {
  return class LocPicker extends HTMLElement implements Omit<LocPickerElement, 'addEventListener' | 'removeEventListener'> {
    static formAssociated = true;
    static observedAttributes = [...Object.keys(OPTION_ATTRIBUTES), 'theme', 'value', 'required', 'session-url'];
    #internals = this.attachInternals();
    #box = document.createElement('div');
    #value = '';
    /** Chosen since the page set it (a visitor's choice, or `value`): the `value` attribute no longer moves it. */
    #dirty = false;
    #mount?: Mount;
    /** The session the map holds, kept for a remount after a move or an attribute's change. */
    #token?: string;
    #token0?: string;
    #leaving = false;
    #remounting = false;
    #requiredMessage = REQUIRED_MESSAGE;
    getSessionToken: LocMountOptions['getSessionToken'];
    appearance: LocAppearance | undefined;

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
      for (const name of PROPERTIES) {
        if (!Object.hasOwn(this, name)) continue;
        const value = this[name];
        delete this[name];
        (this as Record<string, unknown>)[name] = value;
      }
    }

    get sessionToken() {
      return this.#token0;
    }
    set sessionToken(token) {
      this.#token0 = token;
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
      return this.#mount?.handle?.iframe ?? null;
    }
    checkValidity() {
      return this.#internals.checkValidity();
    }
    reportValidity() {
      return this.#internals.reportValidity();
    }
    select(target: Parameters<LocHandle['select']>[0]) {
      return this.#handle().then((handle) => handle.select(target));
    }
    clear() {
      return this.#handle().then((handle) => handle.clear());
    }
    destroy() {
      this.#stop();
    }

    connectedCallback() {
      if (this.#leaving) {
        // Moved in one task: the browser reloaded the frame, which the loader can no longer reach.
        this.#leaving = false;
        if (this.#mount?.handle) this.#remount();
      } else if (!this.#mount) {
        // After the task, so that a framework's properties, set once the element is in, are read.
        queueMicrotask(() => this.isConnected && !this.#mount && this.#start(newMount()));
      }
    }

    /** `moveBefore` keeps the frame, its session and the visitor's choice: nothing to do. */
    connectedMoveCallback() {}

    disconnectedCallback() {
      this.#leaving = true;
      // Put back in the same task (a move), the iframe has begun to load the frame again, which the
      // loader cannot reach: stopped now, before the remount replaces it.
      this.#mount?.handle?.iframe.remove();
      queueMicrotask(() => {
        if (!this.#leaving) return;
        this.#leaving = false;
        this.#stop();
      });
    }

    attributeChangedCallback(name: string, before: string | null, after: string | null) {
      if (before === after) return;
      if (name === 'required') return this.#validate();
      if (name === 'value') return void (this.#dirty || this.#show(after ?? ''));
      const handle = this.#mount?.handle;
      if (!handle) return;
      if (name === 'map-style' && after) return handle.setStyle(after as NonNullable<LocMountOptions['style']>);
      if (name === 'session-url') this.#token = undefined;
      this.#remount();
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

    /** The value, for the form and for the check of `required`. */
    #set(code: string) {
      this.#value = code;
      this.#internals.setFormValue(code, code);
      this.#validate();
    }

    /** Sets the value and makes the map show it; a code the map refuses leaves the value as it was. */
    #show(code: string) {
      const before = this.#value;
      if (code === before) return;
      this.#set(code);
      const handle = this.#mount?.handle;
      if (!handle) return;
      const shown = code ? handle.select(code) : handle.clear();
      shown.catch((error: LocEmbedError | { name: 'AbortError' }) => {
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

    #handle(): Promise<LocHandle> {
      return this.#mount?.mounted ?? Promise.reject(DESTROYED);
    }

    /** Whether a new session can be asked for: the element has somewhere to ask. */
    #renewable() {
      return !!this.getSessionToken || this.hasAttribute('session-url');
    }

    #ask(): Promise<string> {
      const url = this.getAttribute('session-url');
      if (this.getSessionToken) return Promise.resolve().then(this.getSessionToken);
      if (url) return askSessionUrl(url);
      return Promise.reject(new Error('<loc-picker>: give it a session-url attribute, or a sessionToken or getSessionToken property; it has none.'));
    }

    #start(mount: Mount) {
      this.#mount = mount;
      const token = this.#token ?? this.#token0;
      Promise.all([load(), token ?? this.#ask()]).then(
        ([LOC, session]) => this.#into(mount, LOC, session),
        (error: Error) => this.#failed(mount, error),
      );
    }

    /** Mounts again, with the session the map has, after the microtask: several attributes set at once mount once. */
    #remount() {
      if (this.#remounting) return;
      this.#remounting = true;
      queueMicrotask(() => {
        this.#remounting = false;
        if (!this.#mount?.handle || !this.isConnected) return;
        this.#stop();
        this.#start(newMount());
      });
    }

    #stop() {
      const mount = this.#mount;
      if (!mount) return;
      mount.stopped = true;
      mount.settle[1](DESTROYED);
      mount.handle?.destroy();
      this.#mount = undefined;
    }

    #failed(mount: Mount, error: Error) {
      if (mount.stopped) return;
      if (this.#emit('loc-load-error', error, true)) reportError(error);
    }

    #into(mount: Mount, LOC: LocGlobal, token: string) {
      if (mount.stopped) return;
      this.#token = token;
      try {
        mount.handle = LOC.mount(this.#box, this.#options(mount, token));
      } catch (error) {
        return this.#failed(mount, new TypeError(`<loc-picker>: ${(error as Error).message}`));
      }
      mount.settle[0](mount.handle);
    }

    #options(mount: Mount, token: string): LocMountOptions {
      const label = this.labels[0]?.textContent?.trim();
      return {
        ...(label && { title: label }),
        ...attributeOptions(this, this.appearance),
        ...(this.#value && { value: this.#value }),
        sessionToken: token,
        getSessionToken: this.#renewable() ? () => this.#ask().then((next) => (this.#token = next)) : undefined,
        onReady: (info) => {
          mount.renewing = false;
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
        onError: (error) => {
          if (error.code !== 'session_expired' || mount.renewing || !this.#renewable()) this.#emit('loc-error', error);
          else this.#renew(error);
        },
      };
    }

    /** Answers `session_expired` with a new mount and a new session; when none comes, the page hears why. */
    #renew(expired: LocEmbedError) {
      const mount = newMount(true);
      this.#token = this.#token0 = undefined;
      this.#stop();
      this.#mount = mount;
      this.#ask().then(
        (token) => {
          if (mount.stopped) return;
          this.#token = token;
          this.#start(mount);
        },
        (reason: unknown) => !mount.stopped && this.#emit('loc-error', { ...expired, message: `${expired.message} No new session: ${String((reason as Error)?.message ?? reason)}` }),
      );
    }
  };
}
