/**
 * Hourly request limits per API key (DESIGN §4): a fixed window per clock hour (UTC), counted in
 * process. Embed-session traffic counts against the session's key. Every authenticated response
 * carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); a refused one is
 * 429 `rate_limited` with `Retry-After`.
 *
 * Why not @fastify/rate-limit: its windows run on the wall clock, out of reach of the injected clock
 * that tests move, and the limit here is a property of the key read on each request anyway; a window
 * is one Map entry. A fixed window can let up to twice the limit through across an hour boundary,
 * which an hourly quota tolerates. Counts live in this process: one server per data directory.
 */
import fp from 'fastify-plugin';
import { LocError } from '../../errors.ts';

const HOUR_MS = 3_600_000;

export interface Allowance {
  allowed: boolean;
  /** True for the first request refused in the window: the moment the key ran out. */
  firstRefusal: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Counts requests per key in the current clock hour. */
export class HourlyLimiter {
  private window = -1;
  private readonly counts = new Map<string, number>();
  private readonly refused = new Set<string>();

  constructor(private readonly now: () => number) {}

  take(keyId: string, limit: number): Allowance {
    const now = this.now();
    const window = Math.floor(now / HOUR_MS);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
      this.refused.clear();
    }
    const used = this.counts.get(keyId) ?? 0;
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * HOUR_MS - now) / 1000));
    if (used >= limit) {
      // Refusals are not counted (a limit raised within the hour applies to what was served), but
      // the first of the window is remembered.
      const firstRefusal = !this.refused.has(keyId);
      this.refused.add(keyId);
      return { allowed: false, firstRefusal, limit, remaining: 0, resetSeconds };
    }
    this.counts.set(keyId, used + 1);
    return { allowed: true, firstRefusal: false, limit, remaining: limit - used - 1, resetSeconds };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    limiter: HourlyLimiter;
  }
}

export default fp(
  async (app) => {
    const limiter = new HourlyLimiter(app.now);
    app.decorate('limiter', limiter);
    // Registered after the auth hook, so `request.caller` is known here. A callback hook: nothing
    // here waits, and it runs on every request.
    app.addHook('onRequest', (request, reply, done) => {
      const caller = request.caller;
      if (caller === null) return done();
      const allowance = limiter.take(caller.key.id, caller.key.hourlyLimit ?? app.config.defaultHourlyLimit);
      reply.headers({
        'ratelimit-limit': allowance.limit,
        'ratelimit-remaining': allowance.remaining,
        'ratelimit-reset': allowance.resetSeconds,
      });
      if (allowance.allowed) return done();
      // Once per key and window, whatever the log level short of error: what an operator's alerting watches.
      if (allowance.firstRefusal) {
        request.log.warn({ key: caller.key.id, limit: allowance.limit, resetSeconds: allowance.resetSeconds }, 'hourly limit reached');
      }
      done(new LocError(
        'rate_limited',
        `The API key ${caller.key.id} has used its ${allowance.limit} requests of this hour; retry in ${allowance.resetSeconds} s.`,
      ).retryAfter(allowance.resetSeconds));
    });
  },
  { name: 'loc-rate-limit', fastify: '5.x', dependencies: ['loc-config', 'loc-auth'] },
);
