/**
 * Golden vectors of format v1: capitals, the antimeridian, the poles, microstates, offshore points,
 * border towns, territories and unsupported places. The CSV is frozen: a code that changes here is a
 * broken promise to everyone who stored one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { decode, encode } from './codec.ts';

const [header, ...lines] = readFileSync(new URL('./golden-v1.csv', import.meta.url), 'utf8').trim().split('\n');
const columns = header.split(',');
const rows = lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])));

describe('golden vectors of format v1', () => {
  it('has the columns and the breadth it promises', () => {
    expect(columns).toEqual(['name', 'lat', 'lng', 'loc_code', 'latitude', 'longitude', 'south', 'west', 'north', 'east', 'error']);
    expect(rows.length).toBeGreaterThanOrEqual(200);
    for (const kind of ['capital', 'antimeridian', 'polar', 'microstate', 'offshore', 'border', 'unsupported', 'edge']) {
      expect(rows.filter((r) => r.name.startsWith(`${kind} `)).length, kind).toBeGreaterThanOrEqual(4);
    }
  });

  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const lat = Number(row.lat);
    const lng = Number(row.lng);
    if (row.error) {
      expect(() => encode(lat, lng)).toThrow(LocError);
      try {
        encode(lat, lng);
      } catch (error) {
        expect((error as LocError).code).toBe(row.error);
      }
      return;
    }
    const expected = {
      loc_code: row.loc_code,
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      country_code: row.loc_code.slice(0, 2),
      cell: { north: Number(row.north), south: Number(row.south), east: Number(row.east), west: Number(row.west) },
    };
    expect(encode(lat, lng)).toEqual(expected);
    expect(decode(row.loc_code)).toEqual(expected);
  });
});
