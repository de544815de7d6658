/**
 * Embed sessions: the origin rules, the ttl bounds, the partner rule, and what a session
 * token may do afterwards — until it expires (controlled clock) or its key is disabled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, testService, type TestService } from '../../../test/support/service.ts';

let service: TestService;
let secret: string;
let keyId: string;

beforeAll(async () => {
  service = await testService();
  const issued = await service.key('acme', {
    origins: ['https://shop.example', 'https://shop.example:8443', 'http://localhost:5173', 'https://localhost:8443'],
  });
  ({ secret } = issued);
  keyId = issued.key.id;
});
afterAll(() => service.close());

const createSession = (payload: Record<string, unknown>, key = secret) =>
  service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': key }, payload });

const outcome = async (origin: string): Promise<string> => {
  const response = await createSession({ origin });
  return response.statusCode === 200 ? 'ok' : `${response.statusCode} ${json(response).code}`;
};

describe('origin rules', () => {
  it('accepts registered origins exactly as registered', async () => {
    expect(await outcome('https://shop.example')).toBe('ok');
    expect(await outcome('http://localhost:5173')).toBe('ok');
    expect(await outcome('https://shop.example:8443')).toBe('ok');
  });

  it('tells localhost and 127.0.0.1 apart', async () => {
    expect(await outcome('https://localhost:8443')).toBe('ok');
    expect(await outcome('https://127.0.0.1:8443')).toBe('403 origin_not_allowed');
    // Plain http is for localhost only: 127.0.0.1 over http is not a valid embed origin at all.
    expect(await outcome('http://127.0.0.1:5173')).toBe('422 validation_error');
  });

  it('matches ports exactly', async () => {
    expect(await outcome('http://localhost:5174')).toBe('403 origin_not_allowed');
    expect(await outcome('http://localhost')).toBe('403 origin_not_allowed');
    expect(await outcome('https://shop.example:9443')).toBe('403 origin_not_allowed');
  });

  it('says which origins the key has and how one is added, beside the one it refused', async () => {
    const response = await createSession({ origin: 'http://localhost:3000' });
    expect(json(response)).toMatchObject({
      code: 'origin_not_allowed',
      field: 'origin',
      message:
        `The origin http://localhost:3000 is not registered for the API key ${keyId}; it has: https://shop.example, https://shop.example:8443, ` +
        `http://localhost:5173, https://localhost:8443. The operator adds one with "loc keys origins add ${keyId} http://localhost:3000".`,
    });
    const { secret: bare, key } = await service.key('acme', { origins: [] });
    expect(json(await createSession({ origin: 'https://shop.example' }, bare)).message).toContain(`${key.id}; it has: none.`);
  });

  it('matches schemes exactly, and refuses http for other hosts', async () => {
    expect(await outcome('https://localhost:5173')).toBe('403 origin_not_allowed');
    expect(await outcome('http://shop.example')).toBe('422 validation_error');
  });

  it('refuses a trailing slash or a path, naming the origin that was meant', async () => {
    const slash = await createSession({ origin: 'https://shop.example/' });
    expect(slash.statusCode).toBe(422);
    expect(json(slash).message).toContain('did you mean "https://shop.example"?');
    expect(await outcome('https://shop.example/checkout')).toBe('422 validation_error');
    expect(await outcome('https://shop.example?a=1')).toBe('422 validation_error');
  });

  it('refuses a wildcard origin as the key commands do: no page has one', async () => {
    expect(await outcome('https://*.example')).toBe('422 validation_error');
  });

  it('refuses hosts that differ only by subdomain or case', async () => {
    expect(await outcome('https://www.shop.example')).toBe('403 origin_not_allowed');
    expect(await outcome('https://SHOP.example')).toBe('422 validation_error');
  });

  it('refuses an origin browsers cannot match in frame-ancestors, also one the key has from older rules, and says why', async () => {
    // Stored through the store, as the key commands stored such origins before the rule.
    await service.app.store.updateKeyList(keyId, 'origins', { add: 'https://a_b.example' });
    await service.app.store.updateKeyList(keyId, 'origins', { add: 'https://[2001:db8::1]' });
    for (const [origin, why] of [['https://a_b.example', 'must not have "_" in its host name'], ['https://[2001:db8::1]', 'must not be an IPv6 address']]) {
      const response = await createSession({ origin });
      expect(response.statusCode, origin).toBe(422);
      expect(json(response)).toMatchObject({
        code: 'validation_error',
        field: 'origin',
        message: expect.stringMatching(new RegExp(`^origin ${why.replace(/[[\]]/g, '\\$&')}, received .*browsers cannot match it in the map frame's frame-ancestors`)),
      });
    }
  });

  it('wants a string origin', async () => {
    const response = await createSession({ origin: 42 });
    expect(response.statusCode).toBe(422);
    expect(json(response)).toMatchObject({ field: 'origin', message: 'origin must be a string, received 42.' });
  });
});

describe('ttl', () => {
  const expiry = async (ttl: number | undefined): Promise<number | string> => {
    const response = await createSession(ttl === undefined ? { origin: 'https://shop.example' } : { origin: 'https://shop.example', ttl });
    if (response.statusCode !== 200) return `${response.statusCode} ${json(response).code}`;
    return (Date.parse(json(response).expires_at as string) - service.clock.now()) / 1000;
  };

  it('accepts 60 and 3600, defaults to 900', async () => {
    expect(await expiry(60)).toBe(60);
    expect(await expiry(3600)).toBe(3600);
    expect(await expiry(undefined)).toBe(900);
  });

  it('refuses 59, 3601, fractions and strings', async () => {
    expect(await expiry(59)).toBe('422 validation_error');
    expect(await expiry(3601)).toBe('422 validation_error');
    expect(await expiry(60.5)).toBe('422 validation_error');
    const text = await createSession({ origin: 'https://shop.example', ttl: '900' });
    expect(json(text)).toMatchObject({ code: 'validation_error', field: 'ttl', message: 'ttl must be an integer, received "900".' });
  });

  it('writes expires_at in ISO 8601 UTC', async () => {
    const body = json(await createSession({ origin: 'https://shop.example', ttl: 60 }));
    expect(body.expires_at).toBe(new Date(service.clock.now() + 60_000).toISOString());
  });

  it('refuses unknown fields rather than ignoring them', async () => {
    const response = await createSession({ origin: 'https://shop.example', ttl_seconds: 60 });
    expect(json(response)).toMatchObject({ code: 'validation_error', field: 'ttl_seconds' });
  });
});

describe('partner rule', () => {
  it('lets only partner accounts create sessions, and sees a change of status at once', async () => {
    const { secret: key } = await service.key('reseller', { partner: false });
    expect(json(await createSession({ origin: 'https://shop.example' }, key)).code).toBe('partner_required');
    await service.app.store.setPartner('reseller', true);
    expect((await createSession({ origin: 'https://shop.example' }, key)).statusCode).toBe(200);
  });

  it('checks the key before the body', async () => {
    const { secret: key } = await service.key('outsider', { partner: false });
    expect(json(await createSession({ nonsense: true }, key)).code).toBe('partner_required');
  });
});

describe('session tokens', () => {
  const resolveWith = (token: string, origin?: string) =>
    service.request({
      method: 'POST', url: '/v1/embed/resolve',
      headers: { authorization: `Bearer ${token}`, ...(origin ? { origin } : {}) },
      payload: { lat: 37.8591, lng: -122.4853, save: false },
    });
  const newToken = async (ttl = 900, key = secret): Promise<string> =>
    json(await createSession({ origin: 'https://shop.example', ttl }, key)).session_token as string;

  it('resolve accepts the token as a Bearer credential, and only there', async () => {
    const token = await newToken();
    expect((await resolveWith(token)).statusCode).toBe(200);
    const lookup = await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { authorization: `Bearer ${token}` } });
    expect(json(lookup).code).toBe('missing_api_key');
  });

  it('stores no token: the secret part is checked, in full', async () => {
    const token = await newToken();
    const [sid, part] = token.split('.');
    const wrong = `${sid}.${part.slice(0, -1)}${part.endsWith('A') ? 'B' : 'A'}`;
    expect(json(await resolveWith(wrong)).code).toBe('invalid_session');
    expect(json(await resolveWith('garbage')).code).toBe('invalid_session');
    expect(json(await resolveWith(`${'x'.repeat(22)}.${'y'.repeat(43)}`)).code).toBe('invalid_session');
  });

  it('expires at expires_at, not a millisecond later', async () => {
    const token = await newToken(60);
    service.clock.advance(59_999);
    expect((await resolveWith(token)).statusCode).toBe(200);
    service.clock.advance(1);
    const expired = await resolveWith(token);
    expect(expired.statusCode).toBe(401);
    expect(json(expired).code).toBe('session_expired');
  });

  it('stops working when its key is disabled, and works again when enabled', async () => {
    const { key, secret: own } = await service.key('acme');
    const token = await newToken(900, own);
    await service.app.store.setKeyStatus(key.id, 'disabled');
    expect(json(await resolveWith(token)).code).toBe('key_inactive');
    await service.app.store.setKeyStatus(key.id, 'active');
    expect((await resolveWith(token)).statusCode).toBe(200);
  });

  it('stops working when its account stops being a partner, and works again when it is one again', async () => {
    const { secret: own } = await service.key('acme');
    const token = await newToken(900, own);
    await service.app.store.setPartner('acme', false);
    const refused = await resolveWith(token);
    await service.app.store.setPartner('acme', true);
    expect(refused.statusCode).toBe(403);
    expect(json(refused).code).toBe('partner_required');
    expect((await resolveWith(token)).statusCode).toBe(200);
  });

  it('stops working when its origin is removed from its key: no resolve, no frame for that origin, no facts', async () => {
    const { key, secret: own } = await service.key('acme');
    const token = await newToken(3600, own);
    const sid = token.split('.')[0];
    const frame = () => service.request({ url: `/embed/frame/${sid}` });
    const facts = () => service.request({ url: `/embed/session/${sid}` });
    expect((await resolveWith(token, 'https://shop.example')).statusCode).toBe(200);
    expect((await frame()).headers['content-security-policy']).toContain('frame-ancestors https://shop.example');

    await service.app.store.updateKeyList(key.id, 'origins', { remove: 'https://shop.example' });
    for (const response of [await resolveWith(token, 'https://shop.example'), await resolveWith(token)]) {
      expect(response.statusCode).toBe(401);
      expect(json(response)).toMatchObject({ code: 'invalid_session', message: expect.stringContaining('no longer registered') });
    }
    expect(json(await facts())).toMatchObject({ code: 'invalid_session' });
    const refused = await frame();
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    await service.app.store.updateKeyList(key.id, 'origins', { add: 'https://shop.example' });
    expect((await resolveWith(token, 'https://shop.example')).statusCode).toBe(200);
    expect((await facts()).statusCode).toBe(200);
  });

  it("is refused from a browser origin other than the session's or the service's own", async () => {
    const token = await newToken();
    expect((await resolveWith(token, 'https://shop.example')).statusCode).toBe(200);
    expect((await resolveWith(token, 'https://loc.example')).statusCode).toBe(200);
    expect(json(await resolveWith(token, 'https://evil.example')).code).toBe('origin_not_allowed');
  });

  it('exposes the session to the frame route through the store port', async () => {
    const token = await newToken(120);
    const session = await service.app.store.getSession(token.split('.')[0]);
    expect(session).toMatchObject({ origin: 'https://shop.example', keyId, keyActive: true, expiresAt: service.clock.now() + 120_000 });
  });
});
