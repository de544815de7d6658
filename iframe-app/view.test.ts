// @vitest-environment jsdom
/** What the map shows as the page steers it: the real Leaflet map with the service's offline styles. */
import * as L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveStyles } from '../src/tiles/styles.ts';
import { gridColumns } from './grid-layer.ts';
import { createView, type View } from './view.ts';

const STYLES = resolveStyles({ mode: 'offline' }, 'https://loc.example');

let map: L.Map;
let view: View;

beforeEach(() => {
  const container = document.createElement('div');
  document.body.replaceChildren(container);
  map = L.map(container, { center: [48.8584, 2.2945], zoom: 16, zoomAnimation: false, fadeAnimation: false });
  const columns = gridColumns(() => Promise.reject(new Error('no grid in this test')));
  view = createView({ map, motion: { animate: false }, direction: 'ltr' }, STYLES, 'streets', columns);
});

afterEach(() => map.remove());

/** The URL templates of the tile layers on the map, bottom first. */
function tileUrls(): string[] {
  const urls: string[] = [];
  map.eachLayer((layer) => {
    if (layer instanceof L.TileLayer) urls.push((layer as unknown as { _url: string })._url);
  });
  return urls;
}

describe('the map’s view', () => {
  it('shows the first style at once, and the page’s next style in its place', () => {
    expect(tileUrls()).toEqual(STYLES.streets.map((layer) => layer.url));
    view.setStyle('satellite');
    expect(tileUrls()).toEqual(STYLES.satellite.map((layer) => layer.url));
    expect(view.shown().style).toBe('satellite');
  });

  it('refuses a style it does not know, and keeps the one shown', () => {
    expect(() => view.setStyle('night' as never)).toThrow('style must be one of "streets", "satellite", "traffic", "biking"; received "night".');
    expect(tileUrls()).toEqual(STYLES.streets.map((layer) => layer.url));
  });

  it('moves to the page’s view, keeping the zoom when none is given, and refuses a bad one', () => {
    view.setView({ lat: 51.5, lng: -0.12 }, 12);
    expect(view.shown()).toEqual({ style: 'streets', center: { lat: 51.5, lng: -0.12 }, zoom: 12 });
    view.setView({ lat: 40.4, lng: -3.7 }, undefined);
    expect(view.shown()).toMatchObject({ center: { lat: 40.4, lng: -3.7 }, zoom: 12 });
    expect(() => view.setView({ lat: 95, lng: 0 }, 3)).toThrow('center must be');
    expect(() => view.setView({ lat: 0, lng: 0 }, 21)).toThrow('zoom must be an integer from 0 to 20');
    expect(view.shown()).toMatchObject({ center: { lat: 40.4, lng: -3.7 }, zoom: 12 });
  });

  it('tells the centre as a point on Earth, to a 1 cm precision, wherever the visitor dragged the world', () => {
    // One world to the east, as a drag across the antimeridian leaves Leaflet's centre.
    map.setView([48.858412345678, 362.294512345678], 16, { animate: false });
    expect(view.shown().center).toEqual({ lat: 48.8584123, lng: 2.2945123 });
  });
});
