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
 * The JSON itself is parsed by secure-json-parse, as Fastify's own parser does, refusing `__proto__`
 * and `constructor.prototype` keys; but where Fastify's parser answers only "not valid JSON", this one
 * says what is wrong and where (line and column), which is what a developer fixing a request needs.
 */
import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { LocError, describeValue } from '../../errors.ts';
import { printable } from '../../printable.ts';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF8 = /^utf-?8$/i;

/** V8's reasons: "… in JSON at position N", or "Unexpected token 'x', …"<the text>"… is not valid JSON". */
const AT_POSITION = /^(.*?)(?: in JSON)? at position (\d+)/s;
const UNEXPECTED_TOKEN = /^(Unexpected token '.*?'), .* is not valid JSON$/s;

/**
 * Why `text` is not JSON, in a sentence: V8's reason with its position as line and column. V8 quotes
 * the body itself in some of its messages; that part is left out, so a refusal never echoes (or
 * logs) what the body held.
 */
export function jsonRefusal(text: string, error: Error): string {
  if (/forbidden (prototype|constructor) property/.test(error.message)) {
    return 'The request body has a "__proto__" or "constructor" key, which is refused.';
  }
  const at = AT_POSITION.exec(error.message);
  if (at && !at[1].includes('"')) {
    const position = Math.min(Number(at[2]), text.length);
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    return `The request body is not valid JSON: ${printable(at[1])} at line ${line}, column ${column}.`;
  }
  const token = UNEXPECTED_TOKEN.exec(error.message);
  const reason = token ? token[1] : /^[\w ,']{1,80}$/.test(error.message) ? error.message : null;
  // The token V8 quotes is a character of the body: escaped when it could hide or reorder text.
  return reason === null ? 'The request body is not valid JSON.' : `The request body is not valid JSON: ${printable(reason)}.`;
}

export default fp(
  async (app) => {
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
        return done(new LocError('unsupported_media_type', `Send the request body uncompressed; Content-Encoding ${describeValue(encoding)} is not supported.`), undefined);
      }
      const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1];
      if (charset !== undefined && !UTF8.test(charset)) {
        return done(new LocError('unsupported_media_type', `Send the request body as JSON in UTF-8; charset=${describeValue(charset)} is not supported.`), undefined);
      }
      const bytes = body as Buffer;
      if (!isUtf8(bytes)) return done(new LocError('invalid_json', 'The request body is not valid UTF-8.'), undefined);
      if (bytes.length === 0) return done(new LocError('invalid_json', 'The request body is empty; send a JSON object.'), undefined);
      const text = bytes.toString('utf8');
      let value: unknown;
      try {
        value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch (error) {
        return done(new LocError('invalid_json', jsonRefusal(text, error as Error)), undefined);
      }
      done(null, value);
    });
  },
  { name: 'loc-json-body', fastify: '5.x', dependencies: ['loc-errors'] },
);
