/**
 * The Leaflet map of the frame: created at once from the start options of the URL fragment, so the
 * first tiles load while the handshake runs. Animations follow the visitor's `prefers-reduced-motion`;
 * the keyboard is handled by crosshair.ts rather than Leaflet's own handler, which pans in fixed
 * screen steps and knows nothing of cells.
 */
import * as L from 'leaflet';
import { MAX_ZOOM } from '../src/embed/options.ts';
import type { FrameConfig } from '../src/embed/protocol.ts';
import type { Start } from './config.ts';
import { t } from './i18n.ts';
import { nearCentre } from './world-copy.ts';

export interface FrameMap {
  map: L.Map;
  /** Pan and zoom options for every move this frame makes. */
  motion: L.ZoomPanOptions;
  /** The writing direction of the frame's language: its controls sit in mirrored corners for right to left. */
  direction: 'ltr' | 'rtl';
}

/** A control's corner, by the side its language starts lines on: the start side is the right in a right-to-left language. */
export function corner(vertical: 'top' | 'bottom', side: 'start' | 'end', direction: FrameMap['direction']): L.ControlPosition {
  return `${vertical}${(side === 'start') === (direction === 'ltr') ? 'left' : 'right'}`;
}

/** `keptIn`: the box the view will be kept in (area.ts), if any. */
export function createMap(container: HTMLElement, start: Start, keptIn?: FrameConfig['bounds'], direction: FrameMap['direction'] = 'ltr'): FrameMap {
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const map = L.map(container, {
    center: start.center,
    zoom: start.zoom,
    // 0 is the whole world in one tile, as the zoom option promises (options.ts: 0 to MAX_ZOOM).
    minZoom: 0,
    maxZoom: MAX_ZOOM,
    keyboard: false,
    // A free map dragged past 180° jumps back to the world between ±180° rather than roaming copies
    // of it. A kept view never leaves its box, and a box across the antimeridian is held past 180°
    // (area.ts): there the jump would only fight it.
    worldCopyJump: keptIn === undefined,
    zoomAnimation: !reduced,
    fadeAnimation: !reduced,
    markerZoomAnimation: !reduced,
    inertia: !reduced,
    attributionControl: false,
    // Added once the frame has its words (addZoomControl).
    zoomControl: false,
  });
  L.control.attribution({ prefix: '<a href="https://leafletjs.com">Leaflet</a>', position: corner('bottom', 'end', direction) }).addTo(map);
  // The chosen cell's outline and dot are drawn in an SVG there, which a screen reader would name as
  // an unlabelled image inside the map; the panel and the live region say what they show.
  map.getPane('overlayPane')?.setAttribute('aria-hidden', 'true');
  pressWithSpace(container);
  return { map, motion: { animate: !reduced }, direction };
}

/**
 * Leaflet's zoom buttons are links with role="button", which Enter presses and Space, left to the
 * browser, does not; Space is the key that presses a button, and the one a screen reader user is told
 * to use.
 */
function pressWithSpace(container: HTMLElement): void {
  container.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    if (event.key !== ' ' || target.tagName !== 'A' || target.getAttribute('role') !== 'button') return;
    event.preventDefault();
    target.click();
  });
}

/**
 * Links in the frame (attributions, the share link) open in a new tab: followed inside the frame they
 * would replace the map, and the sandbox lets popups — not top navigation — out.
 */
export function openLinksInNewTab(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!link) return;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  });
}

/** Leaflet's zoom buttons, named in the frame's language; `map.zoomControl`, as Leaflet's own would be (crosshair.ts listens to it). */
export function addZoomControl({ map, direction }: FrameMap): void {
  map.zoomControl = L.control.zoom({ zoomInTitle: t('control.zoomIn'), zoomOutTitle: t('control.zoomOut'), position: corner('top', 'start', direction) }).addTo(map);
}

/** A control that centres the map on the visitor (the iframe allows geolocation). */
export function addLocateControl({ map, motion, direction }: FrameMap, onError: (message: string) => void): void {
  const Locate = L.Control.extend({
    onAdd() {
      const button = L.DomUtil.create('button', 'loc-locate leaflet-bar') as HTMLButtonElement;
      button.type = 'button';
      button.title = t('control.locate');
      button.setAttribute('aria-label', t('control.locate'));
      button.innerHTML =
        '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="4" fill="currentColor"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="7.5" fill="none" stroke="currentColor" stroke-width="2"/></svg>';
      L.DomEvent.disableClickPropagation(button);
      L.DomEvent.on(button, 'click', () => {
        if (!navigator.geolocation) return onError(t('locate.unsupported'));
        navigator.geolocation.getCurrentPosition(
          (position) => map.setView(nearCentre(map, { lat: position.coords.latitude, lng: position.coords.longitude }), Math.max(map.getZoom(), 18), motion),
          () => onError(t('locate.unavailable')),
          { enableHighAccuracy: true, timeout: 15_000 },
        );
      });
      return button;
    },
  });
  new Locate({ position: corner('top', 'start', direction) }).addTo(map);
}
