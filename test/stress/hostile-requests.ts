/**
 * Hostile requests as fast-check arbitraries, for every endpoint of the service: random and mutated
 * JSON, wrong types, huge and tiny numbers, NaN and Infinity as strings and as bare tokens, deep
 * nesting, unicode and control characters in texts, traversal and percent-encoding tricks in paths,
 * oversized bodies and invalid UTF-8, wrong and duplicated content types, duplicated and malformed
 * framing headers, missing, malformed and mutated API keys and session tokens.
 *
 * Bodies are JSON *text*, composed by hand: bare tokens JSON cannot carry (`NaN`, `1e999`, `0x10`) and
 * keys such as `__proto__` reach the server exactly as written. A good share of every kind is
 * well-formed, so that requests get past authentication and parsing to validation and the routes.
 */
import fc from 'fast-check';
import type { RawRequest } from './raw-http.ts';

export type Route = 'generate' | 'resolve' | 'sessions' | 'lookup' | 'session-facts' | 'frame' | 'share' | 'static' | 'unknown';

export interface HostileRequest {
  route: Route;
  request: RawRequest;
}

/** What the generated requests may authenticate with. */
export interface Credentials {
  /** Keys with limits no run reaches. */
  keys: string[];
  /** A key with a small hourly limit (429s), a non-partner's key, a disabled key. */
  limited: string;
  plain: string;
  disabled: string;
  /** Live embed session tokens `<sid>.<secret>`. */
  tokens: string[];
}

const ROUTE_PATHS: Record<'generate' | 'resolve' | 'sessions', string> = {
  generate: '/v1/loc/generate',
  resolve: '/v1/embed/resolve',
  sessions: '/v1/embed/sessions',
};

// ---------------------------------------------------------------------------------------------- text

/** Characters every text rule and every parser has an opinion about. */
const AWKWARD = [
  '\u0000', '\u0007', '\u001b', '\t', '\n', '\r', '\u007f', '\u0085', '\u202e', '\u2066', '\u200b', '\ufeff', '\u00a0',
  '\u2028', '\u00ad', '\u3164', '\u{e0041}', '\u200d', '\u200f', '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
  '\ud800', '\udc00', '\ud83d', '\u0958', '\ufb2c', 'e\u0301', '\u{1f600}', '\u{1f469}\u200d\u{1f4bb}', '\u{10ffff}', '\uffff',
  '"', '\\', '\'', '<script>', '%00', '../', '${x}', '{{x}}', 'é', 'ß', 'İ', '\u0130',
];

const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom(...AWKWARD)), { maxLength: 25 }).map((parts) => parts.join('')) },
  // Around the limits of label (100) and address (300), in characters that are 1, 2 and 3 code units or NFC-expanding.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(99, 100, 101, 299, 300, 301), fc.constantFrom('a', '\u{1f600}', '\u0958', ' ')).map(([n, c]) => c.repeat(n)) },
);

/** A JSON string literal; now and then with an escape JSON does not have. */
const stringLiteral: fc.Arbitrary<string> = fc.oneof(
  { weight: 19, arbitrary: text.map((t) => JSON.stringify(t)) },
  { weight: 1, arbitrary: fc.constantFrom('"\\x41"', '"\\u12"', '"\\ud800"', '"\\udfff\\ud800"', '"unterminated', "'single'") },
);

// -------------------------------------------------------------------------------------------- values

const BARE_TOKENS = ['NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '1e-400', '-0', '0x10', '.5', '01', '1.', '+1', '1e', '9'.repeat(400), 'undefined', 'None'];
const NUMBER_STRINGS = ['"NaN"', '"Infinity"', '"-Infinity"', '"1e999"', '"12"', '"0"', '""', '" 45.5"'];

/** Any JSON value as text, nested objects and deep arrays included. */
const anyJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 2500 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 1500 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) },
);

