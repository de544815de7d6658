/**
 * The suite's `test`: Playwright's, plus the running stack (stack.ts), a way to make sessions at the
 * real API for the suite's page, and a guard on every test that fails it when the browser sent a
 * single request off this machine — the suite must pass with no network at all.
 */
import { test as base, expect } from '@playwright/test';
import { createSession, readStack, type Session, type SessionRequest, type Stack } from './stack.ts';

export { expect };

/** Hosts the browser may talk to: the suite's servers, all on loopback. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Schemes that go over the network (data:, blob: and the like stay in the browser). */
const NETWORK_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

interface TestFixtures {
  /** A session from the real API with the suite's key; for the suite's page unless `origin` says otherwise. */
  newSession(options?: { origin?: string; ttl?: number; area?: SessionRequest['area'] }): Promise<Session>;
  offlineGuard: void;
}

export const test = base.extend<TestFixtures, { stack: Stack }>({
  stack: [
    // Playwright reads a fixture's dependencies from this pattern: none.
    async ({}, use) => use(readStack()),
    { scope: 'worker' },
  ],
  newSession: async ({ stack }, use) => {
    await use((options = {}) => createSession({ service: stack.service, apiKey: stack.apiKey, origin: options.origin ?? stack.pages, ttl: options.ttl, area: options.area }));
  },
  offlineGuard: [
    async ({ context }, use) => {
      const outside: string[] = [];
      context.on('request', (request) => {
        const url = new URL(request.url());
        if (NETWORK_SCHEMES.has(url.protocol) && !LOCAL_HOSTS.has(url.hostname)) outside.push(request.url());
      });
      await use();
      expect(outside, 'requests that left this machine').toEqual([]);
    },
    { auto: true },
  ],
});
