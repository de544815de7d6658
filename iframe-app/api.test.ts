import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmbedFailure, codeOf, resolvePoint, sessionInfo } from './api.ts';

const API = 'https://loc.example';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

afterEach(() => vi.unstubAllGlobals());

async function failureOf(response: Response | Error): Promise<EmbedFailure> {
  vi.stubGlobal('fetch', vi.fn(async () => (response instanceof Error ? Promise.reject(response) : response)));
  return resolvePoint(API, 's.t', { lat: 1, lng: 2 }, false).then(
    () => expect.unreachable('resolved'),
    (error: EmbedFailure) => error,
  );
}

describe('the frame’s API client', () => {
  it('resolves a point with the session token and the save flag', async () => {
    const fetchMock = vi.fn(async () => json(200, { success: true, loc_code: 'FR-0RMB-CQXT' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(resolvePoint(API, 'sid.secret', { lat: 48.8, lng: 2.3 }, true)).resolves.toMatchObject({ loc_code: 'FR-0RMB-CQXT' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`${API}/v1/embed/resolve`);
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('omit');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer sid.secret');
    // The address in the frame's language, where the service's geocoder has it.
    expect(new Headers(init.headers).get('accept-language')).toBe('en');
    expect(JSON.parse(init.body as string)).toEqual({ lat: 48.8, lng: 2.3, save: true });
  });

  it('keeps the service’s own codes and messages', async () => {
    const expired = await failureOf(json(401, { success: false, code: 'session_expired', message: 'The embed session has expired.' }));
    expect(expired.toJSON()).toEqual({ code: 'session_expired', message: 'The embed session has expired.', recoverable: false });
    const outside = await failureOf(json(422, { success: false, code: 'unsupported_location', message: 'Open sea.' }));
    expect(outside.toJSON()).toEqual({ code: 'unsupported_location', message: 'Open sea.', recoverable: true });
    const area = await failureOf(json(422, { success: false, code: 'outside_session_area', message: 'The point is in Germany (DE) …' }));
    expect(area.toJSON()).toEqual({ code: 'outside_session_area', message: 'The point is in Germany (DE) …', recoverable: true });
  });

  it('passes on how long a rate limit lasts', async () => {
    const limited = await failureOf(json(429, { success: false, code: 'rate_limited', message: 'Slow down.' }, { 'retry-after': '120' }));
    expect(limited.toJSON()).toEqual({ code: 'rate_limited', message: 'Slow down.', recoverable: true, retryAfter: 120 });
  });

  it('reports network when the service cannot be reached', async () => {
    const failure = await failureOf(new TypeError('Failed to fetch'));
    expect(failure.toJSON()).toMatchObject({ code: 'network', recoverable: true });
    expect(failure.message).toContain('Failed to fetch');
  });

  it('says so when the frame is not on the service’s public URL, the usual reason a running service “cannot be reached”', async () => {
    vi.stubGlobal('location', { origin: API });
    expect((await failureOf(new TypeError('Failed to fetch'))).message).toBe('The service could not be reached (Failed to fetch).');
    // <script src="http://127.0.0.1:8080/embed/loc-embed.js"> with the service's public URL on localhost.
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:8080' });
    expect((await failureOf(new TypeError('Failed to fetch'))).message).toBe(
      `The service could not be reached (Failed to fetch). This map was loaded from http://127.0.0.1:8080, but the service's public URL (LOC_PUBLIC_URL) is ${API}: ` +
        `load loc-embed.js from ${API}, or set LOC_PUBLIC_URL to http://127.0.0.1:8080.`,
    );
  });

  it('gives a stable code to answers it does not know', async () => {
    expect((await failureOf(new Response('<h1>Bad gateway</h1>', { status: 502 }))).code).toBe('service_unavailable');
    expect((await failureOf(json(422, { success: false, code: 'validation_error', message: 'lat' }))).code).toBe('internal_error');
    expect(codeOf(401, undefined)).toBe('invalid_session');
    expect(codeOf(429, 'something_new')).toBe('rate_limited');
    expect(codeOf(403, 'key_inactive')).toBe('key_inactive');
    expect(codeOf(403, 'partner_required')).toBe('partner_required');
  });

  it('lets an abort through as an abort', async () => {
    const abort = new DOMException('aborted', 'AbortError');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(abort)));
    await expect(resolvePoint(API, 's.t', { lat: 1, lng: 2 }, false)).rejects.toBe(abort);
  });

  it('reads a session’s public record, sending the token for the service to check, and the service’s clock from its Date', async () => {
    const fetchMock = vi.fn(async () => json(200, { origin: 'https://shop.example', expires_at: '2030-01-01T00:00:00Z' }, { date: 'Mon, 31 Dec 2029 23:59:00 GMT' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(sessionInfo(API, 'sid_9.secret')).resolves.toEqual({
      body: { origin: 'https://shop.example', expires_at: '2030-01-01T00:00:00Z' },
      serviceNow: Date.parse('2029-12-31T23:59:00Z'),
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`${API}/embed/session/sid_9`);
    expect(init.headers).toEqual({ authorization: 'Bearer sid_9.secret' });
  });
});