const numberIn = (min: number, max: number): fc.Arbitrary<string> => fc.oneof(
  { weight: 6, arbitrary: fc.double({ min, max, noNaN: true }).map(String) },
  { weight: 2, arbitrary: fc.double().map((n) => JSON.stringify(n)) },
  { weight: 1, arbitrary: fc.constantFrom(String(min), String(max), String(min - 1e-7), String(max + 1e-7), '5e-324', '1e308', '-1e308', '0') },
  { weight: 1, arbitrary: fc.constantFrom(...BARE_TOKENS) },
  { weight: 1, arbitrary: fc.constantFrom(...NUMBER_STRINGS) },
  { weight: 1, arbitrary: anyJson },
);

/** Latitude and longitude mostly over land in Europe, so that many points have a code. */
const latitude = fc.oneof({ weight: 5, arbitrary: fc.double({ min: 44, max: 50, noNaN: true }).map(String) }, { weight: 2, arbitrary: numberIn(-90, 90) });
const longitude = fc.oneof({ weight: 5, arbitrary: fc.double({ min: 0, max: 10, noNaN: true }).map(String) }, { weight: 2, arbitrary: numberIn(-180, 180) });

const ORIGINS = [
  'https://shop.example', 'https://shop.example/', 'https://SHOP.example', 'http://shop.example', 'https://evil.example', 'http://localhost:5173',
  'https://shop.example:443', 'null', 'javascript:alert(1)', 'https://shop.example.evil.example', 'https://xn--80ak6aa92e.com', 'file://', '',
];

const textField = fc.oneof({ weight: 4, arbitrary: stringLiteral }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: fc.constantFrom('null', '""', '"   "') });

const FIELDS = {
  generate: { latitude, longitude, address: textField, label: textField },
  resolve: { lat: latitude, lng: longitude, save: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('true', 'false') }, { weight: 1, arbitrary: fc.constantFrom('"true"', '1', '0', 'null') }, { weight: 1, arbitrary: anyJson }) },
  sessions: {
    origin: fc.oneof(
      { weight: 3, arbitrary: fc.constant('"https://shop.example"') },
      { weight: 3, arbitrary: fc.constantFrom(...ORIGINS).map((o) => JSON.stringify(o)) },
      { weight: 1, arbitrary: textField },
    ),
    ttl: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 60, max: 3600 }).map(String) }, { weight: 2, arbitrary: numberIn(60, 3600) }),
  },
};

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'lat', 'latitude', 'save', 'extra', '', ' ', 'a'.repeat(300)];

/** An object with the route's fields (each may be missing) and now and then a stranger. */
function shapedObject(route: keyof typeof FIELDS): fc.Arbitrary<string> {
  const fields = Object.entries(FIELDS[route]) as [string, fc.Arbitrary<string>][];
  const entries = fc.tuple(...fields.map(([name, value]) => fc.option(value.map((v) => `${JSON.stringify(name)}:${v}`), { freq: 6 })));
  const extras = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 10 })), anyJson).map(([k, v]) => `${JSON.stringify(k)}:${v}`), { maxLength: 2 });
  return fc.tuple(entries, fc.oneof({ weight: 5, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: extras }))
    .map(([own, extra]) => `{${[...own.filter((entry): entry is string => entry !== null), ...extra].join(',')}}`);
}

