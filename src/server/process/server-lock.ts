/**
 * One server per data directory. The rate-limit counters and the cache of saved locations live in
 * the server process, so a second server on the same database would double every key's hourly limit
 * and serve locations the first one no longer has. The server holds `server.pid` in the data
 * directory while it runs: the file holds its pid, nothing else, so `kill $(cat data/server.pid)`
 * works. Operator commands never take it: they are meant to run beside the server.
 */
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { join } from 'node:path';
import { StartFailure } from './start-failure.ts';

export const LOCK_FILE = 'server.pid';

export interface ServerLock {
  readonly file: string;
  /** Removes the file (once every holder in this process has released it). */
  release(): void;
}

/**
 * Holders in this process, by file. A process may start several servers on one directory (the tests
 * do, to check what a restart sees); they share one lock, removed when the last one closes.
 */
const held = new Map<string, { holders: number; onExit: () => void }>();

/**
 * Takes the lock of `dataDir` (which exists), or throws a StartFailure naming the pid that holds it.
 * A lock whose process is gone — killed, crashed, or from before the machine restarted — is taken over.
 */
export function lockDataDir(dataDir: string): ServerLock {
  const file = join(dataDir, LOCK_FILE);
  const mine = held.get(file);
  if (mine !== undefined) {
    mine.holders++;
    return handle(file);
  }
  // A stale file is removed and the create tried again; a file that is back by then belongs to a
  // server that started meanwhile, and that one refuses us. (Two servers taking over the same stale
  // file in the same instant could both pass: one may remove the file the other has just made.
  // Starting two servers at once on a directory whose last server crashed is not guarded.)
  for (let attempt = 1; !create(file); attempt++) {
    const holder = liveHolder(file);
    if (holder !== null) {
      throw new StartFailure(
        `another loc server (pid ${holder}) is running on ${dataDir}; its lock file is ${file}: stop that server first, or remove the file if that process is not a loc server`,
      );
    }
    if (attempt === 3) throw new StartFailure(`cannot take the lock file ${file}: it keeps coming back; is another loc server starting?`);
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(file, error);
    }
  }
  // Also on process.exit (a second signal, the shutdown timeout): the next start then finds no file.
  const onExit = () => removeIfOurs(file);
  process.on('exit', onExit);
  held.set(file, { holders: 1, onExit });
  return handle(file);
}

function handle(file: string): ServerLock {
  let released = false;
  return {
    file,
    release: () => {
      const entry = held.get(file);
      if (released || entry === undefined) return;
      released = true;
      if (--entry.holders > 0) return;
      held.delete(file);
      process.off('exit', entry.onExit);
      removeIfOurs(file);
    },
  };
}

/**
 * Creates the file with our pid, atomically: written under a private name, then hard-linked into
 * place, which fails if the file exists. A reader never sees the file empty, as it could between an
 * exclusive create and its write. False when the file exists.
 */
function create(file: string): boolean {
  const draft = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(draft, `${process.pid}\n`, { mode: 0o644 });
  } catch (error) {
    throw cannotWrite(file, error);
  }
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotWrite(file, error);
  } finally {
    unlinkSync(draft);
  }
}

function cannotWrite(file: string, error: unknown): StartFailure {
  return new StartFailure(`cannot write the lock file ${file}: ${(error as Error).message}`);
}

/**
 * The pid of the loc server running on `dataDir`, or null: for a command that must not run beside
 * one (`loc db copy-from-sqlite`, which would miss what the server writes after it). A lock file that
 * cannot be read counts as none; the command then finds out what is wrong with the directory itself.
 */
export function runningServer(dataDir: string): number | null {
  try {
    return liveHolder(join(dataDir, LOCK_FILE));
  } catch {
    return null;
  }
}

/** The pid in the file when that process still runs and is not this one; null when the lock is stale. */
function liveHolder(file: string): number | null {
  let text: string;
  let writtenAt: number;
  try {
    text = readFileSync(file, 'utf8');
    writtenAt = statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const pid = /^\s*(\d+)\s*$/.test(text) ? Number(text) : NaN;
  // Not a pid: not a file a server wrote.
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  // A server restarted under the same pid (the first process of a container, say) is this one.
  if (pid === process.pid) return null;
  // Written before the machine last started: whatever runs under that pid now is another program,
  // pids start over at each boot.
  if (writtenAt < Date.now() - uptime() * 1000) return null;
  return isAlive(pid) ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the file unless another server has taken it over meanwhile (after deleting it by hand, say). */
function removeIfOurs(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
  } catch {
    // Already gone, or the directory with it: nothing to release.
  }
}
