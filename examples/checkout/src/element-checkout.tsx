// The checkout in React 19 with the <loc-picker> element itself, no wrapper: React 19 sets the
// element's properties (getSessionToken, a function, could be no attribute) and listens to its events
// (`onloc-select`); the form posts the chosen code as it posts any field.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { LocSelectResult } from 'loc-js/embed';
import { defineLocPicker } from 'loc-js/picker';
import type {} from 'loc-js/picker/react';

/** A new session token from the shop's server, which holds the API key. */
async function getSession(): Promise<string> {
  const response = await fetch('/api/loc-session', { method: 'POST' });
  if (!response.ok) throw new Error('The shop could not start the map.');
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

function Checkout() {
  const [chosen, setChosen] = useState<LocSelectResult | null>(null);
  const [problem, setProblem] = useState('');
  return (
    <form id="checkout" action="/order" method="post">
      <label htmlFor="delivery-point">Delivery point</label>
      <loc-picker
        id="delivery-point"
        name="loc_code"
        required
        getSessionToken={getSession}
        center="48.8584,2.2945"
        zoom={17}
        onloc-select={(event) => {
          setChosen(event.detail);
          setProblem('');
        }}
        onloc-clear={() => setChosen(null)}
        onloc-error={(event) => setProblem(event.detail.recoverable ? `${event.detail.message} Try again.` : 'The map stopped. Reload the page to choose a point.')}
        onloc-load-error={(event) => setProblem(event.detail.message)}
      />
      <p role="status" id="chosen">{chosen ? `Deliver to ${chosen.loc_code}, ${chosen.address}.` : 'No delivery point chosen yet.'}</p>
      <p role="alert" id="problem" hidden={problem === ''}>{problem}</p>
      <button type="submit" id="place-order">Place order</button>
    </form>
  );
}

const root = document.getElementById('root')!;
// Before the first render: React 19 sets properties on an element it finds defined.
defineLocPicker({ baseUrl: root.dataset.locUrl! });
createRoot(root).render(
  <StrictMode>
    <Checkout />
  </StrictMode>,
);
