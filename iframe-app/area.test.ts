// @vitest-environment jsdom
/**
 * The session's box on the map: the view is kept inside it, solidly, one across the antimeridian held
 * past 180°; none leaves the map free. What the frame places on the map goes on the world copy nearest
 * the view.
 */
import * as L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepInside } from './area.ts';
import { nearCentre } from './world-copy.ts';

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

  it('leaves the map free without a box', () => {
    expect(keepInside(map, undefined)).toBe(false);
    expect(map.options.maxBounds).toBeUndefined();
    expect(map.getCenter().lng).toBeCloseTo(-122.4853, 4);
  });

  it('holds a box across the antimeridian written past 180°, and brings the view to its nearest edge', () => {
    expect(keepInside(map, { south: -21, west: 170, north: -12, east: -175 })).toBe(true);
    expect(map.options.maxBounds).toEqual(L.latLngBounds([-21, 170], [-12, 185]));
    // Sausalito is 57° east of the box's east edge, 67° west of its west edge the other way round.
    const center = map.getCenter();
    expect(center.lng).toBeGreaterThan(180);
    expect(center.lng).toBeLessThanOrEqual(185);
    expect(center.lat).toBeGreaterThanOrEqual(-21);
    expect(center.lat).toBeLessThanOrEqual(-12);
  });

  it('keeps a view that opened in the box east of 180° where it is, past 180°', () => {
    map.setView([-18.05, -178.65], 10, { animate: false });
    keepInside(map, { south: -21, west: 170, north: -12, east: -175 });
    expect(map.getCenter().lat).toBeCloseTo(-18.05, 4);
    expect(map.getCenter().lng).toBeCloseTo(181.35, 4);
  });
});

describe('nearCentre', () => {
  it('puts a point on the world copy nearest the view', () => {
    map.setView([-18, 181], 10, { animate: false });
    expect(nearCentre(map, { lat: -18.05, lng: -178.65 })).toEqual({ lat: -18.05, lng: 181.35 });
    expect(nearCentre(map, { lat: -18.1416, lng: 178.4419 })).toEqual({ lat: -18.1416, lng: 178.4419 });
    map.setView([48.86, 2.35], 10, { animate: false });
    expect(nearCentre(map, { lat: 48.86, lng: 2.35 })).toEqual({ lat: 48.86, lng: 2.35 });
    expect(nearCentre(map, { lat: -33.87, lng: 151.21 })).toEqual({ lat: -33.87, lng: 151.21 });
  });
});
