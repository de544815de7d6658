/**
 * Points to cells as the service hands them out: the codec's answer, limited to the operator's
 * supported countries, with the links that open it — the share page and the usual map apps.
 */
import { decode, encode, supportedCountries, type LocatedCell } from '../code/index.ts';
import { LocError } from '../errors.ts';

/** The operator's settings cells are handed out by: the countries served (null: all the codes cover), and the service's public URL. */
export interface Served {
  supportedCountries: ReadonlySet<string> | null;
  publicUrl: string;
}

/** The cell of a point; `unsupported_location` outside the covered or the configured countries. */
export function locate(config: Pick<Served, 'supportedCountries'>, lat: number, lng: number): LocatedCell {
  return handedOut(config, encode(lat, lng));
}

/**
 * The cell of a code, to be chosen as its centre would be: `invalid_code` or `code_not_found` as in a
 * lookup, and, unlike a lookup, `unsupported_location` where `locate` refuses the centre — choosing a
 * cell hands its code out again.
 */
export function locateCode(config: Pick<Served, 'supportedCountries'>, code: string): LocatedCell {
  return handedOut(config, decode(code));
}

/**
 * The countries this service hands codes out in: LOC_SUPPORTED_COUNTRIES, else every country the codes
 * cover. What a session's area or a suggestion may name; `served` says it in a message.
 */
export function servedCountries(config: Pick<Served, 'supportedCountries'>): { countries: ReadonlySet<string>; served: string } {
  if (config.supportedCountries === null) return { countries: new Set(supportedCountries()), served: 'a country the codes cover' };
  return { countries: config.supportedCountries, served: `one of LOC_SUPPORTED_COUNTRIES: ${[...config.supportedCountries].join(', ')}` };
}

function handedOut(config: Pick<Served, 'supportedCountries'>, cell: LocatedCell): LocatedCell {
  if (config.supportedCountries !== null && !config.supportedCountries.has(cell.country_code)) {
    throw new LocError('unsupported_location', `Codes are not handed out in ${cell.country_code} by this service.`);
  }
  return cell;
}

/** The public page of a code. */
export function shareUrl(config: Pick<Served, 'publicUrl'>, code: string): string {
  return `${config.publicUrl}/${code}`;
}

export interface MapLinks {
  google: string;
  apple: string;
  openstreetmap: string;
  geo: string;
}

/** Links that open the cell centre in map apps; six decimals (≈ 0.1 m) are finer than a cell. */
export function mapLinks(cell: Pick<LocatedCell, 'loc_code' | 'latitude' | 'longitude'>): MapLinks {
  const lat = cell.latitude.toFixed(6);
  const lng = cell.longitude.toFixed(6);
  const name = encodeURIComponent(cell.loc_code);
  return {
    google: `https://www.google.com/maps/search/?api=1&query=${lat}%2C${lng}`,
    apple: `https://maps.apple.com/?ll=${lat},${lng}&q=${name}&z=19`,
    openstreetmap: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=19/${lat}/${lng}`,
    geo: `geo:${lat},${lng}?q=${lat},${lng}(${name})`,
  };
}
