/**
 * Session expiry. At `expires_at` the map stops selecting and reports `session_expired`; when the
 * integrator gave `getSessionToken`, the frame renews the session before that instead — about a minute
 * ahead, a quarter of the lifetime for short sessions — and retries every few seconds until it works
 * or the session runs out.
 *
 * Times are the service's clock: the frame page carries the service's `now`, and the difference from
 * the visitor's clock (`skew`) is applied throughout, so a visitor whose clock is off still sees the
 * session last exactly as long as the service says.
 */

/** Renew this long before expiry at most. */
export const RENEW_LEAD_MS = 60_000;

/** Wait between failed renewals. */
export const RENEW_RETRY_MS = 5_000;

export interface ExpiryOptions {
  /** Expiry of the current session, ms since the epoch on the service's clock. */
  expiresAt: number;
  /** Service clock minus the visitor's clock, in ms. */
  skew: number;
  /** Gets and checks a new session; resolves with its expiry. Absent: the session just ends. */
  renew?: () => Promise<number>;
  /**
   * The session has ended. `renewalError`: why the last renewal failed, when one was tried and failed —
   * the integrator's only way to learn that their `getSessionToken` is what let the session run out.
   */
  onExpired(renewalError?: unknown): void;
}

export interface Expiry {
  /** Whether the session is over by now (a throttled background timer may not have fired yet). */
  isExpired(): boolean;
  /** Renews at once (the service said the session ended early); false when it could not. */
  renewNow(): Promise<boolean>;
  /**
   * Renews at once although the session has not ended (it has used its requests); false when it could
   * not, or nothing can renew it: the session then goes on as before.
   */
  replace(): Promise<boolean>;
  stop(): void;
}

export function watchExpiry(options: ExpiryOptions): Expiry {
  const now = () => Date.now() + options.skew;
  let expiresAt = options.expiresAt;
  let issuedAt = now();
  let expired = false;
  let renewing: Promise<boolean> | undefined;
  let renewalError: unknown;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;

  const expire = () => {
    if (expired) return;
    expired = true;
    clearTimeout(renewTimer);
    clearTimeout(expiryTimer);
    options.onExpired(renewalError);
  };

  const schedule = () => {
    clearTimeout(expiryTimer);
    clearTimeout(renewTimer);
    const left = expiresAt - now();
    if (left <= 0) return expire();
    expiryTimer = setTimeout(expire, left);
    if (options.renew) {
      const lead = Math.min(RENEW_LEAD_MS, (expiresAt - issuedAt) / 4);
      renewTimer = setTimeout(() => void renew(), Math.max(0, left - lead));
    }
  };

  const renew = (): Promise<boolean> => {
    if (!options.renew || expired) return Promise.resolve(false);
    renewing ??= options
      .renew()
      .then((next) => {
        renewalError = undefined;
        expiresAt = next;
        issuedAt = now();
        schedule();
        return true;
      })
      .catch((error: unknown) => {
        renewalError = error;
        const left = expiresAt - now();
        if (left > 0) renewTimer = setTimeout(() => void renew(), Math.min(RENEW_RETRY_MS, left));
        return false;
      })
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  };

  schedule();
  return {
    isExpired() {
      if (!expired && now() >= expiresAt) expire();
      return expired;
    },
    async renewNow() {
      if (await renew()) return true;
      expire();
      return false;
    },
    replace: renew,
    stop() {
      clearTimeout(expiryTimer);
      clearTimeout(renewTimer);
    },
  };
}