/** Text with one edit: cut short, a character dropped, inserted, replaced or a stretch doubled. */
const mutated = (source: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(source, fc.nat(), fc.constantFrom('cut', 'drop', 'insert', 'replace', 'double'), fc.constantFrom('{', '}', '"', ',', ':', '[', '\\', '0', 'e', ' ', '\u0000'))
    .map(([s, at, how, c]) => {
      const i = s.length === 0 ? 0 : at % s.length;
      switch (how) {
        case 'cut': return s.slice(0, i);
        case 'drop': return s.slice(0, i) + s.slice(i + 1);
        case 'insert': return s.slice(0, i) + c + s.slice(i);
        case 'replace': return s.slice(0, i) + c + s.slice(i + 1);
        default: return s.slice(0, i) + s.slice(i, i + 20) + s.slice(i);
      }
    });

/** Bodies beyond the 16 KB limit: a long field or plain padding. */
const oversized = fc.integer({ min: 16 * 1024 - 50, max: 48 * 1024 }).chain((size) => fc.constantFrom(
  `{"latitude":1,"longitude":2,"label":"${'x'.repeat(size)}"}`,
  `${' '.repeat(size)}{}`,
  `[${'1,'.repeat(size / 2)}1]`,
));

function body(route: keyof typeof FIELDS): fc.Arbitrary<Buffer> {
  const textBody = fc.oneof(
    { weight: 8, arbitrary: shapedObject(route) },
    { weight: 2, arbitrary: mutated(shapedObject(route)) },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: oversized },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '{}', '[]', '"x"', '{"a":', 'true', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}') },
  );
  // Now and then bytes that are not UTF-8 at all.
  return fc.tuple(textBody, fc.option(fc.tuple(fc.nat(), fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82])), { freq: 12 }))
    .map(([t, bad]) => {
      const bytes = Buffer.from(t, 'utf8');
      if (bad === null) return bytes;
      const at = bytes.length === 0 ? 0 : bad[0] % bytes.length;
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(bad[1]), bytes.subarray(at)]);
    });
}

// ------------------------------------------------------------------------------------------- headers

/** Header values cannot hold CR or LF without ending the header; everything else goes. */
const headerSafe = (value: string): string => value.replace(/[\r\n]/g, '');

/** A string with one character flipped, cut short, or its case swapped. */
const tampered = (secret: string): fc.Arbitrary<string> =>
  fc.tuple(fc.nat({ max: secret.length - 1 }), fc.constantFrom('flip', 'cut', 'case', 'append', 'space')).map(([i, how]) => {
    switch (how) {
      case 'flip': return secret.slice(0, i) + String.fromCharCode(secret.charCodeAt(i) ^ 1) + secret.slice(i + 1);
      case 'cut': return secret.slice(0, i);
      case 'case': return secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase();
      case 'append': return `${secret}A`;
      default: return `${secret.slice(0, i)} ${secret.slice(i)}`;
    }
  });

function authHeaders(credentials: Credentials): fc.Arbitrary<[string, string][]> {
  const key = fc.constantFrom(...credentials.keys);
  const token = fc.constantFrom(...credentials.tokens);
  const junk = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('', ' ', 'loc_', 'null', 'undefined', 'Bearer x'));
  const badKey = fc.oneof(key.chain(tampered), junk, fc.string({ maxLength: 50 }).map((s) => `loc_${s}`));
  const badBearer = fc.oneof(
    token.chain(tampered).map((t) => `Bearer ${t}`),
    junk.map((j) => `Bearer ${j}`),
    fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'Token abc'),
    token,
  );
  return fc.oneof(
    { weight: 8, arbitrary: key.map((k): [string, string][] => [['x-api-key', k]]) },
    { weight: 1, arbitrary: fc.constant([] as [string, string][]) },
    { weight: 2, arbitrary: badKey.map((k): [string, string][] => [['x-api-key', k]]) },
    { weight: 1, arbitrary: fc.tuple(key, fc.oneof(key, badKey)).map(([a, b]): [string, string][] => [['x-api-key', a], ['x-api-key', b]]) },
    { weight: 3, arbitrary: token.map((t): [string, string][] => [['authorization', `Bearer ${t}`]]) },
    { weight: 2, arbitrary: badBearer.map((b): [string, string][] => [['authorization', b]]) },
    { weight: 1, arbitrary: fc.tuple(token, badBearer).map(([t, b]): [string, string][] => [['authorization', `Bearer ${t}`], ['authorization', b]]) },
    { weight: 1, arbitrary: fc.constantFrom(credentials.limited, credentials.plain, credentials.disabled).map((k): [string, string][] => [['x-api-key', k]]) },
  ).map((headers) => headers.map(([name, value]): [string, string] => [name, headerSafe(value)]));
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', '', ';;;', 'application/jsonx', 'application/json, text/plain', 'application/json; charset=utf-16',
  'application/*', '*/*', 'application/vnd.api+json',
];

