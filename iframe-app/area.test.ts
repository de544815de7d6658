// @vitest-environment jsdom
/** The session's box on the map: the view is kept inside it, solidly; none, or one across the antimeridian, leaves the map free. */
import * as L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepInside } from './area.ts';

let map: L.Map;

beforeEach(() => {
  const container = document.createElement('div');
  Object.defineProperty(container, 'clientWidth', { value: 400 });
  Object.defineProperty(container, 'clientHeight', { value: 300 });
  document.body.replaceChildren(container);
  // Opens on Sausalito, far outside the box below.
  map = L.map(container, { center: [37.8591, -122.4853], zoom: 10, zoomAnimation: false, fadeAnimation: false });
});

afterEach(() => map.remove());

describe('keepInside', () => {
  it('sets the box as solid max bounds and brings a view that opened outside it inside', () => {
    expect(keepInside(map, { south: 48, west: 1, north: 51, east: 5 })).toBe(true);
    expect(map.options.maxBounds).toEqual(L.latLngBounds([48, 1], [51, 5]));
    expect(map.options.maxBoundsViscosity).toBe(1);
    const center = map.getCenter();
    expect(center.lat).toBeGreaterThanOrEqual(48);
    expect(center.lat).toBeLessThanOrEqual(51);
    expect(center.lng).toBeGreaterThanOrEqual(1);
    expect(center.lng).toBeLessThanOrEqual(5);
  });

  it('leaves the map free without a box, and for a box across the antimeridian', () => {
    expect(keepInside(map, undefined)).toBe(false);
    expect(keepInside(map, { south: -21, west: 170, north: -12, east: -175 })).toBe(false);
    expect(map.options.maxBounds).toBeUndefined();
    expect(map.getCenter().lng).toBeCloseTo(-122.4853, 4);
  });
});
