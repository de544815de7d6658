/**
 * The suite's own integrator page, served by a tiny HTTP server on 127.0.0.1 that the browser reaches
 * under two origins: `http://localhost:<port>`, which the suite's API key registers, and
 * `http://127.0.0.1:<port>`, which no key can register (plain http is allowed only for localhost) —
 * the "other origin" of the refusal and forgery tests. The page holds only what an integrator's page
 * holds: the loader from the service, an element to mount into, and the Content-Security-Policy the
 * integrator guide asks for. Tests mount with `LOC.mount` through `page.evaluate` (harness.ts).
 *
 *   GET /                   the page; `?service=<url>` loads the loader of another loc service,
 *                           `?forger` adds a frame from the other origin, for the forgery test, and
 *                           `?isolated` sends it cross-origin isolated (COOP same-origin, COEP
 *                           require-corp), as a page that uses SharedArrayBuffer must be
 *   GET /forger.html        that frame: an empty page the test scripts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Running } from './services.ts';

export interface Pages extends Running {
  /** The same server under the unregistered origin `http://127.0.0.1:<port>`. */
  foreignUrl: string;
}

const STYLESHEET = `
body { margin: 0; font: 14px system-ui, sans-serif; }
h1 { font-size: 16px; margin: 8px; }
#map { width: 800px; }
#forger { width: 200px; height: 40px; border: 1px dashed #c00; }
`;

/** Only loc services on this machine may be named by `?service=`: the page never loads from elsewhere. */
const LOCAL_SERVICE = /^http:\/\/(localhost|127\.0\.0\.1):\d+$/;

function integratorPage(service: string, forger: string | null): { html: string; csp: string } {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>loc e2e: an integrator's page</title>
<link rel="stylesheet" href="/page.css">
<script src="${service}/embed/loc-embed.js"></script>
</head>
<body>
<h1>An integrator's page</h1>
${forger === null ? '' : `<iframe id="forger" title="another site's frame" src="${forger}"></iframe>`}
<div id="map"></div>
</body>
</html>`;
  // What docs/embed.md §8 tells integrators to allow: the loader, its session check, the frame.
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${service}`,
    `connect-src 'self' ${service}`,
    `frame-src ${service}${forger === null ? '' : ` ${new URL(forger).origin}`}`,
    "style-src 'self'",
    "img-src 'self' data:",
  ].join('; ');
  return { html, csp };
}

/** Serves the pages; `serviceUrl` is the loc service whose loader the page loads by default. */
export function startPages(serviceUrl: string): Promise<Pages> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://pages.invalid');
    const port = (server.address() as { port: number }).port;
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store', ...headers });
      response.end(body);
    };
    if (url.pathname === '/') {
      const service = url.searchParams.get('service') ?? serviceUrl;
      if (!LOCAL_SERVICE.test(service)) return send(400, 'text/plain', `?service must be a loc service on this machine, received ${service}`);
      const page = integratorPage(service, url.searchParams.has('forger') ? `http://127.0.0.1:${port}/forger.html` : null);
      const isolation: Record<string, string> = url.searchParams.has('isolated') ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {};
      return send(200, 'text/html', page.html, { 'content-security-policy': page.csp, ...isolation });
    }
    if (url.pathname === '/page.css') return send(200, 'text/css', STYLESHEET);
    if (url.pathname === '/forger.html') return send(200, 'text/html', '<!doctype html><title>another site</title><p>another site');
    return send(404, 'text/plain', 'not found');
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      done({
        url: `http://localhost:${port}`,
        foreignUrl: `http://127.0.0.1:${port}`,
        stop: () => new Promise<void>((closed) => {
          server.closeAllConnections();
          server.close(() => closed());
        }),
      });
    });
  });
}
