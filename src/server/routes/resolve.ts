/**
 * `POST /v1/embed/resolve` (spec §4.2): a map click to its cell, code and address, saved for the
 * caller's account when `save` is true. Callable with an API key or with an embed session token.
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
          accountId: caller.accountId, code: cell.loc_code, latitude: cell.latitude, longitude: cell.longitude,
          address: null, label: null, createdAt: app.now(),
        })).location
      : await app.store.findLocation(caller.accountId, cell.loc_code);
    return {
      success: true as const,
      ...cell,
      address: saved?.address ?? (await app.addressBook.addressOf(cell)),
      saved: save,
      share_url: shareUrl(app.config, cell.loc_code),
    };
  });
};

export default resolveRoutes;
