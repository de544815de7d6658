/**
 * loc-js/testing's `loc mock` switches, against a tiny local HTTP server that records what they send
 * (the mock itself is another part's): the exact requests of the control endpoint, the statuses they
 * expect, and the mistakes they refuse before sending anything. The Playwright helpers run in a real
 * browser against the real service: e2e/testing.spec.ts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAILURE_CODES } from '../../../src/server/mock/failures.ts';
import { clearMockFailures, mockFailure, type LocMockFailureCode } from './testing.ts';

interface Received {
  method: string;
  url: string;
  type: string | undefined;
  body: string;
}

let server: Server;
let baseUrl: string;
let received: Received[];
let status: number;

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, type: request.headers['content-type'], body });
      response.writeHead(status, { 'content-type': 'application/json' }).end(status >= 400 ? '{"code":"validation_error"}' : '');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));
beforeEach(() => {
  received = [];
  status = 201;
});

describe('mockFailure and clearMockFailures', () => {
  it('POST the failure as JSON to /_mock/failures, with times and scope only when given', async () => {
    await mockFailure(baseUrl, 'rate_limited');
    await mockFailure(`${baseUrl}/`, 'network', { times: 3, scope: 'embed' });
    await mockFailure(baseUrl, 'session_expired', { scope: 'api' });
    expect(received).toEqual([
      { method: 'POST', url: '/_mock/failures', type: 'application/json', body: '{"code":"rate_limited"}' },
      { method: 'POST', url: '/_mock/failures', type: 'application/json', body: '{"code":"network","times":3,"scope":"embed"}' },
      { method: 'POST', url: '/_mock/failures', type: 'application/json', body: '{"code":"session_expired","scope":"api"}' },
    ]);
  });

  it('take every code the mock takes, and no other', async () => {
    const every: Record<LocMockFailureCode, true> = Object.fromEntries(FAILURE_CODES.map((code) => [code, true])) as Record<(typeof FAILURE_CODES)[number], true>;
    for (const code of Object.keys(every) as LocMockFailureCode[]) await mockFailure(baseUrl, code);
    expect(received.map((request) => JSON.parse(request.body).code)).toEqual([...FAILURE_CODES]);
  });

  it('DELETE /_mock/failures to switch them all off, expecting 204', async () => {
    status = 204;
    await clearMockFailures(baseUrl);
    expect(received).toEqual([{ method: 'DELETE', url: '/_mock/failures', type: undefined, body: '' }]);
  });

  it('throw with the status and body when the server does not answer as the mock does', async () => {
    status = 422;
    await expect(mockFailure(baseUrl, 'unsupported_location')).rejects.toThrow(`POST ${baseUrl}/_mock/failures answered 422, not 201: {"code":"validation_error"}`);
    status = 200;
    await expect(clearMockFailures(baseUrl)).rejects.toThrow('answered 200, not 204');
  });

  it('refuse a code, times or scope the mock does not take, sending nothing', async () => {
    await expect(mockFailure(baseUrl, 'invalid_code' as LocMockFailureCode)).rejects.toThrow(
      'mockFailure: code must be one of rate_limited, session_expired, invalid_session, key_inactive, unsupported_location, outside_session_area, network; received "invalid_code".',
    );
    await expect(mockFailure(baseUrl, 'network', { times: 0 })).rejects.toThrow('mockFailure: times must be a positive integer; received 0.');
    await expect(mockFailure(baseUrl, 'network', { times: 1.5 })).rejects.toThrow('received 1.5');
    await expect(mockFailure(baseUrl, 'network', { scope: 'page' as 'all' })).rejects.toThrow('mockFailure: scope must be one of embed, api, all; received "page".');
    expect(received).toEqual([]);
  });
});
