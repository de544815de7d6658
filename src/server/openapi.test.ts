/**
 * /openapi.json as a client generator reads it: a valid OpenAPI 3 document (checked by a real
 * validator), every operation named by a stable, unique operationId, every tag declared.
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, testService, type TestService } from './testing.ts';

interface Operation {
  operationId?: string;
  tags?: string[];
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
