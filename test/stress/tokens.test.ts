/**
 * Attacks on embed session tokens (`<sid>.<secret>`, not JWTs): 1 000 tampered tokens (10 000 under
 * `npm run stress`) sent to the built server over real sockets — bits flipped in the text and in the
 * decoded bytes, truncated, extended, padded, case-changed, unicode look-alikes, the sid of one session
 * with the secret of another (of the same key and of another key), the parts swapped, JWT-shaped
 * tokens with `alg: none` — each answered 401 `invalid_session`, while the real tokens keep working
 * between them. Then, on the injected clock: an expired token is `session_expired`, and tampered
 * copies of it are `invalid_session` — expiry is told only to the holder of the secret.
 *
 * A token used from another origin is covered elsewhere: 403 `origin_not_allowed` from resolve in
 * src/server/routes/sessions.test.ts, the frame's `frame-ancestors` in src/server/routes/embed.test.ts,
 * the browser's refusal in the Playwright suite (e2e/security.spec.ts); see docs/stress.md.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, testService, type TestService } from '../support/service.ts';
import { SpawnedServer, dispose, ensureBuilt, scale, seedDataDir } from './harness.ts';
import { rawRequest } from './raw-http.ts';

const TAMPERED = scale(1_000, 10_000);
/** A request with each real token after this many tampered ones. */
const CONTROL_EVERY = 100;

const parts = (token: string): [string, string] => token.split('.') as [string, string];

/** One bit of one byte of a base64url text flipped: still well-formed, a different value. */
function flipDecodedBit(text: string, bit: number): string {
  const bytes = Buffer.from(text, 'base64url');
  bytes[Math.floor(bit / 8) % bytes.length] ^= 1 << (bit % 8);
  return bytes.toString('base64url');
}

/** A character with one bit flipped, the first bit from `start` on that keeps it printable ASCII (sendable in a header). */
function flipPrintable(code: number, start: number): string {
  for (let k = 0; k < 7; k++) {
    const flipped = code ^ (1 << ((start + k) % 7));
    if (flipped > 0x20 && flipped < 0x7f) return String.fromCharCode(flipped);
  }
  throw new Error(`no printable flip of ${code}`);
}

const LOOK_ALIKES = ['\u0430', '\u0435', '\u043e', '\uff41', '\u200b', '\u00a0', '\u2024', '\uff0e', '\u0131', '\u212a'];

/**
 * Tampered tokens made from real ones: `tokens[0]` and `tokens[1]` are sessions of one key,
 * `tokens[2]` of another key.
 */
function tampered(tokens: string[]): fc.Arbitrary<string> {
  const token = fc.constantFrom(...tokens);
  const [[sid0, secret0], [, secret1], [sid2, secret2]] = tokens.map(parts);
  const at = <T>(f: (t: string, i: number) => T) => fc.tuple(token, fc.nat()).map(([t, i]) => f(t, i % t.length));
  return fc.oneof(
    at((t, i) => t.slice(0, i) + flipPrintable(t.charCodeAt(i), i) + t.slice(i + 1)),
    fc.tuple(token, fc.nat()).map(([t, bit]) => `${parts(t)[0]}.${flipDecodedBit(parts(t)[1], bit)}`),
    fc.tuple(token, fc.nat()).map(([t, bit]) => `${flipDecodedBit(parts(t)[0], bit)}.${parts(t)[1]}`),
    at((t, i) => t.slice(0, i)),
    fc.tuple(token, fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/)).map(([t, more]) => t + more),
    fc.constantFrom(`${sid0}.${secret1}`, `${sid0}.${secret2}`, `${sid2}.${secret0}`, `${secret0}.${sid0}`, `${sid0}${secret0}`),
    fc.tuple(token, fc.constantFrom('=', '==', '.', '%3D')).map(([t, pad]) => t + pad),
    token.map((t) => t.replace('.', '=.')),
    at((t, i) => t.slice(0, i) + LOOK_ALIKES[i % LOOK_ALIKES.length] + t.slice(i + 1)),
    token.map((t) => t.toUpperCase()),
    token.map((t) => t.toLowerCase()),
    at((t, i) => (/[a-z]/i.test(t[i]) ? t.slice(0, i) + (t[i] === t[i].toLowerCase() ? t[i].toUpperCase() : t[i].toLowerCase()) + t.slice(i + 1) : `${t}x`)),
    token.map((t) => {
      const [sid] = parts(t);
      const header = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url');
      return `${header}.${Buffer.from(JSON.stringify({ sid, sub: sid })).toString('base64url')}.`;
    }),
    token.map((t) => `eyJhbGciOiJIUzI1NiJ9.${parts(t)[0]}.${parts(t)[1]}`),
    fc.constantFrom('.', '..', `${sid0}.`, `.${secret0}`, `${sid0}..${secret0}`, `${tokens[0]}.${secret0}`, encodeURIComponent(tokens[0]).replace('.', '%2E')),
  ).filter((candidate) => candidate !== '' && !tokens.includes(candidate));
}

