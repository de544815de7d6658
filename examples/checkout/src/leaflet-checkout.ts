/**
 * The checkout on the shop's own Leaflet map: loc's grid from `loc-js/leaflet` over the loc service's
 * tiles, and the code of the clicked point from the shop's server (`/api/loc-code`, which asks the
 * service with the shop's key) into the form.
 */
import * as L from 'leaflet';
import { loadGrid } from 'loc-js/grid';
import { locGridLayer } from 'loc-js/leaflet';

const element = document.getElementById('map')!;
const LOC_URL = element.dataset.locUrl!;
const field = document.querySelector<HTMLInputElement>('#loc-code')!;
const status = document.getElementById('status')!;

/** The code of a point, from the shop's server; throws with the service's error code (`unsupported_location` at sea). */
async function codeAt(lat: number, lng: number): Promise<string> {
  const response = await fetch(`/api/loc-code?lat=${lat}&lng=${lng}`);
  const body = (await response.json()) as { code?: string; error?: string; message?: string };
  if (!response.ok) throw Object.assign(new Error(body.message), { code: body.error });
  return body.code!;
}

// The foot of the Eiffel Tower, at the zoom from which the 3 m grid shows.
const map = L.map(element, { maxZoom: 20 }).setView([48.85838891047226, 2.2945143156748316], 18);
L.tileLayer(`${LOC_URL}/tiles/streets/{z}/{x}/{y}.png`, { maxZoom: 20, attribution: 'Offline map by loc · land from Natural Earth' }).addTo(map);

locGridLayer({
  grid: loadGrid({ baseUrl: LOC_URL }),
  codeAt,
  onCell(event) {
    field.value = event.code ?? '';
    status.textContent = event.code ? `Delivery to ${event.code}.` : 'That point has no code (at sea?): choose one on land.';
  },
}).addTo(map);
