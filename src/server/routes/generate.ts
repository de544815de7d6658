/**
 * `POST /v1/loc/generate`: saves a point's cell for the caller's account, with an
 * optional address and label. Idempotent per account and cell: the first save wins, later calls get
 * the stored location with `is_existing: true`, also when they race.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { locate, shareUrl } from '../../cells/locate.ts';
import { BODY_ERRORS, RATE_LIMIT_HEADERS, errorResponses, withHeaders } from '../http/responses.ts';
import { ADDRESS_MAX, GenerateRequest, GenerateResult, LABEL_MAX } from '../http/schemas.ts';
import { cleanText } from '../../text-rules.ts';

const generateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/v1/loc/generate', {
    config: { auth: 'key' },
    schema: {
      operationId: 'generateCode',
      tags: ['codes'],
      summary: 'Generate (save) a code',
      description:
        `Saves the cell of the point for your account. \`address\` (≤ ${ADDRESS_MAX} characters) and \`label\` ` +
        `(≤ ${LABEL_MAX}) are one line of visible text each: no control, line separator, bidi embedding or invisible format character; blank counts as absent. ` +
        'A second call for the same cell returns the stored location unchanged, with `is_existing: true`.',
      security: [{ apiKey: [] }],
      body: GenerateRequest,
      response: { 200: withHeaders(GenerateResult, RATE_LIMIT_HEADERS), ...errorResponses({ auth: 'key', codes: [...BODY_ERRORS, 'unsupported_location'] }) },
    },
  }, async (request) => {
    const { latitude, longitude } = request.body;
    const address = cleanText('address', request.body.address, ADDRESS_MAX);
    const label = cleanText('label', request.body.label, LABEL_MAX);
    const cell = locate(app.config, latitude, longitude);
    const { location, created } = await app.store.saveLocation({
      accountId: request.caller!.accountId, mode: request.caller!.key.mode, code: cell.loc_code, latitude: cell.latitude, longitude: cell.longitude,
      address, label, createdAt: app.now(),
    });
    return {
      success: true as const,
      loc_code: cell.loc_code,
      is_existing: !created,
      share_url: shareUrl(app.config, cell.loc_code),
      latitude: cell.latitude,
      longitude: cell.longitude,
      address: location.address ?? (await app.addressBook.addressOf(cell, request.caller!.key.mode === 'test')),
      label: location.label,
      country_code: cell.country_code,
    };
  });
};

export default generateRoutes;