describe('tampered session tokens against the built server', () => {
  let server: SpawnedServer;
  let dataDir: string;
  let tokens: string[];

  beforeAll(async () => {
    ensureBuilt();
    const seeded = await seedDataDir([{ account: 'acme' }, { account: 'beta', origins: ['https://other.example'] }]);
    dataDir = seeded.dataDir;
    server = await SpawnedServer.start(dataDir);
    const session = async (key: string, origin: string): Promise<string> => {
      const response = await fetch(`${server.url}/v1/embed/sessions`, {
        method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ origin, ttl: 3600 }),
      });
      return ((await response.json()) as { session_token: string }).session_token;
    };
    const [acme, beta] = seeded.keys.map((key) => key.secret);
    tokens = [await session(acme, 'https://shop.example'), await session(acme, 'https://shop.example'), await session(beta, 'https://other.example')];
  });
  afterAll(() => dispose(server, dataDir));

  /** Status and code of a resolve with this bearer token; the header carries the token's UTF-8 bytes. */
  const resolveWith = async (token: string): Promise<string> => {
    const body = Buffer.from('{"lat":48.8584,"lng":2.2945}');
    const response = await rawRequest(server.port, {
      method: 'POST', target: '/v1/embed/resolve', body,
      headers: [['authorization', `Bearer ${Buffer.from(token, 'utf8').toString('latin1')}`], ['content-type', 'application/json'], ['content-length', String(body.length)]],
    });
    return `${response.status} ${response.status === 200 ? 'ok' : JSON.parse(response.body.toString('utf8')).code}`;
  };

  it(`answers ${TAMPERED.toLocaleString('en-US')} tampered tokens 401 invalid_session, and the real ones 200 between them`, async () => {
    let sent = 0;
    let controls = 0;
    const details = await fc.check(
      fc.asyncProperty(tampered(tokens), async (token) => {
        const answer = await resolveWith(token);
        if (answer !== '401 invalid_session') throw new Error(`${JSON.stringify(token)} was answered ${answer}`);
        if (++sent % CONTROL_EVERY === 0) {
          for (const real of tokens) {
            expect(await resolveWith(real)).toBe('200 ok');
            controls++;
          }
        }
      }),
      { numRuns: TAMPERED, endOnFailure: true },
    );
    if (details.failed) throw new Error(`(fast-check seed ${details.seed}) ${(details.errorInstance as Error).message}`);
    console.log(`session tokens: ${sent} tampered tokens, all 401 invalid_session; ${controls} requests with the real tokens between them, all 200`);
    expect(sent).toBe(TAMPERED);
  }, scale(60_000, 300_000));
});

describe('an expired token and its tampered copies', () => {
  let service: TestService;
  let token: string;

  beforeAll(async () => {
    service = await testService();
    const { secret } = await service.key('acme');
    const created = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://shop.example', ttl: 60 } });
    token = json(created).session_token as string;
    service.clock.advance(60_000);
  });
  afterAll(() => service.close());

  const resolveWith = async (bearer: string): Promise<string> => {
    const response = await service.request({
      method: 'POST', url: '/v1/embed/resolve', headers: { authorization: `Bearer ${bearer}` }, payload: { lat: 48.8584, lng: 2.2945 },
    });
    return `${response.statusCode} ${json(response).code}`;
  };

  it('answers the expired token itself 401 session_expired', async () => {
    expect(await resolveWith(token)).toBe('401 session_expired');
  });

  it('answers tampered copies of it 401 invalid_session: expiry is told only to the holder of the secret', async () => {
    const [sid, secret] = parts(token);
    const copies = fc.sample(
      fc.oneof(
        fc.nat().map((bit) => `${sid}.${flipDecodedBit(secret, bit)}`),
        fc.nat({ max: secret.length - 1 }).map((n) => `${sid}.${secret.slice(0, n)}`),
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((other) => `${sid}.${other}`),
      ).filter((copy) => copy !== token),
      { numRuns: 200 },
    );
    for (const copy of copies) expect(await resolveWith(copy), copy).toBe('401 invalid_session');
  });
});
