/**
 * A named pipe (FIFO) whose ends a test holds: the writing end to hand to a log destination or to a
 * server as its stdout, the reading end to read, never read, or close. Its writing end is blocking, as
 * a shell's pipe is; its reading end is not, so that reading what is there never waits.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class NamedPipe {
  private readonly dir = mkdtempSync(join(tmpdir(), 'loc-pipe-'));
  readonly path = join(this.dir, 'pipe');
  /** The reading end; undefined while closed. */
  private reader: number | undefined;
  /** The writing end (blocking); undefined once closed. */
  private writing: number | undefined;

  constructor() {
    execFileSync('mkfifo', ['-m', '0600', this.path]);
    // A FIFO opened for writing waits for a reader, so the reader comes first.
    this.openReader();
    this.writing = openSync(this.path, constants.O_WRONLY);
  }

  /** The writing end. */
  get writer(): number {
    if (this.writing === undefined) throw new Error('the pipe\'s writing end is closed');
    return this.writing;
  }

  /** Closes this process's writing end (a child it was handed to keeps its own). */
  closeWriter(): void {
    if (this.writing !== undefined) closeSync(this.writing);
    this.writing = undefined;
  }

  /** Opens the reading end (again): writes succeed again. */
  openReader(): void {
    this.reader ??= openSync(this.path, constants.O_RDONLY | constants.O_NONBLOCK);
  }

  /** Closes the reading end: every write fails with EPIPE until it is opened again. */
  closeReader(): void {
    if (this.reader !== undefined) closeSync(this.reader);
    this.reader = undefined;
  }

  /** Everything in the pipe now, as text. */
  read(): string {
    if (this.reader === undefined) throw new Error('the pipe has no reader');
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      let bytes: number;
      try {
        bytes = readSync(this.reader, buffer);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
        throw error;
      }
      if (bytes === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, bytes)));
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Whether the pipe is full: a write of one more byte (which stays in it, if it fits) would wait. */
  isFull(): boolean {
    const probe = openSync(this.path, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(probe, '\n');
      return false;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return true;
      throw error;
    } finally {
      closeSync(probe);
    }
  }

  /** Fills the pipe with newlines to its last byte. */
  fill(): void {
    const filler = openSync(this.path, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      // A write of up to a page goes in whole or not at all: pages first, then the bytes left.
      for (const size of [4096, 1]) {
        const bytes = Buffer.alloc(size, '\n');
        for (;;) {
          try {
            writeSync(filler, bytes);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
            throw error;
          }
        }
      }
    } finally {
      closeSync(filler);
    }
  }

  /** Closes both ends and removes the pipe. */
  close(): void {
    this.closeReader();
    this.closeWriter();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
