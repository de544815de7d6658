/**
 * loc-js/picker/svelte — `<loc-picker>` in Svelte 5's markup, types only: its attributes, the
 * properties Svelte sets on a defined custom element, and its events as Svelte 5 listens to them
 * (`onloc-select={(event) => …}`). One type-only import of `loc-js/picker/svelte` (in a `.d.ts` of
 * the app, or a `<script lang="ts">`) brings them in.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { LocPickerAttributes, LocPickerElement, LocPickerEvents } from '../../../src/embed/picker-types.ts';

/** The props of `<loc-picker>` in Svelte 5. */
export type LocPickerSvelteProps = Omit<HTMLAttributes<LocPickerElement>, keyof LocPickerAttributes> &
  LocPickerAttributes &
  Partial<Pick<LocPickerElement, 'sessionToken' | 'getSessionToken' | 'appearance'>> & { [K in keyof LocPickerEvents as `on${K}`]?: (event: LocPickerEvents[K]) => void };

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'loc-picker': LocPickerSvelteProps;
  }
}
