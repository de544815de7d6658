// The same checkout in React, with <LocPicker> from loc-js/react: one map, one session, StrictMode
// or not; getSession makes the first session, renews it before it expires and replaces an expired one.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { LocSelectResult } from 'loc-js/embed';
import { LocPicker } from 'loc-js/react';

/** A new session token from the shop's server, which holds the API key. */
async function getSession(): Promise<string> {
  const response = await fetch('/api/loc-session', { method: 'POST' });
  if (!response.ok) throw new Error('The shop could not start the map.');
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

function Checkout({ locUrl }: { locUrl: string }) {
  const [chosen, setChosen] = useState<LocSelectResult | null>(null);
  const [problem, setProblem] = useState('');
  return (
    <form id="checkout" action="/order" method="post">
      <LocPicker
        baseUrl={locUrl}
        getSession={getSession}
        center={{ lat: 48.8584, lng: 2.2945 }}
        zoom={17}
        onSelect={(result) => {
          setChosen(result);
          setProblem('');
        }}
        onError={(error) => setProblem(error.recoverable ? `${error.message} Try again.` : 'The map stopped. Reload the page to choose a point.')}
        onLoadError={(error) => setProblem(error.message)}
      />
      <p role="status" id="chosen">{chosen ? `Deliver to ${chosen.loc_code}, ${chosen.address}.` : 'No delivery point chosen yet.'}</p>
      <p role="alert" id="problem" hidden={problem === ''}>{problem}</p>
      <input type="hidden" name="loc_code" value={chosen?.loc_code ?? ''} />
      <button type="submit" id="place-order" disabled={chosen === null}>Place order</button>
    </form>
  );
}

const root = document.getElementById('root')!;
createRoot(root).render(
  <StrictMode>
    <Checkout locUrl={root.dataset.locUrl!} />
  </StrictMode>,
);
