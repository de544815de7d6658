/**
 * The address of a cell: the configured reverse geocoder's when it answers, the offline nearest-place
 * description otherwise. The one entry point the routes use.
 */
import { BoundedCache } from '../bounded-cache.ts';
import { nominatimGeocoder, type ReverseGeocoder } from './nominatim.ts';
import { offlineAddress } from './offline.ts';

/** Cells whose offline address is remembered. */
const OFFLINE_CACHE_SIZE = 100_000;

export interface CellPlace {
  loc_code: string;
  latitude: number;
  longitude: number;
  country_code: string;
}

export interface Addresses {
  /**
   * Never rejects: every failure of a remote geocoder falls back to the offline address. `offlineOnly`
   * skips the geocoder: test keys get the same answer every time, whatever a remote service says today.
   */
  addressOf(cell: CellPlace, offlineOnly?: boolean): Promise<string>;
}

export interface AddressOptions {
  /** Base URL of a Nominatim-compatible geocoder; null: offline only. */
  geocoderUrl: string | null;
  geocoderTimeoutMs: number;
  userAgent: string;
  now: () => number;
}

export function createAddresses(options: AddressOptions): Addresses {
  const remote: ReverseGeocoder | null = options.geocoderUrl === null
    ? null
    : nominatimGeocoder({ url: options.geocoderUrl, timeoutMs: options.geocoderTimeoutMs, userAgent: options.userAgent, now: options.now });
  // The offline answer never changes for a cell: remember it (a search costs about 2.4 µs; a cache hit far less).
  const remembered = new BoundedCache<string>(OFFLINE_CACHE_SIZE);
  const offline = async (cell: CellPlace): Promise<string> => {
    let address = remembered.get(cell.loc_code);
    if (address === undefined) {
      address = await offlineAddress(cell.latitude, cell.longitude, cell.country_code);
      remembered.set(cell.loc_code, address);
    }
    return address;
  };

  return {
    addressOf: remote === null
      ? offline
      : async (cell, offlineOnly = false) => (offlineOnly ? null : await remote(cell.loc_code, cell.latitude, cell.longitude)) ?? offline(cell),
  };
}
