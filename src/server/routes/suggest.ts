/**
 * `GET /v1/loc/suggest`: a code as a visitor typed it, and the codes they may have meant
 * (search/suggest.ts). Callable with an API key or an embed session token, and counted as resolve is.
 * No address is computed: a list of candidates stays as cheap as decoding them; the chosen one is
 * resolved or looked up.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RATE_LIMIT_HEADERS, errorResponses, withHeaders } from '../http/responses.ts';
import { SuggestQuery, SuggestResult } from '../http/schemas.ts';
import { FAR_M, SUGGESTIONS_MAX, parseCountries, parseFocus, suggest } from '../../search/suggest.ts';

const suggestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/loc/suggest', {
    config: { auth: 'key-or-session' },
    schema: {
      operationId: 'suggestCodes',
      tags: ['codes'],
      summary: 'Suggest codes for a typed code',
      description:
        'Reads `input` as a visitor typed it and answers the cell it names (`exact`) and up to ' +
        `${SUGGESTIONS_MAX} existing codes one slip away (\`suggestions\`): a look-alike character, two neighbours swapped, ` +
        'one character too many or missing. Suggestions are listed when the input names no cell, or names one more than ' +
        `${FAR_M / 1000} km from \`focus\` (then only those within ${FAR_M / 1000} km) or outside \`countries\`. ` +
        'Ranked by distance from `focus`, else by the kind of slip. Input that cannot be a code: 400 `invalid_code`; a bad ' +
        '`focus` or `countries`: 422 `validation_error` naming it. Accepts `x-api-key` or `Authorization: Bearer <session_token>`.',
      security: [{ apiKey: [] }, { sessionToken: [] }],
      querystring: SuggestQuery,
      response: {
        200: withHeaders(SuggestResult, RATE_LIMIT_HEADERS),
        ...errorResponses({ auth: 'key-or-session', codes: ['validation_error', 'invalid_code'] }),
      },
    },
  }, async (request) => {
    const { input, focus, countries } = request.query;
    return {
      success: true as const,
      ...suggest(app.config, {
        input,
        focus: focus === undefined ? undefined : parseFocus(focus),
        countries: countries === undefined ? undefined : parseCountries(app.config, countries),
      }),
    };
  });
};

export default suggestRoutes;
