/**
 * /openapi.json as a client generator reads it: a valid OpenAPI 3 document (checked by a real
 * validator), every operation named by a stable, unique operationId, every tag declared, each
 * error response's `code` the enum of the catalogue codes of its status, and the headers of each
 * response — held against real answers of the service.
 */
import { validate } from '@readme/openapi-parser';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.ts';
import { SCHEMAS_PATH, inlineSchemaRefs } from './http/openapi-components.ts';
import { ANY_ROUTE_ERRORS } from './http/responses.ts';
import { json, testService, type TestService } from '../../test/support/service.ts';

interface Schema {
  $ref?: string;
  title?: string;
  type?: string;
  properties?: Record<string, Schema>;
}

interface Response {
  description: string;
  headers?: Record<string, { description?: string; schema: { type: string } }>;
  content?: Record<string, { schema: Schema & { properties?: { code?: { type?: string; enum?: string[] } } } }>;
}

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
}

interface Document {
  openapi: string;
  tags?: { name: string; description?: string }[];
  components: { schemas?: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

let service: TestService;
let doc: Document;

beforeAll(async () => {
  service = await testService();
  doc = json<Document>(await service.request({ url: '/openapi.json' }));
  answers = await askAll();
});
afterAll(() => service.close());

/** Every operation of the document with where it is. */
const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, operation })));

const operation = (id: string): Operation => operations(doc).find(({ operation }) => operation.operationId === id)!.operation;

/** The codes an error response's body may carry. */
const codesOf = (response: Response): string[] | undefined => response.content?.['application/json']?.schema.properties?.code?.enum;

/** The response the document gives for a status: its own, else `default`. */
const documented = (op: Operation, status: number): Response => op.responses[status] ?? op.responses.default;

const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/**
 * Headers of HTTP itself, and the security headers every response carries (docs/api.md says so
 * once), which the document does not list.
 */
const TRANSPORT_HEADERS = new Set([
  'content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-content-type-options', 'referrer-policy', 'strict-transport-security',
]);

/** A real answer of the service, to hold the document against. */
interface Answer {
  id: string;
  status: number;
  code: string | undefined;
  headers: Record<string, unknown>;
  body: unknown;
}

/** Requests the service refuses, by operation, with the code each gets. */
let REFUSALS: [string, InjectOptions, ErrorCode][];
/** Every answer to the requests below: successes of each operation, then REFUSALS. */
let answers: Answer[];

async function ask(id: string, request: InjectOptions): Promise<Answer> {
  const response = await service.request(request);
  const code = response.statusCode >= 400 ? json<{ code: string }>(response).code : undefined;
  return { id, status: response.statusCode, code, headers: response.headers, body: response.body === '' ? undefined : JSON.parse(response.body) };
}

