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

/** The runs' key of a block: its band and its index in the band. */
const blockKey = (band: number, block: number): number => band * 16384 + block;

/**
 * Gives each block near land its class: the countries it belongs to, and whether one country fills it.
 * A block touches a country when the country's border crosses it or its centre lies in the country;
 * a block that no border crosses is pure, and its centre's country is every cell's country.
 */
export function classify(grid: BlockGrid, near: BlockMask, phase: Phase): Pick<TableData, 'countries' | 'classes' | 'runs'> & { blockCounts: number[] } {
  const crossedBy = bordersCrossing(grid, near, phase);
  const { keyList, blockClass } = provisionalClasses(grid, near, crossedBy, phase);
  const { countries, classes, remap } = orderedClasses(keyList);
  const { runs, blockCounts } = classRuns(blockClass, remap, classes, countries.length);
  return { countries, classes, runs, blockCounts };
}

/** The codes of the country-coder features whose borders cross each block near land (null: a feature with no code). */
function bordersCrossing(grid: BlockGrid, near: BlockMask, phase: Phase): Map<number, Set<string | null>> {
  const features = countryCoder.borders.features.filter((f) => f.geometry);
  const crossedBy = new Map<number, Set<string | null>>();
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
                const k = blockKey(band, j);
                (crossedBy.get(k) ?? crossedBy.set(k, new Set()).get(k)!).add(code);
              }
            }),
          );
        }
      }
      tick();
    }
  });
  return crossedBy;
}

/**
 * A provisional class key per block (`P` and its country, or `M` and its members), numbered in the
 * order met; the countries are numbered once all are known.
 */
function provisionalClasses(grid: BlockGrid, near: BlockMask, crossedBy: Map<number, Set<string | null>>, phase: Phase): { keyList: string[]; blockClass: Int32Array[] } {
  const covered = (code: string | null): code is string => code !== null && !UNCOVERED_COUNTRIES.has(code);
  const classKeys = new Map<string, number>();
  const keyList: string[] = [];
  const blockClass = Array.from(grid.blocks, (n) => new Int32Array(n).fill(-1));
  phase('block classes', BANDS, (tick) => {
    for (let band = 0; band < BANDS; band++) {
      const lat = grid.bandMid(band);
      for (let j = 0; j < grid.blocks[band]; j++) {
        if (!near[band][j]) continue;
        const centre = territoryOf(lat, grid.blockCentreLng(band, j));
        const crossing = crossedBy.get(blockKey(band, j));
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
  return { keyList, blockClass };
}

/** The countries and the classes in their final order — pure classes by country, then mixed ones by their members — and each provisional key's place in it. */
function orderedClasses(keyList: string[]): { countries: string[]; classes: BlockClass[]; remap: number[] } {
  const membersOf = (classKey: string): string[] => classKey.slice(1).match(/../g)!;
  const countries = [...new Set(keyList.flatMap(membersOf))].sort();
  const countryIndex = new Map(countries.map((c, i) => [c, i]));
  const ordered = [...keyList].sort((a, b) => (a[0] === b[0] ? (a < b ? -1 : a > b ? 1 : 0) : a[0] === 'P' ? -1 : 1));
  const finalId = new Map(ordered.map((k, i) => [k, i]));
  const classes: BlockClass[] = ordered.map((k) => ({
    pure: k[0] === 'P',
    members: membersOf(k).map((c) => countryIndex.get(c)!),
  }));
  return { countries, classes, remap: keyList.map((k) => finalId.get(k)!) };
}

/** The blocks of each band as runs of one class, and how many blocks each country's classes hold. */
function classRuns(blockClass: Int32Array[], remap: number[], classes: BlockClass[], countryCount: number): { runs: TableData['runs']; blockCounts: number[] } {
  const bandStart = new Uint32Array(BANDS + 1);
  const first: number[] = [];
  const length: number[] = [];
  const cls: number[] = [];
  const blockCounts = new Array<number>(countryCount).fill(0);
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
  return { runs: { bandStart, first: Uint32Array.from(first), length: Uint32Array.from(length), cls: Uint32Array.from(cls) }, blockCounts };
}
