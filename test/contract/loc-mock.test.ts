/**
 * The contract suite against `loc mock`, set up as an integrator's CI would: the built command with no
 * setup at all, and a `loc_test_` key of the suite's own choosing, never registered anywhere.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { spawnLoc, type Spawned } from '../support/loc-process.ts';
import { contractSuite, type ContractTarget } from './contract-suite.ts';

let server: Spawned;
let target: ContractTarget;

beforeAll(async () => {
  server = spawnLoc(['mock', '--port', '0', '--host', '127.0.0.1'], { env: { LOC_LOG_LEVEL: 'warn' } });
  const ready = await server.ready();
  target = { baseUrl: ready.url, publicUrl: ready.publicUrl, key: `loc_test_${randomBytes(32).toString('base64url')}`, origin: 'http://localhost:3000' };
});

afterAll(() => server?.stop());

contractSuite(() => target);
