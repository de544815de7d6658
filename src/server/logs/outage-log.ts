/**
 * What the log says while the database or the request counters cannot serve (StoreUnavailable): each
 * cause — where, and why, "database unreachable" — once in full, with the stack of its first failure,
 * then one line per interval with how many more requests it failed, and one line when it recovers.
 * Without it, an outage of a few seconds under load writes a line with a stack per request: thousands,
 * which bury the one that says what happened and cost the disk that holds the log.
 *
 * A cause has recovered once its engine answered after the cause's last failure (its `watcher` is told of
 * every answer of the store and of the counters); that is said at the next interval's end, with how long the
 * cause lasted. Other errors are not outages and are the caller's to log, each in full.
 */
import type { FastifyBaseLogger } from 'fastify';
import { StoreUnavailable } from '../../store/store.ts';
import type { PortName, PortWatcher } from '../plugins/port-calls.ts';

/** Where an outage is: the store, or the request counters (which may be Redis). */
export type OutageSource = 'database' | 'request counters';

/** The source of an outage of each watched port, as the log names it. */
const SOURCES: Record<PortName, OutageSource> = { store: 'database', counters: 'request counters' };

/** What failed, for the log: who logs its first line, in what words, and whether a request failed. */
export interface Failure {
  log: FastifyBaseLogger;
  /** The first line's message, as without an outage: "request failed", "health check failed", … */
  what: string;
  /** A request answered 503, rather than work of the service's own (a batch of usage, a sweep). */
  request: boolean;
}

export interface OutageLog {
  /** Logs `error` when it is an outage, as above, and answers true; false: it is the caller's to log. */
  failed(error: unknown, failure: Failure): boolean;
  /** What logs a failure of the service's own work (`what`: "panel sweep failed"): an outage as above, else in full at `warn`. */
  task(what: string): (error: unknown) => void;
  /** Notes each answer and failure of the store and of the counters (plugins/port-calls.ts) as its source's. */
  readonly watcher: PortWatcher;
  /** Stops the interval's timer. */
  close(): void;
}

interface Cause {
  source: OutageSource;
  since: number;
  /** When its engine answered after its last failure; null while it fails. */
  answeredAt: number | null;
  requests: number;
  tasks: number;
  total: number;
}

/** The log of outages on `log`, counted by interval of `intervalMs`, timed by `now`. */
export function outageLog(log: FastifyBaseLogger, intervalMs: number, now: () => number): OutageLog {
  const causes = new Map<string, Cause>();
  const sources = new WeakMap<object, OutageSource>();
  let timer: NodeJS.Timeout | undefined;

  const tick = (): void => {
    for (const [name, cause] of causes) {
      summarise(log, name, cause, intervalMs);
      if (cause.answeredAt === null) continue;
      log.warn({ cause: name, failed: cause.total, outageMs: cause.answeredAt - cause.since },
        `recovered after ${seconds(cause.answeredAt - cause.since)} s: ${name}; ${cause.total} requests failed in all`);
      causes.delete(name);
    }
    if (causes.size === 0) stop();
  };
  const stop = (): void => {
    clearInterval(timer);
    timer = undefined;
  };
  const answered = (source: OutageSource): void => {
    if (causes.size === 0) return;
    for (const cause of causes.values()) if (cause.source === source && cause.answeredAt === null) cause.answeredAt = now();
  };

  const outages: OutageLog = {
    failed(error, failure) {
      if (!(error instanceof StoreUnavailable)) return false;
      const source = sources.get(error) ?? 'database';
      const name = `${source} ${error.reason}`;
      const known = causes.get(name);
      if (known === undefined) {
        causes.set(name, { source, since: now(), answeredAt: null, requests: 0, tasks: 0, total: failure.request ? 1 : 0 });
        (failure.request ? failure.log.error : failure.log.warn).call(failure.log, { err: error, cause: name }, failure.what);
        timer ??= setInterval(tick, intervalMs).unref();
        return true;
      }
      known.answeredAt = null;
      if (failure.request) {
        known.requests += 1;
        known.total += 1;
      } else {
        known.tasks += 1;
      }
      return true;
    },
    watcher: {
      answered: (port) => answered(SOURCES[port.name]),
      failed: (port, _operation, _startedAt, error) => {
        if (error instanceof StoreUnavailable && !sources.has(error)) sources.set(error, SOURCES[port.name]);
      },
    },
    task: (what) => (error) => {
      if (!outages.failed(error, { log, what, request: false })) log.warn({ err: error }, what);
    },
    close: stop,
  };
  return outages;
}

/** The interval's line of a cause that failed anything in it; its counts start again. */
function summarise(log: FastifyBaseLogger, name: string, cause: Cause, intervalMs: number): void {
  const { requests, tasks } = cause;
  if (requests + tasks === 0) return;
  const fields = { cause: name, failed: requests, tasks, intervalMs };
  const more = requests > 0 ? `${requests} more ${requests === 1 ? 'request' : 'requests'}` : `${tasks} more of the service's own tasks`;
  const also = requests > 0 && tasks > 0 ? ` (and ${tasks} of the service's own tasks)` : '';
  (requests > 0 ? log.error : log.warn).call(log, fields, `${more} failed: ${name}${also}`);
  cause.requests = 0;
  cause.tasks = 0;
}

const seconds = (ms: number): string => (Math.round(ms / 100) / 10).toFixed(1);
