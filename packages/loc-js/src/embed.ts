/**
 * loc-js/embed — `loadLoc({ baseUrl })`, the promise of the typed global `LOC` that the service's
 * script defines, for pages that load the script from their code rather than with a tag; and the
 * types of every option, result and error code, which are the service's own (the build ships the
 * declarations the service serves at `/embed/v1/loc-embed.d.ts`, and a test holds them equal).
 *
 * `loadLoc` is the service's own (src/embed/load-loc.ts), which `<loc-picker>` loads the script with
 * too; importing this module changes nothing.
 */
import type { LocGlobal } from '../../../src/embed/public-types.ts';

export type * from '../../../src/embed/public-types.ts';
/** The codes an HTTP error response of the service carries in `code` (the service's error catalogue). */
export type { HttpErrorCode as LocApiErrorCode } from '../../../src/errors.ts';

declare global {
  interface Window {
    /**
     * Defined by the service's `loc-embed.js` once it ran: after `loadLoc` resolved (use what it
     * resolves with), not when this module is imported, which changes nothing. A page that loads the
     * script with a tag of its own has the served loc-embed.d.ts, whose global `LOC` is always there.
     */
    LOC?: LocGlobal;
  }
}

export { loadLoc, type LoadLocOptions } from '../../../src/embed/load-loc.ts';
