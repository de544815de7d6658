/**
 * Many clients on keep-alive connections against a fleet of servers, the requests dealt out to the
 * servers in turn as a load balancer would. Every request ends as an answer: its status, error code,
 * `RateLimit-*` and `Retry-After`, or — when no answer came, as when the process holding the
 * connection is killed — status 0 with the socket's error. Nothing rejects, so a suite counts dropped
 * connections (and may require none) instead of stopping at the first. With the checks every burst
 * against an hourly limit makes of its answers.
 */
import { Agent, request } from 'node:http';
import { expect } from 'vitest';

/** One request: where (a path on whichever server's turn it is), how, and a tag the suite sorts answers by. */
export interface Call {
  tag: string;
  path: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** JSON text. */
  body?: string;
}

export interface Answer {
  tag: string;
  /** 0: no answer came (`error` says why). */
  status: number;
  /** The error body's `code`. */
  code?: string;
  /** RateLimit-Limit and RateLimit-Remaining; NaN when absent. */
  limit: number;
  remaining: number;
  /** Retry-After, seconds. */
  retryAfter?: number;
  error?: string;
  /** This process's clock when the request was sent and when its answer (or error) came. */
  sentAt: number;
  answeredAt: number;
  /** Which server of the fleet it went to. */
  server: number;
}

export class KeepAliveLoad {
  private readonly agent: Agent;
  private sent = 0;

  /**
   * `sockets`: connections at most per server; `timeoutMs`: how long a request may wait for its
   * answer before it counts as dropped.
   */
  constructor(private readonly urls: readonly string[], sockets: number, private readonly timeoutMs = 15_000) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(call: Call): Promise<Answer> {
    const server = this.sent++ % this.urls.length;
    const sentAt = Date.now();
    const headers = { ...call.headers, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) };
    return new Promise((resolve) => {
      const dropped = (error: Error & { code?: string }): void =>
        resolve({ tag: call.tag, status: 0, limit: NaN, remaining: NaN, error: error.code ?? error.message, sentAt, answeredAt: Date.now(), server });
      const outgoing = request(`${this.urls[server]}${call.path}`, { method: call.method ?? 'GET', agent: this.agent, headers, timeout: this.timeoutMs }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => void (text += chunk));
        response.on('error', dropped);
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          resolve({
            tag: call.tag,
            status: response.statusCode!,
            code: response.statusCode === 200 ? undefined : codeOf(text),
            limit: Number(response.headers['ratelimit-limit'] ?? NaN),
            remaining: Number(response.headers['ratelimit-remaining'] ?? NaN),
            retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
            sentAt,
            answeredAt: Date.now(),
            server,
          });
        });
      });
      outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
      outgoing.on('error', dropped);
      outgoing.end(call.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The `code` of an error body, if it is one. */
function codeOf(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** Hands out `calls` once each, in a random order (so that keys and servers race each other), then null. */
export function inRandomOrder(calls: Call[]): () => Call | null {
  for (let i = calls.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [calls[i], calls[j]] = [calls[j], calls[i]];
  }
  let next = 0;
  return () => calls[next++] ?? null;
}

/**
 * Runs `clients` loops at once, each sending what `next` gives until it gives null, then waiting
 * `pause(answer)` ms (default none) before asking again; resolves with every answer, in order of arrival.
 */
export async function runClients(load: KeepAliveLoad, clients: number, next: () => Call | null, pause: (answer: Answer) => number = () => 0): Promise<Answer[]> {
  const answers: Answer[] = [];
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let call = next(); call !== null; call = next()) {
      const answer = await load.send(call);
      answers.push(answer);
      const ms = pause(answer);
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    }
  }));
  return answers;
}

/** The count a request let through made: its limit less what it left. */
export const countOf = (answer: Answer): number => answer.limit - answer.remaining;

/** Every answer is a 200 or a 429 `rate_limited` with nothing left; the counts of the 200s, sorted. */
export function passedCounts(answers: Answer[]): number[] {
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(refused.filter((answer) => answer.status !== 429 || answer.code !== 'rate_limited' || answer.remaining !== 0)).toEqual([]);
  return answers.filter((answer) => answer.status === 200).map(countOf).sort((a, b) => a - b);
}

/** Each 429 points at `end`, the end of its window on this process's clock, to the second. */
export function expectRetryAfter(answers: Answer[], end: number): void {
  const wrong = answers.filter((answer) => answer.status === 429).filter(({ retryAfter, sentAt, answeredAt }) =>
    retryAfter === undefined || retryAfter < Math.max(1, Math.floor((end - answeredAt) / 1000)) || retryAfter > Math.ceil((end - sentAt) / 1000) + 1);
  expect(wrong).toEqual([]);
}
