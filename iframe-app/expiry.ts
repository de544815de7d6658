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
  const expiry = new SessionExpiry(options);
  expiry.schedule();
  return expiry;
}

/** The expiry of one session and of the sessions that renew it, on the service's clock. */
class SessionExpiry implements Expiry {
  private skew: number;
  private expiresAt: number;
  private issuedAt: number;
  private expired = false;
  private renewing: Promise<boolean> | undefined;
  private renewalError: unknown;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: ExpiryOptions) {
    this.skew = options.skew;
    this.expiresAt = options.expiresAt;
    this.issuedAt = this.now();
  }

  private now(): number {
    return Date.now() + this.skew;
  }

  private expire(): void {
    if (this.expired) return;
    this.expired = true;
    this.stop();
    this.options.onExpired(this.renewalError);
  }

  /** Sets the timers of the end and of the renewal before it, from the time left now. */
  schedule(): void {
    this.stop();
    const left = this.expiresAt - this.now();
    if (left <= 0) return this.expire();
    // A renewal still under way at the end decides it: a clock that jumped (a fast-forwarded fake clock,
    // a machine waking) can bring the end before the renewal's answer. The renewal's timer is set
    // first: a jump over both makes them due at once, and timers due at once fire in the order set.
    if (this.options.renew) this.renewTimer = setTimeout(() => void this.renew(), Math.max(0, left - this.lead()));
    this.expiryTimer = setTimeout(() => (this.renewing ? void this.renewing.then((renewed) => renewed || this.expire()) : this.expire()), left);
  }

  /** How long before the end to renew: a minute, or a quarter of a short session's life. */
  private lead(): number {
    return Math.min(RENEW_LEAD_MS, (this.expiresAt - this.issuedAt) / 4);
  }

  /** Renews the session, once at a time: every caller meanwhile shares the one renewal's outcome. */
  private renew(): Promise<boolean> {
    if (!this.options.renew || this.expired) return Promise.resolve(false);
    this.renewing ??= this.options
      .renew()
      .then((next) => this.renewed(next))
      .catch((error: unknown) => this.renewalFailed(error))
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }

  private renewed(next: Renewal): boolean {
    this.renewalError = undefined;
    if (Number.isFinite(next.serviceNow)) this.skew = next.serviceNow - Date.now();
    this.expiresAt = next.expiresAt;
    this.issuedAt = this.now();
    this.schedule();
    return true;
  }

  /** Tries again in a few seconds while the session lasts; its end reports the error. */
  private renewalFailed(error: unknown): boolean {
    this.renewalError = error;
    const left = this.expiresAt - this.now();
    if (left > 0) this.renewTimer = setTimeout(() => void this.renew(), Math.min(RENEW_RETRY_MS, left));
    return false;
  }

  isExpired(): boolean {
    // As at the expiry timer: a renewal under way decides the end, and until it has, the session goes on.
    if (!this.expired && !this.renewing && this.now() >= this.expiresAt) this.expire();
    return this.expired;
  }

  async renewNow(): Promise<boolean> {
    if (await this.renew()) return true;
    this.expire();
    return false;
  }

  replace(): Promise<boolean> {
    return this.renew();
  }

  async advance(ms = this.expiresAt - this.now()): Promise<void> {
    if (this.expired) return;
    this.skew += Math.max(0, ms);
    this.schedule();
    if (!this.expired && this.expiresAt - this.now() <= this.lead()) await this.renew();
  }

  stop(): void {
    clearTimeout(this.expiryTimer);
    clearTimeout(this.renewTimer);
  }
}
