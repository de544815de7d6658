/**
 * The box of a country, for keeping a map's view where a session's countries are: the smallest box of
 * degrees that holds every part of country-coder's borders whose territory-level code (country.ts,
 * `territoryOfFeature`) is the country's — the borders the table gives codes by, which reach a little
 * into the sea along coasts. Metropolitan France and Corsica are FR; its overseas regions are GF, GP,
 * MQ, RE and YT, each with a box of its own.
 *
 * Longitudes go round: a country whose parts lie on both sides of the antimeridian — Russia's
 * Chukotka, the Aleutians, Fiji, Kiribati — gets the box that crosses it (west greater than east, as
 * `bounds` of a session is written) when that is narrower than the one between its westmost and
 * eastmost parts the long way round. Several countries get the smallest box that holds all of theirs.
 *
 * Only a view: what a session allows is judged by the service at each choice, against the table.
 */
import { countryBorders, territoryOfFeature } from './country.ts';

/** A box of degrees; west greater than east crosses the antimeridian (as a session's `bounds`). */
export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

/**
 * Degrees added on every side of a view box, so that a coast, a border and the cells along them stay
 * comfortably on screen rather than at the edge the view cannot pass.
 */
export const VIEW_PADDING = 0.5;

/**
 * A view box wider than this (degrees of longitude) keeps the visitor from little but the oceans and
 * would hide no continent's worth of choice: several countries that far apart get no box at all.
 */
export const MAX_VIEW_WIDTH = 180;

/**
 * Parts of a country left out of its box: uninhabited places so far from the rest that the box
 * holding them would hold an ocean. Clipperton Island, in the Pacific 9 000 km from Paris, is FR at
 * territory level; with it France's box would reach from Mexico's coast to the Alps. A point there is
 * still judged by the service, the visitor just cannot pan to it.
 */
const OUT_OF_VIEW: ReadonlySet<string> = new Set(['CP']);

/** An arc of longitudes, from `west` eastwards to `east`, both within −180…180 (west ≤ east). */
interface Span {
  west: number;
  east: number;
}

interface Land {
  south: number;
  north: number;
  spans: Span[];
}

let lands: Map<string, Land> | undefined;

/**
 * Every country's land (and coastal sea) as latitude extremes and the longitude spans of its
 * polygons, read once from country-coder's borders — its leaves, the ~300 features with a geometry:
 * a few tens of milliseconds, then every box is a sort of a few spans.
 */
function allLands(): Map<string, Land> {
  if (lands) return lands;
  lands = new Map();
  for (const feature of countryBorders().features) {
    const { geometry } = feature;
    // Its leaves are all polygons; anything else would be a change of data this module was not written for.
    if (!geometry || OUT_OF_VIEW.has(feature.properties.id)) continue;
    if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') throw new TypeError(`country-coder feature ${feature.properties.id} is a ${geometry.type}.`);
    const code = territoryOfFeature(feature.properties.id);
    if (code === null) continue;
    let land = lands.get(code);
    if (!land) lands.set(code, (land = { south: 90, north: -90, spans: [] }));
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const [outer] of polygons) {
      let west = 180;
      let east = -180;
      for (const [lng, lat] of outer) {
        west = Math.min(west, lng);
        east = Math.max(east, lng);
        land.south = Math.min(land.south, lat);
        land.north = Math.max(land.north, lat);
      }
      // country-coder cuts its polygons at the antimeridian, so each one's span is its own extremes.
      land.spans.push({ west, east });
    }
  }
  return lands;
}

const boxes = new Map<string, Box | null>();

/**
 * The box of a country's land (territory-level ISO code), unpadded, or null for a code country-coder
 * has no land for. Computed once per code.
 */
export function countryBox(code: string): Box | null {
  let box = boxes.get(code);
  if (box === undefined) {
    const land = allLands().get(code);
    const arc = land ? smallestArc(land.spans) : null;
    box = land && arc ? { south: land.south, west: arc.west, north: land.north, east: arc.east } : null;
    boxes.set(code, box);
  }
  return box;
}

/**
 * The box a map's view is kept in for a session's countries: the smallest box that holds all their
 * land, padded by VIEW_PADDING; null — the whole world — when it would be wider than MAX_VIEW_WIDTH or
 * a country has no land in country-coder.
 */
export function countriesViewBox(codes: readonly string[]): Box | null {
  const spans: Span[] = [];
  let south = 90;
  let north = -90;
  for (const code of codes) {
    const box = countryBox(code);
    if (box === null) return null;
    south = Math.min(south, box.south);
    north = Math.max(north, box.north);
    spans.push(...split(box));
  }
  const arc = smallestArc(spans);
  if (arc === null) return null;
  const width = arcWidth(arc) + 2 * VIEW_PADDING;
  if (width > MAX_VIEW_WIDTH) return null;
  return {
    south: Math.max(-90, south - VIEW_PADDING),
    west: wrap(arc.west - VIEW_PADDING),
    north: Math.min(90, north + VIEW_PADDING),
    east: wrap(arc.east + VIEW_PADDING),
  };
}

/** Degrees of longitude a box or an arc spans, eastwards from its west to its east. */
export function arcWidth({ west, east }: { west: number; east: number }): number {
  return west <= east ? east - west : east - west + 360;
}

/** A box's longitudes as spans within −180…180: two for a box across the antimeridian. */
function split({ west, east }: { west: number; east: number }): Span[] {
  return west <= east
    ? [{ west, east }]
    : [
        { west, east: 180 },
        { west: -180, east },
      ];
}

/** A longitude into −180…180, 180 kept as it is (an east edge on the antimeridian). */
function wrap(lng: number): number {
  if (lng > 180) return lng - 360;
  if (lng < -180) return lng + 360;
  return lng;
}

/**
 * The narrowest arc that holds every span: the whole circle less the widest gap between them. The
 * gap across the antimeridian wins ties, so that an arc crosses it only when that is narrower. Null
 * for no spans; −180…180 when no gap is left.
 */
function smallestArc(spans: readonly Span[]): { west: number; east: number } | null {
  if (spans.length === 0) return null;
  const sorted = [...spans].sort((a, b) => a.west - b.west);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.west <= last.east) last.east = Math.max(last.east, span.east);
    else merged.push({ ...span });
  }
  const first = merged[0];
  const last = merged[merged.length - 1];
  // The gap across the antimeridian, from the eastmost span round to the westmost.
  let gap = first.west + 360 - last.east;
  let arc = { west: first.west, east: last.east };
  for (let i = 1; i < merged.length; i++) {
    const between = merged[i].west - merged[i - 1].east;
    if (between > gap) {
      gap = between;
      arc = { west: merged[i].west, east: merged[i - 1].east };
    }
  }
  return arc;
}
