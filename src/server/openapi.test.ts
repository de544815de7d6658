/**
 * /openapi.json as a client generator reads it: a valid OpenAPI 3 document (checked by a real
 * validator), every operation named by a stable, unique operationId, every tag declared, and each
 * error response's `code` the enum of the catalogue codes of its status — those the service really
 * answers.
 */
import { validate } from '@readme/openapi-parser';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.ts';
import { ANY_ROUTE_ERRORS } from './responses.ts';
import { json, testService, type TestService } from './testing.ts';

interface Response {
  description: string;
  content?: Record<string, { schema: { properties?: { code?: { type?: string; enum?: string[] } } } }>;
}

interface Operation {
  operationId?: string;
  tags?: string[];
  responses: Record<string, Response>;
}

interface Document {
  openapi: string;
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let service: TestService;
let doc: Document;

beforeAll(async () => {
  service = await testService();
  doc = json<Document>(await service.request({ url: '/openapi.json' }));
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
      'POST /v1/embed/sessions': 'createEmbedSession',
      'POST /v1/embed/resolve': 'resolvePoint',
      'POST /v1/loc/generate': 'generateCode',
      'GET /v1/loc/lookup/{code}': 'lookupCode',
      'GET /embed/session/{sid}': 'getEmbedSession',
    });
  });

  it('declares, with a description, every tag an operation uses', () => {
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    const used = new Set(operations(doc).flatMap(({ operation }) => operation.tags ?? []));
    expect([...used].filter((tag) => !declared.get(tag))).toEqual([]);
    expect([...declared.keys()].sort()).toEqual([...used].sort());
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

  it('list the codes the service really answers: each refusal below is in the enum of its status', async () => {
    const { secret } = await service.key('acme');
    const { secret: plain } = await service.key('plain', { partner: false });
    const { secret: fenced } = await service.key('acme', { ipRanges: ['203.0.113.0/24'] });
    const { secret: once } = await service.key('acme', { hourlyLimit: 1 });
    const session = json<{ session_token: string }>(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', ttl: 60 } }));
    const key = { 'x-api-key': secret };
    const lookup = (code: string, headers: Record<string, string> = key): InjectOptions => ({ url: `/v1/loc/lookup/${code}`, headers });
    const post = (url: string, headers: Record<string, string>, payload: unknown): InjectOptions => ({ method: 'POST', url, headers, payload: payload as string });
    const cases: [string, InjectOptions, ErrorCode][] = [
      ['lookupCode', lookup('US-550M-RQ5L', {}), 'missing_api_key'],
      ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': `loc_${'A'.repeat(43)}` }), 'invalid_api_key'],
      ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': fenced }), 'ip_not_allowed'],
      ['lookupCode', lookup('US-550M-RQ5L', { ...key, origin: 'https://evil.example' }), 'origin_not_allowed'],
      ['lookupCode', lookup('not-a-code'), 'invalid_code'],
      ['lookupCode', lookup('%E0%A4%A'), 'invalid_code'],
      ['lookupCode', lookup('ZZ-0000-0000'), 'code_not_found'],
      ['lookupCode', lookup('US-550M-RQ5L', { 'x-api-key': once }), 'rate_limited'],
      ['createEmbedSession', post('/v1/embed/sessions', { 'x-api-key': plain }, { origin: 'https://shop.example' }), 'partner_required'],
      ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'https://other.example' }), 'origin_not_allowed'],
      ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'https://shop.example', ttl: 7200 }), 'validation_error'],
      ['createEmbedSession', post('/v1/embed/sessions', { ...key, 'content-type': 'application/json' }, '{'), 'invalid_json'],
      ['createEmbedSession', post('/v1/embed/sessions', { ...key, 'content-type': 'text/plain' }, 'origin'), 'unsupported_media_type'],
      ['createEmbedSession', post('/v1/embed/sessions', key, { origin: 'x'.repeat(17_000) }), 'payload_too_large'],
      ['resolvePoint', post('/v1/embed/resolve', { authorization: 'Bearer nope.nope' }, { lat: 0, lng: 0 }), 'invalid_session'],
      ['resolvePoint', post('/v1/embed/resolve', { authorization: `Bearer ${session.session_token}` }, { lat: 0, lng: -30 }), 'unsupported_location'],
      ['generateCode', post('/v1/loc/generate', key, { latitude: 91, longitude: 0 }), 'validation_error'],
      ['getEmbedSession', { url: '/embed/session/unknownSid123' }, 'invalid_session'],
      ['getEmbedSession', { url: `/embed/session/${'s'.repeat(65)}` }, 'validation_error'],
    ];
    // The one request the key with a limit of one may make, so that the case above is refused.
    expect((await service.request(lookup('US-550M-RQ5L', { 'x-api-key': once }))).statusCode).toBe(200);
    const answered: string[] = [];
    const undocumented: string[] = [];
    for (const [id, request, expected] of cases) {
      const response = await service.request(request);
      const { code } = json<{ code: string }>(response);
      answered.push(`${id} ${code}`);
      if (!codesOf(documented(operation(id), response.statusCode))?.includes(code)) undocumented.push(`${id} ${response.statusCode} ${code}`);
    }
    expect(answered).toEqual(cases.map(([id, , code]) => `${id} ${code}`));
    expect(undocumented).toEqual([]);
  });
});
