/**
 * Bad input never gets a 500: malformed JSON, wrong content types, oversized bodies, unknown fields,
 * wrong types and NaN-like values each get a 4xx catalogue error that says what was wrong.
 */
import { describe, expect, it } from 'vitest';
import { fileService, json } from '../../../test/support/service.ts';
import { jsonRefusal } from './json-body.ts';

const service = fileService();

const send = (payload: string, contentType: string | null = 'application/json', url = '/v1/loc/generate') =>
  service.request({
    method: 'POST', url, payload,
    headers: { 'x-api-key': service.secret, ...(contentType === null ? {} : { 'content-type': contentType }) },
  });

const result = async (response: Promise<{ statusCode: number; body: string }>): Promise<string> => {
  const r = await response;
  const body = json(r);
  expect(body.success).toBe(false);
  expect(body.error).toBe(body.message);
  return `${r.statusCode} ${body.code}: ${body.message}`;
};

describe('request bodies', () => {
  it('malformed JSON: 400 invalid_json that says what is wrong, and where', async () => {
    expect(await result(send('{"latitude": 1,'))).toBe('400 invalid_json: The request body is not valid JSON: Expected double-quoted property name at line 1, column 16.');
    expect(await result(send("{'latitude': 1}"))).toBe("400 invalid_json: The request body is not valid JSON: Expected property name or '}' at line 1, column 2.");
    expect(await result(send('{\n  "latitude": 1,\n  "longitude": 2,\n}'))).toBe(
      '400 invalid_json: The request body is not valid JSON: Expected double-quoted property name at line 4, column 1.',
    );
    expect(await result(send('{"latitude": 1, "longitude": 2'))).toMatch(/^400 invalid_json: The request body is not valid JSON: Expected ',' or '}' after property value at line 1, column 31\.$/);
  });

  it('malformed JSON: a reason V8 words in a way not known here is kept only when it cannot hold the body', () => {
    expect(jsonRefusal('nul', new SyntaxError('Unexpected end of JSON input'))).toBe('The request body is not valid JSON: Unexpected end of JSON input.');
    expect(jsonRefusal('{"a": x}', new SyntaxError('No JSON at "{"a": x}"'))).toBe('The request body is not valid JSON.');
    expect(jsonRefusal('{"a": x}', new SyntaxError('Unexpected "{"a": x}" in JSON at position 6'))).toBe('The request body is not valid JSON.');
  });

  it('malformed JSON: the refusal never quotes the body, which V8 does in some of its messages', async () => {
    const body = '{"label": loc_secretsecretsecret}';
    const refused = await result(send(body));
    expect(refused).toBe("400 invalid_json: The request body is not valid JSON: Unexpected token 'l'.");
    expect(refused).not.toContain('secret');
  });

  it('malformed JSON: the token V8 quotes is escaped when it could hide or reorder text (a NUL, a bidi control)', async () => {
    expect(await result(send('\u0000"origin": 1}'))).toBe("400 invalid_json: The request body is not valid JSON: Unexpected token '\\u0000'.");
    expect(await result(send('\u202e{}'))).toBe("400 invalid_json: The request body is not valid JSON: Unexpected token '\\u202e'.");
  });

  it('an empty JSON body: 400 invalid_json', async () => {
    expect(await result(send(''))).toBe('400 invalid_json: The request body is empty; send a JSON object.');
  });

  it('prototype poisoning: 400 invalid_json that names the key refused, though the JSON is valid', async () => {
    const refusal = '400 invalid_json: The request body has a "__proto__" or "constructor" key, which is refused.';
    expect(await result(send('{"latitude": 1, "longitude": 2, "__proto__": {"admin": true}}'))).toBe(refusal);
    expect(await result(send('{"latitude": 1, "longitude": 2, "constructor": {"prototype": {"admin": true}}}'))).toBe(refusal);
  });

  it('a content type other than JSON: 415 unsupported_media_type', async () => {
    // What was expected, and what was received.
    expect(await result(send('latitude=1&longitude=2', 'application/x-www-form-urlencoded'))).toBe(
      '415 unsupported_media_type: Send the request body as JSON with the header Content-Type: application/json. Received Content-Type "application/x-www-form-urlencoded".',
    );
    expect(await result(send('{"latitude":1,"longitude":2}', 'text/plain'))).toMatch(/^415 unsupported_media_type: .* Received Content-Type "text\/plain"\.$/);
    expect(await result(send('{"latitude":1,"longitude":2}', null))).toMatch(/^415 unsupported_media_type: .* The request has no Content-Type\.$/);
  });

  it('JSON with a charset is fine when it is UTF-8', async () => {
    expect((await send('{"latitude":1.3,"longitude":103.8}', 'application/json; charset=utf-8')).statusCode).toBe(200);
    expect((await send('{"latitude":1.3,"longitude":103.8}', 'application/json;charset="UTF8"')).statusCode).toBe(200);
  });

  it('another charset: 415, not a body read as if it were UTF-8', async () => {
    expect(await result(send('{"latitude":1.3,"longitude":103.8}', 'application/json; charset=iso-8859-1'))).toBe(
      '415 unsupported_media_type: Send the request body as JSON in UTF-8; charset="iso-8859-1" is not supported.',
    );
    expect(await result(send('{"latitude":1.3,"longitude":103.8}', 'application/json; charset=utf-16'))).toMatch(/^415 unsupported_media_type/);
  });

  it('bytes that are not UTF-8: 400 invalid_json, and nothing is saved', async () => {
    const latin1 = Buffer.from('{"latitude":35.661,"longitude":139.75,"label":"Caf\u00e9"}', 'latin1');
    const response = await service.request({
      method: 'POST', url: '/v1/loc/generate', payload: latin1, headers: { 'x-api-key': service.secret, 'content-type': 'application/json' },
    });
    expect(await result(Promise.resolve(response))).toBe('400 invalid_json: The request body is not valid UTF-8.');
    const again = await send('{"latitude":35.661,"longitude":139.75,"label":"Café"}');
    expect(json(again)).toMatchObject({ is_existing: false, label: 'Café' });
  });

  it('a compressed body: 415 naming the encoding', async () => {
    const response = await service.request({
      method: 'POST', url: '/v1/loc/generate', payload: '{"latitude":1.3,"longitude":103.8}',
      headers: { 'x-api-key': service.secret, 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(await result(Promise.resolve(response))).toBe(
      '415 unsupported_media_type: Send the request body uncompressed; Content-Encoding "gzip" is not supported.',
    );
  });

  it('a body over 16 KB: 413 payload_too_large', async () => {
    const big = JSON.stringify({ latitude: 1, longitude: 2, address: 'x'.repeat(17 * 1024) });
    expect(await result(send(big))).toBe(`413 payload_too_large: The request body is larger than 16 KB. Received ${big.length} bytes.`);
  });

  it('no body at all: 422 naming the body', async () => {
    const response = await service.request({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': service.secret } });
    expect(json(response)).toMatchObject({ code: 'validation_error', field: 'body' });
  });

  it('a JSON value that is not an object: 422', async () => {
    expect(await result(send('[1, 2]'))).toBe('422 validation_error: body must be an object, received an array of 2.');
    expect(await result(send('"hello"'))).toMatch(/^422 validation_error: body must be an object/);
  });

  it('an unknown field: 422 naming it and the known ones', async () => {
    expect(await result(send('{"latitude":1,"longitude":2,"lat":1}'))).toBe(
      '422 validation_error: lat is not a known field; the known fields are latitude, longitude, address, label.',
    );
  });

  it('a missing field: 422 naming it', async () => {
    expect(await result(send('{"latitude":1}'))).toBe('422 validation_error: longitude is required.');
  });

  it('wrong types are not coerced', async () => {
    expect(await result(send('{"latitude":"1","longitude":2}'))).toBe('422 validation_error: latitude must be a number, received "1".');
    expect(await result(send('{"latitude":true,"longitude":2}'))).toBe('422 validation_error: latitude must be a number, received true.');
    expect(await result(send('{"latitude":null,"longitude":2}'))).toBe('422 validation_error: latitude must be a number, received null.');
    expect(await result(send('{"latitude":1,"longitude":2,"label":7}'))).toBe('422 validation_error: label must be a string, received 7.');
    expect(await result(send('{"lat":1,"lng":2,"save":"yes"}', 'application/json', '/v1/embed/resolve'))).toBe(
      '422 validation_error: save must be a boolean, received "yes".',
    );
  });

  it('NaN-like values are refused', async () => {
    expect(await result(send('{"latitude":NaN,"longitude":2}'))).toMatch(/^400 invalid_json/);
    expect(await result(send('{"latitude":"NaN","longitude":2}'))).toMatch(/^422 validation_error: latitude must be a number/);
    expect(await result(send('{"latitude":1e999,"longitude":2}'))).toMatch(/^422 validation_error: latitude must be a number, received Infinity/);
    expect(await result(send('{"latitude":-1e999,"longitude":2}'))).toMatch(/^422 validation_error/);
    expect(await result(send('{"latitude":1,"longitude":180.0000001}'))).toBe('422 validation_error: longitude must be from -180 to 180, received 180.0000001.');
  });
});

describe('routing', () => {
  it('an unknown path: 404 not_found as JSON', async () => {
    const response = await service.request({ url: '/v1/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({
      success: false, code: 'not_found', message: 'There is no GET /v1/nothing/here; see /docs.', error: 'There is no GET /v1/nothing/here; see /docs.',
    });
  });

  it('an unknown path is quoted as printable ASCII, and only its first 100 characters', async () => {
    expect(json(await service.request({ url: '/v1/x\u202Ey\u2066z' })).message).toBe('There is no GET /v1/x%E2%80%AEy%E2%81%A6z; see /docs.');
    const long = json(await service.request({ url: `/v1/${'a'.repeat(5000)}?q=1` }));
    expect(long.message).toBe(`There is no GET /v1/${'a'.repeat(96)}…; see /docs.`);
  });

  it('a known path with another method: 404 not_found', async () => {
    expect(json(await service.request({ method: 'DELETE', url: '/v1/loc/generate' })).code).toBe('not_found');
  });

  // Routing decodes the path, so this is answered before any route and its key: the same on every path.
  it('a path that is not valid percent-encoding: 400 bad_request on every path, lookup too, saying where', async () => {
    const refused = 'The path is not validly percent-encoded';
    expect(await result(service.request({ url: '/v1/whatever/%E0%A4%A' }))).toBe(`400 bad_request: ${refused}: "%A" is not % followed by two hexadecimal digits.`);
    for (const [code, why] of [['%E0%A4%A', '"%A" is not %'], ['%zz', '"%zz" is not %'], ['%', '"%" is not %'], ['US%E0%A4-550M', 'the bytes %E0%A4 are not UTF-8']]) {
      for (const headers of [{ 'x-api-key': service.secret }, {}]) {
        const response = await service.request({ url: `/v1/loc/lookup/${code}`, headers });
        expect(response.statusCode, code).toBe(400);
        expect(json(response), code).toMatchObject({ code: 'bad_request', message: expect.stringContaining(`${refused}: ${why}`) });
        expect(json(response).field, code).toBeUndefined();
      }
    }
  });
});

describe('what a message quotes of the request', () => {
  // Each could otherwise reverse the message around it, or hide what was sent.
  it('escapes controls, bidi and invisible characters in a quoted value, whether from the path, the body or a header', async () => {
    const lookup = json(await service.request({ url: '/v1/loc/lookup/%E2%80%AEab%C2%AD%E2%80%A8', headers: { 'x-api-key': service.secret } }));
    expect(lookup).toMatchObject({ code: 'invalid_code', message: 'Expected a code like FR-1A2B-3C4D, received "\\u202eab\\u00ad\\u2028".' });
    const body = json(await send(JSON.stringify({ latitude: '\u2067north\u2069', longitude: 2 })));
    expect(body).toMatchObject({ code: 'validation_error', message: 'latitude must be a number, received "\\u2067north\\u2069".' });
    const origin = json(await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': service.secret, origin: 'https://a\u0085b\u00ad.example' } }));
    expect(origin.message).toMatch(/^The origin "https:\/\/a\\u0085b\\u00ad\.example" is not registered/);
    const encoding = json(await service.request({
      method: 'POST', url: '/v1/loc/generate', payload: '{}', headers: { 'x-api-key': service.secret, 'content-type': 'application/json', 'content-encoding': 'gzip\u0085\u00ad' },
    }));
    expect(encoding.message).toBe('Send the request body uncompressed; Content-Encoding "gzip\\u0085\\u00ad" is not supported.');
  });
});
