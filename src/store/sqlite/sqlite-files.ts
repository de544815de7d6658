/**
 * Where the SQLite database lives: `loc.db` in the data directory. The directory is the owner's alone
 * (mode 0700), made as `mkdir -p` would but never looping; a command that must not create a database
 * finds one there or says what it found instead (NoDatabase). What the file system answers about the
 * directory leaves as the store's StoreUnavailable when it is the machine's doing.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NoDatabase, StoreUnavailable, type UnavailableReason } from '../store.ts';

/** The database file inside the data directory. */
export const DATABASE_FILE = 'loc.db';

/** What the file system says when the data directory cannot be made, as a reason the service can give. */
const ERRNO_REASONS: Readonly<Record<string, UnavailableReason>> = {
  ENOSPC: 'full', EROFS: 'read-only', EIO: 'io-error', EACCES: 'cannot-open', EPERM: 'cannot-open', ENOENT: 'cannot-open', ENOTDIR: 'cannot-open',
};

/** A file-system error about the data directory as StoreUnavailable when it is the machine's doing; otherwise unchanged. */
function translateErrno(error: unknown): unknown {
  const reason = ERRNO_REASONS[(error as NodeJS.ErrnoException).code ?? ''];
  return reason === undefined ? error : new StoreUnavailable(reason, (error as Error).message, { cause: error });
}

/**
 * A data directory that exists but is a file (or anything else but a directory). Node's own words,
 * "EEXIST: file already exists, mkdir", read as if all were well; this says what is wrong.
 */
const notADirectory = (dataDir: string, cause?: unknown): StoreUnavailable =>
  new StoreUnavailable('cannot-open', `${dataDir} is not a directory`, { cause });

/**
 * Makes the data directory (`create`) or requires a database in it; either way throws StoreUnavailable
 * or NoDatabase saying what is wrong.
 */
export function prepareDataDir(dataDir: string, create: boolean): void {
  if (create) makeDataDir(dataDir);
  else requireDatabaseFile(dataDir);
}

function makeDataDir(dataDir: string): void {
  try {
    makeDirectories(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw notADirectory(dataDir, error);
    throw translateErrno(error);
  }
}

/**
 * `mkdir -p` with mode 0700. Not Node's `mkdirSync(…, { recursive: true })`: where a file system
 * answers ENOENT although the parent exists (/proc, /sys/…), Node's loop retries forever at full CPU,
 * and `loc serve` would hang without a word. Here a second ENOENT is the answer.
 */
function makeDirectories(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeDirectories(dirname(dir));
    mkdirSync(dir, { mode: 0o700 });
  }
}

/** Throws NoDatabase unless `dataDir` is a directory with a database file in it; creates nothing. */
function requireDatabaseFile(dataDir: string): void {
  let directory;
  try {
    directory = statSync(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NoDatabase(dataDir, 'the directory does not exist');
    throw translateErrno(error);
  }
  if (!directory.isDirectory()) throw notADirectory(dataDir);
  try {
    statSync(join(dataDir, DATABASE_FILE));
  } catch (error) {
    // Only a file that is not there means no database; a directory we may not read is another story.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NoDatabase(dataDir, `the directory has no ${DATABASE_FILE}`);
    throw translateErrno(error);
  }
}
