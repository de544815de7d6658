/**
 * The integrator's kit as an integrator gets it: both packages packed with `npm pack`, installed
 * into a fresh project from their tarballs (dependencies, React and Vue among them, from the npm cache
 * that `npm ci` filled), the project's page scripts (consumer/page.ts, consumer/react-page.tsx for
 * loc-js/react, consumer/vue-page.ts for loc-js/vue, consumer/element-page.tsx for `<loc-picker>` in
 * React 19) and tests (consumer/testing.ts, with loc-js/testing and Playwright's types) type-checked
 * strictly under `moduleResolution` `bundler` and `NodeNext` (a CommonJS module too) — the Vue page
 * and the element's Svelte and Vue typings (consumer/template-types.ts) under `bundler` alone, as
 * those apps are built, since checking Svelte's and Vue's own declarations doubles a project's time —
 * and the plain and React pages bundled with esbuild and run in Chromium against a real `loc serve`
 * with a real key and session (the example shop's suite runs the Vue and element pages).
 *
 * Install scripts are skipped: loc-js has none, and better-sqlite3's would compile SQLite for about
 * 80 s — the installed service is run for its codec (`loc encode`), which needs no database; the
 * server the page talks to is this checkout's build, started as the browser suite starts it.
 */
import { chromium, type Browser } from '@playwright/test';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { ROOT, createKey, freePort, newDataDir, removeDataDir, startService, type Running } from '../../e2e/services.ts';
import { createSession } from '../../e2e/stack.ts';
import { npm } from '../support/npm.ts';
import type { Outcome } from './consumer/page.ts';

const run = promisify(execFile);
const CONSUMER = join(import.meta.dirname, 'consumer');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** The integrator's own web server, on an origin of its own: a page for each bundled script (`/` for page.js, `/react` for react.js). */
function servePage(scripts: Record<'page' | 'react', string>, port: number): Promise<Server> {
  const html = (name: string) => `<!doctype html><html><head><meta charset="utf-8"><title>loc-js consumer</title></head><body><div id="map" style="width:600px"></div><script src="/${name}.js"></script></body></html>`;
  const server = createServer((request, response) => {
    const name = request.url === '/react' || request.url === '/react.js' ? 'react' : 'page';
    const [type, body] = request.url?.endsWith('.js') ? ['text/javascript', scripts[name]] : ['text/html', html(name)];
    response.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body);
  });
  return new Promise((done) => server.listen(port, 'localhost', () => done(server)));
}

