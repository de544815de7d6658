/**
 * The share page of a code (`{public_url}/{code}`): the cell on a map, the code with a copy button,
 * the computed address, the country and links to map apps. Public, so it shows only what anyone can
 * compute from the code — never an account's saved label or address.
 *
 * The map is a static picture laid out by the service (share-map.ts): the tiles of its configured
 * `streets` style — the embed's, so OpenStreetMap's by default and the service's own in offline mode —
 * with the cell's exact outline on top. No script draws it and no frame holds it; the page's CSP lets
 * images come from those tile servers, and otherwise only its icon and the blank of tiles out of view.
 */
import { countryFlag, type LocatedCell } from '../../code/index.ts';
import { printable, shortened } from '../../printable.ts';
import type { TileLayerConfig } from '../../embed/frame-contract.ts';
import { layerOrigins } from '../../tiles/styles.ts';
import { PAGE_PADDING_X_PX, contentSecurityPolicy, escapeHtml, page } from './html.ts';
import { mapLinks } from '../../cells/locate.ts';
import { MAP_HEIGHT_PX, MAP_MAX_WIDTH_PX, MAX_MERCATOR_LATITUDE, mapLayout, type MapTile } from './share-map.ts';

/**
 * Copies the code. Success shows "Copied" for two seconds, then the button reads as before for the
 * next copy; a polite live region says what happened, for screen readers too. Where the clipboard is
 * refused (no permission, an insecure origin, an older browser) the code is selected and the region
 * says how to copy it by keyboard, as the embed's frame does (iframe-app/panel.ts).
 */
const COPY_SCRIPT = `const button = document.getElementById('copy');
const code = document.getElementById('code');
const status = document.getElementById('copy-status');
let announcing, resetting;
// Cleared first and filled a moment later, so a second click is announced again with the same words.
const announce = (text) => {
  clearTimeout(announcing);
  status.textContent = '';
  announcing = setTimeout(() => { status.textContent = text; }, 50);
};
button.addEventListener('click', async () => {
  const text = code.textContent;
  clearTimeout(resetting);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const range = document.createRange();
    range.selectNodeContents(code);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.textContent = 'Copy code';
    announce(text + ' is selected; press Control C or Command C to copy it.');
    return;
  }
  button.textContent = 'Copied';
  announce('Copied ' + text + '.');
  resetting = setTimeout(() => { button.textContent = 'Copy code'; status.textContent = ''; }, 2000);
});`;

/**
 * The share page's policy for the map's tile layers: its one inline script by hash, images from the
 * layers' servers, from its own origin (its icon, which some browsers check against img-src) and the
 * blank stand-in for tiles out of view (PLACEHOLDER), and nowhere else; no frames.
 */
export function sharePageCsp(layers: readonly TileLayerConfig[]): string {
  return contentSecurityPolicy({ script: COPY_SCRIPT, images: ["'self'", 'data:', ...layerOrigins(layers)] });
}

/**
 * What a screen too narrow to show a tile loads instead: a transparent 1 × 1 GIF, in the page. The
 * map is laid out for the widest box, and on a phone half its tiles would be fetched only to be
 * clipped away.
 */
const PLACEHOLDER = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * A tile, inside a <picture> that swaps in PLACEHOLDER at the viewport widths where the box leaves it
 * out of view: the box is the viewport less the page's padding (up to MAP_MAX_WIDTH_PX), centred.
 */
function tileImage(tile: MapTile): string {
  const opacity = tile.opacity === undefined ? '' : `;opacity:${tile.opacity}`;
  const image = `<img src="${escapeHtml(tile.url)}" alt="" width="${tile.size}" height="${tile.size}" referrerpolicy="${tile.referrerPolicy}" style="left:${tile.left}px;top:${tile.top}px${opacity}">`;
  if (tile.reach < 0) return image;
  return `<picture><source media="(max-width: ${2 * tile.reach + 2 * PAGE_PADDING_X_PX}px)" srcset="${PLACEHOLDER}">${image}</picture>`;
}

export const NOT_FOUND_PAGE_CSP = contentSecurityPolicy({});

