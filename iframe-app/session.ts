/**
 * The frame's session: the token init handed over, replaced whenever the page renews it; its expiry,
 * watched on the service's clock (expiry.ts); the check that the token is this session's; and the
 * lookups made with it. The service may end a session before its time, or refuse one that has used
 * its requests: a lookup then renews once through the page's `getSessionToken` and tries again, so the
 * visitor's click is not lost to a token the page could have replaced.
 */
import { kindOf } from '../src/embed/options.ts';
import type { FrameConfig, HostCallbacks } from '../src/embed/protocol.ts';
import type { LocResolveResult } from '../src/embed/public-types.ts';
import { RECOVERABLE } from '../src/embed/recoverable.ts';
import { EmbedFailure, resolvePoint, searchText, sessionInfo, type SearchAnswer, type SearchQuery, type Target } from './api.ts';
import { watchExpiry, type Renewal } from './expiry.ts';
import { tokenMatches } from './session-token.ts';

/** Thrown by `resolve` when the session ended while the call was under way; the expiry has been reported already. */
export const SESSION_ENDED = new Error('session ended');

export interface SessionOptions {
  /** `<sid>.<secret>`, as init handed it over; its sid is the frame's. */
  token: string;
  /** Service clock minus the visitor's clock, in ms (expiry.ts). */
  skew: number;
  /** The page's `getSessionToken`, over the channel; absent when it gave none, and the session just ends. */
  renew?: HostCallbacks['renew'];
  /** The session has ended; `renewalError`: why the last renewal failed, when one was tried and failed. */
  onExpired(renewalError?: unknown): void;
}

export interface Session {
  /** Whether the session is over by now. */
  isOver(): boolean;
  /**
   * The code of the cell holding `target`, a point or a code (`save`: stored too). When the service says the session ended,
   * or has used all its requests, renews once through the page and retries; a session that ended and
   * cannot be renewed throws `SESSION_ENDED`, a spent one the service's `session_limit_reached`.
   */
  resolve(target: Target, save: boolean, signal: AbortSignal): Promise<LocResolveResult>;
  /**
   * What the visitor typed in the search box, read by the service with the current token. Not renewed
   * on failure: a search is asked again at the next key, and the session's end is the lookups' to tell.
   */
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchAnswer>;
  /**
   * Checks the whole token (the loader checked its sid only): here, against the page's `tokenCheck`, or
   * by the service where the page has no Web Crypto. Resolves with the failure that must stop the map;
   * with nothing when the token is this session's, or when the check cannot be made (network, 5xx) — a
   * check that fails that way must not hold the map back, and the first click will say what is wrong.
   */
  verify(): Promise<EmbedFailure | undefined>;
  /** Moves the session's clock ahead, for tests (`Expiry.advance`). */
  advance(ms?: number): Promise<void>;
  /** Stops watching the expiry: the map stopped. */
  stop(): void;
}

export function startSession(config: FrameConfig, options: SessionOptions): Session {
  let token = options.token;
  const askPage = options.renew;

  /** Asks the page for a new token and checks that the service knows it, for this origin. */
  const renewToken = async (): Promise<Renewal> => {
    const next = await askPage!();
    // kindOf, never the value: it may be the token, or a session response holding it.
    if (typeof next !== 'string' || !/^[\w-]+\.[\w-]+$/.test(next)) {
      throw new Error(`getSessionToken must resolve with the session_token, "<sid>.<secret>"; it gave ${kindOf(next)}.`);
    }
    const { body: info, serviceNow } = await sessionInfo(config.apiBase, next);
    if (info.origin !== config.origin) throw new Error(`The new session is for ${info.origin}, this map's for ${config.origin}.`);
    token = next;
    return { expiresAt: Date.parse(info.expires_at), serviceNow };
  };

  const expiry = watchExpiry({
    expiresAt: Date.parse(config.expiresAt),
    skew: options.skew,
    renew: askPage && renewToken,
    onExpired: options.onExpired,
  });

  return {
    isOver: () => expiry.isExpired(),
    async resolve(target, save, signal) {
      try {
        return await resolvePoint(config.apiBase, token, target, save, signal);
      } catch (error) {
        if (!(error instanceof EmbedFailure)) throw error;
        if (error.code === 'session_expired') {
          if (!(await expiry.renewNow())) throw SESSION_ENDED;
        } else if (error.code !== 'session_limit_reached' || !(await expiry.replace())) {
          throw error;
        }
        return resolvePoint(config.apiBase, token, target, save, signal);
      }
    },
    search: (query, signal) => searchText(config.apiBase, token, query, signal),
    verify: () =>
      tokenMatches(token, config.tokenCheck)
        .then((matches) => matches ?? sessionInfo(config.apiBase, token).then(() => true))
        .then(
          (matches) => (matches ? undefined : new EmbedFailure('invalid_session', 'The session token is not this session’s.')),
          (error: unknown) => (error instanceof EmbedFailure && !RECOVERABLE[error.code] ? error : undefined),
        ),
    advance: (ms) => expiry.advance(ms),
    stop: () => expiry.stop(),
  };
}
