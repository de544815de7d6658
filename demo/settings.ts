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
 *
 * Checked the way an integrator's server checks its own: a bad value stops the start with a
 * SettingError whose message names the variable, says what it expects and shows what it got.
 */
import type { DemoOptions } from './server.ts';

/** Vite's default port: where a developer expects a front end. */
export const DEFAULT_DEMO_PORT = 5173;

const DEFAULT_API_URL = 'http://localhost:8080';

/** The variables of the demo's own prefix, to warn of one it does not read. */
const DEMO_VARIABLES = ['LOC_DEMO_PORT', 'LOC_DEMO_ORIGIN', 'LOC_DEMO_API_KEY', 'LOC_DEMO_KEY_FILE'];

/** A setting that cannot be used; the message names the variable. */
export class SettingError extends Error {
  override readonly name = 'SettingError';
}

type Env = Record<string, string | undefined>;

function refuse(variable: string, rule: string, text: string): never {
  throw new SettingError(`${variable} ${rule}, received ${JSON.stringify(text)}.`);
}

function port(variable: string, text: string): number {
  // Not 0: the origin is given to the API (and seeded into the development key) before the page listens.
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) refuse(variable, 'must be an integer from 1 to 65535', text);
  return Number(text);
}

/**
 * An origin the API lets a key allow, as its documentation says: https, or http only on localhost,
 * written as a browser writes `location.origin`. The service checks the finer points itself.
 */
function origin(variable: string, text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || url.origin !== text) refuse(variable, 'must be an origin as a browser writes it, such as "https://shop.example"', text);
  if (url.protocol === 'http:' && url.hostname !== 'localhost') refuse(variable, 'must use https (plain http is accepted only for http://localhost:<port>)', text);
  return text;
}

/** An http(s) URL, without the trailing slash. */
function httpUrl(variable: string, text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) refuse(variable, 'must be an http or https URL', text);
  return text.replace(/\/+$/, '');
}

/** The value of `variable`, trimmed; undefined when it is unset or blank. */
const read = (env: Env, variable: string): string | undefined => env[variable]?.trim() || undefined;

/** The port and origin of the demo page; throws a SettingError naming LOC_DEMO_PORT or LOC_DEMO_ORIGIN. */
export function demoAddressFromEnv(env: Env): { port: number; origin: string } {
  const listenPort = port('LOC_DEMO_PORT', read(env, 'LOC_DEMO_PORT') ?? String(DEFAULT_DEMO_PORT));
  const given = read(env, 'LOC_DEMO_ORIGIN');
  // Checked at start: the development key is seeded with it, and a bad one would otherwise fail
  // every session of the page with origin_not_allowed.
  return { port: listenPort, origin: given === undefined ? `http://localhost:${listenPort}` : origin('LOC_DEMO_ORIGIN', given) };
}

export function demoOptionsFromEnv(env: Env): DemoOptions & { port: number } {
  const apiUrl = httpUrl('LOC_API_URL', read(env, 'LOC_API_URL') ?? DEFAULT_API_URL);
  return {
    ...demoAddressFromEnv(env),
    apiUrl,
    publicApiUrl: httpUrl('LOC_API_PUBLIC_URL', read(env, 'LOC_API_PUBLIC_URL') ?? apiUrl),
    apiKey: read(env, 'LOC_DEMO_API_KEY'),
    keyFile: read(env, 'LOC_DEMO_KEY_FILE'),
  };
}

/**
 * `read(process.env)`; a bad setting is the operator's to fix: one line that names it, as loc serve
 * says it, and exit 2.
 */
export function settingsOrExit<T>(read: (env: Env) => T): T {
  try {
    return read(process.env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
}

/** Warnings for the variables of the demo's prefix that it does not read (LOC_DEMOPORT): a typo would leave the default in force without a word. */
export function strayVariables(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('LOC_DEMO') && !DEMO_VARIABLES.includes(name))
    .map((name) => `warning: ${name} is not a setting of the demo and is ignored; it reads ${DEMO_VARIABLES.join(', ')}`);
}
