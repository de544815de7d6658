/**
 * The classes of format v1's blocks (docs/code-format.md §5): for every block near land, the countries
 * whose coverage holds it and whether one country fills it, as the table's classes and runs.
 */
import * as countryCoder from '@rapideditor/country-coder';
import { BANDS } from '../grid.ts';
import { UNCOVERED_COUNTRIES, territoryOf, territoryOfFeature } from '../country.ts';
import type { BlockClass, TableData } from '../table-file.ts';
import type { Phase } from './near-land.ts';
import { forEachEdge, toRing, type BlockGrid, type BlockMask } from './raster.ts';

/**
 * Gives each block near land its class: the countries it belongs to, and whether one country fills it.
 * A block touches a country when the country's border crosses it or its centre lies in the country;
 * a block that no border crosses is pure, and its centre's country is every cell's country.
 */
export function classify(grid: BlockGrid, near: BlockMask, phase: Phase): Pick<TableData, 'countries' | 'classes' | 'runs'> & { blockCounts: number[] } {
  const features = countryCoder.borders.features.filter((f) => f.geometry);
  // Codes of the country-coder features whose borders cross each block (−1: a feature with no code).
  const crossedBy = new Map<number, Set<string | null>>();
  const key = (band: number, block: number): number => band * 16384 + block;
  phase('country borders', features.length, (tick) => {
    for (const feature of features) {
      const code = territoryOfFeature(feature.properties.id);
      const geometry = feature.geometry;
      const polygons =
        geometry?.type === 'Polygon' ? [geometry.coordinates] : geometry?.type === 'MultiPolygon' ? geometry.coordinates : [];
      for (const polygon of polygons) {
        for (const coords of polygon) {
          // country-coder tests points in plain longitude/latitude, so its rings are not unwrapped.
          forEachEdge(toRing(coords, false), (x1, y1, x2, y2) =>
            grid.forEachEdgeBlock(x1, y1, x2, y2, (band, first, last) => {
              for (let j = first; j <= last; j++) {
                if (!near[band][j]) continue;
                const k = key(band, j);
                (crossedBy.get(k) ?? crossedBy.set(k, new Set()).get(k)!).add(code);
              }
            }),
          );
        }
      }
      tick();
    }
  });

  const covered = (code: string | null): code is string => code !== null && !UNCOVERED_COUNTRIES.has(code);
  // First pass: a provisional class key per block; countries are numbered once all are known.
  const classKeys = new Map<string, number>();
  const keyList: string[] = [];
  const blockClass = Array.from(grid.blocks, (n) => new Int32Array(n).fill(-1));
  phase('block classes', BANDS, (tick) => {
    for (let band = 0; band < BANDS; band++) {
      const lat = grid.bandMid(band);
      for (let j = 0; j < grid.blocks[band]; j++) {
        if (!near[band][j]) continue;
        const centre = territoryOf(lat, grid.blockCentreLng(band, j));
        const crossing = crossedBy.get(key(band, j));
        let classKey: string | null;
        if (crossing === undefined) {
          classKey = covered(centre) ? `P${centre}` : null;
        } else {
          const members = new Set([...crossing, centre].filter(covered));
          classKey = members.size ? `M${[...members].sort().join('')}` : null;
        }
        if (classKey === null) continue;
        let id = classKeys.get(classKey);
        if (id === undefined) {
          id = keyList.push(classKey) - 1;
          classKeys.set(classKey, id);
        }
        blockClass[band][j] = id;
      }
      tick();
    }
  });

  const membersOf = (classKey: string): string[] => classKey.slice(1).match(/../g)!;
  const countries = [...new Set(keyList.flatMap(membersOf))].sort();
  const countryIndex = new Map(countries.map((c, i) => [c, i]));
  // Final class order: pure classes by country, then mixed classes by their member lists.
  const ordered = [...keyList].sort((a, b) => (a[0] === b[0] ? (a < b ? -1 : a > b ? 1 : 0) : a[0] === 'P' ? -1 : 1));
  const finalId = new Map(ordered.map((k, i) => [k, i]));
  const classes: BlockClass[] = ordered.map((k) => ({
    pure: k[0] === 'P',
    members: membersOf(k).map((c) => countryIndex.get(c)!),
  }));
  const remap = keyList.map((k) => finalId.get(k)!);

  const bandStart = new Uint32Array(BANDS + 1);
  const first: number[] = [];
  const length: number[] = [];
  const cls: number[] = [];
  const blockCounts = new Array<number>(countries.length).fill(0);
  for (let band = 0; band < BANDS; band++) {
    const row = blockClass[band];
    for (let j = 0; j < row.length; j++) {
      if (row[j] < 0) continue;
      const start = j;
      while (j + 1 < row.length && row[j + 1] === row[start]) j++;
      const id = remap[row[start]];
      first.push(start);
      length.push(j - start + 1);
      cls.push(id);
      for (const m of classes[id].members) blockCounts[m] += j - start + 1;
    }
    bandStart[band + 1] = first.length;
  }
  return {
    countries,
    classes,
    runs: { bandStart, first: Uint32Array.from(first), length: Uint32Array.from(length), cls: Uint32Array.from(cls) },
    blockCounts,
  };
}
