// The checkout's delivery point, with the loc picker from the script tag (LOC is global).

/** A new session token from the shop's server, which holds the API key. */
async function getSessionToken() {
  const response = await fetch('/api/loc-session', { method: 'POST' });
  if (!response.ok) throw new Error('The shop could not start the map.');
  return (await response.json()).sessionToken;
}

const problem = document.getElementById('problem');
const tell = (text) => {
  problem.textContent = text;
  problem.hidden = text === '';
};

async function showMap() {
  LOC.mount('#map', {
    sessionToken: await getSessionToken(),
    getSessionToken, // renews the session before it expires, without a remount
    center: { lat: 48.8584, lng: 2.2945 },
    zoom: 17,
    onSelect(result) {
      document.getElementById('loc-code').value = result.loc_code;
      document.getElementById('chosen').textContent = `Deliver to ${result.loc_code}, ${result.address}.`;
      document.getElementById('place-order').disabled = false;
      tell('');
    },
    onError(error) {
      // An expired session (the tab was left open, renewal failed): a new map on a new session.
      if (error.code === 'session_expired') return void showMap().catch((failure) => tell(failure.message));
      tell(error.recoverable ? `${error.message} Try again.` : 'The map stopped. Reload the page to choose a point.');
    },
  });
}

showMap().catch((error) => tell(error.message));