async function askAll(): Promise<Answer[]> {
  const { secret } = await service.key('acme');
  const { secret: plain } = await service.key('plain', { partner: false });
  const { secret: fenced } = await service.key('acme', { ipRanges: ['203.0.113.0/24'] });
  const { secret: once } = await service.key('acme', { hourlyLimit: 1 });
  const { secret: brief } = await service.key('acme', { sessionLimit: 1 });
  const key = { 'x-api-key': secret };
  const post = (url: string, headers: Record<string, string>, payload: unknown): InjectOptions => ({ method: 'POST', url, headers, payload: payload as string });
  const newSession = async () => json<{ session_token: string }>(await service.request(post('/v1/embed/sessions', key, { origin: 'https://shop.example', ttl: 60 }))).session_token;
  const [session, expiring] = [await newSession(), await newSession()];
  const capped = json<{ session_token: string }>(await service.request(post('/v1/embed/sessions', { 'x-api-key': brief }, { origin: 'https://shop.example' }))).session_token;
  const area = { countries: ['FR'], bounds: { south: 48, west: 1, north: 51, east: 5 } };
  const areaSession = json<{ session_token: string }>(await service.request(post('/v1/embed/sessions', key, { origin: 'https://shop.example', ...area }))).session_token;
  const lookup = (code: string, headers: Record<string, string> = key): InjectOptions => ({ url: `/v1/loc/lookup/${code}`, headers });
  const suggest = (query: string, headers: Record<string, string> = key): InjectOptions => ({ url: `/v1/loc/suggest?${query}`, headers });
  const search = (query: string, headers: Record<string, string> = key): InjectOptions => ({ url: `/v1/loc/search?${query}`, headers });
  const grid = (query: string, headers: Record<string, string> = key): InjectOptions => ({ url: `/v1/loc/grid?${query}`, headers });

  const successes: [string, InjectOptions][] = [
    ['getHealth', { url: '/healthz' }],
    ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'https://shop.example', ...area })],
    ['resolvePoint', post('/v1/embed/resolve', key, { lat: 37.8591, lng: -122.4853, save: true })],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${session}` }, { lat: 37.8591, lng: -122.4853 })],
    ['generateCode', post('/v1/loc/generate', key, { latitude: 48.8584, longitude: 2.2945 })],
    ['lookupCode', lookup('US-550M-RQ5L')],
    // A code 380 km from the focus, one swap from the code there: both the exact cell and suggestions, with distances.
    ['suggestCodes', suggest('input=FR-0MRB-CLY0&focus=48.8664,2.3177')],
    ['suggestCodes', suggest('input=fr0mrbcly0&focus=48.8664,2.3177', { authorization: `Bearer ${session}` })],
    // Each kind of answer, and a session's in_area.
    ['search', search('q=lyon&focus=45.76,4.83')],
    ['search', search(`q=${encodeURIComponent('48.8584, 2.2945')}&focus=45.76,4.83`, { authorization: `Bearer ${areaSession}` })],
    ['search', search('q=FR-0MRB-CLY0&focus=48.8664,2.3177', { authorization: `Bearer ${areaSession}` })],
    // Each kind: lines (the default) with the key, cells with a session.
    ['getGrid', grid('bbox=2.2943,48.8583,2.2947,48.8585')],
    ['getGrid', grid('bbox=2.2943,48.8583,2.2947,48.8585&kind=cells', { authorization: `Bearer ${session}` })],
    ['getEmbedSession', { url: `/embed/session/${session.split('.')[0]}`, headers: { authorization: `Bearer ${session}` } }],
    // The one request the key with a limit of one may make, so that it is refused below; the same for a session.
    ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': once })],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${capped}` }, { lat: 37.8591, lng: -122.4853 })],
    ['getLiveness', { url: '/livez' }],
    // Ready once the lookups above have loaded the codec's tables and the resolves the address index.
    ['getReadiness', { url: '/readyz' }],
  ];
  const out: Answer[] = [];
  for (const [id, request] of successes) out.push(await ask(id, request));
  const etag = String(out.find(({ id }) => id === 'lookupCode')!.headers.etag);
  out.push(await ask('lookupCode', lookup('US-550M-RQ5L', { ...key, 'if-none-match': etag })));

  REFUSALS = [
    ['lookupCode', lookup('US-550M-RQ5L', {}), 'missing_api_key'],
    ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': `loc_${'A'.repeat(43)}` }), 'invalid_api_key'],
    ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': fenced }), 'ip_not_allowed'],
    ['lookupCode', lookup('US-550M-RQ5L', { ...key, origin: 'https://evil.example' }), 'origin_not_allowed'],
    ['lookupCode', lookup('not-a-code'), 'invalid_code'],
    ['lookupCode', lookup('%E0%A4%A'), 'bad_request'],
    ['lookupCode', lookup('ZZ-0000-0000'), 'code_not_found'],
    ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': once }), 'rate_limited'],
    ['suggestCodes', suggest('input=hello'), 'invalid_code'],
    ['suggestCodes', suggest('input=FR-0RMB-CLY0&focus=91,0', { authorization: `Bearer ${session}` }), 'validation_error'],
    ['suggestCodes', suggest('input=FR-0RMB-CLY0', { authorization: 'Bearer nope.nope' }), 'invalid_session'],
    ['search', search('q='), 'validation_error'],
    ['search', search('q=lyon', { authorization: 'Bearer nope.nope' }), 'invalid_session'],
    ['getGrid', grid('bbox=2.29,48.85,2.30,48.86&kind=cells'), 'validation_error'],
    ['createEmbedSession', post('/v1/embed/sessions', { 'x-api-key': plain }, { origin: 'https://shop.example' }), 'partner_required'],
    ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'https://other.example' }), 'origin_not_allowed'],
    ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'https://shop.example', ttl: 7200 }), 'validation_error'],
    ['createEmbedSession', post('/v1/embed/sessions', { ...key, 'content-type': 'application/json' }, '{'), 'invalid_json'],
    ['createEmbedSession', post('/v1/embed/sessions', { ...key, 'content-type': 'text/plain' }, 'origin'), 'unsupported_media_type'],
    ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'x'.repeat(17_000) }), 'payload_too_large'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: 'Bearer nope.nope' }, { lat: 0, lng: 0 }), 'invalid_session'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${session}` }, { lat: 0, lng: -30 }), 'unsupported_location'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${areaSession}` }, { lat: 37.8591, lng: -122.4853 }), 'outside_session_area'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${session}` }, { code: 'not-a-code' }), 'invalid_code'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${session}` }, { code: 'ZZ-0000-0000' }), 'code_not_found'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${session}` }, { code: 'US-550M-RQ5L', lat: 0 }), 'validation_error'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${capped}` }, { lat: 37.8591, lng: -122.4853 }), 'session_limit_reached'],
    ['generateCode', post('/v1/loc/generate', key, { latitude: 91, longitude: 0 }), 'validation_error'],
    ['getEmbedSession', { url: '/embed/session/unknownSid123' }, 'invalid_session'],
    ['getEmbedSession', { url: `/embed/session/${'s'.repeat(65)}` }, 'validation_error'],
    ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${expiring}` }, { lat: 0, lng: 0 }), 'session_expired'],
  ];
  for (const [id, request, code] of REFUSALS) {
    if (code === 'session_expired') service.clock.advance(60_000);
    out.push(await ask(id, request));
  }
  return out;
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3 document, without warnings', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    // The validator dereferences in place: it gets a copy.
    expect(await validate(structuredClone(doc) as never)).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
  });

  it('is checked by a validator that refuses a duplicated operationId', async () => {
    const copy = structuredClone(doc);
    copy.paths['/healthz'].get.operationId = copy.paths['/v1/loc/lookup/{code}'].get.operationId;
    const result = await validate(copy as never);
    expect(result.valid).toBe(false);
    expect(JSON.stringify(result)).toContain('is duplicated');
  });

  it('names every operation with a unique camelCase operationId', () => {
    const ids = operations(doc).map(({ at, operation }) => ({ at, id: operation.operationId }));
    expect(ids.filter(({ id }) => id === undefined || !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids.map(({ id }) => id)).size).toBe(ids.length);
  });

  it('keeps the operationIds SDKs are generated with: renaming one breaks every client', () => {
    expect(Object.fromEntries(operations(doc).map(({ at, operation }) => [at, operation.operationId]))).toEqual({
      'GET /healthz': 'getHealth',
      'GET /livez': 'getLiveness',
      'GET /readyz': 'getReadiness',
      'POST /v1/embed/sessions': 'createEmbedSession',
      'POST /v1/embed/resolve': 'resolvePoint',
      'POST /v1/loc/generate': 'generateCode',
      'GET /v1/loc/lookup/{code}': 'lookupCode',
      'GET /v1/loc/suggest': 'suggestCodes',
      'GET /v1/loc/search': 'search',
      'GET /v1/loc/grid': 'getGrid',
      'GET /embed/session/{sid}': 'getEmbedSession',
    });
  });

  it('says how each operation is called: with the key, a session token, or nothing (a token is optional for the session facts)', () => {
    expect(Object.fromEntries(operations(doc).map(({ operation }) => [operation.operationId, operation.security ?? []]))).toEqual({
      getHealth: [],
      getLiveness: [],
      getReadiness: [],
      createEmbedSession: [{ apiKey: [] }],
      resolvePoint: [{ apiKey: [] }, { sessionToken: [] }],
      generateCode: [{ apiKey: [] }],
      lookupCode: [{ apiKey: [] }],
      suggestCodes: [{ apiKey: [] }, { sessionToken: [] }],
      search: [{ apiKey: [] }, { sessionToken: [] }],
      getGrid: [{ apiKey: [] }, { sessionToken: [] }],
      getEmbedSession: [{}, { sessionToken: [] }],
    });
  });

  it('tags each operation with a name that makes a good client class (HealthService, not ServiceService)', () => {
    expect(Object.fromEntries(operations(doc).map(({ operation: op }) => [op.operationId, op.tags]))).toEqual({
      getHealth: ['health'],
      getLiveness: ['health'],
      getReadiness: ['health'],
      createEmbedSession: ['embed'],
      resolvePoint: ['embed'],
      generateCode: ['codes'],
      lookupCode: ['codes'],
      suggestCodes: ['codes'],
      search: ['codes'],
      getGrid: ['codes'],
      getEmbedSession: ['embed'],
    });
  });

  it('declares, with a description, every tag an operation uses', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    const used = new Set(operations(doc).flatMap(({ operation }) => operation.tags ?? []));
    expect([...used].filter((tag) => !declared.get(tag))).toEqual([]);
    expect([...declared.keys()].sort()).toEqual([...used].sort());
  });
});

describe('the parameters of /openapi.json', () => {
  it('offer If-None-Match on lookup, optional, so that a generated client can revalidate', () => {
    const parameters = (operation('lookupCode') as Operation & { parameters: { in: string; name: string; required?: boolean }[] }).parameters;
    expect(parameters.map(({ in: where, name, required }) => ({ where, name, required }))).toEqual([
      { where: 'path', name: 'code', required: true },
      { where: 'header', name: 'If-None-Match', required: false },
    ]);
  });
});

describe('the models of /openapi.json', () => {
  const ref = (name: string) => ({ $ref: `${SCHEMAS_PATH}${name}` });
  const body = (id: string, status?: number): Schema | undefined => {
    const op = operation(id);
    return (status === undefined ? op.requestBody : op.responses[status])?.content?.['application/json']?.schema;
  };

  it('are named under components/schemas, so that a generated client has a LookupResult type rather than a LookupCode200', () => {
    expect(Object.keys(doc.components.schemas ?? {})).toEqual([
      'CellBounds', 'EmbedSession', 'EmbedSessionFacts', 'GenerateResult', 'GridFeature', 'GridGeometry', 'GridProperties', 'GridResult', 'Health', 'Liveness', 'LookupLocation', 'LookupResult', 'MapLinks', 'Readiness', 'ResolveResult',
      'SearchCode', 'SearchCoordinates', 'SearchPlace', 'SearchResult', 'SuggestedCell', 'Suggestion', 'SuggestResult',
    ]);
    expect(Object.fromEntries(operations(doc).map(({ operation: op }) => [op.operationId, body(op.operationId!, 200)]))).toEqual({
      getHealth: ref('Health'),
      getLiveness: ref('Liveness'),
      getReadiness: ref('Readiness'),
      createEmbedSession: ref('EmbedSession'),
      resolvePoint: ref('ResolveResult'),
      generateCode: ref('GenerateResult'),
      lookupCode: ref('LookupResult'),
      suggestCodes: ref('SuggestResult'),
      search: ref('SearchResult'),
      getGrid: ref('GridResult'),
      getEmbedSession: ref('EmbedSessionFacts'),
    });
    // A request body stays in its operation: a generator reads its fields with a default (ttl, save)
    // as optional there, and as always present under components/schemas.
    expect(body('createEmbedSession')).toMatchObject({ type: 'object', properties: { ttl: { default: 900 } } });
    expect(body('createEmbedSession')!.title).toBeUndefined();
  });

  it('are shared: resolve and lookup have one CellBounds, and a model names its nested models', () => {
    const schemas = doc.components.schemas!;
    expect(schemas.ResolveResult.properties!.cell).toEqual(ref('CellBounds'));
    expect(schemas.LookupResult.properties!.cell).toEqual(ref('CellBounds'));
    expect(schemas.LookupResult.properties!.location).toEqual(ref('LookupLocation'));
    expect(schemas.LookupResult.properties!.maps).toEqual(ref('MapLinks'));
    expect(JSON.stringify(doc.paths)).not.toContain('"title"');
  });

  it('describe the real answers: each success above has exactly the fields of its model, nested ones too', () => {
    const inlined = inlineSchemaRefs(doc);
    const fieldsOf = (schema: Schema, value: unknown, at: string): string[] => {
      if (schema.type !== 'object') return [at];
      const record = value as Record<string, unknown>;
      const names = [...new Set([...Object.keys(schema.properties ?? {}), ...Object.keys(record)])].sort();
      return names.flatMap((name) => (schema.properties?.[name] && name in record ? fieldsOf(schema.properties[name], record[name], `${at}.${name}`) : [`${at}.${name} ${name in record ? 'sent, not in the model' : 'in the model, not sent'}`]));
    };
    const wrong = answers.filter(({ status }) => status === 200).flatMap(({ id, body: answer }) => {
      const schema = operations(inlined).find(({ operation }) => operation.operationId === id)!.operation.responses[200].content!['application/json'].schema;
      return fieldsOf(schema, answer, id).filter((line) => line.includes(' '));
    });
    expect(wrong).toEqual([]);
  });
});

describe('the error responses of /openapi.json', () => {
  it('type `code` as an enum of codes whose catalogue status is the response’s (for `default`, a status not declared)', () => {
    const wrong: string[] = [];
    for (const { at, operation } of operations(doc)) {
      const declared = Object.keys(operation.responses).map(Number);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$|^default$/.test(status)) continue;
        const codes = codesOf(response);
        if (codes === undefined || codes.length === 0) wrong.push(`${at} ${status}: no enum of codes`);
        for (const code of codes ?? []) {
          const catalogued = (ERROR_CATALOGUE as Record<string, { status: number | null }>)[code]?.status;
          const fits = status === 'default' ? typeof catalogued === 'number' && !declared.includes(catalogued) : catalogued === Number(status);
          if (!fits) wrong.push(`${at} ${status}: \`${code}\` has status ${catalogued}`);
        }
        // The description, which /docs shows, names the same codes (in `default`, with their statuses).
        const named = (codes ?? []).map((code) => (status === 'default' ? `${ERROR_CATALOGUE[code as ErrorCode].status} \`${code}\`` : `\`${code}\``));
        if (!named.every((name) => response.description.includes(name))) wrong.push(`${at} ${status}: the description does not name its codes`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('list each code once per operation, and in every operation the codes any route may answer', () => {
    for (const { at, operation } of operations(doc)) {
      const codes = Object.values(operation.responses).flatMap((response) => codesOf(response) ?? []);
      expect(codes.length, at).toBe(new Set(codes).size);
      expect(ANY_ROUTE_ERRORS.filter((code) => !codes.includes(code)), at).toEqual([]);
    }
  });

  it('list the codes the service really answers: each refusal below is in the enum of its status', () => {
    const refusals = answers.filter((answer) => answer.status >= 400);
    expect(refusals.map(({ id, code }) => `${id} ${code}`)).toEqual(REFUSALS.map(([id, , code]) => `${id} ${code}`));
    const undocumented = refusals.filter(({ id, status, code }) => !codesOf(documented(operation(id), status))?.includes(code!));
    expect(undocumented).toEqual([]);
  });
});