let work: string;
let project: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'loc-integrator-'));
  project = join(work, 'project');
  cpSync(CONSUMER, project, { recursive: true });
  // dist/ is built (the suite's global setup); packing runs no build of its own.
  await npm(['pack', '--ignore-scripts', '--pack-destination', work], ROOT);
  await npm(['pack', '--ignore-scripts', '--workspace', 'loc-js', '--pack-destination', work], ROOT);
  const tarballs = readdirSync(work).filter((name) => name.endsWith('.tgz')).sort();
  expect(tarballs).toEqual(['loc-js-0.1.0.tgz', 'loc-service-0.1.0.tgz']);
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs.map((name) => join(work, name))], project);
  // loc-js/testing's optional peer and the Node types a Playwright project has: the npm cache holds
  // the tarballs this checkout installed, not the registry's metadata an install of them needs, so the
  // project links the checkout's own (their dependencies resolve beside them) — unless the install
  // brought one: the service's PostgreSQL instrumentation depends on @types/pg, which brings @types/node.
  for (const name of ['@playwright/test', '@types/node']) {
    if (existsSync(join(project, 'node_modules', name))) continue;
    mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packages as an integrator installs them', () => {
  it('install from their tarballs: loc-js with no dependency (React, Vue, Playwright, Leaflet and MapLibre optional peers), loc-service with its command and codec', async () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/loc-js/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    // React is for loc-js/react alone, Vue for loc-js/vue, Playwright for loc-js/testing's helpers,
    // Leaflet for loc-js/leaflet, MapLibre's types for loc-js/maplibre: peers the integrator brings,
    // optional for everyone else.
    expect([manifest.peerDependencies, manifest.peerDependenciesMeta]).toEqual([
      { react: '>=18', vue: '>=3.3', '@playwright/test': '>=1.45.0', leaflet: '>=1.9', 'maplibre-gl': '>=6' },
      { react: { optional: true }, vue: { optional: true }, '@playwright/test': { optional: true }, leaflet: { optional: true }, 'maplibre-gl': { optional: true } },
    ]);
    expect(manifest.sideEffects).toBe(false);
    const { stdout } = await run(join(project, 'node_modules/.bin/loc'), ['encode', '48.8584', '2.2945'], { cwd: project });
    expect(JSON.parse(stdout)).toMatchObject({ loc_code: 'FR-0RMB-CLY0', country_code: 'FR' });
    const script = "import('loc-service/code').then((m) => console.log(m.findCodes('at fr-0rmb-cly0').map((f) => f.code).join()))";
    expect((await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })).stdout.trim()).toBe('FR-0RMB-CLY0');
  }, 30_000);

  it('type-check the integrator’s code strictly under moduleResolution bundler and NodeNext, its tests with loc-js/testing too', async () => {
    // One `tsc --build` of the four projects: it reads each file once for all of them; --verbose
    // names the project before its errors.
    const configs = ['tsconfig.bundler.json', 'tsconfig.nodenext.json', 'tsconfig.testing.bundler.json', 'tsconfig.testing.nodenext.json'];
    const checked = await run(process.execPath, [TSC, '--build', '--verbose', ...configs], { cwd: project }).then(
      ({ stdout }) => ({ passed: true, stdout }),
      (error: { stdout: string }) => ({ passed: false, stdout: error.stdout }),
    );
    expect(checked.stdout.match(/Projects in this build:[\s\S]*?\n\n/)?.[0].match(/tsconfig\.[\w.]+\.json/g), checked.stdout).toEqual(configs);
    expect(checked, checked.stdout).toEqual({ passed: true, stdout: expect.not.stringMatching(/error TS\d+/) });
  }, 60_000);

  describe('bundled, in Chromium, against loc serve', () => {
    let dataDir: string;
    let service: Running;
    let pageServer: Server;
    let browser: Browser;
    let pageOrigin: string;
    let script: string;
    let reactScript: string;
    /** The files the React page's bundle is made of, relative to the project. */
    let reactInputs: string[];
    let apiKey: string;

    beforeAll(async () => {
      const options = { absWorkingDir: project, bundle: true, format: 'iife', target: 'chrome100', write: false, logLevel: 'silent' } as const;
      const [bundle, reactBundle] = await Promise.all([
        build({ ...options, entryPoints: [join(project, 'page.ts')] }),
        build({ ...options, entryPoints: [join(project, 'react-page.tsx')], jsx: 'automatic', define: { 'process.env.NODE_ENV': '"development"' }, metafile: true }),
      ]);
      script = bundle.outputFiles[0].text;
      reactScript = reactBundle.outputFiles[0].text;
      reactInputs = Object.keys(reactBundle.metafile.inputs);
      const port = await freePort();
      pageOrigin = `http://localhost:${port}`;
      dataDir = newDataDir();
      ({ apiKey } = createKey(dataDir, { account: 'integrator', origins: [pageOrigin] }));
      [service, pageServer, browser] = await Promise.all([startService(dataDir), servePage({ page: script, react: reactScript }, port), chromium.launch(chromiumLaunchOptions())]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([browser?.close(), service?.stop(), new Promise((done) => (pageServer ? pageServer.close(done) : done(undefined)))]);
      if (dataDir) removeDataDir(dataDir);
    });

    it('bundle loc-js alone: no Node module, no copy of the service beyond the code’s format', () => {
      expect(script).toContain('/embed/v1/loc-embed.js');
      expect(script).not.toMatch(/require\(|node:|ERROR_CATALOGUE|partner accounts/);
    });

    it('load LOC with loadLoc, mount the map, and hear onReady', async () => {
      const session = await createSession({ service: service.url, apiKey, origin: pageOrigin });
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(pageOrigin);
      // A string, not a function: the page's own bundle is what runs.
      const outcome = (await page.evaluate(`runLoc(${JSON.stringify(service.url)}, ${JSON.stringify(session.session_token)})`)) as Outcome;
      expect(outcome).toMatchObject({
        sameLoad: true,
        scripts: [`${service.url}/embed/v1/loc-embed.js`],
        frame: `${service.url}/embed/frame/${session.session_token.slice(0, session.session_token.indexOf('.'))}`,
        ready: { zoom: 12, expiresAt: session.expires_at, style: 'streets' },
        codes: ['FR-0RMB-CLY0', 'US-550M-RQ5L'],
        normalized: 'FR-0RMB-CLY0',
        loose: true,
      });
      expect(outcome.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(await page.locator('#map iframe').count()).toBe(1);
      expect(failures).toEqual([]);
      await page.close();
    }, 60_000);

    it('bundle loc-js/react with the project’s one React: loc-js/embed once, React neither copied nor bundled twice', () => {
      const packaged = reactInputs.filter((input) => input.startsWith('node_modules/loc-js/'));
      expect(packaged.sort()).toEqual(['node_modules/loc-js/dist/embed.js', 'node_modules/loc-js/dist/react.js']);
      const reacts = reactInputs.filter((input) => /(^|\/)react(-dom)?\//.test(input) && !input.startsWith('node_modules/loc-js/'));
      expect(reacts).toContain('node_modules/react/index.js');
      expect(reacts.filter((input) => !/^node_modules\/(react|react-dom)\//.test(input))).toEqual([]);
    });

    it('mount <LocPicker> under StrictMode with one session from getSession, hear onReady, and leave no iframe on unmount', async () => {
      const session = await createSession({ service: service.url, apiKey, origin: pageOrigin });
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(`${pageOrigin}/react`);
      // ReactOutcome of react-page.tsx, whole (the suite's tsconfig compiles no JSX, so it is not imported).
      const outcome: unknown = await page.evaluate(`runReact(${JSON.stringify(service.url)}, ${JSON.stringify(session.session_token)})`);
      expect(outcome).toEqual({
        ready: { style: 'streets', center: { lat: 48.8584, lng: 2.2945 }, zoom: 12, expiresAt: session.expires_at, locale: 'en', requiredMessage: 'Choose a location on the map.' },
        sessions: 1,
        iframes: 1,
        refIsHandle: true,
        afterUnmount: 0,
      });
      expect(failures).toEqual([]);
      await page.close();
    }, 60_000);

    it('ship the types the running service serves, byte for byte, but the global LOC of a page with the script’s tag', async () => {
      const served = await (await fetch(`${service.url}/embed/v1/loc-embed.d.ts`)).text();
      const shipped = readFileSync(join(project, 'node_modules/loc-js/dist/src/embed/public-types.d.ts'), 'utf8');
      expect(served.slice(0, shipped.length)).toBe(shipped);
      expect(served.slice(shipped.length)).toMatch(/^declare global \{[^}]*var LOC: LocGlobal;\n\}\n$/);
      const guide = await fetch(`${service.url}/docs/embed.md`);
      expect(guide.status).toBe(200);
      expect(await guide.text()).toContain('integrator guide');
    });
  });
});
