/**
 * An integrator's React 19 page that renders `<loc-picker>` itself, written against loc-js alone as
 * the embed guide shows: the element defined once before the render, its typings for React's JSX,
 * attributes, properties and `on<event>` listeners typed, and what the element refuses refused by the
 * types too. Type-checked, as the project's other pages are.
 */
import { useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { defineLocPicker, type LocPickerElement } from 'loc-js/picker';
import type {} from 'loc-js/picker/react';

defineLocPicker({ baseUrl: 'https://loc.example' });

function Checkout() {
  const picker = useRef<LocPickerElement>(null);
  return (
    <form>
      <label htmlFor="delivery">Delivery point</label>
      <loc-picker
        ref={picker}
        id="delivery"
        name="loc_code"
        required
        session-url="/loc/session"
        map-style="satellite"
        zoom={17}
        center="48.8584,2.2945"
        appearance={{ theme: 'dark' }}
        getSessionToken={async () => 'sid.secret'}
        onloc-select={(event) => console.log(event.detail.loc_code, event.detail.source)}
        onloc-error={(event) => event.detail.code === 'session_expired' && console.warn(event.detail.message)}
        onloc-load-error={(event) => event.preventDefault()}
      />
      <button type="button" onClick={() => void picker.current?.select('FR-0RMB-CLY0')}>
        The Eiffel Tower
      </button>
    </form>
  );
}

// @ts-expect-error: "night" is not a map style.
export const wrongStyle = <loc-picker map-style="night" />;
// @ts-expect-error: a select event's detail has no `code`.
export const wrongPayload = <loc-picker onloc-select={(event) => event.detail.code} />;

createRoot(document.getElementById('app')!).render(<Checkout />);
