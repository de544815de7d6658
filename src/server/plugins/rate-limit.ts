/**
 * Request limits (limits/budgets.ts): every request whose key or session was accepted is counted
 * against its budgets before it is handled. Its response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds) of the budget it drew from — of two, the one
 * with fewer requests left, and of a refused request, the one used up. A used-up hourly budget is
 * 429 `rate_limited` with `Retry-After`; a session that has used its budget is 429
 * `session_limit_reached`, without `Retry-After`: that session gets no more, a new one does.
 *
 * Every verdict is also tallied as the key's usage (limits/usage-meter.ts): counted, or refused by
 * reason, auth's refusals of a key it found included.
 *
 * Why not @fastify/rate-limit: its windows run on the wall clock, out of reach of the injected clock
 * that tests move; a request here may draw from two budgets at once, all or nothing; and the limits
 * are properties of the key, read on each request anyway.
 */
import fp from 'fastify-plugin';
import { LocError, type ErrorCode } from '../../errors.ts';
import { budgetsOf, isHourly, type Allowance, type KeyBudget } from '../../limits/budgets.ts';
import type { Counters } from '../../store/counters.ts';
import { openCounters } from '../../store/open-counters.ts';
import { usageMeter, type UsageMeter } from '../../limits/usage-meter.ts';
import { StoreUnavailable } from '../../store/store.ts';
import type { RefusalReason } from '../../store/usage-store.ts';
import { StartFailure } from '../process/start-failure.ts';

/** Seconds until `budget`'s window ends, at least 1. */
const resetSeconds = (budget: KeyBudget, now: number): number => Math.max(1, Math.ceil((budget.resetsAt - now) / 1000));

/** The answer to a request `budget` refused. */
function refusal(budget: KeyBudget, now: number): LocError {
  const wait = resetSeconds(budget, now);
  switch (budget.kind) {
    case 'server':
      return new LocError('rate_limited', `The API key ${budget.keyId} has used its ${budget.limit} requests of this hour; retry in ${wait} s.`).retryAfter(wait);
    case 'embed':
      return new LocError(
        'rate_limited',
        `The embed sessions of the API key ${budget.keyId} have used their ${budget.limit} requests of this hour; retry in ${wait} s. ` +
          'Calls made with the key itself are counted apart.',
      ).retryAfter(wait);
    case 'session':
      return new LocError('session_limit_reached', `This embed session has made all the ${budget.limit} requests one session may make; create a new session.`);
    case 'session_search':
      return new LocError(
        'session_limit_reached',
        `This embed session has made all the ${budget.limit} searches one session may make; it may still choose points. Create a new session to search again.`,
      );
  }
}

/**
 * Auth's refusals a key's partner can see and fix, by the reason its usage counts them under; a
 * session refused as `invalid_session` by auth is one whose origin was removed from its key.
 */
const AUTH_REFUSALS: Partial<Record<ErrorCode, Exclude<RefusalReason, 'limit'>>> = {
  key_inactive: 'inactive',
  ip_not_allowed: 'ip',
  origin_not_allowed: 'origin',
  invalid_session: 'origin',
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the requests are counted (store/open-counters.ts): the health check asks it too. */
    counters: Counters;
    /** Each key's usage, added to the store in batches (limits/usage-meter.ts). */
    usage: UsageMeter;
  }
  interface FastifyContextConfig {
    /** What the route's requests count as (limits/budgets.ts); calls unless it says search. */
    allowance?: Allowance;
  }
}

export interface RateLimitOptions {
  /** Where counts are kept, owned by the caller; default the configured counters (store/open-counters.ts), closed with the app. */
  counters?: Counters;
}

export default fp<RateLimitOptions>(
  async (app, options) => {
    const opened = options.counters ?? (await openCounters(app.config, app.now).catch((error: unknown) => {
      // Redis out of reach at start: its own line (it names Redis), not one about the database.
      throw error instanceof StoreUnavailable ? new StartFailure(error.message) : error;
    }));
    if (options.counters === undefined) app.addHook('onClose', async () => opened.close?.());
    const counters = app.portCalls.watch(opened, 'counters');
    app.decorate('counters', counters);
    const usage = usageMeter(app.store, {
      now: app.now,
      onError: app.outages.task('could not add the keys’ usage to the store'),
      flushEveryMs: app.config.usageFlushMs,
    });
    app.decorate('usage', usage);
    // After the requests in flight: what they tallied is added before the store closes.
    app.addHook('onClose', () => usage.close());
    // A request auth refused for a key it found counts as that key's usage of the hour, by reason.
    app.addHook('onError', async (request, _reply, error) => {
      const refused = request.refusedKey;
      const reason = error instanceof LocError ? AUTH_REFUSALS[error.code] : undefined;
      if (refused === null || reason === undefined) return;
      usage.refused(refused.keyId, refused.via === 'key' ? 'server' : 'embed', reason, app.now());
    });
    // Registered after the auth hook, so `request.caller` is known here.
    app.addHook('onRequest', async (request, reply) => {
      const caller = request.caller;
      if (caller === null) return;
      const now = app.now();
      const budgets = budgetsOf(caller.key, caller.session, app.config, now, request.routeOptions.config.allowance);
      const taken = await counters.take(budgets, now);
      // Every request has one hourly budget, the key's server calls or its embed traffic: its usage.
      const { kind } = budgets.find(isHourly)!;
      if (taken.spent < 0) usage.counted(caller.key.id, kind, now);
      else usage.refused(caller.key.id, kind, 'limit', now);
      let shown = taken.spent;
      if (shown < 0) {
        shown = 0;
        for (let i = 1; i < budgets.length; i++) if (taken.remaining[i] < taken.remaining[shown]) shown = i;
      }
      const budget = budgets[shown];
      reply.headers({ 'ratelimit-limit': budget.limit, 'ratelimit-remaining': taken.remaining[shown], 'ratelimit-reset': resetSeconds(budget, now) });
      if (taken.spent < 0) return;
      // Once per budget and window, whatever the log level short of error: what an operator's alerting
      // watches. A single session running out is a visitor's doing, not the partner's: info.
      if (taken.firstRefusal) {
        const fields = { key: budget.keyId, budget: budget.kind, limit: budget.limit, resetSeconds: resetSeconds(budget, now) };
        if (budget.kind === 'session' || budget.kind === 'session_search') request.log.info(fields, `${budget.kind === 'session' ? 'session' : 'session search'} limit reached`);
        else request.log.warn(fields, budget.kind === 'server' ? 'hourly limit reached' : 'embed hourly limit reached');
      }
      throw refusal(budget, now);
    });
  },
  { name: 'loc-rate-limit', fastify: '5.x', dependencies: ['loc-config', 'loc-port-calls', 'loc-outages', 'loc-store', 'loc-auth'] },
);
