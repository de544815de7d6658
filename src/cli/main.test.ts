/**
 * `main(argv, io)` itself: runs in one process at once, each with its own output and exit code, and
 * none of the process's own — its exit code, stdout and stderr stay as they were.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../test/support/cli.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('main', () => {
  it("runs at once with others, each run writing through its own io and exiting with its own code, never the process's", async () => {
    const exitCode = process.exitCode;
    const written = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
    const [done, failed, misused, help] = await Promise.all([
      runCli({}, 'encode', '48.8584', '2.2945'),
      runCli({}, 'decode', 'FR-0RMB'),
      runCli({}, 'keys', 'frobnicate'),
      runCli({}, '--help'),
    ]);
    expect(done).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\{"loc_code":"FR-/), stderr: '' });
    expect(failed).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^\{"code":"invalid_code"/) });
    expect(misused).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'frobnicate' (see --help)\n" });
    expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: loc \[options\] \[command\]\n/), stderr: '' });
    for (const write of written) expect(write).not.toHaveBeenCalled();
    expect(process.exitCode).toBe(exitCode);
  });
});
