/**
 * loc-js/picker/vue — `<loc-picker>` in Vue templates, types only, as Vue's guide declares a custom
 * element: its attributes and properties as the template's props, its events for `@loc-select` and
 * the like. One type-only import of `loc-js/picker/vue` in the app brings them in; tell Vue's
 * compiler the tag is a custom element (`compilerOptions.isCustomElement`). For a component with
 * `v-model` instead, loc-js/vue.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { LocPickerAttributes, LocPickerElement, LocPickerEvents } from '../../../src/embed/picker-types.ts';

/** The element as a Vue template sees it: `$props` and `$emit` are for the template's checks only. */
export type LocPickerVueElement = new () => LocPickerElement & {
  $props: Omit<HTMLAttributes, keyof LocPickerAttributes> & LocPickerAttributes & Partial<Pick<LocPickerElement, 'sessionToken' | 'getSessionToken' | 'appearance'>> & PublicProps;
  $emit: EmitFn<{ [K in keyof LocPickerEvents]: (event: LocPickerEvents[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'loc-picker': LocPickerVueElement;
  }
}
