/**
 * `POST /v1/embed/resolve`: a map click to its cell, code and address, saved for the caller's account
 * when `save` is true. Callable with an API key or with an embed session token. A `code` in place of
 * the point chooses its cell the same way (the embed's `select`).
 *
 * A session token is held by every visitor of the partner's page, so a call made with one sees only
 * public data — the code, the cell and the computed address — never the address the partner stored
 * with its key; and its save stores the cell alone, which a later `generate` of the partner's can
 * still label (store: a save fills in, never replaces).
 *
 * A session made with an area (session-area.ts) resolves and saves only cells inside it; a call made
 * with the key is not limited by any session's area.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { LocatedCell } from '../../code/index.ts';
import { languageOf } from '../../address/addresses.ts';
import { LocError } from '../../errors.ts';
import type { Config } from '../config.ts';
import { locate, locateCode, shareUrl } from '../../cells/locate.ts';
import { BODY_ERRORS, RATE_LIMIT_HEADERS, errorResponses, withHeaders } from '../http/responses.ts';
import { ResolveRequest, ResolveResult } from '../http/schemas.ts';
import { assertInArea } from '../../cells/session-area.ts';

const resolveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/v1/embed/resolve', {
    config: { auth: 'key-or-session' },
    schema: {
      operationId: 'resolvePoint',
      tags: ['embed'],
      summary: 'Resolve a point to its cell',
      description:
        'Returns the 3 m cell that holds the point: its code, centre, bounds and address. Send `lat` and `lng`, or ' +
        '`code` instead (malformed: 400 `invalid_code`; well-formed, of no cell: 404 `code_not_found`). `save` ' +
        '(default false) stores the location for your account. Accepts `x-api-key` or `Authorization: Bearer <session_token>`. ' +
        'With a session made with `countries` or `bounds`, a cell whose centre is outside them is refused, unsaved: 422 `outside_session_area`. ' +
        'With a reverse geocoder configured, the address is in the first language of `Accept-Language` where the geocoder has it; ' +
        'offline addresses are in English with the place’s one GeoNames name.',
      security: [{ apiKey: [] }, { sessionToken: [] }],
      body: ResolveRequest,
      response: {
        200: withHeaders(ResolveResult, RATE_LIMIT_HEADERS),
        ...errorResponses({ auth: 'key-or-session', codes: [...BODY_ERRORS, 'invalid_code', 'code_not_found', 'unsupported_location', 'outside_session_area'] }),
      },
    },
  }, async (request) => {
    const { save = false } = request.body;
    const caller = request.caller!;
    const cell = cellOf(app.config, request.body);
    // Before the save: a cell outside the area is never stored.
    if (caller.session !== null) assertInArea(caller.session, cell);
    const saved = save
      ? (await app.store.saveLocation({
          accountId: caller.accountId, mode: caller.key.mode, code: cell.loc_code, latitude: cell.latitude, longitude: cell.longitude,
          address: null, label: null, createdAt: app.now(),
        })).location
      : null;
    // What the account stored answers calls made with its key only.
    const own = caller.via !== 'key' ? null : saved ?? (await app.store.findLocation(caller.accountId, caller.key.mode, cell.loc_code));
    return {
      success: true as const,
      ...cell,
      // In the visitor's language where the geocoder has it: the frame sends its own (iframe-app/api.ts).
      address: own?.address ?? (await app.addressBook.addressOf(cell, caller.key.mode === 'test', languageOf(request.headers['accept-language']))),
      saved: save,
      share_url: shareUrl(app.config, cell.loc_code),
    };
  });
};

/** The cell the body names: by its point, or by its code — one of the two, never both. */
function cellOf(config: Config, { lat, lng, code }: Static<typeof ResolveRequest>): LocatedCell {
  if (code !== undefined) {
    const other = lat !== undefined ? 'lat' : lng !== undefined ? 'lng' : undefined;
    if (other) throw new LocError('validation_error', `Send either code or lat and lng, not both; received code and ${other}.`, other);
    return locateCode(config, code);
  }
  if (lat === undefined) throw new LocError('validation_error', 'lat is required (or code instead of lat and lng).', 'lat');
  if (lng === undefined) throw new LocError('validation_error', 'lng is required (or code instead of lat and lng).', 'lng');
  return locate(config, lat, lng);
}

export default resolveRoutes;
