/**
 * The log destination on a real named pipe: one nobody reads (it falls behind), one whose reader is
 * gone (it fails), and closing while a write is stuck. Whatever happens, every line is either written
 * whole and in order, or dropped and counted in the report that follows once writes succeed again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NamedPipe } from '../../../test/support/named-pipe.ts';
import { DROPPED_MESSAGE, openLogDestination } from './log-destination.ts';

/** The n-th test line: 100 bytes with its newline. */
const line = (n: number): string => `${JSON.stringify({ n, msg: 'x'.repeat(84 - String(n).length) })}\n`;

interface Report {
  level: number;
  time: number;
  dropped: number;
  since: number;
  error?: string;
  msg: string;
}

/** The lines of `text` that are not empty (the filler of a full pipe is newlines). */
const linesOf = (text: string): string[] => text.split('\n').filter((entry) => entry !== '');

/** Reads the pipe until its last line is the report: the lines before it, and the report. */
async function readUntilReport(): Promise<{ lines: string[]; report: Report }> {
  let text = '';
  return vi.waitFor(() => {
    text += pipe.read();
    const lines = linesOf(text);
    expect(lines.at(-1)).toContain(DROPPED_MESSAGE);
    return { lines: lines.slice(0, -1), report: JSON.parse(lines.at(-1)!) as Report };
  });
}

let pipe: NamedPipe;
beforeEach(() => {
  pipe = new NamedPipe();
});
afterEach(() => pipe.close());

describe('a destination that falls behind (a pipe nobody reads)', () => {
  it('takes a bounded amount of lines without waiting, drops the rest, and once read says how many it dropped', async () => {
    pipe.fill();
    const destination = openLogDestination({ fd: pipe.writer, maxPendingBytes: 4000 });
    const started = Date.now();
    // The pipe is full: a write that waited for it would never return.
    for (let n = 0; n < 100; n++) destination.write(line(n));
    expect(pipe.isFull()).toBe(true);

    const { lines, report } = await readUntilReport();
    // 4000 bytes of pending lines are 40 lines of 100 bytes.
    expect(lines).toEqual(Array.from({ length: 40 }, (_, n) => line(n).trimEnd()));
    expect(report).toMatchObject({ level: 40, dropped: 60, pid: process.pid, msg: DROPPED_MESSAGE });
    expect(report.error).toBeUndefined();
    expect(report.since).toBeGreaterThanOrEqual(started);
    expect(report.time).toBeGreaterThanOrEqual(report.since);

    // The count starts again: the next lines are written, and nothing more is reported.
    destination.write(line(100));
    await destination.close();
    expect(pipe.read()).toBe(line(100));
  });
});

describe('a destination that fails (its reader gone: EPIPE)', () => {
  it('throws nothing, drops and counts lines while it fails, and once it works again writes the line that failed, then the report', async () => {
    const destination = openLogDestination({ fd: pipe.writer, retryMs: 20 });
    pipe.closeReader();
    // Paced, so that most lines come after the failure is known; how many is not the point: each
    // line must be either written or counted.
    for (let n = 0; n < 20; n++) {
      destination.write(line(n));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    pipe.openReader();

    const { lines, report } = await readUntilReport();
    const written = lines.map((entry) => (JSON.parse(entry) as { n: number }).n);
    // The first line is the one that failed: it is kept and written, from the byte it stopped at.
    expect(written[0]).toBe(0);
    expect(written).toEqual(Array.from({ length: written.length }, (_, n) => n));
    expect(report).toMatchObject({ level: 40, dropped: 20 - written.length, error: 'EPIPE' });
    expect(report.dropped).toBeGreaterThan(0);
    await destination.close();
  });
});

describe('close', () => {
  it('resolves once the lines accepted are written', async () => {
    const destination = openLogDestination({ fd: pipe.writer });
    for (let n = 0; n < 10; n++) destination.write(line(n));
    await destination.close();
    expect(pipe.read()).toBe(Array.from({ length: 10 }, (_, n) => line(n)).join(''));
    destination.write(line(10));
    expect(pipe.read()).toBe('');
  });

  it('gives up at its timeout on a write that cannot finish, and writes nothing more', async () => {
    pipe.fill();
    const destination = openLogDestination({ fd: pipe.writer });
    destination.write(line(0));
    // Would never resolve if it waited for the pipe.
    await destination.close(50);
    destination.write(line(1));
    // Reading lets the write that waited finish; what was accepted goes out, nothing after close.
    let text = '';
    await vi.waitFor(() => {
      text += pipe.read();
      expect(text).toContain(line(0));
    });
    expect(text).not.toContain(line(1));
  });
});
