/**
 * `npm start` (start.ts) as a developer runs it: the built service and the demo, each its own process,
 * on a temporary data directory. The demo listens on LOC_DEMO_PORT and gets its sessions with the
 * development key; a bad LOC_DEMO_PORT or LOC_DEMO_ORIGIN stops the start before the service starts;
 * when the demo cannot listen the service is stopped again; a signal to npm, or Ctrl-C to the whole
 * terminal group, stops both gracefully.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../src/store/sqlite/sqlite-files.ts';
import { finished, freePort, leftBehind, occupyPort, spawnProcess, type SpawnOptions } from '../test/support/loc-process.ts';

/** The launcher's line once both listen. */
const RUNNING = /npm start: the service on (http:\/\/\S+), the demo page on (http:\/\/\S+); Ctrl-C stops both/;

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-start-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** The environment of a start on the temporary directory: a port of the system's choice for the service, quiet logs. */
const startEnv = (env: Record<string, string>): Record<string, string> => ({
  LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_TILES: 'offline', LOC_LOG_LEVEL: 'warn', ...env,
});

/** start.ts itself, as `npm start` runs it once dist/ is built. */
const launch = (env: Record<string, string>, options: SpawnOptions = {}) =>
  spawnProcess(process.execPath, ['--import', 'tsx', 'demo/start.ts'], { ...options, env: startEnv(env) });

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether a TCP connection to the port is refused: nothing listens there any more. */
const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

describe('the demo beside the service', () => {
  it('when the demo cannot listen: one line, last, and the service it started is stopped again, exit 1', async () => {
    const { port, server } = await occupyPort('localhost');
    try {
      const started = launch({ LOC_DEMO_PORT: String(port) });
      expect(await finished(started)).toBe(1);
      const lines = started.output().trimEnd().split('\n');
      expect(lines.at(-1)).toBe(`error: the demo cannot listen on localhost:${port}: the port is in use (set LOC_DEMO_PORT)`);
      expect(started.output()).not.toMatch(/^\s+at /m);
      expect(leftBehind(dataDir)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('refuses a LOC_DEMO_PORT that is not a port, like any setting, before the service starts (exit 2)', async () => {
    const started = launch({ LOC_DEMO_PORT: '5173a' });
    expect(await finished(started)).toBe(2);
    expect(started.output()).toBe('error: LOC_DEMO_PORT must be an integer from 1 to 65535, received "5173a".\n');
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
  });

  it('refuses a LOC_DEMO_ORIGIN that is not an origin a key may allow, naming it, before the database is touched (exit 2)', async () => {
    const started = launch({ LOC_DEMO_ORIGIN: 'http://shop.example' });
    expect(await finished(started)).toBe(2);
    expect(started.output()).toBe('error: LOC_DEMO_ORIGIN must use https (plain http is accepted only for http://localhost:<port>), received "http://shop.example".\n');
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
    // The finer points of the embed's rule are the service's: it refuses the origin it is handed, just as early.
    const refusedByService = launch({ LOC_DEMO_ORIGIN: 'https://a_b.example' });
    expect(await finished(refusedByService)).toBe(2);
    expect(refusedByService.output()).toMatch(/^error: --dev-origin must not have "_" in its host name, received "https:\/\/a_b\.example"; .* \(see --help\)\n$/);
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
  });

  it('stops both, gracefully, on a signal that comes while they start (exit 0)', async () => {
    const started = launch({ LOC_DEMO_PORT: String(await freePort()) });
    try {
      // The service is ready and the demo about to start, or starting.
      await started.ready();
      started.child.kill('SIGTERM');
      expect(await finished(started)).toBe(0);
      expect(leftBehind(dataDir)).toEqual([]);
    } finally {
      started.child.kill('SIGKILL');
    }
  });
});

describe('npm start', () => {
  /** `npm start` on the temporary directory, a port of the system's choice and a free demo port. */
  async function npmStart(options: { detached?: boolean } = {}) {
    const demoPort = await freePort();
    const npm = spawnProcess('npm', ['start'], { env: startEnv({ LOC_DEMO_PORT: String(demoPort), LOC_LOG_LEVEL: 'info' }), detached: options.detached });
    const [, , demoUrl] = await npm.waitFor(RUNNING);
    // The server's own pid: under npm it is not the child we spawned.
    const { url, pid: serverPid } = await npm.ready();
    return { npm, demoPort, demoUrl, apiPort: Number(new URL(url).port), serverPid };
  }

  let orphans: number[] = [];
  afterEach(() => {
    // A server that outlived npm would hold its ports after the test.
    for (const pid of orphans) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    orphans = [];
  });

  it('serves the demo on LOC_DEMO_PORT, with sessions from the development key for its origin, and on a SIGTERM to npm shuts the server down gracefully', async () => {
    const { npm, demoPort, demoUrl, apiPort, serverPid } = await npmStart();
    orphans.push(serverPid);
    expect(demoUrl).toBe(`http://localhost:${demoPort}`);
    expect((await fetch(`http://127.0.0.1:${demoPort}/`)).status).toBe(200);
    // The seeded key allows the demo's origin on that port: the demo gets its sessions.
    const session = await fetch(`http://127.0.0.1:${demoPort}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(session.status).toBe(200);
    expect(serverPid).not.toBe(npm.child.pid);

    npm.child.kill('SIGTERM');
    expect((await npm.exited).code).toBe(0);
    expect(isAlive(serverPid)).toBe(false);
    expect(await refused(apiPort)).toBe(true);
    expect(await refused(demoPort)).toBe(true);
    await npm.closed;
    expect(npm.output()).toContain('"msg":"closed"');
    expect(leftBehind(dataDir)).toEqual([]);
  });

  it('on Ctrl-C, which reaches npm, the service and the demo and which npm forwards, shuts down once and exits 0', async () => {
    // Its own process group, as a terminal's foreground job: the SIGINT goes to every process in it.
    const { npm, demoPort, serverPid } = await npmStart({ detached: true });
    orphans.push(serverPid);
    process.kill(-npm.child.pid!, 'SIGINT');
    expect(await finished(npm)).toBe(0);
    expect(npm.output()).toContain('"msg":"closed"');
    expect(npm.output()).not.toContain('second signal');
    expect(await refused(demoPort)).toBe(true);
  });
});
