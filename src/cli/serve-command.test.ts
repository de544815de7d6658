/**
 * `loc serve` as an operator runs it: the built CLI as a child process on temporary data directories.
 * A start that cannot listen says why in one line; a signal during the start is not lost; one server
 * per data directory; the development key allows the origins of --dev-origin; offline tiles come from
 * the built tile worker. The settings refused before anything starts are checked in-process
 * (test/support/cli.ts), as are the operator commands run beside a server. (`npm start`, the service
 * beside the demo: demo/start.test.ts.)
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../store/sqlite/sqlite-migrations.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { DEV_KEY_FILE } from '../server/process/dev-seed.ts';
import { LOCK_FILE } from '../server/process/server-lock.ts';
import { runCli } from '../../test/support/cli.ts';
import { finished, leftBehind, occupyPort, spawnLoc, type Spawned } from '../../test/support/loc-process.ts';

/** The port of the server's ready line. */
const readyPort = async (server: Spawned): Promise<number> => Number(new URL((await server.ready()).url).port);

const serveEnv = (dataDir: string, env: Record<string, string>) => ({ LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'warn', LOC_TILES: 'offline', ...env });

const serve = (dataDir: string, args: string[], env: Record<string, string> = {}) => spawnLoc(['serve', ...args], { env: serveEnv(dataDir, env) });

/** `loc serve` in-process, for a start refused before anything is opened or listened on. */
const refusedServe = (dataDir: string, args: string[], env: Record<string, string> = {}) => runCli(serveEnv(dataDir, env), 'serve', ...args);

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-serve-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a start refused before it listens', () => {
  it('on a data directory that is a file: one line naming it and the cause, exit 1', async () => {
    const file = join(dataDir, 'not-a-directory');
    writeFileSync(file, '');
    const started = serve(file, ['--port', '0', '--host', '127.0.0.1']);
    expect(await finished(started)).toBe(1);
    expect(started.output()).toBe(`error: cannot open the database in ${file}: ${file} is not a directory\n`);
  });

  it('on a database written by a newer loc (a downgrade, a restored backup): one line naming it, exit 1', async () => {
    expect((await runCli({ LOC_DATA_DIR: dataDir }, 'accounts', 'create', '--name', 'acme')).code).toBe(0);
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.pragma('user_version = 99');
    db.close();
    const started = serve(dataDir, ['--port', '0', '--host', '127.0.0.1']);
    expect(await finished(started)).toBe(1);
    expect(started.output()).toBe(
      `error: cannot open the database in ${dataDir}: the database has schema version 99, newer than this loc knows (${MIGRATIONS.length}): it was written by a newer loc; run that version, or restore a backup made by this one\n`,
    );
    expect(leftBehind(dataDir)).toEqual([]);
  });

  it('on a bad --port, an empty --host or a bad cap, naming the flag rather than the variable it overrides, exit 2', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['--port', 'abc'], {}, 'error: --port must be an integer from 0 to 65535, received "abc". (see --help)\n'],
      [['--port', '70000'], { PORT: '18601' }, 'error: --port must be an integer from 0 to 65535, received "70000". (see --help)\n'],
      [['--port', '0', '--host', ''], {}, 'error: --host must be given a value, received "". (see --help)\n'],
      [[], { PORT: 'abc' }, 'error: PORT must be an integer from 0 to 65535, received "abc". (see --help)\n'],
      [['--max-origins-per-key', '0'], { LOC_MAX_ORIGINS_PER_KEY: '5' }, 'error: --max-origins-per-key must be an integer from 1 to 100000, received "0". (see --help)\n'],
    ];
    for (const [args, env, line] of cases) {
      expect(await refusedServe(dataDir, args, env), args.join(' ')).toEqual({ code: 2, stdout: '', stderr: line });
    }
  });

  it('with LOC_WORKERS=2 on SQLite (no LOC_DATABASE_URL): one line saying what to use instead, exit 2, before the database is touched', async () => {
    expect(await refusedServe(dataDir, ['--port', '0'], { LOC_WORKERS: '2' })).toEqual({
      code: 2, stdout: '',
      stderr: "error: LOC_WORKERS=2 starts 2 processes, but SQLite is one process's database: set LOC_DATABASE_URL to a PostgreSQL database they share, or set LOC_WORKERS=1. (see --help)\n",
    });
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
  });
});