/** The page of `cell`, its map drawn from `layers` (the `streets` style's, bottom first). */
export function sharePage(cell: LocatedCell, address: string, country: string, url: string, layers: readonly TileLayerConfig[]): string {
  const links = mapLinks(cell);
  const { latitude: lat, longitude: lng } = cell;
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
<div class="row"><h1 id="code" class="code">${code}</h1><button id="copy" type="button">Copy code</button><span id="copy-status" class="muted" role="status" aria-live="polite"></span></div>
<p>${escapeHtml(address)}</p>
<p class="muted">${countryFlag(cell.country_code)} ${escapeHtml(country)} · ${lat.toFixed(6)}, ${lng.toFixed(6)} · a 3 m × 3 m cell</p>
${mapFigure(cell, layers)}
<ul class="links">
  <li><a href="${escapeHtml(links.google)}" rel="noopener">Google Maps</a></li>
  <li><a href="${escapeHtml(links.apple)}" rel="noopener">Apple Maps</a></li>
  <li><a href="${escapeHtml(links.openstreetmap)}" rel="noopener">OpenStreetMap</a></li>
  <li><a href="${escapeHtml(links.geo)}">Open in a map app</a></li>
</ul>`,
    script: COPY_SCRIPT,
  });
}

/**
 * The map box: tiles and outline positioned from its middle, so any width shows the cell in the
 * centre; the layers' attribution in its corner, as on the embed's map. Attributions are HTML from
 * the service's configuration (styles.ts), inserted as they are, as the frame does.
 */
function mapFigure(cell: LocatedCell, layers: readonly TileLayerConfig[]): string {
  const layout = mapLayout(cell.cell, layers);
  if (layout === null) {
    return `<p class="map-note">No map: this cell lies beyond ${MAX_MERCATOR_LATITUDE.toFixed(2)}° of latitude, where web maps end. The coordinates above and the links below still find it.</p>`;
  }
  const tiles = layout.tiles.map(tileImage);
  const { left, top, width, height } = layout.cell;
  const attribution = [...new Set(layers.map((layer) => layer.attribution))].join(' | ');
  const code = escapeHtml(cell.loc_code);
  return `<figure class="map" style="max-width:${MAP_MAX_WIDTH_PX}px;height:${MAP_HEIGHT_PX}px">
<div class="map-view" role="img" aria-label="Map around ${code}, its 3 m × 3 m cell outlined in the middle">
<div class="map-pane">
${tiles.join('\n')}
<div class="map-cell" style="left:${left}px;top:${top}px;width:${width}px;height:${height}px"></div>
</div>
</div>
<figcaption class="map-attribution">${attribution}</figcaption>
</figure>`;
}

/**
 * The example the 404 page gives: a real code (a spot under the Eiffel Tower, as in the README), so a
 * visitor who tries it — it is a link — lands on a share page rather than on this page again.
 */
export const EXAMPLE_CODE = 'FR-0RMB-CLY0';

/** The most of a mistyped path the 404 page shows, in characters. */
const SHOWN_MAX = 60;

/**
 * The friendly page for a path that is not a code, or a code of no cell. The path is the visitor's
 * (or whoever made the link), so it is shown cut short, with what could hide or reorder text escaped,
 * and isolated (`<bdi>`): right-to-left letters in it cannot reorder the sentence around it.
 */
export function notFoundPage(input: string, wellFormed: boolean): string {
  const shown = escapeHtml(printable(shortened(input, SHOWN_MAX)));
  const why = wellFormed
    ? `<p><bdi class="code">${shown}</bdi> looks like a location code, but no place has it. Check it for a mistyped letter or digit.</p>`
    : `<p><bdi class="code">${shown}</bdi> is not a location code. Codes look like <a class="code" href="/${EXAMPLE_CODE}">${EXAMPLE_CODE}</a>: two letters, then two groups of four letters or digits.</p>`;
  return page({
    title: 'No such location · loc',
    head: '<meta name="robots" content="noindex">',
    body: `<h1>No such location</h1>\n${why}`,
  });
}
