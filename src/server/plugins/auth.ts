/**
 * Authentication: who is calling, checked before the body is even read. A route
 * says what it accepts in `config.auth`:
 *
 * - `key`: an API key in `x-api-key`;
 * - `partner`: an API key of a partner account (embed sessions);
 * - `key-or-session`: either, or an embed session token as `Authorization: Bearer <sid>.<secret>`.
 *
 * Keys are found by the SHA-256 of the presented secret (store/cached.ts keeps a read for a second,
 * so a change made with the CLI applies within one). Finding by hash is safe against timing: what an
 * index comparison could leak is a prefix of a hash whose input the attacker chose. A session token's
 * secret is compared with its stored hash in constant time.
 *
 * Each accepted request notes its key's use — when, the page's origin or the caller's address — which
 * the partner panel shows; written in batches (auth/key-uses.ts), never once per request.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ipMatcher } from '../../auth/ip-range.ts';
import { keyUses, type KeyUses } from '../../auth/key-uses.ts';
import { bearerToken, hashSecret, isSessionToken, looksLikeApiKey, parseSessionToken } from '../../auth/secrets.ts';
import { LocError, describeValue, type HttpErrorCode } from '../../errors.ts';
import type { ApiKey, EmbedSession } from '../../store/store.ts';

export type AuthMode = 'key' | 'partner' | 'key-or-session';

const KEY_REFUSALS: HttpErrorCode[] = ['missing_api_key', 'invalid_api_key', 'key_inactive', 'ip_not_allowed', 'origin_not_allowed'];

/**
 * The codes this hook refuses a caller with, by mode. They are answered before the rate limit counts
 * the request, so without its headers; the route schemas list them (server/responses.ts).
 */
export const AUTH_REFUSALS: Readonly<Record<AuthMode, readonly HttpErrorCode[]>> = {
  key: KEY_REFUSALS,
  partner: [...KEY_REFUSALS, 'partner_required'],
  'key-or-session': [...KEY_REFUSALS, 'invalid_session', 'session_expired', 'partner_required'],
};

/** The authenticated caller: the key whose limits apply, and the account that owns saved data. */
export interface Caller {
  via: 'key' | 'session';
  key: ApiKey;
  accountId: string;
  /** Set when the caller is an embed session. */
  session: EmbedSession | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The keys' last uses noted and not yet written (auth/key-uses.ts). */
    keyUses: KeyUses;
    /** Embed sessions created (routes/sessions.ts) and requests that came with an expired one, since the app started. */
    sessionCounts: { created: number; expired: number };
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /**
     * The key a refused request named, when auth found it and refused it for something its partner
     * can see and fix (disabled, an IP or origin not allowed): counted as the key's usage (rate-limit.ts).
     */
    refusedKey: { keyId: string; via: Caller['via'] } | null;
  }
}

/** Matchers by key, rebuilt only when the key's ranges change. */
const matchers = new Map<string, { ranges: string; allows: (ip: string) => boolean }>();

function ipAllowed(key: ApiKey, ip: string): boolean {
  if (key.ipRanges.length === 0) return true;
  const ranges = key.ipRanges.join(',');
  let entry = matchers.get(key.id);
  if (entry?.ranges !== ranges) {
    entry = { ranges, allows: ipMatcher(key.ipRanges) };
    matchers.set(key.id, entry);
  }
  return entry.allows(ip);
}

/** Why the service refuses a session it knows, whatever the token presented with it. */
export interface SessionRefusal {
  code: 'key_inactive' | 'partner_required' | 'invalid_session';
  message: string;
}

/**
 * Whether a known session still works, by what was taken away since it was made: its key disabled,
 * its account's partner status (sessions are a partner's right), its origin removed from the
 * key. The one check of auth (the session's API calls) and of the embed routes (its frame and facts).
 */
