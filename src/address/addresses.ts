/**
 * The address of a cell: the configured reverse geocoder's when it answers, in the language asked for
 * where the geocoder's data has it, the offline nearest-place description otherwise — in English, with
 * the place's one GeoNames name (usually its local one). The one entry point the routes use.
 */
import { BoundedCache } from '../bounded-cache.ts';
import { inSpan } from '../spans.ts';
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
   * `language`: what the geocoder is asked for (`languageOf` an Accept-Language header); English without.
   */
  addressOf(cell: CellPlace, offlineOnly?: boolean, language?: string): Promise<string>;
}

/**
 * The language an `Accept-Language` header puts first, as a BCP 47 tag the geocoder is asked for;
 * undefined for none, `*`, or anything that is not a tag (the header is the caller's to write).
 */
export function languageOf(header: string | undefined): string | undefined {
  const first = header?.split(',')[0].split(';')[0].trim();
  return first && first.length <= 35 && /^[a-z]{2,8}(-[a-z\d]{1,8})*$/i.test(first) ? first : undefined;
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

  const addressOf: Addresses['addressOf'] = remote === null
    ? offline
    : async (cell, offlineOnly = false, language) => (offlineOnly ? null : await remote(cell.loc_code, cell.latitude, cell.longitude, language)) ?? offline(cell);
  return {
    addressOf: (cell, offlineOnly = false, language) =>
      inSpan('loc.address', { 'loc.address.geocoder': remote !== null && !offlineOnly }, () => addressOf(cell, offlineOnly, language)),
  };
}
