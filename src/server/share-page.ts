/**
 * The share page of a code (`{public_url}/{code}`): the cell on a map, the code with a copy button,
 * the computed address, the country and links to map apps. Public, so it shows only what anyone can
 * compute from the code — never an account's saved label or address.
 *
 * The map is OpenStreetMap's embeddable view centred on the cell; it needs the visitor's browser to
 * reach openstreetmap.org, the service itself fetches nothing.
 */
import { countryFlag, type LocatedCell } from '../code/index.ts';
import { contentSecurityPolicy, escapeHtml, page } from './html.ts';
import { mapLinks } from './locate.ts';

/** Half the side of the map's view, degrees (≈ 110 m north–south): street level around the cell. */
const VIEW_HALF_DEG = 0.001;

const OSM_ORIGIN = 'https://www.openstreetmap.org';

/** Copies the code; falls back to selecting it where the clipboard API is not allowed. */
const COPY_SCRIPT = `document.getElementById('copy').addEventListener('click', async (event) => {
  const code = document.getElementById('code');
  try { await navigator.clipboard.writeText(code.textContent); event.target.textContent = 'Copied'; }
  catch { const range = document.createRange(); range.selectNodeContents(code); getSelection().removeAllRanges(); getSelection().addRange(range); }
});`;

export const SHARE_PAGE_CSP = contentSecurityPolicy({ script: COPY_SCRIPT, frames: OSM_ORIGIN });
export const NOT_FOUND_PAGE_CSP = contentSecurityPolicy({});

export function sharePage(cell: LocatedCell, address: string, country: string, url: string): string {
  const links = mapLinks(cell);
  const { latitude: lat, longitude: lng } = cell;
  const bbox = [lng - VIEW_HALF_DEG * 1.5, lat - VIEW_HALF_DEG, lng + VIEW_HALF_DEG * 1.5, lat + VIEW_HALF_DEG].map((v) => v.toFixed(6)).join(',');
  const mapSrc = `${OSM_ORIGIN}/export/embed.html?bbox=${bbox}&layer=mapnik&marker=${lat.toFixed(6)},${lng.toFixed(6)}`;
  const code = escapeHtml(cell.loc_code);
  const description = escapeHtml(`${address} · 3 m × 3 m cell at ${lat.toFixed(6)}, ${lng.toFixed(6)}`);
  return page({
    title: `${cell.loc_code} · loc`,
    head: [
      `<meta name="description" content="${description}">`,
      `<meta property="og:title" content="${code}">`,
      `<meta property="og:description" content="${description}">`,
      `<meta property="og:url" content="${escapeHtml(url)}">`,
      `<link rel="canonical" href="${escapeHtml(url)}">`,
    ].join('\n'),
    body: `
<p class="muted">loc location code</p>
<div class="row"><h1 id="code" class="code">${code}</h1><button id="copy" type="button">Copy code</button></div>
<p>${escapeHtml(address)}</p>
<p class="muted">${countryFlag(cell.country_code)} ${escapeHtml(country)} · ${lat.toFixed(6)}, ${lng.toFixed(6)} · a 3 m × 3 m cell</p>
<iframe class="map" title="Map of ${code}" src="${escapeHtml(mapSrc)}" loading="lazy" referrerpolicy="no-referrer"></iframe>
<ul class="links">
  <li><a href="${escapeHtml(links.google)}" rel="noopener">Google Maps</a></li>
  <li><a href="${escapeHtml(links.apple)}" rel="noopener">Apple Maps</a></li>
  <li><a href="${escapeHtml(links.openstreetmap)}" rel="noopener">OpenStreetMap</a></li>
  <li><a href="${escapeHtml(links.geo)}">Open in a map app</a></li>
</ul>
<p class="muted">Map data © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap contributors</a>.</p>`,
    script: COPY_SCRIPT,
  });
}

/**
 * The example the 404 page gives: a real code (a spot under the Eiffel Tower, as in the README), so a
 * visitor who tries it — it is a link — lands on a share page rather than on this page again.
 */
export const EXAMPLE_CODE = 'FR-0RMB-CLY0';

/** The friendly page for a path that is not a code, or a code of no cell. */
export function notFoundPage(input: string, wellFormed: boolean): string {
  const shown = escapeHtml(input.length > 60 ? `${input.slice(0, 60)}…` : input);
  const why = wellFormed
    ? `<p><span class="code">${shown}</span> looks like a location code, but no place has it. Check it for a mistyped letter or digit.</p>`
    : `<p><span class="code">${shown}</span> is not a location code. Codes look like <a class="code" href="/${EXAMPLE_CODE}">${EXAMPLE_CODE}</a>: two letters, then two groups of four letters or digits.</p>`;
  return page({
    title: 'No such location · loc',
    head: '<meta name="robots" content="noindex">',
    body: `<h1>No such location</h1>\n${why}`,
  });
}
