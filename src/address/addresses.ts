/**
 * The address of a cell: the configured reverse geocoder's when it answers, the offline nearest-place
 * description otherwise. The one entry point the routes use.
 */
import { nominatimGeocoder, type ReverseGeocoder } from './nominatim.ts';
import { offlineAddress, warmOfflineAddresses } from './offline.ts';

export interface CellPlace {
  loc_code: string;
  latitude: number;
  longitude: number;
  country_code: string;
}

export interface Addresses {
  /** Never rejects: every failure of a remote geocoder falls back to the offline address. */
  addressOf(cell: CellPlace): Promise<string>;
  /** Loads the offline index ahead of the first request. */
  warm(): void;
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
  const offline = (cell: CellPlace): string => offlineAddress(cell.latitude, cell.longitude, cell.country_code);

  return {
    addressOf: remote === null
      ? async (cell) => offline(cell)
      : async (cell) => (await remote(cell.loc_code, cell.latitude, cell.longitude)) ?? offline(cell),
    warm: warmOfflineAddresses,
  };
}