export function sessionRefusal(session: EmbedSession, key: ApiKey | null): SessionRefusal | null {
  if (!session.keyActive || key === null || key.status !== 'active') return { code: 'key_inactive', message: 'The API key that created this session is disabled.' };
  if (!session.accountPartner) return { code: 'partner_required', message: 'The account of this session is no longer a partner.' };
  if (!key.origins.includes(session.origin)) {
    return { code: 'invalid_session', message: `The origin ${session.origin} of this embed session is no longer registered for its API key; create a new session.` };
  }
  return null;
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The missing_api_key message of a route that takes a key or a session. */
const MISSING_KEY_OR_SESSION = 'Send your API key in the x-api-key header, or an embed session token as Authorization: Bearer <token>.';

export default fp(
  async (app) => {
    const ownOrigin = new URL(app.config.publicUrl).origin;
    const sessionCounts = { created: 0, expired: 0 };
    app.decorate('sessionCounts', sessionCounts);

    async function byKey(request: FastifyRequest, presented: string, mode: AuthMode): Promise<Caller> {
      if (!looksLikeApiKey(presented)) throw new LocError('invalid_api_key', 'The x-api-key header does not hold a loc API key (they start with loc_).');
      const hash = hashSecret(presented);
      const found = await app.store.findKeyByHash(hash);
      if (found === null) throw new LocError('invalid_api_key');
      const { key, account } = found;
      request.refusedKey = { keyId: key.id, via: 'key' };
      if (key.status !== 'active') throw new LocError('key_inactive', `The API key ${key.id} is disabled.`);
      if (!ipAllowed(key, request.ip)) {
        throw new LocError('ip_not_allowed', `Requests from ${request.ip} are not allowed for the API key ${key.id}.`);
      }
      // A key in a browser is a leaked key: a request that carries an Origin must come from one of the key's origins.
      const origin = single(request.headers.origin);
      if (origin !== undefined && !key.origins.includes(origin)) {
        throw new LocError('origin_not_allowed', `The origin ${describeValue(origin)} is not registered for the API key ${key.id}; keep API keys on your server.`);
      }
      if (mode === 'partner' && !account.partner) {
        throw new LocError('partner_required', `The account of the API key ${key.id} is not a partner; only partners can create embed sessions.`);
      }
      request.refusedKey = null;
      return { via: 'key', key, accountId: account.id, session: null };
    }

    async function bySession(request: FastifyRequest, token: string): Promise<Caller> {
      const parts = parseSessionToken(token);
      const session = parts === null ? null : await app.store.getSession(parts.sid);
      if (session === null || !isSessionToken(token, session)) throw new LocError('invalid_session');
      if (app.now() >= session.expiresAt) {
        sessionCounts.expired++;
        throw new LocError('session_expired', `The embed session expired at ${new Date(session.expiresAt).toISOString()}; create a new one.`);
      }
      const key = await app.store.getKey(session.keyId);
      request.refusedKey = { keyId: session.keyId, via: 'session' };
      const refusal = sessionRefusal(session, key);
      if (refusal !== null) throw new LocError(refusal.code, refusal.message);
      const origin = single(request.headers.origin);
      if (origin !== undefined && origin !== session.origin && origin !== ownOrigin) {
        throw new LocError('origin_not_allowed', `This embed session belongs to ${session.origin}, not to ${describeValue(origin)}.`);
      }
      request.refusedKey = null;
      // No refusal: the key exists (sessionRefusal refuses a missing one).
      return { via: 'session', key: key!, accountId: session.accountId, session };
    }

    const uses = keyUses(app.store, app.outages.task('could not record when keys were last used'));
    app.decorate('keyUses', uses);
    app.addHook('onClose', () => uses.close());
    /** Notes the caller's use of its key: a session's page origin, or the Origin a server call sent, if any. */
    const noteUse = (request: FastifyRequest, caller: Caller): void =>
      uses.note({ keyId: caller.key.id, at: app.now(), origin: caller.session?.origin ?? single(request.headers.origin) ?? null, ip: request.ip });

    app.decorateRequest('caller', null);
    app.decorateRequest('refusedKey', null);
    app.addHook('onRequest', async (request) => {
      const mode = request.routeOptions.config.auth;
      if (mode === undefined) return;
      const presented = single(request.headers['x-api-key']);
      if (presented !== undefined && presented !== '') {
        request.caller = await byKey(request, presented.trim(), mode);
        noteUse(request, request.caller);
        return;
      }
      const token = bearerToken(single(request.headers.authorization));
      if (mode === 'key-or-session' && token !== null) {
        request.caller = await bySession(request, token);
        noteUse(request, request.caller);
        return;
      }
      throw new LocError('missing_api_key', mode === 'key-or-session' ? MISSING_KEY_OR_SESSION : undefined);
    });
  },
  { name: 'loc-auth', fastify: '5.x', dependencies: ['loc-config', 'loc-outages', 'loc-store'] },
);
