/**
 * `GET /v1/loc/search`: what a visitor typed into the map's search box — a place name, coordinates or
 * a code — read and answered (search/search.ts). Callable with an API key or an embed session token; a
 * session's area applies by itself. A session's searches draw from a search allowance of their own,
 * not from the session's budget of calls (limits/budgets.ts): typing must not use up the lookups the
 * visitor needs to choose.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PLACES_MAX } from '../../address/place-names.ts';
import { RATE_LIMIT_HEADERS, errorResponses, withHeaders } from '../http/responses.ts';
import { SearchQuery, SearchResult } from '../http/search-schemas.ts';
import { search } from '../../search/search.ts';
import { parseCountries, parseFocus } from '../../search/suggest.ts';

const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/loc/search', {
    config: { auth: 'key-or-session', allowance: 'search' },
    schema: {
      operationId: 'search',
      tags: ['codes'],
      summary: 'Search for a place, coordinates or a code',
      description:
        'Reads `q` as the one thing it can be, and says which in `kind`. Coordinates (`48.8584, 2.2945`, `48°51\'30"N 2°17\'40"E`, ' +
        'a Google Maps or OpenStreetMap link, `geo:`): the point, latitude first unless hemisphere letters say otherwise or the ' +
        'first number is beyond ±90 (then `swapped`). A code, typos and all: the cell it names and the codes it may have meant, ' +
        `as suggest answers. Otherwise the start of a place name: up to ${PLACES_MAX} GeoNames places whose name or a word of it ` +
        'starts with `q`, accents and case aside, nearest `focus` first with big places reaching further; with `forward=1`, the ' +
        'operator\'s geocoder too, naming places in the first language of `Accept-Language` where it can. Called with a session, its area applies: codes are suggested within it, places in it come first, ' +
        'and each result says `in_area`. A session\'s searches draw from a search allowance as large as its budget of calls, not from ' +
        'that budget. Empty `q`, a bad `focus` or `countries`: 422 `validation_error` naming it. Accepts `x-api-key` or ' +
        '`Authorization: Bearer <session_token>`.',
      security: [{ apiKey: [] }, { sessionToken: [] }],
      querystring: SearchQuery,
      response: {
        200: withHeaders(SearchResult, RATE_LIMIT_HEADERS),
        ...errorResponses({ auth: 'key-or-session', codes: ['validation_error'] }),
      },
    },
  }, async (request) => {
    const { q, focus, countries, forward } = request.query;
    const session = request.caller?.session ?? null;
    const area = session !== null && (session.countries !== null || session.bounds !== null) ? { countries: session.countries, bounds: session.bounds } : undefined;
    return {
      success: true as const,
      ...(await search(app, {
        q,
        focus: focus === undefined ? undefined : parseFocus(focus),
        countries: countries === undefined ? undefined : parseCountries(app.config, countries),
        area,
        forward: forward === '1',
        language: firstLanguage(request.headers['accept-language']),
      })),
    };
  });
};

/** The first language of an `Accept-Language` header, when it is a plain BCP 47 tag; else none (English). */
function firstLanguage(header: string | undefined): string | undefined {
  const tag = header?.split(',')[0].split(';')[0].trim();
  return tag !== undefined && /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(tag) ? tag : undefined;
}

export default searchRoutes;
