// The example shop's server: it serves the checkout pages and, with the shop's API key, asks the loc
// service for embed sessions. The key stays here; a page only ever gets a session token.
//
//   LOC_URL=http://localhost:8081 LOC_API_KEY=loc_test_… node server.mjs
//
// LOC_URL is the loc service's public URL (`loc mock` prints it, and a key); PORT is this shop's port
// (3000, or 0 for any free one). Sessions are made for the pages' origin, http://localhost:PORT.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const LOC_URL = process.env.LOC_URL ?? 'http://localhost:8081';
const LOC_API_KEY = process.env.LOC_API_KEY;
if (!LOC_API_KEY) throw new Error("Set LOC_API_KEY to the shop's loc API key (loc mock prints one).");

/** POST /v1/embed/sessions for the shop's origin: the token for the page, or why there is none. */
async function createSession(origin) {
  const response = await fetch(`${LOC_URL}/v1/embed/sessions`, {
    method: 'POST',
    headers: { 'x-api-key': LOC_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ origin }),
  });
  const body = await response.json();
  if (!response.ok) return { status: 502, body: { error: body.code, message: body.message } };
  return { status: 200, body: { sessionToken: body.session_token, expiresAt: body.expires_at } };
}

/** POST /v1/embed/resolve with the shop's key: a point's code, for the page with the shop's own map. */
async function codeOf(lat, lng) {
  const response = await fetch(`${LOC_URL}/v1/embed/resolve`, {
    method: 'POST',
    headers: { 'x-api-key': LOC_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ lat, lng }),
  });
  const body = await response.json();
  if (!response.ok) return { status: response.status >= 500 ? 502 : response.status, body: { error: body.code, message: body.message } };
  return { status: 200, body: { code: body.loc_code } };
}

/** A request's body, as text. */
async function readBody(request) {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

const escapeHtml = (value) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const LOC_ORIGIN = new URL(LOC_URL).origin;
const CSP = `default-src 'self'; script-src 'self' ${LOC_ORIGIN}; connect-src 'self' ${LOC_ORIGIN}; frame-src ${LOC_ORIGIN}; img-src 'self' data:`;
/** The page with the shop's own map shows the service's tiles itself, and reads its grid (connect-src). */
const OWN_MAP_CSP = `default-src 'self'; script-src 'self'; connect-src 'self' ${LOC_ORIGIN}; img-src 'self' data: ${LOC_ORIGIN}`;

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

const server = createServer(async (request, response) => {
  const send = (status, type, body) => response.writeHead(status, { 'content-type': type }).end(body);
  try {
    if (request.method === 'POST' && request.url === '/api/loc-session') {
      const { status, body } = await createSession(`http://localhost:${server.address().port}`);
      return send(status, 'application/json', JSON.stringify(body));
    }
    if (request.method === 'GET' && request.url.startsWith('/api/loc-code?')) {
      const query = new URLSearchParams(request.url.slice('/api/loc-code?'.length));
      const { status, body } = await codeOf(Number(query.get('lat')), Number(query.get('lng')));
      return send(status, 'application/json', JSON.stringify(body));
    }
    // The form field's page posts here: the order as the shop's back end would take it.
    if (request.method === 'POST' && request.url === '/order') {
      const code = new URLSearchParams(await readBody(request)).get('loc_code') ?? '';
      return send(200, 'text/html; charset=utf-8', `<!doctype html><title>Order placed</title><p id="placed">Order placed: delivery to ${escapeHtml(code)}.</p>`);
    }
    // The pages from public/, the React page's bundle from dist/ (npm run build).
    const path = normalize(request.url === '/' ? '/index.html' : request.url.split('?')[0]);
    const file = join(import.meta.dirname, path.startsWith('/dist/') ? '' : 'public', path);
    if (request.method !== 'GET' || !TYPES[extname(file)]) return send(404, 'text/plain', 'Not found');
    // The pages load the picker's script from the loc service, which {{LOC_URL}} names; their
    // Content-Security-Policy lets in that script, its session check and its frame, nothing more.
    const text = (await readFile(file, 'utf8')).replaceAll('{{LOC_URL}}', LOC_URL);
    if (extname(file) === '.html') response.setHeader('content-security-policy', path === '/leaflet.html' ? OWN_MAP_CSP : CSP);
    send(200, TYPES[extname(file)], text);
  } catch (error) {
    if (error.code === 'ENOENT') send(404, 'text/plain', 'Not found');
    else send(502, 'text/plain', `The loc service did not answer: ${error.message}`);
  }
});

server.listen(Number(process.env.PORT ?? 3000), 'localhost', () => {
  console.log(`The shop is at http://localhost:${server.address().port} (loc service ${LOC_URL})`);
});
