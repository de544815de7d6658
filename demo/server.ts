/**
 * The demo's server: it plays the integrator. It serves the demo page on its own origin
 * (http://localhost:5173 by default) and, like an integrator's backend, creates embed sessions at the
 * loc API with the development key — which never leaves this process.
 *
 * Environment:
 *   LOC_API_URL         the loc service as this server reaches it (default http://localhost:8080)
 *   LOC_API_PUBLIC_URL  the loc service as browsers reach it (default LOC_API_URL)
 *   LOC_DEMO_API_KEY    the API key to create sessions with, or
 *   LOC_DEMO_KEY_FILE   a file holding it (read on each session request until found, so the service
 *                       may write it after both have started)
 *   LOC_DEMO_PORT       port to listen on (default 5173); LOC_DEMO_ORIGIN overrides the page origin
 *                       sent to the API (default http://localhost:<port>)
 * `loc serve --demo` reads LOC_DEMO_PORT and LOC_DEMO_ORIGIN too; the rest it knows itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { escapeHtml } from '../src/escape-html.ts';
import { checkOrigin } from '../src/auth/origin.ts';
import { ConfigError, integer } from '../src/server/config.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** The first directory holding `file`: this module runs from demo/ in the source tree, or bundled in dist/. */
function locate(file: string, candidates: string[]): string {
  const found = candidates.find((dir) => existsSync(join(dir, file)));
  if (!found) throw new Error(`The demo cannot find ${file} in ${candidates.join(' or ')}; run npm run build.`);
  return found;
}

export interface DemoOptions {
  /** The loc service, as this server reaches it. */
  apiUrl: string;
  /** The loc service, as browsers reach it: the loader's script tag and the page's CSP name it. */
  publicApiUrl: string;
  /** The origin the page is served on: sessions are created for it, and only it can embed their maps. */
  origin: string;
  apiKey?: string;
  keyFile?: string;
  /** How this server calls the API; tests pass a fake. */
  fetch?: typeof fetch;
  /** Directory of the built page script (`demo.js`). */
  distDir?: string;
}

/** The lifetime a session gets unless the page asks for another, as the API's own default. */
const DEFAULT_TTL = 900;

/** Vite's default port: where a developer expects a front end. */
export const DEFAULT_DEMO_PORT = 5173;

/** Every variable the demo reads, in `loc serve --demo` or on its own. */
export const DEMO_VARIABLES: readonly string[] = ['LOC_DEMO_PORT', 'LOC_DEMO_ORIGIN', 'LOC_API_URL', 'LOC_API_PUBLIC_URL', 'LOC_DEMO_API_KEY', 'LOC_DEMO_KEY_FILE'];

/** The page's origin: where it is served from, and what the development key must allow. */
export function demoOrigin(port: number): string {
  return `http://localhost:${port}`;
}

/**
 * The port and origin of the demo page; throws a ConfigError naming LOC_DEMO_PORT when it is not a
 * port, or LOC_DEMO_ORIGIN when it is not an origin a key may allow.
 */
export function demoAddressFromEnv(env: Record<string, string | undefined>): { port: number; origin: string } {
  const text = env.LOC_DEMO_PORT?.trim() || String(DEFAULT_DEMO_PORT);
  // Not 0: the origin is given to the API (and seeded into the development key) before the page listens.
  const port = integer('LOC_DEMO_PORT', text, 1, 65535);
  const origin = env.LOC_DEMO_ORIGIN?.trim();
  if (!origin) return { port, origin: demoOrigin(port) };
  // Checked at start, as every setting is: the development key is seeded with it, and a bad one would
  // otherwise stop the seed with a stack trace, or every session of the page with origin_not_allowed.
  try {
    return { port, origin: checkOrigin(origin, 'LOC_DEMO_ORIGIN') };
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

export function demoOptionsFromEnv(env: Record<string, string | undefined>): DemoOptions & { port: number } {
  const { port, origin } = demoAddressFromEnv(env);
  const apiUrl = (env.LOC_API_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  return {
    port,
    apiUrl,
    publicApiUrl: (env.LOC_API_PUBLIC_URL ?? apiUrl).replace(/\/+$/, ''),
    origin,
    apiKey: env.LOC_DEMO_API_KEY || undefined,
    keyFile: env.LOC_DEMO_KEY_FILE || undefined,
  };
}

/**
 * The key from a key file: its trimmed text, or — when it holds JSON — the first string in it that
 * looks like a loc key.
 */
export function keyFromFile(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed || undefined;
  const values = Object.values(JSON.parse(trimmed) as Record<string, unknown>);
  return values.find((value): value is string => typeof value === 'string' && value.startsWith('loc_'));
}


export async function buildDemoServer(options: DemoOptions): Promise<FastifyInstance> {
  const app = Fastify();
  const call = options.fetch ?? fetch;
  const distDir = options.distDir ?? locate('demo.js', [join(here, '../dist/demo'), join(here, 'demo')]);
  const publicDir = locate('index.html', [join(here, 'public'), join(here, '../demo/public')]);
  let key = options.apiKey;
  const currentKey = () => {
    if (!key && options.keyFile) {
      try {
        key = keyFromFile(readFileSync(options.keyFile, 'utf8'));
      } catch {
        // Not written yet: the service creates it on its first start.
      }
    }
    return key;
  };

  const api = new URL(options.publicApiUrl).origin;
  // The CSP an integrator's page needs for the embed: the loader script, its session check, the frame.
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${api}`,
    `connect-src 'self' ${api}`,
    `frame-src ${api}`,
    "img-src 'self' data:",
    "style-src 'self'",
    "base-uri 'none'",
  ].join('; ');

  app.get('/', async (_, reply) => {
    const page = readFileSync(join(publicDir, 'index.html'), 'utf8').replaceAll('{{apiUrl}}', escapeHtml(options.publicApiUrl));
    return reply.type('text/html; charset=utf-8').header('content-security-policy', csp).header('cache-control', 'no-store').send(page);
  });
  app.get('/demo.css', async (_, reply) => reply.type('text/css; charset=utf-8').send(readFileSync(join(publicDir, 'demo.css'))));
  app.get('/demo.js', async (_, reply) => reply.type('text/javascript; charset=utf-8').send(readFileSync(join(distDir, 'demo.js'))));
  app.get('/demo.js.map', async (_, reply) => reply.type('application/json; charset=utf-8').send(readFileSync(join(distDir, 'demo.js.map'))));

  app.post<{ Body: { ttl?: unknown } | null }>('/api/session', async (request, reply) => {
    const ttl = request.body?.ttl ?? DEFAULT_TTL;
    const apiKey = currentKey();
    if (!apiKey) {
      const message = 'The demo has no API key: set LOC_DEMO_API_KEY, or LOC_DEMO_KEY_FILE to the file the service writes it to.';
      return reply.code(503).send({ success: false, code: 'service_unavailable', message, error: message });
    }
    let response: Response;
    try {
      response = await call(`${options.apiUrl}/v1/embed/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ origin: options.origin, ttl }),
      });
    } catch (error) {
      const message = `The loc API at ${options.apiUrl} cannot be reached (${(error as Error).message}). Is it running?`;
      return reply.code(502).send({ success: false, code: 'network', message, error: message });
    }
    // The API's answer as it is — the session, or its error — and nothing of the request.
    return reply.code(response.status).type('application/json; charset=utf-8').send(await response.text());
  });

  return app;
}
