/**
 * The partner panel on a fleet: two servers in-process on one new PostgreSQL database, as behind a
 * load balancer, and one user of the partner account acme signed in on both — the panel's session is
 * in the database, so the same cookie holds on either. Each server keeps its own caches.
 */
import { afterAll, afterEach } from 'vitest';
import type { Account } from '../../src/store/store.ts';
import { panelClient, signedUpUser, type PanelClient } from './panel-client.ts';
import { createTestDatabase, stopPostgres, type TestDatabase } from './postgres.ts';
import { testService, type TestService } from './service.ts';

export interface PanelFleet {
  one: TestService;
  two: TestService;
  /** The same signed-in user of acme, its requests sent to server one or to server two. */
  onOne: PanelClient;
  onTwo: PanelClient;
  account: Account;
  /** The fleet's database, for the CLI beside it. */
  databaseUrl: string;
}

/** Registers the file's clean-up (servers closed, database dropped, after each test) and gives what makes a fleet. */
export function panelFleets(): (options?: { operator?: boolean }) => Promise<PanelFleet> {
  let db: TestDatabase | undefined;
  let servers: TestService[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    await db?.dispose();
    servers = [];
    db = undefined;
  });
  afterAll(async () => {
    await stopPostgres();
  });
  return async (options = {}) => {
    db = await createTestDatabase({ migrated: true });
    const settings = { LOC_DATABASE_URL: db.url, LOC_LOG_LEVEL: 'warn' };
    servers = [await testService(settings), await testService(settings)];
    const [one, two] = servers;
    const onOne = await signedUpUser(one, 'acme', 'ada@example.com', options);
    const onTwo = panelClient(two);
    onTwo.cookie = onOne.cookie;
    return { one, two, onOne, onTwo, account: (await one.app.store.findAccount('acme'))!, databaseUrl: db.url };
  };
}
