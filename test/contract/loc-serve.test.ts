/**
 * The contract suite against `loc serve`, set up as an operator and an integrator would: a data
 * directory of its own, a partner account and a test key made with the operator CLI (run in-process,
 * test/support/cli.ts) for the page's origin, then the built service as a child process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { spawnLoc, type Spawned } from '../support/loc-process.ts';
import { contractSuite, type ContractTarget } from './contract-suite.ts';

const ORIGIN = 'http://localhost:3000';

let dataDir: string;
let server: Spawned;
let target: ContractTarget;

/** Runs an operator command on the data directory; its stdout, once it exited 0. */
async function operator(args: string[]): Promise<string> {
  const { code, stdout } = await runCli({ LOC_DATA_DIR: dataDir }, ...args);
  expect(code).toBe(0);
  return stdout;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loc-contract-'));
  await operator(['accounts', 'create', '--name', 'acme', '--partner']);
  const created = JSON.parse(await operator(['keys', 'create', '--account', 'acme', '--test', '--origin', ORIGIN, '--label', 'contract', '--json'])) as { api_key: string };
  server = spawnLoc(['serve', '--port', '0', '--host', '127.0.0.1'], { env: { LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'warn', LOC_TILES: 'offline' } });
  const ready = await server.ready();
  target = { baseUrl: ready.url, publicUrl: ready.publicUrl, key: created.api_key, origin: ORIGIN };
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

contractSuite(() => target);

it('has no mock control endpoint', async () => {
  const response = await fetch(`${target.baseUrl}/_mock/failures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":"network"}' });
  expect(response.status).toBe(404);
  expect(((await response.json()) as { code: string }).code).toBe('not_found');
});
