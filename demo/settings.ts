/**
 * The demo's settings, from the environment:
 *   LOC_API_URL         the loc service as the demo's server reaches it (default http://localhost:8080)
 *   LOC_API_PUBLIC_URL  the loc service as browsers reach it (default LOC_API_URL)
 *   LOC_DEMO_API_KEY    the API key to create sessions with, or
 *   LOC_DEMO_KEY_FILE   a file holding it (read on each session request until found, so the service
 *                       may write it after both have started)
 *   LOC_DEMO_PORT       port to listen on (default 5173); LOC_DEMO_ORIGIN overrides the page origin
 *                       sent to the API (default http://localhost:<port>)
 * `npm start` (start.ts) reads the port and origin before it starts the service, which allows that
 * origin on its development key, and sets the rest for the demo it starts.
 */
import { checkOrigin } from '../src/auth/origin.ts';
import { ConfigError, integer } from '../src/server/config.ts';
import type { DemoOptions } from './server.ts';

/** Vite's default port: where a developer expects a front end. */
export const DEFAULT_DEMO_PORT = 5173;

/**
 * The port and origin of the demo page; throws a ConfigError naming LOC_DEMO_PORT when it is not a
 * port, or LOC_DEMO_ORIGIN when it is not an origin a key may allow.
 */
export function demoAddressFromEnv(env: Record<string, string | undefined>): { port: number; origin: string } {
  const text = env.LOC_DEMO_PORT?.trim() || String(DEFAULT_DEMO_PORT);
  // Not 0: the origin is given to the API (and seeded into the development key) before the page listens.
  const port = integer('LOC_DEMO_PORT', text, 1, 65535);
  const origin = env.LOC_DEMO_ORIGIN?.trim();
  if (!origin) return { port, origin: `http://localhost:${port}` };
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
