/**
 * `POST /v1/embed/resolve`: a map click to its cell, code and address, saved for the caller's account
 * when `save` is true. Callable with an API key or with an embed session token.
 *
 * A session token is held by every visitor of the partner's page, so a call made with one sees only
 * public data — the code, the cell and the computed address — never the address the partner stored
 * with its key; and its save stores the cell alone, which a later `generate` of the partner's can
 * still label (store: a save fills in, never replaces).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { locate, shareUrl } from '../locate.ts';
import { BODY_ERRORS, RATE_LIMIT_HEADERS, errorResponses, withHeaders } from '../responses.ts';
import { ResolveRequest, ResolveResult } from '../schemas.ts';

const resolveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/v1/embed/resolve', {
    config: { auth: 'key-or-session' },
    schema: {
      operationId: 'resolvePoint',
      tags: ['embed'],
      summary: 'Resolve a point to its cell',
      description:
        'Returns the 3 m cell that holds the point: its code, centre, bounds and address. `save` (default false) ' +
        'stores the location for your account. Accepts `x-api-key` or `Authorization: Bearer <session_token>`.',
      security: [{ apiKey: [] }, { sessionToken: [] }],
      body: ResolveRequest,
      response: {
        200: withHeaders(ResolveResult, RATE_LIMIT_HEADERS),
        ...errorResponses({ auth: 'key-or-session', codes: [...BODY_ERRORS, 'unsupported_location'] }),
      },
    },
  }, async (request) => {
    const { lat, lng, save = false } = request.body;
    const caller = request.caller!;
    const cell = locate(app.config, lat, lng);
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
      address: own?.address ?? (await app.addressBook.addressOf(cell, caller.key.mode === 'test')),
      saved: save,
      share_url: shareUrl(app.config, cell.loc_code),
    };
  });
};

export default resolveRoutes;
