/** `loc serve` (built) refusing to start: one line on stderr that says why, and the exit code. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loc-serve-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['dist/cli.js', 'serve', ...args], { env: { ...process.env, LOC_DATA_DIR: dir, ...env }, timeout: 10_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('loc serve refuses to start', () => {
  it('on a data directory that is a file: one line naming it and the cause, exit 1', async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, '');
    expect(await serve({ LOC_DATA_DIR: file, PORT: '18600', HOST: '127.0.0.1' })).toMatchObject({
      code: 1, stderr: `error: cannot open the database in ${file}: ${file} is not a directory\n`,
    });
  });

  it('on a bad --port or an empty --host, naming the flag rather than the variable it overrides, exit 2', async () => {
    expect(await serve({}, '--port', 'abc')).toEqual({ code: 2, stdout: '', stderr: 'error: --port must be an integer from 0 to 65535, received "abc". (see --help)\n' });
    expect(await serve({ PORT: '18601' }, '--port', '70000')).toMatchObject({ code: 2, stderr: 'error: --port must be an integer from 0 to 65535, received "70000". (see --help)\n' });
    expect(await serve({}, '--port', '18602', '--host', '')).toMatchObject({ code: 2, stderr: 'error: --host must be given a value, received "". (see --help)\n' });
    expect(await serve({ PORT: 'abc' })).toMatchObject({ code: 2, stderr: 'error: PORT must be an integer from 0 to 65535, received "abc". (see --help)\n' });
  });

  it('on an address it cannot listen on: one line naming it and where it came from, exit 1', async () => {
    const taken = createServer();
    const port = 18605;
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      expect(await serve({ HOST: '127.0.0.1' }, '--port', String(port))).toMatchObject({
        code: 1, stderr: `error: cannot listen on 127.0.0.1:${port} (from HOST and --port): the port is in use (EADDRINUSE)\n`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): an address no machine here has.
    expect(await serve({ PORT: '18604' }, '--host', '192.0.2.1')).toMatchObject({
      code: 1, stderr: 'error: cannot listen on 192.0.2.1:18604 (from --host and PORT): the address is not one of this machine (EADDRNOTAVAIL)\n',
    });
  });
});
