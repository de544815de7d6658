/**
 * API-key authentication: key lookup, disabled keys, IP ranges (IPv4, IPv6, IPv4-mapped), which
 * address counts as the client's (X-Forwarded-For only behind a named proxy), and keys in browsers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, testService, type TestService } from '../../../test/support/service.ts';

const LOOKUP = '/v1/loc/lookup/US-550M-RQ5L';

describe('API keys', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await testService();
  });
  afterAll(() => service.close());

  const code = async (headers: Record<string, string>, remoteAddress?: string): Promise<string | number> => {
    const response = await service.request({ url: LOOKUP, headers, ...(remoteAddress ? { remoteAddress } : {}) });
    return response.statusCode === 200 ? 200 : (json(response).code as string);
  };

  it('accepts a valid key, with or without surrounding spaces', async () => {
    const { secret } = await service.key();
    expect(await code({ 'x-api-key': secret })).toBe(200);
    expect(await code({ 'x-api-key': ` ${secret} ` })).toBe(200);
  });

  it('refuses what is not a loc key, and a loc key it does not know', async () => {
    expect(await code({ 'x-api-key': 'sk_live_123' })).toBe('invalid_api_key');
    expect(await code({ 'x-api-key': `loc_${'x'.repeat(43)}` })).toBe('invalid_api_key');
    expect(await code({ 'x-api-key': '' })).toBe('missing_api_key');
  });

  it('does not take the key from Authorization on key-only routes', async () => {
    const { secret } = await service.key();
    expect(await code({ authorization: `Bearer ${secret}` })).toBe('missing_api_key');
  });

  it('refuses a disabled key from the next request on, and accepts it again when enabled', async () => {
    const { key, secret } = await service.key();
    expect(await code({ 'x-api-key': secret })).toBe(200);
    await service.app.store.setKeyStatus(key.id, 'disabled');
    expect(await code({ 'x-api-key': secret })).toBe('key_inactive');
    await service.app.store.setKeyStatus(key.id, 'active');
    expect(await code({ 'x-api-key': secret })).toBe(200);
  });

  it('restricts a key to IPv4 ranges', async () => {
    const { secret } = await service.key('acme', { ipRanges: ['198.51.100.0/24', '192.0.2.7'] });
    expect(await code({ 'x-api-key': secret }, '198.51.100.200')).toBe(200);
    expect(await code({ 'x-api-key': secret }, '192.0.2.7')).toBe(200);
    expect(await code({ 'x-api-key': secret }, '192.0.2.8')).toBe('ip_not_allowed');
    expect(await code({ 'x-api-key': secret }, '198.51.101.1')).toBe('ip_not_allowed');
  });

  it('matches IPv4 clients seen as IPv4-mapped IPv6', async () => {
    const { secret } = await service.key('acme', { ipRanges: ['198.51.100.0/24'] });
    expect(await code({ 'x-api-key': secret }, '::ffff:198.51.100.9')).toBe(200);
    expect(await code({ 'x-api-key': secret }, '::ffff:198.51.101.9')).toBe('ip_not_allowed');
  });

  it('restricts a key to IPv6 ranges', async () => {
    const { secret } = await service.key('acme', { ipRanges: ['2001:db8:42::/48'] });
    expect(await code({ 'x-api-key': secret }, '2001:db8:42:1::5')).toBe(200);
    expect(await code({ 'x-api-key': secret }, '2001:db8:43::5')).toBe('ip_not_allowed');
    expect(await code({ 'x-api-key': secret }, '198.51.100.9')).toBe('ip_not_allowed');
  });

  it('applies range changes to the next request', async () => {
    const { key, secret } = await service.key('acme', { ipRanges: ['10.0.0.0/8'] });
    expect(await code({ 'x-api-key': secret }, '172.16.0.1')).toBe('ip_not_allowed');
    await service.app.store.updateKeyList(key.id, 'ipRanges', { add: '172.16.0.0/12' });
    expect(await code({ 'x-api-key': secret }, '172.16.0.1')).toBe(200);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const { secret } = await service.key('acme', { ipRanges: ['198.51.100.0/24'] });
    expect(await code({ 'x-api-key': secret, 'x-forwarded-for': '198.51.100.1' }, '203.0.113.5')).toBe('ip_not_allowed');
  });

  it('refuses a key sent from a browser page whose origin the key does not list', async () => {
    const { secret } = await service.key('acme', { origins: ['https://shop.example'] });
    expect(await code({ 'x-api-key': secret, origin: 'https://shop.example' })).toBe(200);
    expect(await code({ 'x-api-key': secret, origin: 'https://evil.example' })).toBe('origin_not_allowed');
  });
});

describe('behind a trusted proxy', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await testService({ LOC_TRUST_PROXY: '10.0.0.1' });
  });
  afterAll(() => service.close());

  it('takes the client address from X-Forwarded-For sent by the named proxy only', async () => {
    const { secret } = await service.key('acme', { ipRanges: ['198.51.100.0/24'] });
    const via = async (remoteAddress: string, forwarded: string) =>
      (await service.request({ url: LOOKUP, remoteAddress, headers: { 'x-api-key': secret, 'x-forwarded-for': forwarded } })).statusCode;
    expect(await via('10.0.0.1', '198.51.100.1')).toBe(200);
    expect(await via('10.0.0.1', '203.0.113.5')).toBe(403);
    // Another host claiming to forward is not believed: its own address counts.
    expect(await via('10.0.0.2', '198.51.100.1')).toBe(403);
  });

  it('takes the proxy\'s own address when what it forwards is not an IP address, for the ranges and the last use', async () => {
    const { key, secret } = await service.key('acme', { ipRanges: ['198.51.100.0/24'] });
    const via = (forwarded: string, remoteAddress = '10.0.0.1') =>
      service.request({ url: LOOKUP, remoteAddress, headers: { 'x-api-key': secret, 'x-forwarded-for': forwarded } });
    for (const forwarded of ['\u001b[31mnot-an-ip', '198.51.100.1, <b>', '0x7f.1', 'unknown']) {
      const response = await via(forwarded);
      expect(response.statusCode, forwarded).toBe(403);
      expect(json(response).message, forwarded).toBe(`Requests from 10.0.0.1 are not allowed for the API key ${key.id}.`);
    }
    const { key: open, secret: openSecret } = await service.key('acme');
    const used = await service.request({ url: LOOKUP, remoteAddress: '10.0.0.1', headers: { 'x-api-key': openSecret, 'x-forwarded-for': 'evil\u202eexample' } });
    expect(used.statusCode).toBe(200);
    await service.app.keyUses.flush();
    expect((await service.app.store.panel.keyUses(open.accountId)).find((use) => use.keyId === open.id)?.ip).toBe('10.0.0.1');
  });
});

describe('WWW-Authenticate on every 401', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await testService();
  });
  afterAll(() => service.close());

  const KEY = 'ApiKey realm="loc", header="x-api-key"';
  const BEARER = 'Bearer realm="loc"';
  const REFUSED = `${BEARER}, error="invalid_token"`;

  /** Status, code and challenge of a request. */
  const challenge = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}): Promise<string> => {
    const response = await service.request({ method, url, headers, ...(method === 'POST' ? { payload: { lat: 1.3, lng: 103.8 } } : {}) });
    return `${response.statusCode} ${json(response).code} ${response.headers['www-authenticate']}`;
  };

  it('names the key on routes that take a key, whatever the refusal', async () => {
    const { key, secret } = await service.key();
    expect(await challenge('GET', LOOKUP)).toBe(`401 missing_api_key ${KEY}`);
    expect(await challenge('GET', LOOKUP, { 'x-api-key': 'sk_live_123' })).toBe(`401 invalid_api_key ${KEY}`);
    expect(await challenge('GET', LOOKUP, { authorization: 'Bearer x.y' })).toBe(`401 missing_api_key ${KEY}`);
    expect(await challenge('POST', '/v1/embed/sessions', {})).toBe(`401 missing_api_key ${KEY}`);
    await service.app.store.setKeyStatus(key.id, 'disabled');
    expect(await challenge('GET', LOOKUP, { 'x-api-key': secret })).toBe(`401 key_inactive ${KEY}`);
  });

  it('names both ways in where a session token is accepted too, and says when the token sent was refused (RFC 6750)', async () => {
    const { key, secret } = await service.key();
    const token = json(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' } })).session_token as string;
    const resolve = (headers: Record<string, string>) => challenge('POST', '/v1/embed/resolve', headers);
    expect(await resolve({})).toBe(`401 missing_api_key ${KEY}, ${BEARER}`);
    expect(await resolve({ 'x-api-key': 'sk_live_123' })).toBe(`401 invalid_api_key ${KEY}, ${BEARER}`);
    // The key is what counts when both are sent: it was refused, not the token.
    expect(await resolve({ 'x-api-key': 'sk_live_123', authorization: `Bearer ${token}` })).toBe(`401 invalid_api_key ${KEY}, ${BEARER}`);
    expect(await resolve({ authorization: 'Bearer nope.nope' })).toBe(`401 invalid_session ${KEY}, ${REFUSED}`);
    await service.app.store.setKeyStatus(key.id, 'disabled');
    expect(await resolve({ authorization: `Bearer ${token}` })).toBe(`401 key_inactive ${KEY}, ${REFUSED}`);
    await service.app.store.setKeyStatus(key.id, 'active');
    service.clock.advance(3_600_000);
    expect(await resolve({ authorization: `Bearer ${token}` })).toBe(`401 session_expired ${KEY}, ${REFUSED}`);
  });

  it('names the session token on the session facts, where it is optional', async () => {
    const { secret } = await service.key();
    const token = json(await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' } })).session_token as string;
    const [sid] = token.split('.');
    expect(await challenge('GET', '/embed/session/unknownSid123')).toBe(`401 invalid_session ${BEARER}`);
    expect(await challenge('GET', `/embed/session/${sid}`, { authorization: `Bearer ${sid}.wrong` })).toBe(`401 invalid_session ${REFUSED}`);
    expect((await service.request({ url: `/embed/session/${sid}` })).headers['www-authenticate']).toBeUndefined();
  });

  it('is sent with no other status', async () => {
    const { secret } = await service.key('acme', { ipRanges: ['192.0.2.0/24'] });
    for (const response of [
      await service.request({ url: LOOKUP, headers: { 'x-api-key': secret }, remoteAddress: '192.0.2.1' }),
      await service.request({ url: LOOKUP, headers: { 'x-api-key': secret }, remoteAddress: '198.51.100.1' }),
      await service.request({ url: '/v1/loc/lookup/nope', headers: { 'x-api-key': secret }, remoteAddress: '192.0.2.1' }),
    ]) expect(response.headers['www-authenticate'], String(response.statusCode)).toBeUndefined();
  });
});
