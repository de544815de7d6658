/** Logs: one JSON line per request, and never a key or a session token, wherever the client put it. */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactLine, redactUrl } from './redact.ts';
import { json, testService } from '../../../test/support/service.ts';

describe('redactUrl', () => {
  it('redacts secret-named query parameters and secret-shaped values anywhere', () => {
    expect(redactUrl('/v1/loc/lookup/US-550M-RQ5L')).toBe('/v1/loc/lookup/US-550M-RQ5L');
    expect(redactUrl('/x?token=abc&page=2')).toBe(`/x?token=${REDACTED}&page=2`);
    expect(redactUrl('/x?api_key=abc')).toBe(`/x?api_key=${REDACTED}`);
    expect(redactUrl(`/x/loc_${'a'.repeat(43)}/y`)).toBe(`/x/${REDACTED}/y`);
    expect(redactUrl(`/x?q=${'s'.repeat(22)}.${'t'.repeat(43)}`)).toBe(`/x?q=${REDACTED}`);
    // A secret without what makes its shape: a key without loc_, a token's secret without its sid.
    expect(redactUrl(`/embed/session/${'tT'.repeat(21)}t`)).toBe(`/embed/session/${REDACTED}`);
    expect(redactUrl(`/v1/loc/lookup/${'K'.repeat(43)}?page=2`)).toBe(`/v1/loc/lookup/${REDACTED}?page=2`);
    expect(redactUrl(`/embed/frame/${'s'.repeat(22)}`)).toBe(`/embed/frame/${'s'.repeat(22)}`);
  });

  it('redacts what holds a secret once decoded, as the server reads the URL', () => {
    const key = `loc_${'K'.repeat(43)}`;
    const everyByte = (text: string): string => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    // Every few characters encoded: no run of the raw URL is secret-shaped.
    const split = key.replace(/(.{6})/g, '$1%4B').slice(0, -3);
    expect(redactUrl(`/v1/loc/lookup/${split}`)).toBe(`/v1/loc/lookup/${REDACTED}`);
    expect(redactUrl(`/v1/loc/lookup/${everyByte(key)}?page=2`)).toBe(`/v1/loc/lookup/${REDACTED}?page=2`);
    expect(redactUrl(`/x/${everyByte(everyByte(key))}`)).toBe(`/x/${REDACTED}`);
    expect(redactUrl(`/x?q=${everyByte(`${'s'.repeat(22)}.${'t'.repeat(43)}`)}&page=2`)).toBe(`/x?q=${REDACTED}&page=2`);
    expect(redactUrl(`/x?${everyByte('api_key')}=abc`)).toBe(`/x?${everyByte('api_key')}=${REDACTED}`);
    expect(redactUrl(`/x?${everyByte(key)}`)).toBe(`/x?${REDACTED}`);
    // What holds no secret is logged as it was sent, encoding and all.
    expect(redactUrl('/v1/loc/lookup/US%20550M%20RQ5L?q=%E2%80%AE')).toBe('/v1/loc/lookup/US%20550M%20RQ5L?q=%E2%80%AE');
    expect(redactUrl('/v1/loc/lookup/%E0%A4%A?q=%zz')).toBe('/v1/loc/lookup/%E0%A4%A?q=%zz');
  });
});

describe('redactLine', () => {
  it('redacts a secret in any field of a finished line, passes over JSON escapes, and keeps the line JSON', () => {
    const key = `loc_${'K'.repeat(43)}`;
    const line = `${JSON.stringify({ level: 50, reqId: 'req_9f86d081884c7d659a2feaa0', key: 'key_IrUUVrbB15gI0nd0wHKX3Q', msg: `bad key\n${key}`, err: { message: `"${'s'.repeat(22)}.${'t'.repeat(43)}"\u0000${'X'.repeat(43)}` } })}\n`;
    const redacted = redactLine(line);
    expect(JSON.parse(redacted)).toEqual({
      level: 50, reqId: 'req_9f86d081884c7d659a2feaa0', key: 'key_IrUUVrbB15gI0nd0wHKX3Q', msg: `bad key\n${REDACTED}`, err: { message: `"${REDACTED}"\u0000${REDACTED}` },
    });
    expect(redacted.endsWith('\n')).toBe(true);
  });

  it('leaves what is long but no secret readable: a lower-case host name, a digest, ids', () => {
    const line = `${JSON.stringify({ hostname: 'location-code-service-api-production-6f7d8b9c4-abcde', sha256: 'ab'.repeat(32), reqId: 'req_9f86d081884c7d659a2feaa0', key: 'key_IrUUVrbB15gI0nd0wHKX3Q', time: 1795701729303 })}\n`;
    expect(redactLine(line)).toBe(line);
  });
});

