/**
 * The cookie that carries a one-time link's token from the link's address to its page. The link's
 * first request trades the token for this cookie and is sent on to the page's own address, without
 * the token: the address bar, the history, a shared screen and the `Referer` of whatever the page
 * loads never hold it. Only the page reads the cookie (`Path`); the form still sends the token, and
 * using it up stays the form's.
 *
 * `SameSite=Lax`, unlike the session's Strict cookie: a link is opened from a chat or a mail, another
 * site, and a browser does not send a Strict cookie on the redirect of a navigation another site
 * started (Chromium checks who started it, not the redirect's origin). Lax is sent with that
 * navigation only, never with a frame's request or another site's POST, and it opens nothing but the
 * page that asks for a password: the page shows no secret another site could read.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LINK_PATH } from '../auth/panel-links.ts';

export const LINK_COOKIE = 'loc_link';
/** Long enough to choose a password; after it, the person opens the link again (it is still open). */
export const LINK_COOKIE_MAX_AGE_S = 30 * 60;

const options = (secure: boolean, maxAge: number) => ({ path: LINK_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge }) as const;

/** Keeps `token` for the link page; `secure`: sent over HTTPS only. */
export function keepLinkToken(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(LINK_COOKIE, token, options(secure, LINK_COOKIE_MAX_AGE_S));
}

/** The token the link page was opened with, if the browser still holds it. */
export const keptLinkToken = (request: FastifyRequest): string | undefined => request.cookies[LINK_COOKIE];

/** Forgets the token once the link is used. */
export function forgetLinkToken(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(LINK_COOKIE, options(secure, 0));
}
