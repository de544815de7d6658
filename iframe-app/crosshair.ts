/**
 * Keyboard use of the map. The map is a Tab stop; while it has keyboard focus a crosshair marks its
 * centre. Arrow keys move the map under the crosshair — from zoom 18 exactly one 3 m cell per press,
 * below that a screen step (four with Shift) — Enter or Space chooses the point at the crosshair, + and
 * − zoom, Escape clears the choice. Once the keys stop, what they did is announced: the net movement
 * and the zoom reached (move-announcement.ts).
 */
import type * as L from 'leaflet';
import type { GridColumns } from './grid-layer.ts';
import { GRID_MIN_ZOOM, neighbourCentre } from '../src/code/grid-lines.ts';
import { burstAnnouncement, type Movement, type StepUnit } from './move-announcement.ts';
import { nearCentre } from './world-copy.ts';

/** Screen step of an arrow key below the grid zoom, in px. */
const PAN_STEP = 80;

/**
 * How long after the last step or zoom a burst is announced. Longer than the pause before a held key
 * starts to repeat (500 ms by default on Windows and GNOME, 660 ms under X11), so holding an arrow
 * down is one burst and one announcement; short enough to follow the last key closely.
 */
export const ANNOUNCE_AFTER_MS = 700;

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
  /** Says a burst's movement and zoom, politely. */
  announce(text: string): void;
}

export interface Keyboard {
  /** Drops the burst not yet announced: a choice, a clear or the map's stop has something to say instead. */
  hush(): void;
}

/** What a burst of keys did, said once. */
interface BurstAnnouncer {
  /** Drops what the burst did, unsaid. */
  hush(): void;
  /** The map moved `size` units of `unit` in `direction` ([east, north]). */
  moved(unit: StepUnit, direction: [number, number], size: number): void;
  /** A zoom is about to be asked for: the burst knows where it started. */
  zooming(): void;
}

/**
 * One announcement per burst, not one per key: each step would cut off the one before, and a screen
 * reader would be saying "moved 1 cell north" while the visitor is three cells further on. The burst
 * is said ANNOUNCE_AFTER_MS after its last key, as its net movement and zoom.
 */
function burstAnnouncer(map: L.Map, announce: (text: string) => void): BurstAnnouncer {
  let move: Movement | undefined;
  let zoomFrom: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hush = () => {
    clearTimeout(timer);
    move = zoomFrom = undefined;
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Read when said: an animated zoom has ended by then.
      const zoom = zoomFrom === undefined ? undefined : { from: zoomFrom, to: map.getZoom(), max: map.getMaxZoom() };
      const text = burstAnnouncement({ move, zoom });
      hush();
      announce(text);
    }, ANNOUNCE_AFTER_MS);
  };
  return {
    hush,
    moved(unit, [east, north], size) {
      // Cells and screen steps do not add up: a burst that changed from one to the other counts anew.
      if (move?.unit !== unit) move = { unit, east: 0, north: 0 };
      move.east += east * size;
      move.north += north * size;
      later();
    },
    zooming() {
      zoomFrom ??= map.getZoom();
      later();
    },
  };
}

export function enableKeyboard(map: L.Map, options: KeyboardOptions): Keyboard {
  const container = map.getContainer();
  // Keys act in the order pressed. A cell step may have to wait for the grid table (the first press
  // at zoom 18 can come before it arrives), and whatever follows — more steps, Enter — waits for it.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = (action: () => unknown): void => {
    queue = queue.then(action).catch(() => undefined);
  };

  const burst = burstAnnouncer(map, options.announce);
  const { moved, zooming } = burst;

  const screenStep = (direction: [number, number], shift: boolean): void => {
    const step = shift ? 4 * PAN_STEP : PAN_STEP;
    map.panBy([direction[0] * step, -direction[1] * step], options.motion);
    moved('step', direction, shift ? 4 : 1);
  };

  // Leaflet's zoom buttons, pressed by mouse or keyboard, are a zoom the visitor asked for, as + and −
  // are. Captured before the button's own handler zooms.
  map.zoomControl?.getContainer()?.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) zooming();
  }, true);

  /**
   * Zooms by `delta`, and ends when the zoom has: Leaflet ignores a zoom asked for while another is
   * animating (250 ms), so the key after it — a second +, an arrow — must wait to act at the new zoom.
   */
  const zoomBy = (delta: number) =>
    new Promise<void>((done) => {
      zooming();
      const target = Math.max(map.getMinZoom(), Math.min(map.getMaxZoom(), map.getZoom() + delta));
      if (target === map.getZoom()) return done();
      map.once('zoomend', () => done());
      map.setZoom(target, options.motion);
    });

  container.addEventListener('keydown', (event) => {
    // Keys pressed on a control inside the map (zoom buttons, attribution links) are theirs.
    if (event.target !== container || event.altKey || event.ctrlKey || event.metaKey) return;
    const direction = DIRECTIONS[event.key];
    const shift = event.shiftKey;
    if (direction) {
      // At the zoom the step is taken at, which a zoom pressed just before may still be changing.
      inTurn(async () => {
        if (map.getZoom() < GRID_MIN_ZOOM) return screenStep(direction, shift);
        // Without the table (it failed to load) a screen step still moves the map.
        const columns = await options.columns.get().catch(() => undefined);
        if (!columns) return screenStep(direction, shift);
        map.panTo(nearCentre(map, neighbourCentre(map.getCenter().wrap(), direction[0], direction[1], columns)), { animate: false });
        moved('cell', direction, 1);
      });
    } else if (event.key === '+' || event.key === '=') {
      inTurn(() => zoomBy(1));
    } else if (event.key === '-' || event.key === '_') {
      inTurn(() => zoomBy(-1));
    } else if (event.key === 'Enter' || event.key === ' ') {
      inTurn(() => options.choose(map.getCenter().wrap()));
    } else if (event.key === 'Escape') {
      inTurn(() => options.clear());
    } else {
      return;
    }
    event.preventDefault();
  });
  return { hush: burst.hush };
}
