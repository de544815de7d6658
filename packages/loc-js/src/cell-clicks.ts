/**
 * What loc-js/leaflet's layer and loc-js/maplibre's helper do alike with a click and a highlight,
 * written once: the cell of the clicked point from the grid, at once; then its code from the
 * integrator's `codeAt` (the offline codec, or the service), reported unless a later click came first.
 */
import { cellAt, type CellBounds, type LocGrid } from './grid.ts';

/** The options both layers take. */
export interface LocCellOptions {
  /** The grid (loc-js/grid's `loadGrid`, `gridFromTable`, or the offline codec's `grid`), or a promise of it. */
  grid: LocGrid | PromiseLike<LocGrid>;
  /**
   * The code of a clicked point: e.g. `(lat, lng) => codec.encode(lat, lng).loc_code` with the offline
   * codec, or a call to your server, which asks the service. May return a promise; what it throws
   * (a point at sea: 'unsupported_location') is the event's `error`, with `code` null.
   */
  codeAt?: (lat: number, lng: number) => string | PromiseLike<string>;
  /** The cell of a code, for `highlight(code)`: e.g. `(code) => codec.decode(code).cell`. May return a promise. */
  cellOfCode?: (code: string) => CellBounds | PromiseLike<CellBounds>;
  /** Called after each click with the clicked cell and its code. */
  onCell?: (event: LocCellEvent) => void;
}

/** A click's answer: the cell, its code (null when `codeAt` is not given or failed) and the point. */
export interface LocCellEvent {
  code: string | null;
  cell: CellBounds;
  latlng: { lat: number; lng: number };
  /** What `codeAt` threw, when it did. */
  error?: unknown;
}

/** A longitude brought into [−180, 180), and how far it was moved: a map's copies of the world east or west. */
export function wrapLng(lng: number): { lng: number; offset: number } {
  const offset = Math.floor((lng + 180) / 360) * 360;
  return { lng: lng - offset, offset };
}

/** The cell shown on a map, by a click or by the page, and what a click reports. */
export interface CellFlow {
  /** A click at (`lat`, `lng`), the longitude as the map gives it (any world copy). */
  click(lat: number, lng: number): Promise<void>;
  /** Shows the cell given (bounds, or a code through `cellOfCode`), or none; resolves with it. */
  highlight(target: CellBounds | string | null): Promise<CellBounds | null>;
}

/**
 * The flow: `show(cell, offset)` draws a cell (on the world copy `offset` degrees east) or none,
 * `report` hears each click's event. The last click or highlight asked for wins.
 */
export function cellFlow(options: LocCellOptions, show: (cell: CellBounds | null, offset: number) => void, report: (event: LocCellEvent) => void): CellFlow {
  let latest = 0;
  return {
    async click(lat, clickedLng) {
      const turn = ++latest;
      const { lng, offset } = wrapLng(clickedLng);
      const cell = cellAt(await options.grid, lat, lng);
      if (turn !== latest) return;
      show(cell, offset);
      let code: string | null = null;
      let error: unknown;
      try {
        if (options.codeAt) code = await options.codeAt(lat, lng);
      } catch (thrown) {
        error = thrown;
      }
      // A later click's cell is shown by now: this answer would name the wrong one.
      if (turn !== latest) return;
      const event: LocCellEvent = error === undefined ? { code, cell, latlng: { lat, lng } } : { code, cell, latlng: { lat, lng }, error };
      options.onCell?.(event);
      report(event);
    },
    async highlight(target) {
      const turn = ++latest;
      if (typeof target === 'string' && !options.cellOfCode) throw new TypeError('highlight(code) needs the cellOfCode option (e.g. the offline codec’s decode).');
      const cell = typeof target === 'string' ? await options.cellOfCode!(target) : target;
      if (turn === latest) show(cell, 0);
      return cell;
    },
  };
}
