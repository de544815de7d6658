/**
 * Secrets: API keys and embed session tokens.
 *
 * A secret is shown once and stored only as its SHA-256 hash. Secrets carry 32 random bytes, so a
 * fast hash is enough (nothing to brute-force, unlike a password) and lets the service find a key by
 * its hash with an index on every request.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomId } from '../store/ids.ts';
import type { KeyMode } from '../store/store.ts';

/** Every API key starts with this, so scanners and people recognise a leaked one. */
export const API_KEY_PREFIX = 'loc_';
/** Test keys go on with this, so that a test key in a live configuration shows at a glance. */
export const TEST_KEY_PREFIX = `${API_KEY_PREFIX}test_`;

/** Random bytes in a key or a session secret: 256 bits. */
const SECRET_BYTES = 32;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A new API key, `loc_` (a test key: `loc_test_`) + 43 base64url characters. */
export function newApiKey(mode: KeyMode = 'live'): string {
  return (mode === 'test' ? TEST_KEY_PREFIX : API_KEY_PREFIX) + randomBytes(SECRET_BYTES).toString('base64url');
}

/** Whether `text` has the shape of an API key (a cheap check before touching the store). */
export function looksLikeApiKey(text: string): boolean {
  return text.startsWith(API_KEY_PREFIX) && text.length >= 40 && text.length <= 100 && BASE64URL.test(text.slice(4));
}

/** SHA-256 of a secret, hex: what the store keeps instead of the secret. */
export function hashSecret(secret: string): string {
  // The one-shot crypto.hash (Node ≥ 20.12) makes no Hash object: 0.2 µs instead of 0.75 µs, and
  // every authenticated request hashes its key.
  return hash('sha256', secret, 'hex');
}

/** Compares two hex hashes in time independent of where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A new embed session token `<sid>.<secret>`: the sid is public (it names the frame), the secret is not. */
export function newSessionToken(): { sid: string; secret: string; token: string } {
  const sid = randomId();
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { sid, secret, token: `${sid}.${secret}` };
}

/** Splits a session token, or null when it cannot be one. */
export function parseSessionToken(token: string): { sid: string; secret: string } | null {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 200) return null;
  const sid = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (!BASE64URL.test(sid) || !BASE64URL.test(secret) || secret.length < 43) return null;
  return { sid, secret };
}

/** The token of an `Authorization: Bearer <token>` header, or null when the header is not one. */
export function bearerToken(authorization: string | undefined): string | null {
  return authorization !== undefined && /^bearer /i.test(authorization) ? authorization.slice(7).trim() : null;
}

/** Whether `token` is the session's own: its sid, and its secret compared by hash in constant time. */
export function isSessionToken(token: string, session: { sid: string; secretHash: string }): boolean {
  const parts = parseSessionToken(token);
  return parts !== null && parts.sid === session.sid && sameHash(hashSecret(parts.secret), session.secretHash);
}
