/**
 * Every answer of the service — pages, API results, refusals at every stage, files — carries
 * `X-Content-Type-Options: nosniff`, a referrer policy and, when the public URL is https,
 * `Strict-Transport-Security`, on the real app and over real HTTP.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, testService, type TestService } from '../../../test/support/service.ts';

let service: TestService;
let apiKey: string;
let sid: string;

beforeAll(async () => {
  service = await testService();
  apiKey = (await service.key('acme')).secret;
  const session = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': apiKey }, payload: { origin: 'https://shop.example' } });
  sid = (json(session).session_token as string).split('.')[0];
});
afterAll(() => service.close());

describe('security headers', () => {
  const cases: [string, () => Record<string, unknown>][] = [
    ['the share page', () => ({ url: '/US-550M-RQ5L' })],
    ['a loose code redirected', () => ({ url: '/us550mrq5l/' })],
    ['the 404 page', () => ({ url: '/%3Cb%3Enot-a-code' })],
    ['the docs page', () => ({ url: '/docs' })],
    ['the OpenAPI document', () => ({ url: '/openapi.json' })],
    ['/healthz', () => ({ url: '/healthz' })],
    ['a lookup', () => ({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': apiKey } })],
    ['a missing key', () => ({ url: '/v1/loc/lookup/US-550M-RQ5L' })],
    ['an invalid key', () => ({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': `loc_${'x'.repeat(43)}` } })],
    ['a malformed code', () => ({ url: '/v1/loc/lookup/%3Cscript%3E', headers: { 'x-api-key': apiKey } })],
    ['a bad body', () => ({ method: 'POST', url: '/v1/loc/generate', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload: '{' })],
    ['an unknown route echoing its path', () => ({ url: '/x/%3Cscript%3Ealert(1)%3C%2Fscript%3E' })],
    ['a path that is not valid percent-encoding', () => ({ url: '/a%zz/b' })],
    ['the frame page', () => ({ url: `/embed/frame/${sid}` })],
    ['an unknown frame', () => ({ url: '/embed/frame/nope' })],
    ['the session facts', () => ({ url: `/embed/session/${sid}` })],
    ['the loader', () => ({ url: '/embed/loc-embed.js' })],
    ['the icon', () => ({ url: '/favicon.svg' })],
    ['a panel page', () => ({ url: '/panel/sign-in' })],
  ];
  for (const [name, inject] of cases) {
    it(`${name}: nosniff, a referrer policy, HSTS`, async () => {
      const response = await service.request(inject());
      expect(response.headers['x-content-type-options'], name).toBe('nosniff');
      if (name !== 'a panel page') expect(response.headers['referrer-policy'], name).toBe('no-referrer');
      // The test service's public URL is https: a year, without preload or subdomains.
      expect(response.headers['strict-transport-security'], name).toBe('max-age=31536000');
    });
  }

  it('also on the refusals Node sends before routing', async () => {
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as AddressInfo;
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const request = httpRequest({ port, host: '127.0.0.1', path: '/healthz', headers: { expect: 'teapot' } }, (response) => {
        response.resume();
        resolve(response.headers);
      });
      request.on('error', reject);
      request.end();
    });
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('never says Strict-Transport-Security when the public URL is http', async () => {
    const plain = await testService({ LOC_PUBLIC_URL: 'http://localhost:8080' });
    try {
      for (const url of ['/healthz', '/panel/sign-in', '/v1/loc/lookup/US-550M-RQ5L', '/a%zz/b']) {
        const response = await plain.request({ url });
        expect(response.headers['x-content-type-options'], url).toBe('nosniff');
        expect(response.headers['strict-transport-security'], url).toBeUndefined();
      }
    } finally {
      await plain.close();
    }
  });
});
