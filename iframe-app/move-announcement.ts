/**
 * What a screen reader hears after a burst of arrow steps and zooms (crosshair.ts decides when): the
 * net movement, the zoom reached, and at cell level what Enter does. It is said after every burst, so
 * every word must earn its place.
 */
import { GRID_MIN_ZOOM } from '../src/code/grid-lines.ts';
import { t } from './i18n.ts';

/** What an arrow moves the map by: a 3 m cell from the grid's zoom, below it a screen step (80 px). */
export type StepUnit = 'cell' | 'step';

/** A burst's net movement, counted in its unit; east and north are positive. */
export interface Movement {
  unit: StepUnit;
  east: number;
  north: number;
}

export interface Burst {
  move?: Movement;
  /** The zoom before the burst's first zoom change, the zoom after its last, and the map's highest. */
  zoom?: { from: number; to: number; max: number };
}

/** "3 cells", "1 step": plural as the language counts. */
const counted = (count: number, unit: StepUnit) => t(unit === 'cell' ? 'move.cells' : 'move.steps', { count });

function movement({ unit, east, north }: Movement): string {
  // North before east, the order in which "north-west" is said.
  const northSouth = north ? t(north > 0 ? 'move.north' : 'move.south', { distance: counted(Math.abs(north), unit) }) : '';
  const eastWest = east ? t(east > 0 ? 'move.east' : 'move.west', { distance: counted(Math.abs(east), unit) }) : '';
  if (!northSouth && !eastWest) return t('move.back');
  return t('move.moved', { movement: northSouth && eastWest ? t('move.both', { northSouth, eastWest }) : northSouth || eastWest });
}

/** The announcement of a burst, e.g. "Moved 3 cells north and 1 cell west. Enter chooses this cell." */
export function burstAnnouncement({ move, zoom }: Burst): string {
  const sentences: string[] = [];
  if (zoom) {
    sentences.push(t('move.zoom', { zoom: zoom.to, max: zoom.max }));
    // Said once, on the way in: from then on the movement itself is counted in cells.
    if (zoom.from < GRID_MIN_ZOOM && zoom.to >= GRID_MIN_ZOOM) sentences.push(t('move.gridReached'));
  }
  if (move) sentences.push(movement(move));
  // Only at cell level: there the point under the crosshair is the cell Enter would choose.
  if (move?.unit === 'cell') sentences.push(t('move.enterChooses'));
  // Joined by a space, which Chinese and Japanese do without; their catalogues end each sentence with
  // a full stop of their own, and a screen reader pauses at it either way.
  return sentences.join(' ');
}
