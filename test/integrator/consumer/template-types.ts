/**
 * `<loc-picker>` in the templates of Svelte 5 and Vue, as their type checkers see it once the app
 * imports loc-js's typings for each: the element's attributes, properties and events typed, a wrong
 * value refused. Type-checked only: no template compiler runs here.
 */
import type { SvelteHTMLElements } from 'svelte/elements';
import type { GlobalComponents } from 'vue';
import type {} from 'loc-js/picker/svelte';
import type {} from 'loc-js/picker/vue';

export const svelteProps: SvelteHTMLElements['loc-picker'] = {
  name: 'loc_code',
  required: true,
  'session-url': '/loc/session',
  'map-style': 'biking',
  'onloc-select': (event) => console.log(event.detail.loc_code),
};

// @ts-expect-error: "night" is not a map style.
export const wrongSvelte: SvelteHTMLElements['loc-picker'] = { 'map-style': 'night' };

type VueLocPicker = InstanceType<GlobalComponents['loc-picker']>;

export const vueProps: VueLocPicker['$props'] = { name: 'loc_code', 'session-url': '/loc/session', zoom: 17, appearance: { theme: 'auto' } };

// @ts-expect-error: "sepia" is not a theme.
export const wrongVue: VueLocPicker['$props'] = { 'map-style': 'streets', theme: 'sepia' };

export const vueElement = (element: VueLocPicker): string => element.value;
