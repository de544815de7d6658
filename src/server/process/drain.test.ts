/**
 * The drain of the built `loc serve`, as a load balancer meets it: requests sent all along on fresh
 * and keep-alive connections, a readiness probe, then SIGTERM. `/readyz` fails at once while every
 * request is still answered, new connections too, for LOC_DRAIN_MS; the balancer, having seen it
 * fail, stops sending; only after the drain is the port closed. Ctrl-C (SIGINT) does not drain, and
 * a second signal during the drain ends it at once. A cluster's drain is cluster.test.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type OnTestFinishedHandler } from 'vitest';
import { Balancer, expectDrained } from '../../../test/support/balancer.ts';
import { spawnLoc, type ExitStatus, type Spawned } from '../../../test/support/loc-process.ts';

const DRAIN_MS = 1500;

/** How long after it saw `/readyz` fail the balancer of this test still sends: inside the drain, well clear of its end. */
const BALANCER_LAG_MS = 1000;

/** Longer than REPEATED_SIGNAL_MS (server.ts): the same signal again is then a second one, not the first delivered twice. */
const PAST_REPEAT_MS = 700;

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

/**
 * Its exit, once its output is complete (the exit may be seen before its last lines are read), or
 * that it still runs 10 s after `what`: far sooner than any drain here ends, however loaded the machine.
 */
function ending(spawned: Spawned, what: string): Promise<ExitStatus | string> {
  return Promise.race([spawned.closed.then(() => spawned.exited), sleep(10_000).then(() => `still running 10 s after ${what}`)]);
}

// Each test has its own server: they run side by side, and the file takes the time of the longer one.
describe.concurrent('loc serve, stopped', () => {
  it('on SIGTERM fails /readyz at once, serves every request — new connections too — through the drain, and only then refuses connections', async ({ expect, onTestFinished }) => {
    const { spawned, port } = await started({ LOC_DRAIN_MS: String(DRAIN_MS) }, onTestFinished);
    const balancer = new Balancer(port);
    // Ready once the codec's tables are loaded, just after the ready line.
    await expect.poll(async () => (await balancer.get('/readyz', false, 'readyz')).result, { timeout: 10_000, interval: 20 }).toBe(200);
    await balancer.sendThrough(() => spawned.child.kill('SIGTERM'), BALANCER_LAG_MS);

    // Once the server says it closed, a new connection is refused.
    await spawned.waitFor(/"msg":"closed"/);
    const closedAt = balancer.since();
    const probe = await balancer.get('/livez', false, 'probe');
    expect((await spawned.exited).code).toBe(0);

    const unready = expectDrained(balancer.outcomes, BALANCER_LAG_MS);
    // The order a balancer needs: unready first, the port closed only once the drain is over.
    expect(closedAt).toBeGreaterThanOrEqual(DRAIN_MS);
    expect({ result: probe.result, after: probe.sentAt > unready && probe.sentAt >= DRAIN_MS }).toEqual({ result: 'refused', after: true });
    expect(spawned.output()).toContain('"msg":"draining: readiness fails, requests are still served"');
  });

  it('on SIGINT does not drain: it closes at once, whatever LOC_DRAIN_MS says', async ({ expect, onTestFinished }) => {
    const { spawned } = await started({ LOC_DRAIN_MS: '60000' }, onTestFinished);
    spawned.child.kill('SIGINT');
    expect(await ending(spawned, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(spawned.output()).toContain('"msg":"closed"');
    expect(spawned.output()).not.toContain('draining');
  });

  it('on SIGTERM again during the drain, once past the time a forwarded copy takes, exits at once with code 1, saying why', async ({ expect, onTestFinished }) => {
    const { spawned } = await started({ LOC_DRAIN_MS: '30000' }, onTestFinished);
    spawned.child.kill('SIGTERM');
    await spawned.waitFor(/"msg":"draining: /);
    await sleep(PAST_REPEAT_MS);
    spawned.child.kill('SIGTERM');
    expect(await ending(spawned, 'the second SIGTERM')).toEqual({ code: 1, signal: null });
    expect(spawned.output()).toContain('"signal":"SIGTERM","msg":"second signal: exiting without waiting"');
    expect(spawned.output()).not.toContain('"msg":"closed"');
  });

  it('on SIGINT just after SIGTERM, exits at once with code 1, saying why though the log is still writing the drain\'s line', async ({ expect, onTestFinished }) => {
    const { spawned } = await started({ LOC_DRAIN_MS: '30000' }, onTestFinished);
    // Just after its ready line the process is busy (the codec's tables load): the drain's line is
    // still being written when the second signal's is logged behind it. Apart, so that SIGTERM comes
    // first: of two signals pending at once, the kernel delivers SIGINT first.
    spawned.child.kill('SIGTERM');
    await sleep(20);
    spawned.child.kill('SIGINT');
    expect(await ending(spawned, 'SIGINT')).toEqual({ code: 1, signal: null });
    expect(spawned.output()).toContain('"msg":"draining: readiness fails, requests are still served"');
    expect(spawned.output()).toContain('"signal":"SIGINT","msg":"second signal: exiting without waiting"');
    expect(spawned.output()).not.toContain('"msg":"closed"');
  });
});
