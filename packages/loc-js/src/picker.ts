/**
 * loc-js/picker — `<loc-picker>`, the map picker as a form field, for bundled apps and frameworks
 * that render custom elements (React 19, Vue, Angular, Svelte, plain DOM): `defineLocPicker({ baseUrl
 * })` defines the element, which loads the service's script with `loadLoc` (one load and one `LOC`
 * with loc-js/embed and loc-js/react); and the element's types. A page without a bundler loads the
 * service's own `loc-picker.js` instead. Importing this module changes nothing, on a server too.
 */
import { defineLocPicker as define } from '../../../src/embed/picker-element.ts';
import { loadLoc, type LoadLocOptions } from './embed.ts';

export type * from '../../../src/embed/picker-types.ts';

/**
 * Defines `<loc-picker>` in this page, its maps from the service at `baseUrl`. Call it once, before
 * the element is rendered, so that frameworks set its properties rather than attributes; a later call
 * changes nothing. Throws outside a browser.
 */
export function defineLocPicker(options: LoadLocOptions): void {
  if (typeof customElements === 'undefined') {
    throw new Error('defineLocPicker: runs in a browser, which has custom elements; call it from browser code (not during server-side rendering).');
  }
  define(() => loadLoc(options));
}
