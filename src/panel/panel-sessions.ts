/**
 * Panel sessions: a signed-in browser holds a random token in one cookie; the store keeps its hash,
 * the user, and when the user last proved who they are.
 *
 * The cookie is isolated from everything else on the service's origin — the embed frame, the share
 * pages, /docs — as far as a cookie can be: `HttpOnly` (no script reads it), `SameSite=Strict` (no
 * request from another site carries it, and a frame on a partner's page is another site), `Path=/panel`
 * (no other route receives it), `Secure` when the public URL is https. A sign-in always makes a new
 * token, whatever cookie the browser came with, so a token planted before sign-in is worth nothing.
 *
 * Changes are protected from cross-site requests twice: the cookie is Strict, and each form carries a
 * token derived from the session's (`csrfToken`), which a page of another origin cannot know.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../auth/secrets.ts';
import { HOUR_MS } from '../durations.ts';
import type { PanelSession, User } from '../store/panel-store.ts';
import type { Store } from '../store/store.ts';

/** The cookie's name and the path it is scoped to. */
export const PANEL_COOKIE = 'loc_panel';
export const PANEL_PATH = '/panel';

/** A sign-in lasts a working day, then the user signs in again, wherever they are. */
export const SESSION_LIFETIME_MS = 12 * HOUR_MS;
/**
 * Creating, rotating, disabling a key — every change to keys, users and partner status — needs a
 * proof of identity this recent: a browser left signed in cannot be used for them by the next person.
 */
export const REAUTH_WINDOW_MS = 10 * 60_000;

/** The signed-in user of a request, and what the pages need of the session. */
export interface SignedIn {
  user: User;
  session: PanelSession;
  /** The value every form of the page sends back (`csrf`). */
  csrf: string;
}

/** The token's form field (forms) and header (the page script's requests). */
export const CSRF_FIELD = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

export function csrfToken(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('loc panel csrf').digest('base64url');
}

export function sameCsrf(sessionToken: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfToken(sessionToken));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function cookieOptions(secure: boolean, maxAgeSeconds: number) {
  return { path: PANEL_PATH, httpOnly: true, sameSite: 'strict', secure, maxAge: maxAgeSeconds } as const;
}

/** The session the request's cookie names, or null: none, unknown, expired. */
export async function readSession(store: Store, request: FastifyRequest, now: number): Promise<(SignedIn & { token: string }) | null> {
  const token = request.cookies[PANEL_COOKIE];
  if (token === undefined || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const found = await store.panel.getPanelSession(hashSecret(token), now);
  if (found === null) return null;
  return { ...found, token, csrf: csrfToken(token) };
}

/**
 * Signs `user` in: a new session and its cookie. The session the browser held before, if any, ends:
 * the token it had is never reused, whoever set it.
 */
export async function startSession(store: Store, request: FastifyRequest, reply: FastifyReply, user: User, now: number, secure: boolean): Promise<void> {
  const previous = request.cookies[PANEL_COOKIE];
  if (previous !== undefined) await store.panel.deletePanelSession(hashSecret(previous));
  const token = randomBytes(32).toString('base64url');
  await store.panel.createPanelSession({
    hash: hashSecret(token),
    userId: user.id,
    createdAt: now,
    expiresAt: now + SESSION_LIFETIME_MS,
    authenticatedAt: now,
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 200),
  });
  reply.setCookie(PANEL_COOKIE, token, cookieOptions(secure, SESSION_LIFETIME_MS / 1000));
}

/** Ends the request's session, if any, and tells the browser to forget the cookie. */
export async function endSession(store: Store, request: FastifyRequest, reply: FastifyReply, secure: boolean): Promise<void> {
  const token = request.cookies[PANEL_COOKIE];
  if (token !== undefined) await store.panel.deletePanelSession(hashSecret(token));
  reply.clearCookie(PANEL_COOKIE, cookieOptions(secure, 0));
}

/** Whether the user proved who they are recently enough for a change to keys, users or accounts. */
export function recentlyAuthenticated(signedIn: SignedIn, now: number): boolean {
  return now - signedIn.session.authenticatedAt < REAUTH_WINDOW_MS;
}
