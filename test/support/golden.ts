/**
 * The golden vectors of format v1 (src/code/golden-v1.csv) as rows of named fields, and a codec's
 * answer written as one string — every number of the cell, or the error's code — so that two codecs'
 * answers compare by the thousand without deep equality.
 */
import { readFileSync } from 'node:fs';
import type { LocatedCell } from '../../src/code/table-codec.ts';

/** Each row of the golden file: name, lat, lng, loc_code, latitude, longitude, south, west, north, east, error. */
export function goldenRows(): Record<string, string>[] {
  const [header, ...lines] = readFileSync(new URL('../../src/code/golden-v1.csv', import.meta.url), 'utf8').trim().split('\n');
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i], value])));
}

/** What `call` answered: the cell's code, country and every number, or the `code` of what it threw. */
export function writtenAnswer(call: () => LocatedCell): string {
  try {
    const { loc_code, country_code, latitude, longitude, cell } = call();
    return `${loc_code} ${country_code} ${latitude} ${longitude} ${cell.north} ${cell.south} ${cell.east} ${cell.west}`;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}
