/**
 * A load balancer in front of `loc serve` through its drain, as the drain's suites play it: requests
 * sent all along on fresh and keep-alive connections, and a readiness probe; then SIGTERM. The
 * balancer goes on sending for a while, as a real one does until its probe has failed a few times,
 * then stops. Every request ends as an outcome — an answer, a refusal, or the error that cut it — so
 * that the checks count what was lost rather than stop at the first. Behind one port a cluster's
 * workers answer in turn: the checks take each answer's worker, and hold each worker to them.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';

/** One request and what became of it; times in ms from the SIGTERM. */
export interface Outcome {
  via: 'fresh' | 'keep-alive' | 'readyz' | 'probe';
  sentAt: number;
  endedAt: number;
  /** The status, or `refused` (the connection was), or the error that cut it. */
  result: number | 'refused' | string;
  connection?: string;
  /** The Request-Id of its answer: the `reqId` of the request's log line, which says the worker. */
  id?: string;
}

/** The balancer's pause after each request, by kind: each kind goes on one request at a time. */
const PAUSE_MS = { fresh: 5, keepAlive: 5, readyz: 25 };

/** How long the balancer sends before the SIGTERM: each kind of request sees the service as it ran. */
const BEFORE_MS = 300;

export class Balancer {
  readonly outcomes: Outcome[] = [];
  private signalledAt = Infinity;

  constructor(private readonly port: number) {}

  /** Milliseconds since the SIGTERM; far below zero before it. */
  since(): number {
    return this.signalledAt === Infinity ? -1e9 : performance.now() - this.signalledAt;
  }

  /** GET `path` on a connection of `agent`'s (false: a fresh one). */
  get(path: string, agent: Agent | false, via: Outcome['via']): Promise<Outcome> {
    const sentAt = this.since();
    return new Promise((resolve) => {
      const done = (result: Outcome['result'], connection?: string, id?: string) => resolve({ via, sentAt, endedAt: this.since(), result, connection, id });
      const asked = request({ host: '127.0.0.1', port: this.port, path, agent }, (response) => {
        response.resume();
        response.once('end', () => done(response.statusCode!, response.headers.connection, response.headers['request-id'] as string | undefined));
        response.once('error', (error) => done(error.message));
      });
      asked.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'refused' : `${error.code ?? ''} ${error.message}`));
      asked.end();
    });
  }

  /**
   * Sends until `lagMs` after `sigterm` was called, which it calls once every kind of request has run
   * a while. A balancer that has seen `/readyz` fail stops sending soon after; `lagMs` stands for that.
   */
  async sendThrough(sigterm: () => void, lagMs: number): Promise<void> {
    let sending = true;
    const loop = async (ask: () => Promise<Outcome>, pauseMs: number) => {
      while (sending) {
        this.outcomes.push(await ask());
        await sleep(pauseMs);
      }
    };
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const loops = Promise.all([
      loop(() => this.get('/livez', false, 'fresh'), PAUSE_MS.fresh),
      loop(() => this.get('/livez', keepAlive, 'keep-alive'), PAUSE_MS.keepAlive),
      loop(() => this.get('/readyz', false, 'readyz'), PAUSE_MS.readyz),
    ]);
    await sleep(BEFORE_MS);
    this.signalledAt = performance.now();
    sigterm();
    await sleep(lagMs);
    sending = false;
    await loops;
    keepAlive.destroy();
  }
}

/**
 * What the drain must give the balancer of `outcomes`, `workerOf` telling which worker answered each:
 * every worker it reached fails `/readyz` within `lagMs` of the SIGTERM and stays unready; every
 * request is answered — none refused, none lost, every one a 200 — new connections too; once every
 * worker is unready, keep-alive answers close their connection. Returns when the last worker was
 * first seen unready (ms from the SIGTERM).
 */
export function expectDrained(outcomes: Outcome[], lagMs: number, workerOf: (outcome: Outcome) => number = () => 0): number {
  const lost = outcomes.filter(({ result }) => typeof result === 'string' && result !== 'refused');
  expect(lost, 'requests that got neither an answer nor a refusal').toEqual([]);
  expect(outcomes.filter(({ result }) => result === 'refused'), 'connections refused while the balancer still sent, within the drain').toEqual([]);
  const unreadyAt = firstUnready(outcomes, workerOf);
  expect(unreadyAt.size, 'workers seen unready').toBeGreaterThan(0);
  const allUnready = Math.max(...unreadyAt.values());
  expect(allUnready, 'the last worker first seen unready, ms after the SIGTERM').toBeLessThan(lagMs);
  const served = outcomes.filter(({ via, sentAt }) => via !== 'readyz' && sentAt > 0);
  expect(served.filter(({ result }) => result !== 200), 'answers in the drain that were not 200').toEqual([]);
  expect(served.filter(({ via }) => via === 'fresh').length, 'requests on new connections in the drain').toBeGreaterThan(5);
  const kept = served.filter(({ via, sentAt }) => via === 'keep-alive' && sentAt > allUnready);
  expect(kept.length).toBeGreaterThan(5);
  expect(kept.filter(({ connection }) => connection !== 'close'), 'keep-alive answers in the drain that kept their connection').toEqual([]);
  expect(outcomes.filter(({ via, sentAt }) => via === 'keep-alive' && sentAt < 0).map(({ connection }) => connection)).toContain('keep-alive');
  return allUnready;
}

/**
 * When each worker that answered `/readyz` after the SIGTERM was first seen unready; each must stay
 * so (a balancer seeing it ready again would send it more), and each must have become so.
 */
function firstUnready(outcomes: Outcome[], workerOf: (outcome: Outcome) => number): Map<number, number> {
  const probes = outcomes.filter(({ via, sentAt }) => via === 'readyz' && sentAt > 0).sort((a, b) => a.sentAt - b.sentAt);
  const unreadyAt = new Map<number, number>();
  const readyAgain: Outcome[] = [];
  for (const probe of probes) {
    const worker = workerOf(probe);
    if (probe.result === 503 && !unreadyAt.has(worker)) unreadyAt.set(worker, probe.endedAt);
    if (probe.result !== 503 && unreadyAt.has(worker)) readyAgain.push(probe);
  }
  expect(readyAgain, 'readiness probes that passed after their worker had failed one').toEqual([]);
  expect([...unreadyAt.keys()].sort(), 'the workers that failed /readyz').toEqual([...new Set(probes.map(workerOf))].sort());
  return unreadyAt;
}
