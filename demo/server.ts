/**
 * The demo's server: it plays the integrator. It serves the demo page on its own origin
 * (http://localhost:5173 by default) and, like an integrator's backend, creates embed sessions at the
 * loc API with an API key — which never leaves this process. Its settings: settings.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';

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

/** Text for an HTML attribute value or element content. */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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

/** What the page may ask a session for beside its lifetime: an area (api.md, Areas). */
interface AreaRequest {
  countries?: unknown;
  bounds?: unknown;
}

/**
 * The area the page asked for, when its shape is one the API takes — a list of strings, an object of
 * numbers — else why not. The values (which countries, which edges, their ranges) are the API's to
 * judge: its 422 goes back to the page as it is, so the page shows the service's own rules.
 */
export function areaOf(body: AreaRequest): { area: AreaRequest } | { refused: string } {
  const { countries, bounds } = body;
  if (countries !== undefined && !(Array.isArray(countries) && countries.length <= 300 && countries.every((code) => typeof code === 'string' && code.length <= 10))) {
    return { refused: 'countries must be a list of country codes such as ["FR", "BE"].' };
  }
  const isBox = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (bounds !== undefined && !(isBox(bounds) && Object.keys(bounds).length <= 4 && Object.values(bounds).every((edge) => typeof edge === 'number'))) {
    return { refused: 'bounds must be an object of numbers such as {"south": 48, "west": 1, "north": 51, "east": 5}.' };
  }
  return { area: { ...(countries === undefined ? {} : { countries }), ...(bounds === undefined ? {} : { bounds }) } };
}

export async function buildDemoServer(options: DemoOptions): Promise<FastifyInstance> {
  const app = Fastify();
  const call = options.fetch ?? fetch;
  const distDir = options.distDir ?? join(import.meta.dirname, '../dist/demo');
  // At start rather than on the first page view: the page is nothing without its script.
  if (!existsSync(join(distDir, 'demo.js'))) throw new Error(`The demo cannot find demo.js in ${distDir}; run npm run build.`);
  const publicDir = join(import.meta.dirname, 'public');
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

  app.post<{ Body: ({ ttl?: unknown } & AreaRequest) | null }>('/api/session', async (request, reply) => {
    // A lifetime only when the page asked for one: the API's default is the API's to choose.
    const ttl = request.body?.ttl;
    // An area only when the page asked for one, by its shape: no other field reaches the API.
    const area = areaOf(request.body ?? {});
    if ('refused' in area) return reply.code(400).send({ success: false, code: 'validation_error', message: area.refused, error: area.refused });
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
        body: JSON.stringify({ origin: options.origin, ...(ttl === undefined ? {} : { ttl }), ...area.area }),
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
