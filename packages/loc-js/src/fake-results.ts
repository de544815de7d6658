/**
 * The results the fake LOC (fake-loc.ts) hands a component: complete, as the service gives them, for a
 * code the test names or for the sample cell with the test's fields over it.
 */
import { normalizeCode } from '../../../src/code/spelling.ts';
import type { LocEmbedError, LocResolveResult, LocSelectResult, LocSelectSource } from '../../../src/embed/public-types.ts';
import { RECOVERABLE } from '../../../src/embed/recoverable.ts';

/** A result as the service gives it, for FR-0RMB-CLY0 (the cell of the Eiffel Tower's centre). */
export const SAMPLE: LocSelectResult = {
  success: true,
  loc_code: 'FR-0RMB-CLY0',
  latitude: 48.85838891047226,
  longitude: 2.2945143156748316,
  address: 'Paris, France',
  country_code: 'FR',
  cell: { north: 48.85840240006905, south: 48.85837542087543, east: 2.294534814306303, west: 2.2944938170433318 },
  saved: true,
  share_url: 'https://loc.example/FR-0RMB-CLY0',
  source: 'visitor',
};

/** A result for a code (normalized; the rest the sample's), or the sample with the test's fields over it. */
export type ResultFor = (target: string | Partial<LocSelectResult>, source: LocSelectSource) => LocSelectResult;

/** The results of a fake service at `baseUrl`. */
export function fakeResults(baseUrl: string): ResultFor {
  return (target, source) => {
    if (typeof target !== 'string') return { ...SAMPLE, share_url: `${baseUrl}/${target.loc_code ?? SAMPLE.loc_code}`, source, ...target };
    const code = normalizeCode(target);
    if (code === null) throw new TypeError(`FakeMount.select: ${JSON.stringify(target)} is not a location code (CC-XXXX-XXXX).`);
    return { ...SAMPLE, loc_code: code, country_code: code.slice(0, 2), share_url: `${baseUrl}/${code}`, source };
  };
}

/** A select result as a lookup gives it, before anything is selected: without `source`. */
export function unsourced({ source: _, ...result }: LocSelectResult): LocResolveResult {
  return result;
}

/**
 * What the map answers the page for a string that is no code, as the service refuses it:
 * `invalid_code`, which the map goes on from; null for a code.
 */
export function refusedCode(target: string): LocEmbedError | null {
  if (normalizeCode(target) !== null) return null;
  return { code: 'invalid_code', message: `${JSON.stringify(target)} is not a location code: expected CC-XXXX-XXXX.`, recoverable: RECOVERABLE.invalid_code };
}