describe('request logs', () => {
  it('log each request once, with method, path, status and time, and no secret', async () => {
    const lines: string[] = [];
    const service = await testService({ LOC_LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      const { secret, key } = await service.key();
      const session = json(await service.request({
        method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example' },
      }));
      const token = session.session_token as string;
      await service.request({ method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${token}` }, payload: { lat: 1.3, lng: 103.8 } });
      await service.request({ url: `/v1/loc/lookup/US-550M-RQ5L?api_key=${secret}`, headers: { 'x-api-key': secret } });
      await service.request({ url: `/v1/embed/sessions/${token}` });
      await service.request({ url: `/v1/loc/lookup/${secret}`, headers: { 'x-api-key': secret } });

      // Percent-encoded, byte by byte: the raw URL has no secret-shaped run, the decoded one is the key.
      await service.request({ url: `/v1/loc/lookup/${[...Buffer.from(secret)].map((byte) => `%${byte.toString(16)}`).join('')}`, headers: { 'x-api-key': secret } });
      // A line that quotes a key elsewhere than in the URL, as an error's message might.
      service.app.log.error({ err: new Error(`refused ${secret}`) }, `could not use ${token}`);

      const log = lines.join('');
      expect(log).not.toContain(secret);
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.split('.')[1]);
      expect(decodeURIComponent(log)).not.toContain(secret);
      expect(lines.map((line) => JSON.parse(line)).find((entry) => entry.level === 50)).toMatchObject({ msg: `could not use ${REDACTED}`, err: { message: `refused ${REDACTED}` } });
      const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
      expect(requests).toHaveLength(6);
      expect(requests[0]).toMatchObject({ req: { method: 'POST', url: '/v1/embed/sessions', ip: '127.0.0.1' }, key: key.id, status: 200, ms: expect.any(Number) });
      // The key counted, by its id: the session's key for the session's resolve; none for a route without auth.
      expect(requests.map((entry) => entry.key)).toEqual([key.id, key.id, key.id, undefined, key.id, key.id]);
      expect(requests[5].req.url).toBe(`/v1/loc/lookup/${REDACTED}`);
      expect(requests[2].req.url).toBe(`/v1/loc/lookup/US-550M-RQ5L?api_key=${REDACTED}`);
    } finally {
      await service.close();
    }
  });
});

describe('request logs of failures', () => {
  it('name the catalogue code, so a 401 or 403 says which refusal it was; successes have none', async () => {
    const lines: string[] = [];
    const service = await testService({ LOC_LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      const { secret } = await service.key('acme', { ipRanges: ['192.0.2.0/24'] });
      await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret }, remoteAddress: '192.0.2.1' });
      await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret }, remoteAddress: '198.51.100.1' });
      await service.request({ url: '/v1/loc/lookup/US-550M-RQ5L' });
      await service.request({ url: '/v1/loc/lookup/nope', headers: { 'x-api-key': secret }, remoteAddress: '192.0.2.1' });
      await service.request({ url: '/v1/nowhere' });
      const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
      expect(requests.map((entry) => [entry.status, entry.code])).toEqual([
        [200, undefined], [403, 'ip_not_allowed'], [401, 'missing_api_key'], [400, 'invalid_code'], [404, 'not_found'],
      ]);
    } finally {
      await service.close();
    }
  });
});

describe('limit warnings', () => {
  it('say once per key and hour, at warn level, that a key reached its hourly limit', async () => {
    const lines: string[] = [];
    const service = await testService({ LOC_LOG_LEVEL: 'warn', LOC_DEFAULT_HOURLY_LIMIT: '1' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      const { secret, key } = await service.key();
      const lookup = () => service.request({ url: '/v1/loc/lookup/US-550M-RQ5L', headers: { 'x-api-key': secret } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await lookup()).statusCode);
      expect(statuses).toEqual([200, 429, 429, 429]);
      const warnings = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'hourly limit reached');
      expect(warnings()).toEqual([expect.objectContaining({ level: 40, key: key.id, limit: 1, resetSeconds: 3000 })]);
      // The next hour, the next time it runs out.
      service.clock.advance(3_000_000);
      await lookup();
      await lookup();
      expect(warnings()).toHaveLength(2);
      expect(lines.join('')).not.toContain(secret);
    } finally {
      await service.close();
    }
  });
});
