/**
 * `GET /v1/loc/grid`: the grid inside a box as GeoJSON (cells/grid-geojson.ts), for servers and apps
 * that draw loc's cells without its JavaScript. Callable with an API key or an embed session token,
 * and counted as one call. A session's area does not narrow it: the grid is public, and resolve is
 * what refuses a cell outside the area.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GRID_CELLS_MAX, GRID_DIAGONAL_MAX_M, cellsGeoJson, linesGeoJson, parseBbox } from '../../cells/grid-geojson.ts';
import { RATE_LIMIT_HEADERS, errorResponses, withHeaders, type ResponseHeaders } from '../http/responses.ts';
import { GridQuery, GridResult } from '../http/grid-schemas.ts';
import { encodedAnswer } from '../embed/encodings.ts';

/**
 * A client may reuse an answer this long. The grid and the codes are frozen with the table; only the
 * countries an operator serves can change, at a restart. Private: a shared cache would answer other
 * callers uncounted.
 */
const MAX_AGE_S = 86_400;

const CACHE_HEADERS: ResponseHeaders = {
  'Cache-Control': {
    type: 'string',
    enum: [`private, max-age=${MAX_AGE_S}`],
    description: `Reusable for ${MAX_AGE_S / 3600} h by this client only: the grid never changes, but each call is counted.`,
  },
  Vary: {
    type: 'string',
    enum: ['accept-encoding'],
    description: 'The answer goes out in Brotli or gzip (`Content-Encoding`) to a client whose `Accept-Encoding` takes either; otherwise as it is.',
  },
};

const gridRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/loc/grid', {
    config: { auth: 'key-or-session' },
    schema: {
      operationId: 'getGrid',
      tags: ['codes'],
      summary: 'The grid inside a box, as GeoJSON',
      description:
        'A GeoJSON FeatureCollection of the 3 m grid inside `bbox` (`west,south,east,north`, degrees; west greater than east crosses the ' +
        'antimeridian). `kind=lines` (the default): the row edges across the box, then each band’s column edges, as MultiLineStrings, for boxes ' +
        `of at most ${GRID_DIAGONAL_MAX_M} m corner to corner. \`kind=cells\`: each cell the box overlaps, a Polygon exactly its bounds with its ` +
        `\`loc_code\` and \`country_code\` (null where no code is handed out), for boxes of at most ${GRID_CELLS_MAX} cells. A bigger box, a malformed ` +
        '`bbox`, or a `kind` other than these: 422 `validation_error` naming it, the message giving the bound and the box’s figure. ' +
        'Accepts `x-api-key` or `Authorization: Bearer <session_token>`; one call of the budget.',
      security: [{ apiKey: [] }, { sessionToken: [] }],
      querystring: GridQuery,
      response: {
        200: withHeaders(GridResult, RATE_LIMIT_HEADERS, CACHE_HEADERS),
        ...errorResponses({ auth: 'key-or-session', codes: ['validation_error'] }),
      },
    },
  }, async (request, reply) => {
    const { bbox, kind = 'lines' } = request.query;
    const box = parseBbox(bbox);
    const grid = kind === 'cells' ? cellsGeoJson(app.config, box) : linesGeoJson(box);
    // Written by JSON.stringify, not by the response schema's serialiser: the same bytes for this
    // shape (arrays of arrays of numbers, no property to leave out), in 15 ms rather than 30–60 for
    // 10 000 cells — time the event loop serves no other request. Then compressed for a client that
    // takes it: 3.2 MB of cells are 137 KB in Brotli.
    const answer = await encodedAnswer(Buffer.from(JSON.stringify({ success: true, kind, ...grid })), request.headers['accept-encoding']);
    if (answer.encoding !== null) reply.header('content-encoding', answer.encoding);
    return reply
      .header('cache-control', `private, max-age=${MAX_AGE_S}`)
      .header('vary', 'accept-encoding')
      .type('application/json; charset=utf-8')
      .send(answer.body);
  });
};

export default gridRoutes;
