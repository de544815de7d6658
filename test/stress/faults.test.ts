/**
 * Disk faults under the built server. Each fault is made real under a running server, and each must
 * give a 503 `service_unavailable` whose message names the cause, never a crash; reads go on; the
 * error log names SQLite's code; and the next write succeeds once the fault is gone, without a restart.
 *
 * How the faults are made — as root, file permissions stop nothing (CI runs as root), so:
 * - a full disk: the data directory on a small tmpfs, filled to the last page by a ballast file (real
 *   ENOSPC, SQLITE_FULL); freeing it is the recovery. Mounting needs CAP_SYS_ADMIN; where the machine
 *   refuses, the file-size limit below stands in (SQLite then reports the failed write as an I/O error);
 * - a disk that refuses every write, as a file system remounted read-only does: the kernel's file-size
 *   limit of the server process set to 0 with `prlimit` (unprivileged for one's own processes), so that
 *   every write to a file fails (EFBIG; SQLite reports SQLITE_IOERR_WRITE, exactly as for EROFS);
 *   lifting the limit is the recovery;
 * - a database locked by another process (an operator's long transaction) for longer than the
 *   server's five-second busy timeout: SQLITE_BUSY.
 *
 * Starting on a disk that refuses writes is refused with one line (exit 1), not a stack trace.
 *
 * Nothing here loads the machine, and its one timed check is a lower bound (the refusal comes after the
 * busy timeout, not before), which a busy machine cannot fail: the suite runs beside the other test
 * files (vitest.config.ts). The geocoder's faults, whose answers are timed, are geocoder-faults.test.ts's.
 */
import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/auth/keys.ts';
import { DATABASE_FILE } from '../../src/store/sqlite/sqlite-files.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite.ts';
import { SpawnedServer, dispose, ensureBuilt, generate, healthStatus, limitFileSize, lookupStatus, post } from './harness.ts';

/** Mounts a tmpfs of `size` at `dir`; false when the machine does not let us. */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes to `file` until the disk has no page left; returns the bytes written. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (const chunk of [1 << 20, 4096, 1]) {
      const bytes = Buffer.alloc(chunk, 0x61);
      for (;;) {
        try {
          written += writeSync(fd, bytes);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

describe('disk faults under a running server', () => {
  let root: string;
  let dataDir: string;
  let tmpfs = false;
  let server: SpawnedServer;
  let key: string;

  beforeAll(async () => {
    ensureBuilt();
    root = mkdtempSync(join(tmpdir(), 'loc-faults-'));
    tmpfs = mountTmpfs(root, '24m');
    dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const store = openSqliteStore(dataDir);
    const account = await store.createAccount({ name: 'acme', partner: true, createdAt: Date.now() });
    ({ secret: key } = await issueKey(store, { accountId: account.id, origins: ['https://shop.example'], hourlyLimit: 1_000_000, createdAt: Date.now() }));
    await store.close();
    server = await SpawnedServer.start(dataDir);
    expect((await generate(server, key, 0)).status).toBe(200);
  });
  afterAll(async () => {
    await dispose(server, undefined);
    if (tmpfs) execFileSync('umount', [root]);
    rmSync(root, { recursive: true, force: true });
  });

  it('a full disk: 503 that says so, reads and health go on, writes work again once there is room', async () => {
    const ballast = join(root, 'ballast');
    let expectedMessage: RegExp;
    let expectedLog: string;
    if (tmpfs) {
      fillDisk(ballast);
      expectedMessage = /its storage is full/;
      expectedLog = 'SQLITE_FULL';
    } else {
      // No mount here: let the server's own files grow by nothing more.
      limitFileSize(server.pid, 0);
      expectedMessage = /an I\/O error/;
      expectedLog = 'SQLITE_IOERR';
    }
    const refused = await generate(server, key, 1);
    console.log(`disk full (${tmpfs ? 'tmpfs filled to the last page' : 'file-size limit 0, tmpfs not mountable here'}): ${refused.status} ${refused.code}: ${refused.message}`);
    // A full disk waits for its operator; an I/O error may pass sooner.
    expect(refused).toMatchObject({ status: 503, code: 'service_unavailable', message: expect.stringMatching(expectedMessage), retryAfter: tmpfs ? '60' : '10' });
    expect(await generate(server, key, 2)).toMatchObject({ status: 503 });
    expect(await lookupStatus(server, key)).toBe(200);
    expect(await healthStatus(server)).toBe(200);
    expect(server.running).toBe(true);
    await expect.poll(() => server.output()).toContain(expectedLog);

    if (tmpfs) rmSync(ballast);
    else limitFileSize(server.pid, 'unlimited');
    expect(await generate(server, key, 1)).toMatchObject({ status: 200 });
    expect(await generate(server, key, 3)).toMatchObject({ status: 200 });
  });

  it('a disk that refuses every write, as a read-only one: 503 naming an I/O error, then recovery', async () => {
    limitFileSize(server.pid, 0);
    try {
      const refused = await generate(server, key, 10);
      console.log(`disk refusing writes (file-size limit 0): ${refused.status} ${refused.code}: ${refused.message}`);
      expect(refused).toMatchObject({ status: 503, code: 'service_unavailable', message: expect.stringMatching(/an I\/O error/), retryAfter: '10' });
      const session = await post(server, '/v1/embed/sessions', key, { origin: 'https://shop.example' });
      expect(session.status).toBe(503);
      expect(await lookupStatus(server, key)).toBe(200);
      await expect.poll(() => server.output()).toContain('SQLITE_IOERR_WRITE');
    } finally {
      limitFileSize(server.pid, 'unlimited');
    }
    expect(await generate(server, key, 10)).toMatchObject({ status: 200 });
    expect(server.running).toBe(true);
  });

  it('a database locked by another process beyond the busy timeout: 503 busy, reads go on, then recovery', async () => {
    const other = new Database(join(dataDir, DATABASE_FILE));
    other.exec('BEGIN IMMEDIATE');
    try {
      const started = performance.now();
      const refused = await generate(server, key, 20);
      const waited = performance.now() - started;
      console.log(`database locked elsewhere: ${refused.status} ${refused.code} after ${Math.round(waited)} ms: ${refused.message}`);
      expect(refused).toMatchObject({ status: 503, code: 'service_unavailable', message: expect.stringMatching(/busy/), retryAfter: '1' });
      expect(waited).toBeGreaterThanOrEqual(4900);
      expect(await lookupStatus(server, key)).toBe(200);
      await expect.poll(() => server.output()).toContain('SQLITE_BUSY');
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    expect(await generate(server, key, 20)).toMatchObject({ status: 200 });
  }, 20_000);

  it('kept everything written before, between and after the faults', () => {
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const labels = db.prepare<[], { label: string }>('SELECT label FROM locations ORDER BY label').all().map((row) => row.label);
      expect(labels).toEqual(['fault 0', 'fault 1', 'fault 10', 'fault 20', 'fault 3']);
    } finally {
      db.close();
    }
  });
});

describe('starting on a disk that refuses writes', () => {
  it('loc serve exits 1 with one line naming the data directory and the cause, not a stack trace', async () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'loc-faults-start-'));
    try {
      const child = spawn('prlimit', ['--fsize=0', process.execPath, 'dist/cli.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
        env: { ...process.env, LOC_DATA_DIR: dir, LOC_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk));
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(`error: cannot open the database in ${dir}: disk I/O error (SQLITE_IOERR_WRITE)\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
