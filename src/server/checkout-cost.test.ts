/**
 * docs/quickstart.md, held to the service: its session endpoint and the page's call of it are the
 * example's own code (which the example shop's suite runs), every integrator doc calls that endpoint
 * and reads its answer as the example does, and "what
 * one checkout costs" is what the budgets count — a session and a lookup from the key's hourly budget,
 * a preview and a confirm from the session's and the key's embed budget, nothing from the loader's
 * session check.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, testService, type TestService } from '../../test/support/service.ts';

const QUICKSTART = readFileSync(new URL('../../docs/quickstart.md', import.meta.url), 'utf8');
const EXAMPLE_SERVER = readFileSync(new URL('../../examples/checkout/server.mjs', import.meta.url), 'utf8');
const EXAMPLE_PAGE = readFileSync(new URL('../../examples/checkout/public/checkout.js', import.meta.url), 'utf8');
const INTEGRATOR_DOCS = ['docs/quickstart.md', 'docs/embed.md', 'docs/testing-your-integration.md', 'docs/mock.md', 'packages/loc-js/README.md'];

const ORIGIN = 'https://shop.example';
const EIFFEL = { lat: 48.85837, lng: 2.29448 };

let service: TestService;
beforeAll(async () => {
  service = await testService();
});
afterAll(() => service.close());

const remaining = (response: { headers: Record<string, unknown> }) => Number(response.headers['ratelimit-remaining']);

describe('docs/quickstart.md', () => {
  it('shows the example server’s session endpoint as it is in examples/checkout/server.mjs', () => {
    const shown = /```js\n(\/\*\* POST \/v1\/embed\/sessions[\s\S]*?\n)```/.exec(QUICKSTART)?.[1];
    expect(shown).toBeDefined();
    expect(EXAMPLE_SERVER).toContain(shown);
  });

  it('shows the page asking for a session token as examples/checkout/public/checkout.js does', () => {
    const shown = /```js\n(async function getSessionToken\(\) \{[\s\S]*?\n\})\n/.exec(QUICKSTART)?.[1];
    expect(shown).toBeDefined();
    expect(EXAMPLE_PAGE).toContain(shown);
  });

  it('has every integrator doc call the shop’s session endpoint as the example does, and read sessionToken from it', () => {
    const endpoint = /^ +if \(request\.method === 'POST' && request\.url === '([^']+)'\)/m.exec(EXAMPLE_SERVER)?.[1];
    expect(endpoint).toBe('/api/loc-session');
    const calls = INTEGRATOR_DOCS.flatMap((doc) => {
      const text = readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8');
      return [...text.matchAll(/fetch\('([^']*session[^']*)'[^\n]*(?:\n[^\n]*){0,2}/g)].map(([call, path]) => ({ doc, path, reads: /\.(session_token|sessionToken)\b/.exec(call)?.[1] }));
    });
    expect(calls.map(({ doc }) => doc)).toEqual(['docs/quickstart.md', 'docs/embed.md', 'docs/embed.md', 'packages/loc-js/README.md']);
    expect(calls.filter(({ path, reads }) => path !== endpoint || reads !== 'sessionToken')).toEqual([]);
  });

  it('states the default budgets the service has', () => {
    expect(service.config).toMatchObject({ defaultHourlyLimit: 1000, defaultEmbedHourlyLimit: 10_000, defaultSessionLimit: 500 });
    expect(QUICKSTART).toMatch(/\| 1 000 an hour \|/);
    expect(QUICKSTART).toMatch(/\| 500 per session; 10 000 an hour for all sessions \|/);
  });

  it('counts one checkout as the table says: two calls of the key, one per preview and one per confirm of the map, none for the session check', async () => {
    // An embed budget smaller than the session's, so that the map's calls show the embed budget.
    const { secret } = await service.key('quickstart', { embedHourlyLimit: 100 });
    const withKey = { 'x-api-key': secret };

    const session = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: withKey, payload: { origin: ORIGIN } });
    expect(session.statusCode).toBe(200);
    expect(remaining(session)).toBe(1000 - 1);
    const token = json<{ session_token: string }>(session).session_token;
    const bearer = { authorization: `Bearer ${token}` };

    const check = await service.request({ url: `/embed/session/${token.split('.')[0]}`, headers: { ...bearer, origin: ORIGIN } });
    expect(check.statusCode).toBe(200);

    const preview = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { ...bearer, origin: ORIGIN }, payload: { ...EIFFEL, save: false } });
    expect(preview.statusCode).toBe(200);
    expect(remaining(preview)).toBe(100 - 1);
    const confirm = await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { ...bearer, origin: ORIGIN }, payload: { ...EIFFEL, save: true } });
    expect(confirm.statusCode).toBe(200);
    expect(remaining(confirm)).toBe(100 - 2);

    const code = json<{ loc_code: string }>(confirm).loc_code;
    const lookup = await service.request({ url: `/v1/loc/lookup/${code}`, headers: withKey });
    expect(lookup.statusCode).toBe(200);
    // The map's two calls took nothing from the key's own budget.
    expect(remaining(lookup)).toBe(1000 - 2);
  });
});
