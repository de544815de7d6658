import { describe, expect, it } from 'vitest';
import { cellAt as serviceCellAt } from '../../../src/code/cells.ts';
import { coverage } from '../../../src/code/shipped-table.ts';
import { encode } from '../../../src/code/codec.ts';
import { cellFlow, wrapLng, type LocCellEvent } from './cell-clicks.ts';
import type { CellBounds } from './grid.ts';

const grid = { columns: coverage().columns };
const HOME = { lat: 48.8584, lng: 2.2945 };

/** A flow with the service's own codec as its `codeAt`, recording what it shows and reports. */
function recorded(codeAt: (lat: number, lng: number) => string | Promise<string> = (lat, lng) => encode(lat, lng).loc_code) {
  const shown: [CellBounds | null, number][] = [];
  const reported: LocCellEvent[] = [];
  const heard: LocCellEvent[] = [];
  const flow = cellFlow({ grid: Promise.resolve(grid), codeAt, cellOfCode: (code) => ({ ...serviceCellAt(0, 0), note: code }) as CellBounds, onCell: (event) => heard.push(event) }, (cell, offset) => shown.push([cell, offset]), (event) => reported.push(event));
  return { flow, shown, reported, heard };
}

describe('a click on a map with loc’s grid', () => {
  it('shows the clicked point’s cell, then reports it with the code codeAt gives', async () => {
    const { flow, shown, reported, heard } = recorded();
    await flow.click(HOME.lat, HOME.lng);
    expect(shown).toEqual([[serviceCellAt(HOME.lat, HOME.lng), 0]]);
    expect(reported).toEqual([{ code: 'FR-0RMB-CLY0', cell: serviceCellAt(HOME.lat, HOME.lng), latlng: HOME }]);
    expect(heard).toEqual(reported);
  });

  it('on another copy of the world, shows the cell there and reports the point brought into [−180, 180)', async () => {
    const { flow, shown, reported } = recorded();
    await flow.click(HOME.lat, HOME.lng + 720);
    expect(shown).toEqual([[serviceCellAt(HOME.lat, HOME.lng), 720]]);
    expect(reported[0].latlng.lng).toBeCloseTo(HOME.lng, 9);
    expect(wrapLng(180)).toEqual({ lng: -180, offset: 360 });
    expect(wrapLng(-180)).toEqual({ lng: -180, offset: 0 });
  });

  it('reports a point without a code with code null and codeAt’s error, its cell shown all the same', async () => {
    const { flow, shown, reported } = recorded();
    await flow.click(0, -30);
    expect(shown).toHaveLength(1);
    expect(reported).toEqual([{ code: null, cell: serviceCellAt(0, -30), latlng: { lat: 0, lng: -30 }, error: expect.objectContaining({ code: 'unsupported_location' }) }]);
  });

  it('drops an earlier click’s slow answer once a later click has shown its cell', async () => {
    let answer!: (code: string) => void;
    const slow = new Promise<string>((resolve) => (answer = resolve));
    const { flow, shown, reported } = recorded((lat, lng) => (lat === 1 ? slow : encode(lat, lng).loc_code));
    const first = flow.click(1, 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await flow.click(HOME.lat, HOME.lng);
    answer('XX-0000-0000');
    await first;
    expect(shown.map(([cell]) => cell)).toEqual([serviceCellAt(1, 1), serviceCellAt(HOME.lat, HOME.lng)]);
    expect(reported.map((event) => event.code)).toEqual(['FR-0RMB-CLY0']);
  });

  it('highlights bounds, a code through cellOfCode, or nothing, and refuses a code without cellOfCode', async () => {
    const { flow, shown } = recorded();
    const cell = serviceCellAt(HOME.lat, HOME.lng);
    expect(await flow.highlight(cell)).toBe(cell);
    expect(await flow.highlight('FR-0RMB-CLY0')).toMatchObject({ note: 'FR-0RMB-CLY0' });
    expect(await flow.highlight(null)).toBeNull();
    expect(shown.map(([shownCell]) => shownCell)).toEqual([cell, expect.objectContaining({ note: 'FR-0RMB-CLY0' }), null]);
    const bare = cellFlow({ grid }, () => {}, () => {});
    await expect(bare.highlight('FR-0RMB-CLY0')).rejects.toThrow(TypeError);
  });
});
