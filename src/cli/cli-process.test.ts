/**
 * The built `loc` (dist/cli.js) as the process an operator runs, for what only a process of its own
 * shows: the exit codes the shell sees, the executable itself (package.json's bin, its shebang, its
 * --help), the settings read from the process's environment, and what other processes do to it —
 * SQLite's locks held by another process, Ctrl-C, a file size limit, a file system on which a call
 * could loop for ever. Every other CLI suite runs the program in-process (test/support/cli.ts).
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.ts';
import { ROOT, childEnv, runLoc, runProcess } from '../../test/support/loc-process.ts';
import { DATABASE_FILE } from '../store/sqlite/sqlite-files.ts';
import { openSqliteStore } from '../store/sqlite/sqlite.ts';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const made: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loc-cli-process-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new data directory with a database holding the account acme, made in-process. */
async function withAccount(): Promise<string> {
  const dir = scratch();
  expect((await runCli({ LOC_DATA_DIR: dir }, 'accounts', 'create', '--name', 'acme')).code).toBe(0);
  return dir;
}

describe('the built loc', () => {
  it('exits 0 when done, 1 on an error of the work and 2 on a usage mistake, as the shell sees it', async () => {
    const [done, failed, misused] = await Promise.all([
      runLoc({}, 'encode', '48.8584', '2.2945'),
      runLoc({}, 'encode', '91', '0'),
      runLoc({}, 'bogus'),
    ]);
    expect(done).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\{"loc_code":"FR-/), stderr: '' });
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(failed.stderr)).toMatchObject({ code: 'validation_error' });
    expect(misused).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'bogus' (see --help)\n" });
  });

  it("runs as package.json's bin, an executable with a shebang for node, and prints its --help", async () => {
    const bin = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { loc: string } }).bin.loc;
    expect(readFileSync(join(ROOT, bin), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    // Run as the file itself, not through node: the shell's way, which needs the shebang and the mode.
    const help = await runProcess(join(ROOT, bin), ['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: loc \[options\] \[command\]\n/);
    for (const command of ['encode', 'decode', 'serve', 'mock', 'accounts', 'keys', 'users', 'audit', 'test-data', 'backup', 'db']) {
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    }
  });
});

describe("the process's environment", () => {
  it('names a mistyped setting on stderr, with the setting it is near, before the command does its work', async () => {
    const listed = await runLoc({ LOC_DATA_DIR: await withAccount(), LOC_DATADIR: '/srv/loc' }, 'accounts', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('warning: LOC_DATADIR is not a loc setting and is ignored; did you mean LOC_DATA_DIR?\n');
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ name: 'acme' })]);
  });

  it('without LOC_DATA_DIR, where ./data has no database: refused, saying which directory was used', async () => {
    const cwd = scratch();
    const failed = await runProcess(process.execPath, [join(ROOT, 'dist/cli.js'), 'accounts', 'list'], { cwd });
    expect(failed).toEqual({
      code: 1, stdout: '',
      stderr: `error: there is no loc database in ${join(cwd, 'data')} (the directory does not exist); LOC_DATA_DIR is not set, so ./data was used: set it to the server's data directory (loc accounts create starts a new database).\n`,
    });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('a data directory that cannot hold a database', () => {
  it('is on a file system that takes no directories (/proc): accounts create says so in one line, exit 1, and does not hang', async () => {
    // Node's recursive mkdir loops for ever on /proc's ENOENT, in a synchronous call: only a process
    // of its own, ended by the timeout, lets such a loop fail the test rather than hang the suite.
    const failed = await runProcess(process.execPath, ['dist/cli.js', 'accounts', 'create', '--name', 'acme'], { env: { LOC_DATA_DIR: '/proc/loc-data' }, timeout: 15_000 });
    expect(failed).toEqual({
      code: 1, stdout: '', stderr: "error: cannot open the database in /proc/loc-data: ENOENT: no such file or directory, mkdir '/proc/loc-data'\n",
    });
  });

  it('fails while a command works (locked by another process past busy_timeout, 5 s): one line, exit 1', async () => {
    const dir = await withAccount();
    // Another writer holding the lock longer than the CLI waits: SQLITE_BUSY in the middle of the work.
    const holder = new Database(join(dir, DATABASE_FILE));
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(await runLoc({ LOC_DATA_DIR: dir }, 'accounts', 'set-partner', 'acme', '--on')).toEqual({
        code: 1, stdout: '', stderr: `error: cannot use the database in ${dir}: database is locked (SQLITE_BUSY)\n`,
      });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});

describe('loc backup, as a process', () => {
  it('interrupted by Ctrl-C, leaves nothing at the target and no partial copy, and exits 130', async () => {
    const dir = await withAccount();
    const database = join(dir, DATABASE_FILE);
    const db = new Database(database);
    db.exec('CREATE TABLE ballast (b BLOB); CREATE TABLE churn (n INTEGER)');
    db.prepare('INSERT INTO ballast VALUES (zeroblob(?))').run(64 * 1024 * 1024);
    // Another process writing all the while: SQLite's online backup starts over whenever another
    // connection changes the database, so the copy stays under way until Ctrl-C, however fast the disk.
    const script = `const d = new (require('better-sqlite3'))(${JSON.stringify(database)}); const add = d.prepare('INSERT INTO churn VALUES (1)'); setInterval(() => add.run(), 1);`;
    const writer = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      await expect.poll(() => db.prepare('SELECT count(*) FROM churn').pluck().get(), { timeout: 10_000 }).toBeGreaterThan(0);
      const out = scratch();
      const child = spawn(process.execPath, ['dist/cli.js', 'backup', join(out, 'copy.db')], { cwd: ROOT, env: childEnv({ LOC_DATA_DIR: dir }), stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // The copy is under way: its partial file is there. Then the operator presses Ctrl-C.
      await expect.poll(() => readdirSync(out), { timeout: 10_000 }).toContainEqual(expect.stringMatching(/^\.copy\.db\.partial-\d+$/));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      writer.kill();
      db.close();
    }
  });

  it('leaves no file behind when the copy cannot be written (a file size limit of 0)', async () => {
    const dir = await withAccount();
    // Open here as a server keeps it: its -wal and -shm are there, so prlimit lets the database be
    // read, but no byte of the copy be written.
    const server = openSqliteStore(dir, { create: false });
    try {
      const copy = join(scratch(), 'partial.db');
      const failed = await runProcess('prlimit', ['--fsize=0', process.execPath, 'dist/cli.js', 'backup', copy], { env: { LOC_DATA_DIR: dir } });
      expect(failed).toMatchObject({ code: 1, stderr: expect.stringMatching(new RegExp(`^error: the backup to ${escapeRegExp(copy)} failed: .+ \\(SQLITE_\\w+\\)\\n$`)) });
      expect(existsSync(copy)).toBe(false);
    } finally {
      await server.close();
    }
  });
});