const contentType: fc.Arbitrary<[string, string][]> = fc.oneof(
  { weight: 8, arbitrary: fc.constant([['content-type', 'application/json']] as [string, string][]) },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((t): [string, string][] => [['content-type', t]]) },
  { weight: 1, arbitrary: fc.constant([] as [string, string][]) },
  { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((t): [string, string][] => [['content-type', 'application/json'], ['content-type', t]]) },
);

/** Headers a browser, a proxy or an attacker may add. */
const extraHeaders: fc.Arbitrary<[string, string][]> = fc.array(fc.oneof(
  fc.constantFrom(...ORIGINS).map((o): [string, string] => ['origin', o]),
  fc.constantFrom('1.2.3.4', '::1', 'garbage', '198.51.100.1, 10.0.0.1').map((v): [string, string] => ['x-forwarded-for', v]),
  fc.constantFrom('"x"', '*', 'W/"1"', '').map((v): [string, string] => ['if-none-match', v]),
  fc.constantFrom('100-continue', '100-continue', '100-Continue', 'teapot').map((v): [string, string] => ['expect', v]),
  fc.constantFrom('application/json', 'text/html', '*/*', '').map((v): [string, string] => ['accept', v]),
  fc.constantFrom('gzip', 'br', 'identity', 'x').map((v): [string, string] => ['accept-encoding', v]),
  fc.tuple(fc.constantFrom('x-custom', 'cookie', 'referer', 'user-agent', 'x-api-key-2'), fc.string({ maxLength: 40 }))
    .map(([name, value]): [string, string] => [name, headerSafe(value)]),
), { maxLength: 2 });

/** How the body is framed: Content-Length, chunked, or framing the parser must refuse. */
const framing = fc.oneof(
  { weight: 16, arbitrary: fc.constant('length' as const) },
  { weight: 2, arbitrary: fc.constant('chunked' as const) },
  { weight: 1, arbitrary: fc.constant('length-twice' as const) },
  { weight: 1, arbitrary: fc.constant('length-and-chunked' as const) },
);

function framed(how: 'length' | 'chunked' | 'length-twice' | 'length-and-chunked', body: Buffer): { headers: [string, string][]; body: Buffer } {
  const length = String(body.length);
  const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  switch (how) {
    case 'length': return { headers: [['content-length', length]], body };
    case 'chunked': return { headers: [['transfer-encoding', 'chunked']], body: body.length === 0 ? Buffer.from('0\r\n\r\n') : chunked };
    case 'length-twice': return { headers: [['content-length', length], ['content-length', length]], body };
    default: return { headers: [['content-length', String(chunked.length)], ['transfer-encoding', 'chunked']], body: chunked };
  }
}

// --------------------------------------------------------------------------------------------- paths

const CODES = ['FR-0RMB-CLY0', 'US-550M-RQ5L', 'fr0rmbcly0', 'us-550m-rq5l', '%20US-550M-RQ5L%20', 'ZZ-0000-0000', 'AQ-0RMB-CLY0'];
const TRAVERSALS = [
  '../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%252e%252e%252f', '....//....//', '..\\..\\windows',
  '..%5c..%5c', '%2e%2e/', '.', '..', '%2e', 'FR-0RMB-CLY0/../../healthz', '%2F%2Fevil.example',
];
const PERCENT_TRICKS = ['%00', '%', '%2', '%zz', '%c0%af', '%e0%80%af', '%ff%fe', '%E0%A4%A', '%u002e', '%F0%9F%98%80', 'FR%2D0RMB%2DCLY0', '%46%52-0RMB-CLY0', 'FR-0RMB-CLY0%00', '%E2%80%AE', '%E2%81%A6FR%E2%81%A9', '%C2%AD', '%E2%80%A8', '%C2%85'];
const SUFFIXES = ['?x=1', '?__proto__[x]=1', '?constructor[prototype][x]=1', '#frag', '/extra', `?${'a'.repeat(200)}`, '/..', '%2f..', '?api_key=loc_x'];

