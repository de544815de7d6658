import { describe, expect, it } from 'vitest';
import { burstAnnouncement } from './move-announcement.ts';

describe('burstAnnouncement', () => {
  it('says the net movement of cell steps, north or south before east or west, and what Enter does', () => {
    expect(burstAnnouncement({ move: { unit: 'cell', east: -1, north: 3 } })).toBe('Moved 3 cells north and 1 cell west. Enter chooses this cell.');
    expect(burstAnnouncement({ move: { unit: 'cell', east: 2, north: -1 } })).toBe('Moved 1 cell south and 2 cells east. Enter chooses this cell.');
    expect(burstAnnouncement({ move: { unit: 'cell', east: 0, north: -2 } })).toBe('Moved 2 cells south. Enter chooses this cell.');
    expect(burstAnnouncement({ move: { unit: 'cell', east: 1, north: 0 } })).toBe('Moved 1 cell east. Enter chooses this cell.');
  });

  it('says screen steps by direction and count, without the hint (Enter chooses a point, not a cell there)', () => {
    expect(burstAnnouncement({ move: { unit: 'step', east: -1, north: 1 } })).toBe('Moved 1 step north and 1 step west.');
    // A Shift step counts as the four steps it moves.
    expect(burstAnnouncement({ move: { unit: 'step', east: 4, north: 0 } })).toBe('Moved 4 steps east.');
  });

  it('says when a burst cancels out', () => {
    expect(burstAnnouncement({ move: { unit: 'cell', east: 0, north: 0 } })).toBe('Back where you started. Enter chooses this cell.');
    expect(burstAnnouncement({ move: { unit: 'step', east: 0, north: 0 } })).toBe('Back where you started.');
  });

  it('says the zoom reached, and that arrows move cells only when the burst crossed into the grid zoom', () => {
    expect(burstAnnouncement({ zoom: { from: 15, to: 17, max: 20 } })).toBe('Zoom 17 of 20.');
    expect(burstAnnouncement({ zoom: { from: 17, to: 18, max: 20 } })).toBe('Zoom 18 of 20. Each arrow now moves one 3 metre cell.');
    expect(burstAnnouncement({ zoom: { from: 16, to: 19, max: 20 } })).toBe('Zoom 19 of 20. Each arrow now moves one 3 metre cell.');
    expect(burstAnnouncement({ zoom: { from: 18, to: 19, max: 20 } })).toBe('Zoom 19 of 20.');
    expect(burstAnnouncement({ zoom: { from: 19, to: 17, max: 20 } })).toBe('Zoom 17 of 20.');
    // + at the highest zoom changes nothing, and says so.
    expect(burstAnnouncement({ zoom: { from: 20, to: 20, max: 20 } })).toBe('Zoom 20 of 20.');
  });

  it('says the zoom first, then the movement', () => {
    expect(burstAnnouncement({ zoom: { from: 17, to: 18, max: 20 }, move: { unit: 'cell', east: 0, north: 1 } })).toBe(
      'Zoom 18 of 20. Each arrow now moves one 3 metre cell. Moved 1 cell north. Enter chooses this cell.',
    );
  });
});
