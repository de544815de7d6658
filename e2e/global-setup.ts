/**
 * Playwright's global setup: builds dist/ when it is missing, then starts what every test shares —
 * the built loc service with offline tiles and short usage intervals on a fresh data directory, an
 * API key made with the operator CLI for the suite's two registered origins (its own page and the
 * demo), the demo integrator, and the suite's integrator page. Tests find them in `LOC_E2E` (stack.ts); the function
 * returned stops them all and removes the data directory.
 */
import { execFileSync } from 'node:child_process';
import { startPages } from './pages.ts';
import { ROOT, SHORT_INTERVALS, createKey, freePort, newDataDir, removeDataDir, startDemo, startService, type Running } from './services.ts';
import { STACK_ENV, type Stack } from './stack.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['build.mjs', '--if-missing'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = newDataDir();
  const running: Running[] = [];
  const stop = async () => {
    await Promise.all(running.map((child) => child.stop()));
    removeDataDir(dataDir);
  };
  try {
    const service = await startService(dataDir, SHORT_INTERVALS);
    running.push(service);
    const pages = await startPages(service.url);
    running.push(pages);
    const demoPort = await freePort();
    const demoOrigin = `http://localhost:${demoPort}`;
    const { apiKey } = createKey(dataDir, { account: 'e2e', origins: [pages.url, demoOrigin] });
    const demo = await startDemo(demoPort, service.url, apiKey);
    running.push(demo);
    const stack: Stack = { service: service.url, pages: pages.url, foreignPages: pages.foreignUrl, demo: demo.url, apiKey, dataDir };
    process.env[STACK_ENV] = JSON.stringify(stack);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