describe('a start that cannot listen', () => {
  it('on a port in use: one line naming the address and the setting, exit 1', async () => {
    const { port, server } = await occupyPort('127.0.0.1');
    try {
      const started = serve(dataDir, ['--port', String(port), '--host', '127.0.0.1']);
      expect(await finished(started)).toBe(1);
      expect(started.output()).toBe(`error: cannot listen on 127.0.0.1:${port}: the port is in use (set PORT or --port)\n`);
      expect(leftBehind(dataDir)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it.each([
    ['a host name that does not resolve', 'no-such-host.invalid', 'the host name does not resolve'],
    ['an address that is not on this machine', '192.0.2.1', "that address is not one of this machine's"],
  ])('on %s: one line, exit 1', async (_, host, reason) => {
    // Nothing binds the port: the address fails first.
    const started = serve(dataDir, ['--port', '18799', '--host', host]);
    expect(await finished(started)).toBe(1);
    expect(started.output()).toBe(`error: cannot listen on ${host}:18799: ${reason} (set HOST or --host)\n`);
    expect(leftBehind(dataDir)).toEqual([]);
  });

  it('names a mistyped setting on stderr, with the setting it is near, and starts anyway', async () => {
    const started = serve(dataDir, ['--port', '0', '--host', '127.0.0.1'], { LOC_PUBLICURL: 'https://loc.example' });
    try {
      await started.ready();
      expect(started.output()).toContain('warning: LOC_PUBLICURL is not a loc setting and is ignored; did you mean LOC_PUBLIC_URL?\n');
      // The banner points to the partner panel, and says how a person gets in.
      expect(started.output()).toMatch(/^  panel      http:\/\/localhost:\d+\/panel   \(let a person in: loc accounts invite --account NAME --email EMAIL\)$/m);
    } finally {
      started.child.kill('SIGTERM');
      await finished(started);
    }
  });
});

describe('loc serve --seed-dev --dev-origin', () => {
  it('seeds a development key that allows each origin given, for sessions of pages there', async () => {
    const origins = ['http://localhost:18771', 'https://shop.example'];
    const server = serve(dataDir, ['--port', '0', '--host', '127.0.0.1', '--seed-dev', ...origins.flatMap((origin) => ['--dev-origin', origin])]);
    try {
      const { url } = await server.ready();
      const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
      for (const origin of [...origins, 'https://elsewhere.example']) {
        const session = await fetch(`${url}/v1/embed/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ origin }) });
        expect(session.status, origin).toBe(origin.includes('elsewhere') ? 403 : 200);
      }
      server.child.kill('SIGTERM');
      expect(await finished(server)).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('refuses an origin a key may not allow, naming the flag, before the database is touched (exit 2); and the flag without --seed-dev', async () => {
    const cases: [string[], string][] = [
      [['--seed-dev', '--dev-origin', 'http://shop.example'], 'error: --dev-origin must use https (plain http is accepted only for http://localhost:<port>), received "http://shop.example". (see --help)\n'],
      [['--dev-origin', 'http://localhost:3000'], 'error: --dev-origin is used only with --seed-dev (see --help)\n'],
    ];
    for (const [args, line] of cases) {
      expect(await refusedServe(dataDir, ['--port', '0', ...args]), args.join(' ')).toEqual({ code: 2, stdout: '', stderr: line });
      expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(false);
    }
  });
});

describe('a signal while loc serve starts', () => {
  it('is not lost: the start completes, then the server shuts down gracefully and exits 0', async () => {
    const server = serve(dataDir, ['--port', '0', '--host', '127.0.0.1', '--seed-dev'], { LOC_LOG_LEVEL: 'info' });
    try {
      // Printed after the database opened and before the server listens.
      await server.waitFor(/^Empty database: /m);
      server.child.kill('SIGTERM');
      expect(await finished(server)).toBe(0);
      expect(server.output()).toMatch(/loc is listening on [^]*"signal":"SIGTERM","msg":"shutting down[^]*"msg":"closed"/);
      expect(leftBehind(dataDir)).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

describe('one server per data directory', () => {
  it('refuses a second server while the first runs, not the operator commands; starts again once it stopped', async () => {
    const first = serve(dataDir, ['--port', '0', '--host', '127.0.0.1']);
    try {
      const port = await readyPort(first);
      const lockFile = join(dataDir, LOCK_FILE);
      expect(readFileSync(lockFile, 'utf8')).toBe(`${first.child.pid}\n`);

      const second = serve(dataDir, ['--port', '0', '--host', '127.0.0.1']);
      expect(await finished(second)).toBe(1);
      expect(second.output()).toBe(
        `error: another loc server (pid ${first.child.pid}) is running on ${dataDir}; its lock file is ${lockFile}: stop that server first, or remove the file if that process is not a loc server\n`,
      );
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      // Operator commands are meant to run beside the server.
      expect(await runCli({ LOC_DATA_DIR: dataDir }, 'accounts', 'create', '--name', 'acme')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created account acme/) });

      first.child.kill('SIGTERM');
      expect(await finished(first)).toBe(0);
      expect(existsSync(lockFile)).toBe(false);

      const third = serve(dataDir, ['--port', '0', '--host', '127.0.0.1']);
      await third.ready();
      third.child.kill('SIGTERM');
      expect(await finished(third)).toBe(0);
    } finally {
      first.child.kill('SIGKILL');
    }
  });

  it('takes over the lock file of a server that was killed', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(join(dataDir, LOCK_FILE), `${gone.pid}\n`);
    const server = serve(dataDir, ['--port', '0', '--host', '127.0.0.1']);
    try {
      await server.ready();
      expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toBe(`${server.child.pid}\n`);
      server.child.kill('SIGTERM');
      expect(await finished(server)).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

describe('loc serve with offline tiles', () => {
  it('draws them with its built tile worker, and exits 0 on SIGTERM with the worker started', async () => {
    const server = serve(dataDir, ['--port', '0', '--host', '127.0.0.1'], { LOC_LOG_LEVEL: 'info' });
    try {
      const port = await readyPort(server);
      // The detailed land outline too, which the worker loads on the first tile of zoom 6 or more.
      for (const path of ['streets/2/2/1', 'satellite/9/259/176']) {
        const tile = await fetch(`http://127.0.0.1:${port}/tiles/${path}.png`);
        expect(tile.status, path).toBe(200);
        expect(tile.headers.get('content-type')).toBe('image/png');
        expect((await tile.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      server.child.kill('SIGTERM');
      expect(await finished(server)).toBe(0);
      expect(server.output()).toContain('"msg":"closed"');
      expect(server.output()).not.toMatch(/"level":[56]0/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
