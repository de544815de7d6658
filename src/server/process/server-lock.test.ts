/**
 * The data directory's lock, on real files: who holds it, when a left-over file is taken over, and
 * that only its holder removes it. Two real servers on one directory: src/cli/serve-command.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir } from './server-lock.ts';
import { StartFailure } from './start-failure.ts';

/** The pid of a process that has exited: a lock left by a server that was killed. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the data directory lock', () => {
  let dataDir: string;
  let file: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'loc-lock-'));
    file = join(dataDir, LOCK_FILE);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('holds the pid of this process, alone, until released', () => {
    const lock = lockDataDir(dataDir);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses while another running process holds it, naming the pid and the file', () => {
    // The parent of this test process runs, and is not this process.
    writeFileSync(file, `${process.ppid}\n`);
    expect(() => lockDataDir(dataDir)).toThrow(
      new StartFailure(
        `another loc server (pid ${process.ppid}) is running on ${dataDir}; its lock file is ${file}: stop that server first, or remove the file if that process is not a loc server`,
      ),
    );
    expect(readFileSync(file, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('takes over the file of a process that is gone', async () => {
    writeFileSync(file, `${await deadPid()}\n`);
    const lock = lockDataDir(dataDir);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
  });

  it('takes over a file written before the machine started, whatever runs under its pid now', () => {
    writeFileSync(file, `${process.ppid}\n`);
    utimesSync(file, new Date('2000-01-01'), new Date('2000-01-01'));
    const lock = lockDataDir(dataDir);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
  });

  it('takes over a file that holds no pid', () => {
    writeFileSync(file, 'not a pid\n');
    lockDataDir(dataDir).release();
    expect(existsSync(file)).toBe(false);
  });

  it('is shared by the servers of one process, and removed when the last one releases it', () => {
    const first = lockDataDir(dataDir);
    const second = lockDataDir(dataDir);
    first.release();
    first.release();
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    second.release();
    expect(existsSync(file)).toBe(false);
  });

  it('leaves a file that another server has put in its place', () => {
    const lock = lockDataDir(dataDir);
    writeFileSync(file, `${process.ppid}\n`);
    lock.release();
    expect(readFileSync(file, 'utf8')).toBe(`${process.ppid}\n`);
  });
});
