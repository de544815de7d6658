/**
 * What a screen reader hears after a burst of arrow steps and zooms (crosshair.ts decides when): the
 * net movement, the zoom reached, and at cell level what Enter does. It is said after every burst, so
 * every word must earn its place.
 */
import { GRID_MIN_ZOOM } from './grid-lines.ts';

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

const counted = (count: number, unit: StepUnit) => `${count} ${unit}${count === 1 ? '' : 's'}`;

function movement({ unit, east, north }: Movement): string {
  const parts: string[] = [];
  // North before east, the order in which "north-west" is said.
  if (north) parts.push(`${counted(Math.abs(north), unit)} ${north > 0 ? 'north' : 'south'}`);
  if (east) parts.push(`${counted(Math.abs(east), unit)} ${east > 0 ? 'east' : 'west'}`);
  return parts.length ? `Moved ${parts.join(' and ')}.` : 'Back where you started.';
}

/** The announcement of a burst, e.g. "Moved 3 cells north and 1 cell west. Enter chooses this cell." */
export function burstAnnouncement({ move, zoom }: Burst): string {
  const sentences: string[] = [];
  if (zoom) {
    sentences.push(`Zoom ${zoom.to} of ${zoom.max}.`);
    // Said once, on the way in: from then on the movement itself is counted in cells.
    if (zoom.from < GRID_MIN_ZOOM && zoom.to >= GRID_MIN_ZOOM) sentences.push('Each arrow now moves one 3 metre cell.');
  }
  if (move) sentences.push(movement(move));
  // Only at cell level: there the point under the crosshair is the cell Enter would choose.
  if (move?.unit === 'cell') sentences.push('Enter chooses this cell.');
  return sentences.join(' ');
}