describe('the response headers of /openapi.json', () => {
  it('are those the service really sends: every header of an answer below is documented for its status, and a success carries every header documented for it', () => {
    const wrong: string[] = [];
    for (const { id, status, headers } of answers) {
      const listed = Object.keys(documented(operation(id), status).headers ?? {}).map((name) => name.toLowerCase());
      for (const name of Object.keys(headers).filter((name) => !TRANSPORT_HEADERS.has(name))) {
        if (!listed.includes(name)) wrong.push(`${id} ${status}: ${name} is sent, not documented`);
      }
      if (status < 400) for (const name of listed) if (!(name in headers)) wrong.push(`${id} ${status}: ${name} is documented, not sent`);
    }
    expect(wrong).toEqual([]);
    // The answers cover every success response the document declares.
    const covered = new Set(answers.map(({ id, status }) => `${id} ${status}`));
    const successes = operations(doc).flatMap(({ operation }) => Object.keys(operation.responses).filter((s) => /^[23]/.test(s)).map((s) => `${operation.operationId} ${s}`));
    expect(successes.filter((success) => !covered.has(success))).toEqual([]);
  });

  it('give the rate limit where the key or session was accepted: every success, no refusal of the key, and Retry-After with 429 and 503', () => {
    for (const { at, operation } of operations(doc)) {
      // A route the rate limit counts requires a credential: none of its ways in is empty.
      const authenticated = operation.security !== undefined && operation.security.every((requirement) => Object.keys(requirement).length > 0);
      for (const [status, response] of Object.entries(operation.responses)) {
        const names = Object.keys(response.headers ?? {});
        const limited = RATE_LIMIT.every((name) => names.includes(name));
        expect(limited || RATE_LIMIT.every((name) => !names.includes(name)), `${at} ${status}: all three or none`).toBe(true);
        if (!authenticated) expect(limited, `${at} ${status}`).toBe(false);
        else if (/^[23]/.test(status) || status === '429') expect(limited, `${at} ${status}`).toBe(true);
        else if (status === '401') expect(limited, `${at} ${status}: a refused key has no limit`).toBe(false);
        const retries = status === '429' || status === '503' || (status === 'default' && /503 `service_unavailable`/.test(response.description));
        expect(names.includes('Retry-After'), `${at} ${status}`).toBe(retries);
      }
    }
    expect(Object.keys(operation('lookupCode').responses['403'].headers ?? {})).toEqual(['Request-Id']);
    // Here 403 is also the body's origin, refused once the key was counted.
    expect(Object.keys(operation('createEmbedSession').responses['403'].headers ?? {})).toEqual([...RATE_LIMIT, 'Request-Id']);
  });

  it('give WWW-Authenticate on every 401, naming the ways in its operation lists, and on no other response', () => {
    const challenges: Record<string, string[]> = {};
    for (const { operation: op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const header = (response.headers as Record<string, { description: string }> | undefined)?.['WWW-Authenticate'];
        expect(header !== undefined, `${op.operationId} ${status}`).toBe(status === '401');
        if (header) challenges[op.operationId!] = ['ApiKey realm="loc", header="x-api-key"', 'Bearer realm="loc"'].filter((challenge) => header.description.includes(challenge));
      }
    }
    expect(challenges).toEqual({
      createEmbedSession: ['ApiKey realm="loc", header="x-api-key"'],
      resolvePoint: ['ApiKey realm="loc", header="x-api-key"', 'Bearer realm="loc"'],
      generateCode: ['ApiKey realm="loc", header="x-api-key"'],
      lookupCode: ['ApiKey realm="loc", header="x-api-key"'],
      suggestCodes: ['ApiKey realm="loc", header="x-api-key"', 'Bearer realm="loc"'],
      search: ['ApiKey realm="loc", header="x-api-key"', 'Bearer realm="loc"'],
      getGrid: ['ApiKey realm="loc", header="x-api-key"', 'Bearer realm="loc"'],
      getEmbedSession: ['Bearer realm="loc"'],
    });
  });
});
