/** Every answer names its request in `Request-Id`, the id its log lines carry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService, type TestService } from '../../../test/support/service.ts';
import { newRequestId } from './request-id.ts';

const lines: string[] = [];
let service: TestService;
let apiKey: string;

beforeAll(async () => {
  service = await testService({ LOC_LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
  apiKey = (await service.key('acme')).secret;
});
afterAll(() => service.close());

const ID = /^req_[0-9a-f]{24}$/;

describe('Request-Id', () => {
  it('is random, 96 bits, and new for every request', () => {
    const ids = Array.from({ length: 2000 }, newRequestId);
    for (const id of ids) expect(id).toMatch(ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  const cases: [string, () => Record<string, unknown>, number][] = [
    ['a lookup', () => ({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': apiKey } }), 200],
    ['a refusal of the key, by a hook', () => ({ url: '/v1/loc/lookup/US-550M-RQ5L' }), 401],
    ['a refusal of the body, by its parser', () => ({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload: '{' }), 400],
    ['a path that is not valid percent-encoding, refused before routing', () => ({ url: '/a%zz/b' }), 400],
    ['an unknown route', () => ({ url: '/nothing/here' }), 404],
    ['the share page', () => ({ url: '/US-550M-RQ5L' }), 200],
  ];
  for (const [name, inject, status] of cases) {
    it(`comes with ${name}, and is the reqId of its log line`, async () => {
      lines.length = 0;
      const response = await service.request(inject());
      expect(response.statusCode).toBe(status);
      const id = response.headers['request-id'];
      expect(id).toMatch(ID);
      const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string; status?: number });
      expect(logged.filter((line) => line.msg === 'request')).toEqual([expect.objectContaining({ reqId: id, status })]);
    });
  }

  it('is not taken from the request: a client cannot write what the logs say', async () => {
    const response = await service.request({ url: '/healthz', headers: { 'request-id': 'req_forged', 'x-request-id': 'forged' } });
    expect(response.headers['request-id']).toMatch(ID);
  });

  it('is declared on every response of every operation in /openapi.json', async () => {
    const document = (await service.request({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const missing = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        Object.entries(operation.responses).filter(([, response]) => response.headers?.['Request-Id'] === undefined).map(([status]) => `${method} ${path} ${status}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
