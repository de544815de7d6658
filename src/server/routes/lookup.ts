/**
 * `GET /v1/loc/lookup/{code}`: a code back to its cell, address, country and links. The
 * caller sees its own saved address and label; another account's never. Codes of countries the
 * operator no longer hands out still resolve: a code, once given, keeps meaning its cell.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fresh from 'fresh';
import { countryFlag, decode } from '../../code/index.ts';
import { mapLinks, shareUrl } from '../../cells/locate.ts';
import { RATE_LIMIT_HEADERS, errorResponses, withHeaders, type ResponseHeaders } from '../http/responses.ts';
import { LookupParams, LookupResult } from '../http/schemas.ts';

/** A client may reuse a lookup this long; the cell never changes, but the account's label may. */
const MAX_AGE_S = 300;

/** What a lookup and its 304 carry for caches. */
const CACHE_HEADERS: ResponseHeaders = {
  ETag: { type: 'string', description: 'This answer’s version for this key: send it back in If-None-Match to get 304.' },
  'Cache-Control': {
    type: 'string',
    enum: [`private, max-age=${MAX_AGE_S}`],
    description: `Reusable for ${MAX_AGE_S} s by this client only: the label and address are the account’s own.`,
  },
  Vary: { type: 'string', enum: ['x-api-key'], description: 'The answer depends on the key, whose account’s label and address it shows.' },
};

/** The request headers of a revalidation, as /openapi.json lists them. */
const CONDITIONAL_HEADERS = Type.Object({
  'If-None-Match': Type.Optional(Type.String({
    description: 'The ETag of the answer you hold (or a list of them, or `*`): 304 with no body when it is still current.',
    examples: ['"US-550M-RQ5L.0.1x2y3z"'],
  })),
});

/** 32-bit FNV-1a of a string's UTF-16 units: a fingerprint for the ETag, not a security hash. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const lookupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/loc/lookup/:code', {
    config: {
      auth: 'key',
      // If-None-Match is a parameter in /openapi.json, so that a generated client offers it, but not in
      // the route's schema: validating the headers would cost every lookup, and fresh() reads it as sent.
      swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, headers: CONDITIONAL_HEADERS }, url }),
    },
    schema: {
      operationId: 'lookupCode',
      tags: ['codes'],
      summary: 'Look a code up',
      description:
        'Malformed codes give 400 `invalid_code`, well-formed codes of no cell 404 `code_not_found`. Responses ' +
        `carry an ETag and \`Cache-Control: private, max-age=${MAX_AGE_S}\`; send If-None-Match to get 304.`,
      security: [{ apiKey: [] }],
      params: LookupParams,
      response: {
        200: withHeaders(LookupResult, RATE_LIMIT_HEADERS, CACHE_HEADERS),
        304: withHeaders(Type.Null({ description: 'Not modified: If-None-Match matched the ETag. No body.' }), RATE_LIMIT_HEADERS, CACHE_HEADERS),
        ...errorResponses({ auth: 'key', codes: ['invalid_code', 'code_not_found'] }),
      },
    },
  }, async (request, reply) => {
    // decode forgives case, spaces and hyphens; 400 invalid_code when malformed, 404 code_not_found when no cell.
    const cell = decode(request.params.code);
    const code = cell.loc_code;
    const saved = await app.store.findLocation(request.caller!.accountId, request.caller!.key.mode, code);
    const address = saved?.address ?? (await app.addressBook.addressOf(cell, request.caller!.key.mode === 'test'));
    const label = saved?.label ?? null;
    // What can change for a code: the label and address the account stored (a later save can fill in
    // one that was missing) and the address a geocoder answers. Cheap, unlike a hash of the whole body.
    const etag = `"${code}.${fnv1a(label ?? '').toString(36)}.${fnv1a(address).toString(36)}"`;
    reply.header('cache-control', `private, max-age=${MAX_AGE_S}`).header('etag', etag).header('vary', 'x-api-key');
    // fresh: If-None-Match as RFC 9110 compares it — weakly, a list of tags, or `*`. Given only that
    // header: fresh would answer in full to any `Cache-Control: no-cache`, which asks caches on the way
    // to revalidate with the origin (RFC 9111 §5.2.1.4), not the origin to ignore the validator — and
    // which fetch (Node's, browsers') adds to every request that carries If-None-Match.
    // No payload at all: send(null), which the 304 schema types, would announce "null"'s 4 bytes.
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag })) return reply.code(304).send(undefined as unknown as null);
    return {
      success: true as const,
      loc_code: code,
      location: {
        latitude: cell.latitude,
        longitude: cell.longitude,
        address,
        label,
        country_code: cell.country_code,
        country_flag: countryFlag(cell.country_code),
      },
      cell: cell.cell,
      maps: mapLinks(cell),
      share_url: shareUrl(app.config, code),
    };
  });
};

export default lookupRoutes;
