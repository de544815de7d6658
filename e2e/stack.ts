/**
 * What global-setup.ts started, as the tests see it (handed over in the `LOC_E2E` environment
 * variable, which Playwright's workers inherit), and the one thing tests do with it on the server
 * side: create embed sessions at the real API, as an integrator's server does.
 */

export const STACK_ENV = 'LOC_E2E';

export interface Stack {
  /** The loc service (offline tiles), e.g. `http://localhost:41234`. */
  service: string;
  /** The suite's integrator page, on an origin the suite's key registers. */
  pages: string;
  /** The same page on `http://127.0.0.1:<port>`, an origin no key can register. */
  foreignPages: string;
  /** The demo integrator, on the other origin the key registers. */
  demo: string;
  /** The suite's partner key, for `pages` and `demo`. */
  apiKey: string;
  /** The service's data directory (for the operator CLI). */
  dataDir: string;
}

export function readStack(): Stack {
  const text = process.env[STACK_ENV];
  if (!text) throw new Error(`${STACK_ENV} is not set: run the suite with \`npm run e2e\` so that e2e/global-setup.ts starts the services.`);
  return JSON.parse(text) as Stack;
}

/** A session as `POST /v1/embed/sessions` returns it. */
export interface Session {
  session_token: string;
  expires_at: string;
  embed_url: string;
}

export interface SessionRequest {
  service: string;
  apiKey: string;
  origin: string;
  ttl?: number;
  /** The session's area (`countries`, `bounds`), as `POST /v1/embed/sessions` takes it. */
  area?: { countries?: string[]; bounds?: { south: number; west: number; north: number; east: number } };
}

/** The API's answer to a session request, whatever its status. */
export async function requestSession(request: SessionRequest): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${request.service}/v1/embed/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': request.apiKey },
    body: JSON.stringify({ origin: request.origin, ...(request.ttl !== undefined && { ttl: request.ttl }), ...request.area }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A new session from the real API; throws with the API's answer when it refuses. */
export async function createSession(request: SessionRequest): Promise<Session> {
  const { status, body } = await requestSession(request);
  if (status !== 200) throw new Error(`POST /v1/embed/sessions answered ${status}: ${JSON.stringify(body)}`);
  return body as unknown as Session;
}

/** The public part of a session token, which names the frame (`<sid>.<secret>`). */
export const sidOf = (token: string): string => token.slice(0, token.indexOf('.'));

/** The secret part, which must never appear in a URL or a Referer. */
export const secretOf = (token: string): string => token.slice(token.indexOf('.') + 1);
