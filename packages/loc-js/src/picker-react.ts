/**
 * loc-js/picker/react — `<loc-picker>` in React 19's JSX, types only: its attributes, the properties
 * React 19 sets on a defined custom element (`sessionToken`, `getSessionToken`, `appearance`,
 * `value`), and its events as React 19 listens to them, `on` and the event's name
 * (`onloc-select={(event) => event.detail.loc_code}`). One type-only import of
 * `loc-js/picker/react` in the app brings them in.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { LocPickerAttributes, LocPickerElement, LocPickerEvents } from '../../../src/embed/picker-types.ts';

/** The element's events as props: `onloc-select`, `onloc-error`, …, each given the event. */
export type LocPickerEventProps = { [K in keyof LocPickerEvents as `on${K}`]?: (event: LocPickerEvents[K]) => void };

/** The props of `<loc-picker>` in React 19. */
export type LocPickerJsxProps = DetailedHTMLProps<HTMLAttributes<LocPickerElement>, LocPickerElement> &
  LocPickerAttributes &
  Partial<Pick<LocPickerElement, 'sessionToken' | 'getSessionToken' | 'appearance'>> &
  LocPickerEventProps;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'loc-picker': LocPickerJsxProps;
    }
  }
}
