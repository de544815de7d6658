import { describe, expect, it } from 'vitest';
import { gridJson } from '../server/embed/assets.ts';
import { gridDataColumns } from './grid-data.ts';

describe('grid.json as the frame and loc-js/grid read it', () => {
  it('gives the service’s column counts', () => {
    const data = gridJson();
    expect(gridDataColumns(JSON.parse(JSON.stringify(data)))).toEqual(data.columns);
  });

  it('refuses counts that are not format v1’s grid', () => {
    const data = gridJson();
    for (const bad of [
      { ...data, format: 2 },
      { ...data, rowsPerBand: 1000 },
      { ...data, columns: data.columns.slice(1) },
      { ...data, columns: [...data.columns.slice(1), 0] },
      { ...data, columns: [...data.columns.slice(1), '5'] },
      null,
      { error: 'not_found' },
    ]) {
      expect(() => gridDataColumns(bad as never)).toThrow('grid.json does not match format v1.');
    }
  });
});
