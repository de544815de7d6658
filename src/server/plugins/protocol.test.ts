/**
 * Refusals at the HTTP level over a real socket: what Node's parser rejects, a missing Host, an
 * unknown Expect — each in the catalogue's JSON shape, never Node's empty body or Fastify's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawRequest } from '../../../test/stress/raw-http.ts';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../process/server.ts';
import { testService } from '../../../test/support/service.ts';
import { parserError } from './protocol.ts';

let dataDir: string;
let server: RunningServer;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-protocol-'));
  server = await startServer(loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' }), { print: () => {} });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const answer = async (request: RawRequest): Promise<string> => {
  const response = await rawRequest(port, request);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  // Like every response of the service (plugins/security-headers.ts), refusals before routing too.
  expect(response.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  // This server's public URL is http (the default): no HSTS, which only an https one sends.
  expect(response.headers['strict-transport-security']).toBeUndefined();
  // And a Request-Id (plugins/request-id.ts), under which the refusal is logged.
  expect(response.headers['request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  const body = JSON.parse(response.body.toString('utf8'));
  expect(body.success).toBe(false);
  expect(body.error).toBe(body.message);
  return `${response.status} ${body.code}: ${body.message}`;
};

describe('requests the HTTP parser refuses', () => {
  it('a control character in a header: 400 bad_request with the reason', async () => {
    expect(await answer({ method: 'GET', target: '/healthz', headers: [['x-api-key', 'loc_\u0001']] })).toBe(
      '400 bad_request: The request is not valid HTTP/1.1: Invalid header value char.',
    );
  });

  it('Content-Length twice, or with Transfer-Encoding: 400', async () => {
    const body = Buffer.from('{}');
    const twice: [string, string][] = [['content-type', 'application/json'], ['content-length', '2'], ['content-length', '2']];
    expect(await answer({ method: 'POST', target: '/v1/loc/generate', headers: twice, body })).toMatch(/^400 bad_request: .*Content-Length/);
    const both: [string, string][] = [['content-length', '2'], ['transfer-encoding', 'chunked']];
    expect(await answer({ method: 'POST', target: '/v1/loc/generate', headers: both, body })).toMatch(/^400 bad_request/);
  });

  it('a malformed request line: 400', async () => {
    expect(await answer({ method: 'GET', target: '/v1/loc/lookup/a b', headers: [] })).toMatch(/^400 bad_request/);
  });

  it('headers over 16 KB: 431 headers_too_large', async () => {
    expect(await answer({ method: 'GET', target: '/healthz', headers: [['cookie', 'c'.repeat(20_000)]] })).toBe(
      '431 headers_too_large: The request headers are larger than 16 KB.',
    );
  });

  it('a request that arrives too slowly: 408 request_timeout', () => {
    expect(parserError(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })).status).toBe(408);
  });
});

describe('a request whose body stalls', () => {
  it('gets 408 request_timeout once the request timeout passes, and its connection closes', async () => {
    const service = await testService({}, { requestTimeoutMs: 300 });
    try {
      const { secret } = await service.key();
      await service.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = connect((service.app.server.address() as AddressInfo).port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => void (data += chunk));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      // Authenticated, so the service waits for the body; 100 bytes announced, 15 sent.
      socket.write(`POST /v1/embed/resolve HTTP/1.1\r\nHost: x\r\nx-api-key: ${secret}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"lat":48.8584,`);
      await closed;
      expect(data).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4))).toMatchObject({ success: false, code: 'request_timeout' });
    } finally {
      await service.close();
    }
  });
});

describe('what Node would answer with an empty body', () => {
  it('an HTTP/1.1 request without Host: 400 bad_request', async () => {
    expect(await answer({ method: 'GET', target: '/healthz', headers: [], omitHost: true })).toBe(
      '400 bad_request: An HTTP/1.1 request must carry a Host header.',
    );
  });

  it('an Expect other than 100-continue: 417 expectation_failed', async () => {
    expect(await answer({ method: 'GET', target: '/healthz', headers: [['expect', 'teapot']] })).toBe(
      '417 expectation_failed: The service cannot meet Expect: "teapot"; only 100-continue is supported.',
    );
  });

  it('CONNECT: 405 method_not_allowed', async () => {
    expect(await answer({ method: 'CONNECT', target: '127.0.0.1:443', headers: [] })).toBe(
      '405 method_not_allowed: CONNECT is not supported: loc is not a proxy.',
    );
  });

  it('still serves Expect: 100-continue and a request with Host', async () => {
    const response = await rawRequest(port, { method: 'GET', target: '/healthz', headers: [['expect', '100-continue']] });
    expect(response.status).toBe(200);
  });
});