const pathPart: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...CODES) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z]{2}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.constantFrom(...TRAVERSALS) },
  { weight: 2, arbitrary: fc.constantFrom(...PERCENT_TRICKS) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 9000 }).map((n) => 'A'.repeat(n)) },
  // Printable ASCII as is, spaces and quotes included: what the parser must refuse, it refuses in our shape.
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }).map(headerSafe) },
);

/** Mostly nothing, now and then a query, a fragment or one more segment. */
const suffix = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...SUFFIXES) });
const withSuffix = (path: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(path, suffix).map(([p, s]) => p + s);

const STATIC_PATHS = ['/healthz', '/openapi.json', '/docs', '/', '/embed/loc-embed.js', '/embed/loc-embed.d.ts', '/embed/frame.css', '/embed/grid.json', '/embed/nothing', '/tiles/streets/1/0/0.png'];
const UNKNOWN_PATHS = ['/v1', '/v1/', '/v1/loc', '/v1/loc/lookup', '/v1/loc/lookup/', '/V1/LOC/GENERATE', '/v1//loc/generate', '/v2/loc/generate', '//v1/loc/generate', '/v1/loc/generate/x', '/v1/embed/sessions/abc'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'CONNECT', 'PROPFIND', 'FOO'];

// ---------------------------------------------------------------------------------------------- all

export function hostileRequest(credentials: Credentials, sids: string[]): fc.Arbitrary<HostileRequest> {
  const sid = fc.oneof(fc.constantFrom(...sids), pathPart, fc.integer({ min: 60, max: 300 }).map((n) => 'a'.repeat(n)));
  const method = (usual: string): fc.Arbitrary<string> => fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });

  const post = (route: keyof typeof FIELDS): fc.Arbitrary<HostileRequest> =>
    fc.tuple(method('POST'), authHeaders(credentials), contentType, extraHeaders, body(route), framing, suffix)
      .map(([verb, auth, type, extra, payload, how, suffix]) => {
        const frame = framed(how, payload);
        return { route, request: { method: verb, target: ROUTE_PATHS[route] + suffix, headers: [...auth, ...type, ...extra, ...frame.headers], body: frame.body } };
      });

  const get = (route: Route, target: fc.Arbitrary<string>, authenticated: boolean): fc.Arbitrary<HostileRequest> =>
    fc.tuple(method('GET'), authenticated ? authHeaders(credentials) : fc.constant([] as [string, string][]), extraHeaders, target)
      .map(([verb, auth, extra, path]) => ({ route, request: { method: verb, target: path, headers: [...auth, ...extra] } }));

  return fc.oneof(
    { weight: 5, arbitrary: post('generate') },
    { weight: 5, arbitrary: post('resolve') },
    { weight: 2, arbitrary: post('sessions') },
    { weight: 5, arbitrary: get('lookup', withSuffix(pathPart).map((p) => `/v1/loc/lookup/${p}`), true) },
    { weight: 1, arbitrary: get('session-facts', withSuffix(sid).map((s) => `/embed/session/${s}`), false) },
    { weight: 1, arbitrary: get('frame', withSuffix(sid).map((s) => `/embed/frame/${s}`), false) },
    { weight: 1, arbitrary: get('share', withSuffix(pathPart).map((p) => `/${p}`), false) },
    { weight: 1, arbitrary: get('static', fc.constantFrom(...STATIC_PATHS), false) },
    { weight: 1, arbitrary: get('unknown', withSuffix(fc.constantFrom(...UNKNOWN_PATHS)), true) },
  );
}
