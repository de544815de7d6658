/**
 * Session expiry. At `expires_at` the map stops selecting and reports `session_expired`; when the
 * integrator gave `getSessionToken`, the frame renews the session before that instead — about a minute
 * ahead, a quarter of the lifetime for short sessions — and retries every few seconds until it works
 * or the session runs out.
 *
 * Times are the service's clock: the frame page carries the service's `now`, and the difference from
 * the visitor's clock (`skew`) is applied throughout, so a visitor whose clock is off still sees the
 * session last exactly as long as the service says. Each renewal learns the difference anew from the
 * service's answer: a visitor's clock that jumped meanwhile (corrected, or a test's fake clock
 * fast-forwarded) would otherwise cut every later session short by the jump.
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
  /** Gets and checks a new session. Absent: the session just ends. */
  renew?: () => Promise<Renewal>;
  /**
   * The session has ended. `renewalError`: why the last renewal failed, when one was tried and failed —
   * the integrator's only way to learn that their `getSessionToken` is what let the session run out.
   */
  onExpired(renewalError?: unknown): void;
}

/** A new session's expiry, and the service's clock when it said so (NaN when it did not), both in ms since the epoch. */
export interface Renewal {
  expiresAt: number;
  serviceNow: number;
}

export interface Expiry {
  /**
   * Whether the session is over by now (a throttled background timer may not have fired yet); not while
   * a renewal that may carry it on is under way.
   */
  isExpired(): boolean;
  /** Renews at once (the service said the session ended early); false when it could not. */
  renewNow(): Promise<boolean>;
  /**
   * Renews at once although the session has not ended (it has used its requests); false when it could
   * not, or nothing can renew it: the session then goes on as before.
   */
  replace(): Promise<boolean>;
  /**
   * Moves the session's clock `ms` ahead (to the expiry when omitted), for tests (testing-contract.ts):
   * what falls due then happens now, not on a timer that a paused fake clock would never fire. Resolves
   * once a renewal so started has settled.
   */
  advance(ms?: number): Promise<void>;
  stop(): void;
}

export function watchExpiry(options: ExpiryOptions): Expiry {
  let skew = options.skew;
  const now = () => Date.now() + skew;
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
    // A renewal still under way at the end decides it: a clock that jumped (a fast-forwarded fake clock,
    // a machine waking) can bring the end before the renewal's answer.
    expiryTimer = setTimeout(() => (renewing ? void renewing.then((renewed) => renewed || expire()) : expire()), left);
    if (options.renew) renewTimer = setTimeout(() => void renew(), Math.max(0, left - lead()));
  };

  const lead = () => Math.min(RENEW_LEAD_MS, (expiresAt - issuedAt) / 4);

  const renew = (): Promise<boolean> => {
    if (!options.renew || expired) return Promise.resolve(false);
    renewing ??= options
      .renew()
      .then((next) => {
        renewalError = undefined;
        if (Number.isFinite(next.serviceNow)) skew = next.serviceNow - Date.now();
        expiresAt = next.expiresAt;
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
      // As at the expiry timer: a renewal under way decides the end, and until it has, the session goes on.
      if (!expired && !renewing && now() >= expiresAt) expire();
      return expired;
    },
    async renewNow() {
      if (await renew()) return true;
      expire();
      return false;
    },
    replace: renew,
    async advance(ms = expiresAt - now()) {
      if (expired) return;
      skew += Math.max(0, ms);
      schedule();
      if (!expired && expiresAt - now() <= lead()) await renew();
    },
    stop() {
      clearTimeout(expiryTimer);
      clearTimeout(renewTimer);
    },
  };
}
