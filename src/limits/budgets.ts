/**
 * Which budgets a request draws from. A call made with an API key — the partner's server, creating
 * sessions included — draws from the key's hourly budget of server calls. A call made with an embed
 * session token — a visitor's browser — draws from the session's budget over its whole life and from
 * the key's hourly budget of embed traffic, never from the server budget: however many visitors hold
 * tokens, and however many fresh sessions they get by reloading the page, the partner's own calls are
 * not refused because of them.
 *
 * A session's searches (the map's search box, typed into) draw from an allowance of their own, as large
 * as its budget of calls, and not from that budget: a visitor who types a dozen names before finding the
 * place must not be left unable to choose it. Both still draw from the key's hourly embed budget, so a
 * page's searches are bounded as a whole.
 *
 * Hourly windows are clock hours (UTC). A fixed window can let up to twice a limit through across an
 * hour boundary, which an hourly quota tolerates; in exchange a window is one count per key.
 */
import type { ApiKey, EmbedSession } from '../store/store.ts';
import { HOUR_MS } from '../durations.ts';
import type { TrafficKind } from '../store/usage-store.ts';
import type { Budget, Window } from '../store/counters.ts';


/** Largest limit of any kind: a billion requests, beyond what one key could send in its window. */
export const MAX_LIMIT = 1_000_000_000;

export type BudgetKind = 'server' | 'embed' | 'session' | 'session_search';

/** What a request counts as: a call (resolve, suggest, …), or a search, which a session counts apart. */
export type Allowance = 'calls' | 'search';

export interface KeyBudget extends Budget {
  kind: BudgetKind;
  /** The key whose budget it is (a session's: the key that made it). */
  keyId: string;
}

/** Whether `budget` is one of the key's hourly budgets, the one of a request's budgets whose kind is its traffic's. */
export const isHourly = (budget: KeyBudget): budget is KeyBudget & { kind: TrafficKind } => budget.kind === 'server' || budget.kind === 'embed';

/** The service's limits for keys that have none of their own. */
export interface DefaultLimits {
  defaultHourlyLimit: number;
  defaultEmbedHourlyLimit: number;
  defaultSessionLimit: number;
}

/**
 * The budgets of one request: with `session` null, a call made with `key`; else a call made with that
 * session of `key`, a search drawing from the session's search allowance instead of its budget of
 * calls. The session's budget comes first: it is the one a single visitor can spend.
 */
export function budgetsOf(key: ApiKey, session: EmbedSession | null, defaults: DefaultLimits, now: number, allowance: Allowance = 'calls'): KeyBudget[] {
  if (session === null) return [{ ...hourlyWindow('server', key.id, now), limit: key.hourlyLimit ?? defaults.defaultHourlyLimit }];
  return [
    allowance === 'search'
      ? { kind: 'session_search', keyId: key.id, id: `session-search:${session.sid}`, limit: key.sessionLimit ?? defaults.defaultSessionLimit, resetsAt: session.expiresAt }
      : { kind: 'session', keyId: key.id, id: `session:${session.sid}`, limit: key.sessionLimit ?? defaults.defaultSessionLimit, resetsAt: session.expiresAt },
    { ...hourlyWindow('embed', key.id, now), limit: key.embedHourlyLimit ?? defaults.defaultEmbedHourlyLimit },
  ];
}

/** The clock hour of a key's server calls or embed traffic that holds `now`: its budget without the limit. */
export function hourlyWindow<K extends 'server' | 'embed'>(kind: K, keyId: string, now: number): Window & { kind: K } {
  const hour = Math.floor(now / HOUR_MS);
  return { kind, keyId, id: `${kind}:${keyId}:${hour}`, resetsAt: (hour + 1) * HOUR_MS };
}
