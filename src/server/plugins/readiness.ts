/**
 * Readiness: whether this process should get traffic now, as `/readyz` answers it and as the rest of
 * the app may ask it (`app.readiness.check()`). Ready is every check passing: the codec's tables and
 * the address index are loaded (the tables only just after the server listens, see process/server.ts),
 * the database and the counters' store answer, the process is not draining (plugins/draining.ts) and
 * not overloaded (plugins/overload.ts). Liveness asks none of it: a database outage must take the
 * process out of rotation, never get it restarted.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadedPlaces } from '../../address/offline.ts';
import { coverageLoaded } from '../../code/shipped-table.ts';

/** What readiness checks, each failing on its own. */
export type ReadinessCheck = 'tables' | 'addresses' | 'store' | 'counters' | 'draining' | 'overloaded';

export interface ReadinessFailure {
  check: ReadinessCheck;
  /** What fails, in words for the operator reading `/readyz`'s answer. */
  message: string;
}

export interface ReadinessReport {
  /** Whether every check passed. */
  ready: boolean;
  /** Whether the process drains or closes: it will not be ready again. */
  draining: boolean;
  /** The checks that failed, in the order of ReadinessCheck; empty when ready. */
  failed: ReadinessFailure[];
}

export interface Readiness {
  /** Whether the process drains or closes (`app.draining`). */
  readonly draining: boolean;
  /** Runs every check, the engines' failures logged on `log` (default the app's); never rejects, and answers within CHECK_TIMEOUT_MS and a little. */
  check(log?: FastifyBaseLogger): Promise<ReadinessReport>;
  /**
   * The report without asking the engines: every other check now, the database and the counters as
   * the last check found them. What a metrics scrape reads, so that scraping never calls the engines.
   */
  known(): ReadinessReport;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

/**
 * A database or counters' store that has not answered in this time counts as not answering: a probe
 * gives up by then anyway (Kubernetes' default timeout is 1 s), and a caller that reports readiness,
 * such as a metrics scrape, must not hang on an engine that hangs.
 */
export const CHECK_TIMEOUT_MS = 2000;

/** What each engine is called when it does not answer: the words /healthz has always used. */
export const NOT_ANSWERING = { store: 'the database does not answer', counters: 'the store of the request counters does not answer' } as const;

/**
 * Whether the engine `ping` reaches answers. A failure is logged as every failure of that engine is:
 * an outage counted once by the outage log, anything else in full.
 */
export async function answers(app: FastifyInstance, ping: () => Promise<void>, log: FastifyBaseLogger, timeoutMs = Infinity): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    if (timeoutMs !== Infinity) timer = setTimeout(() => resolve(false), timeoutMs).unref();
  });
  const answered = Promise.resolve().then(ping).then(
    () => true,
    (error: unknown) => {
      if (!app.outages.failed(error, { log, what: 'health check failed', request: true })) log.error({ err: error }, 'health check failed');
      return false;
    },
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the engines answered, as a check found them. */
interface Engines {
  store: boolean;
  counters: boolean;
}

/** The report of every check, the engines' as `engines` says. */
function report(app: FastifyInstance, engines: Engines): ReadinessReport {
  const delay = app.eventLoopDelay();
  const bound = app.config.maxEventLoopDelayMs;
  const failing: [boolean, ReadinessCheck, string][] = [
    [!coverageLoaded(), 'tables', "the codec's tables are not loaded yet"],
    [loadedPlaces() === undefined, 'addresses', 'the address index is not loaded yet'],
    [!engines.store, 'store', NOT_ANSWERING.store],
    [!engines.counters, 'counters', NOT_ANSWERING.counters],
    [app.draining, 'draining', 'the service is shutting down'],
    [app.overloaded(), 'overloaded', `the event loop lags ${Math.round(delay ?? 0)} ms, past LOC_MAX_EVENT_LOOP_DELAY_MS=${bound}`],
  ];
  const failed = failing.filter(([fails]) => fails).map(([, name, message]) => ({ check: name, message }));
  return { ready: failed.length === 0, draining: app.draining, failed };
}

async function engines(app: FastifyInstance, log: FastifyBaseLogger): Promise<Engines> {
  const [store, counters] = await Promise.all([
    answers(app, () => app.store.ping(), log, CHECK_TIMEOUT_MS),
    answers(app, async () => app.counters.ping?.(), log, CHECK_TIMEOUT_MS),
  ]);
  return { store, counters };
}

export default fp(
  async (app) => {
    // Until a check asks them, the engines are taken to answer: the start opened both.
    let lastSeen: Engines = { store: true, counters: true };
    app.decorate('readiness', {
      get draining() {
        return app.draining;
      },
      check: async (log: FastifyBaseLogger = app.log) => report(app, (lastSeen = await engines(app, log))),
      known: () => report(app, lastSeen),
    } satisfies Readiness);
  },
  { name: 'loc-readiness', fastify: '5.x', dependencies: ['loc-config', 'loc-outages', 'loc-draining', 'loc-overload', 'loc-store', 'loc-rate-limit'] },
);
