/**
 * The service under test: a real app on a real SQLite database in a temporary directory, a clock the
 * test moves, and helpers to make accounts and keys. Used by the server's *.test.ts files.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey, type KeyRequest } from '../../src/auth/keys.ts';
import type { Account, ApiKey } from '../../src/store/store.ts';
import type { PasswordCost } from '../../src/panel/password-hasher.ts';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';

/**
 * The cost of the panel's password hashes in tests: a small fraction of a millisecond where the
 * service's takes a few hundred (panel/password-hasher.ts). Tests of the hashing itself pass
 * PASSWORD_COST.
 */
export const TEST_PASSWORD_COST: PasswordCost = { ln: 4, r: 8, p: 1 };

/** 2030-01-01T00:10:00Z: ten minutes into an hour, so rate-limit windows have a known reset. */
export const T0 = Date.UTC(2030, 0, 1, 0, 10);

export interface Clock {
  now: () => number;
  advance: (ms: number) => void;
}

export function testClock(start = T0): Clock {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

export interface TestService {
  app: FastifyInstance;
  config: Config;
  clock: Clock;
  dataDir: string;
  /** An account; partner unless told otherwise. */
  account: (name: string, partner?: boolean) => Promise<Account>;
  /** A key of a (new or existing) account, with its secret. */
  key: (accountName?: string, options?: Partial<Omit<KeyRequest, 'accountId' | 'createdAt'>> & { partner?: boolean }) => Promise<{ key: ApiKey; secret: string; account: Account }>;
  /** app.inject with JSON bodies. */
  request: (options: InjectOptions) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
}

export type TestServiceOptions = Pick<AppOptions, 'logStream' | 'requestTimeoutMs' | 'passwordCost' | 'metrics'>;

export async function testService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loc-test-'));
  const config = loadConfig({ LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'silent', LOC_PUBLIC_URL: 'https://loc.example', ...env });
  const clock = testClock();
  const app = await buildApp(config, { passwordCost: TEST_PASSWORD_COST, ...options, now: clock.now });

  const account = async (name: string, partner = true): Promise<Account> =>
    (await app.store.findAccount(name)) ?? app.store.createAccount({ name, partner, createdAt: clock.now() });

  return {
    app, config, clock, dataDir, account,
    key: async (accountName = 'acme', keyOptions = {}) => {
      const { partner, ...rest } = keyOptions;
      const owner = await account(accountName, partner ?? true);
      const issued = await issueKey(app.store, { origins: ['https://shop.example'], ...rest, accountId: owner.id, createdAt: clock.now() });
      return { ...issued, account: owner };
    },
    request: (inject) => app.inject(inject),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A service of the test's own, closed when the test ends: for a test that moves the clock, spends a
 * throttle of the one client address tests have, fills the hashing gate or closes the app. Other tests
 * share one service per file, apart by their names.
 */
export async function freshService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const service = await testService(env, options);
  onTestFinished(() => service.close());
  return service;
}

/** The parsed JSON body of a response. */
export function json<T = Record<string, unknown>>(response: { body: string }): T {
  return JSON.parse(response.body) as T;
}

/** The service of a whole test file (fileService), with the secret of its first key. */
export interface FileService extends TestService {
  /** The secret of a partner key of the account `acme`, made with the service. */
  readonly secret: string;
}

/**
 * One service for a whole test file, with a partner key, in place of the preamble each route test
 * would copy: made in the file's `beforeAll`, closed in its `afterAll`. Call it at the top of the
 * file; its members are there from the first hook on. Tests that share it make names of their own.
 */
export function fileService(env: Record<string, string> = {}, options: TestServiceOptions = {}): FileService {
  let made: { service: TestService; secret: string } | undefined;
  beforeAll(async () => {
    const service = await testService(env, options);
    made = { service, secret: (await service.key('acme')).secret };
  });
  afterAll(() => made?.service.close());
  const ready = () => {
    if (made === undefined) throw new Error('fileService() is made in beforeAll: use it inside hooks and tests, not while the file is collected');
    return made;
  };
  return {
    get app() { return ready().service.app; },
    get config() { return ready().service.config; },
    get clock() { return ready().service.clock; },
    get dataDir() { return ready().service.dataDir; },
    get secret() { return ready().secret; },
    account: (...args) => ready().service.account(...args),
    key: (...args) => ready().service.key(...args),
    request: (inject) => ready().service.request(inject),
    close: () => ready().service.close(),
  };
}
