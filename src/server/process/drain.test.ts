/**
 * The drain of the built `loc serve`, as a load balancer meets it: requests sent all along on fresh
 * and keep-alive connections, a readiness probe, then SIGTERM. `/readyz` fails at once while every
 * request is still answered, new connections too, for LOC_DRAIN_MS; the balancer, having seen it
 * fail, stops sending; only after the drain is the port closed. Ctrl-C (SIGINT) does not drain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type OnTestFinishedHandler } from 'vitest';
import { spawnLoc, type Spawned } from '../../../test/support/loc-process.ts';

const DRAIN_MS = 1500;

/** How long after it saw `/readyz` fail the balancer of this test still sends: inside the drain, well clear of its end. */
const BALANCER_LAG_MS = 1000;

/** One request and what became of it; times in ms from the SIGTERM. */
interface Outcome {
  via: 'fresh' | 'keep-alive' | 'readyz' | 'probe';
  sentAt: number;
  endedAt: number;
  /** The status, or `refused` (the connection was), or the error that cut it. */
  result: number | 'refused' | string;
  connection?: string;
}

/** `loc serve` on a data directory of its own, stopped and removed when the test ends. */
async function started(env: Record<string, string>, onTestFinished: (handler: OnTestFinishedHandler) => void): Promise<{ spawned: Spawned; port: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-drain-'));
  const spawned = spawnLoc(['serve', '--port', '0', '--host', '127.0.0.1'], { env: { LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'info', ...env } });
  onTestFinished(async () => {
    await spawned.stop(1000);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { spawned, port: Number(new URL((await spawned.ready()).url).port) };
}

/** GET `path` on a connection of `agent`'s (false: a fresh one); `t0` is when the SIGTERM was (or will be) sent. */
function get(port: number, path: string, agent: Agent | false, via: Outcome['via'], t0: () => number): Promise<Outcome> {
  const sentAt = performance.now() - t0();
  return new Promise((resolve) => {
    const done = (result: Outcome['result'], connection?: string) => resolve({ via, sentAt, endedAt: performance.now() - t0(), result, connection });
    const asked = request({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.once('end', () => done(response.statusCode!, response.headers.connection));
      response.once('error', (error) => done(error.message));
    });
    asked.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'refused' : `${error.code ?? ''} ${error.message}`));
    asked.end();
  });
}

// Each test has its own server: they run side by side, and the file takes the time of the longer one.
describe.concurrent('loc serve, stopped', () => {
  it('on SIGTERM fails /readyz at once, serves every request — new connections too — through the drain, and only then refuses connections', async ({ expect, onTestFinished }) => {
    const { spawned, port } = await started({ LOC_DRAIN_MS: String(DRAIN_MS) }, onTestFinished);
    let signalledAt = Infinity;
    const t0 = () => (signalledAt === Infinity ? performance.now() + 1e9 : signalledAt);
    // Ready once the codec's tables are loaded, just after the ready line.
    await expect.poll(async () => (await get(port, '/readyz', false, 'readyz', t0)).result, { timeout: 10_000, interval: 20 }).toBe(200);

    const outcomes: Outcome[] = [];
    let sending = true;
    const loop = async (ask: () => Promise<Outcome>, pauseMs: number) => {
      while (sending) {
        outcomes.push(await ask());
        await sleep(pauseMs);
      }
    };
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const loops = Promise.all([
      loop(() => get(port, '/livez', false, 'fresh', t0), 5),
      loop(() => get(port, '/livez', keepAlive, 'keep-alive', t0), 5),
      loop(() => get(port, '/readyz', false, 'readyz', t0), 25),
    ]);
    await sleep(300);
    signalledAt = performance.now();
    spawned.child.kill('SIGTERM');
    // The balancer stops sending once it has seen /readyz fail (or a connection refused), and a while more.
    await expect.poll(() => outcomes.some(({ via, result }) => (via === 'readyz' && result === 503) || result === 'refused'), { timeout: DRAIN_MS, interval: 10 }).toBe(true);
    await sleep(Math.max(0, signalledAt + BALANCER_LAG_MS - performance.now()));
    sending = false;
    await loops;
    keepAlive.destroy();

    // Once the server says it closed, a new connection is refused.
    await spawned.waitFor(/"msg":"closed"/);
    const closedAt = performance.now() - signalledAt;
    const probe = await get(port, '/livez', false, 'probe', t0);
    expect((await spawned.exited).code).toBe(0);

    const lost = outcomes.filter(({ result }) => typeof result === 'string' && result !== 'refused');
    expect(lost, 'requests that got neither an answer nor a refusal').toEqual([]);
    expect(outcomes.filter(({ result }) => result === 'refused'), 'connections refused while the balancer still sent, within the drain').toEqual([]);
    const unready = outcomes.filter(({ via, result }) => via === 'readyz' && result === 503).map(({ endedAt }) => endedAt);
    const served = outcomes.filter(({ via, sentAt }) => via !== 'readyz' && sentAt > 0);
    expect(served.filter(({ result }) => result !== 200), 'answers in the drain that were not 200').toEqual([]);
    expect(served.filter(({ via }) => via === 'fresh').length, 'requests on new connections in the drain').toBeGreaterThan(5);
    const kept = served.filter(({ via, sentAt }) => via === 'keep-alive' && sentAt > unready[0]);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.filter(({ connection }) => connection !== 'close'), 'keep-alive answers in the drain that kept their connection').toEqual([]);
    expect(outcomes.filter(({ via, sentAt }) => via === 'keep-alive' && sentAt < 0).map(({ connection }) => connection)).toContain('keep-alive');
    // The order a balancer needs: unready first, the port closed only once the drain is over.
    expect(Math.min(...unready)).toBeLessThan(BALANCER_LAG_MS);
    expect(closedAt).toBeGreaterThanOrEqual(DRAIN_MS);
    expect({ result: probe.result, after: probe.sentAt > Math.min(...unready) && probe.sentAt >= DRAIN_MS }).toEqual({ result: 'refused', after: true });
    expect(spawned.output()).toContain('"msg":"draining: readiness fails, requests are still served"');
  });

  it('on SIGINT does not drain: it closes at once, whatever LOC_DRAIN_MS says', async ({ expect, onTestFinished }) => {
    const { spawned } = await started({ LOC_DRAIN_MS: '60000' }, onTestFinished);
    spawned.child.kill('SIGINT');
    // Far sooner than the drain would end, however loaded the machine.
    const exit = await Promise.race([spawned.exited, sleep(10_000).then(() => 'still running 10 s after SIGINT')]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(spawned.output()).toContain('"msg":"closed"');
    expect(spawned.output()).not.toContain('draining');
  });
});
