/**
 * Request bodies are JSON in UTF-8 (RFC 8259 §8.1), and nothing else:
 *
 * - Fastify reads a body as UTF-8 whatever its bytes, turning each invalid sequence into U+FFFD; a
 *   label sent in Latin-1 would be stored as "Caf\uFFFD" for good (a save is never edited). Invalid
 *   UTF-8 is refused with 400 `invalid_json` instead.
 * - A `charset` other than UTF-8 would be read wrongly the same way: 415 `unsupported_media_type`.
 * - A compressed body (`Content-Encoding: gzip`) is not decompressed here: 415, not an `invalid_json`
 *   that hides why.
 * - Fastify's built-in text/plain parser would let a text body reach validation: removed.
 *
 * The JSON itself is parsed by Fastify's own parser, which refuses `__proto__` and `constructor` keys.
 */
import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import { LocError } from '../../errors.ts';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF8 = /^utf-?8$/i;

export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
        return done(new LocError('unsupported_media_type', `Send the request body uncompressed; Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported.`), undefined);
      }
      const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1];
      if (charset !== undefined && !UTF8.test(charset)) {
        return done(new LocError('unsupported_media_type', `Send the request body as JSON in UTF-8; charset=${JSON.stringify(charset.slice(0, 40))} is not supported.`), undefined);
      }
      const bytes = body as Buffer;
      if (!isUtf8(bytes)) return done(new LocError('invalid_json', 'The request body is not valid UTF-8.'), undefined);
      parseJson(request, bytes.toString('utf8'), done);
    });
  },
  { name: 'loc-json-body', fastify: '5.x', dependencies: ['loc-errors'] },
);
