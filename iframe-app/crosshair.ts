/**
 * Keyboard use of the map. The map is a Tab stop; while it has keyboard focus a crosshair marks its
 * centre. Arrow keys move the map under the crosshair — from zoom 18 exactly one 3 m cell per press,
 * below that a screen step (four with Shift) — Enter or Space chooses the point at the crosshair, + and
 * − zoom, Escape clears the choice.
 */
import type * as L from 'leaflet';
import type { GridColumns } from './grid-layer.ts';
import { GRID_MIN_ZOOM, neighbourCentre } from './grid-lines.ts';

/** Screen step of an arrow key below the grid zoom, in px. */
const PAN_STEP = 80;

const DIRECTIONS: Record<string, [number, number]> = {
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

export interface KeyboardOptions {
  motion: L.ZoomPanOptions;
  /** The band column counts; cell steps need them. */
  columns: GridColumns;
  choose(point: L.LatLng): void;
  clear(): void;
}

export function enableKeyboard(map: L.Map, options: KeyboardOptions): void {
  const container = map.getContainer();
  // Keys act in the order pressed. A cell step may have to wait for the grid table (the first press
  // at zoom 18 can come before it arrives), and whatever follows — more steps, Enter — waits for it.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = (action: () => unknown): void => {
    queue = queue.then(action).catch(() => undefined);
  };
  const screenStep = (direction: [number, number], shift: boolean): void => {
    const step = shift ? 4 * PAN_STEP : PAN_STEP;
    map.panBy([direction[0] * step, -direction[1] * step], options.motion);
  };

  container.addEventListener('keydown', (event) => {
    // Keys pressed on a control inside the map (zoom buttons, attribution links) are theirs.
    if (event.target !== container || event.altKey || event.ctrlKey || event.metaKey) return;
    const direction = DIRECTIONS[event.key];
    const shift = event.shiftKey;
    if (direction && map.getZoom() >= GRID_MIN_ZOOM) {
      inTurn(async () => {
        // Without the table (it failed to load) a screen step still moves the map.
        const columns = await options.columns.get().catch(() => undefined);
        if (columns) map.panTo(neighbourCentre(map.getCenter().wrap(), direction[0], direction[1], columns), { animate: false });
        else screenStep(direction, shift);
      });
    } else if (direction) {
      inTurn(() => screenStep(direction, shift));
    } else if (event.key === '+' || event.key === '=') {
      inTurn(() => map.zoomIn(1, options.motion));
    } else if (event.key === '-' || event.key === '_') {
      inTurn(() => map.zoomOut(1, options.motion));
    } else if (event.key === 'Enter' || event.key === ' ') {
      inTurn(() => options.choose(map.getCenter().wrap()));
    } else if (event.key === 'Escape') {
      inTurn(() => options.clear());
    } else {
      return;
    }
    event.preventDefault();
  });
}
