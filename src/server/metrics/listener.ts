/**
 * The metrics listener: a plain HTTP server of its own, on LOC_METRICS_HOST:LOC_METRICS_PORT, that
 * answers `GET /metrics` with the Prometheus text format and 404 anything else. Never the API's
 * port: the API faces partners and browsers, the metrics face the operator's monitoring, and it asks
 * for no key. Not a Fastify app: one route, none of the API's hooks, nothing counted as a request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Config } from '../config.ts';
import { hostPort, listenFailure } from '../process/start-failure.ts';

/** What a scrape is answered with: one registry's metrics, or the workers' summed (cluster.ts). */
export interface Scrape {
  contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsListener {
  /** The port it got (LOC_METRICS_PORT=0: any free one). */
  port: number;
  close(): Promise<void>;
}

export const METRICS_PATH = '/metrics';

/** Where to scrape a listener on `host` and `port`, e.g. `http://127.0.0.1:9464/metrics`. */
export const metricsUrlOf = (host: string, port: number): string => `http://${hostPort(host, port)}${METRICS_PATH}`;

/** Answers one request: the metrics, or why not. */
async function answer(request: IncomingMessage, response: ServerResponse, scrape: Scrape): Promise<void> {
  const path = (request.url ?? '').split('?')[0];
  if (path !== METRICS_PATH) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at /metrics\n');
  if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
  let body: string;
  try {
    body = await scrape.metrics();
  } catch (error) {
    // A worker that did not answer in time (cluster.ts): this scrape fails, the next may not.
    return void response.writeHead(503, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${(error as Error).message}\n`);
  }
  response.writeHead(200, { 'content-type': scrape.contentType }).end(request.method === 'HEAD' ? undefined : body);
}

/** Listens for scrapes on the configured address; a start that cannot listen there is a StartFailure. */
export async function listenForScrapes(config: Pick<Config, 'metricsHost' | 'metricsPort'>, scrape: Scrape): Promise<MetricsListener> {
  const host = config.metricsHost;
  const server = createServer((request, response) => void answer(request, response, scrape));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    throw listenFailure(error, { host, port: config.metricsPort ?? 0, portSetting: 'set LOC_METRICS_PORT', hostSetting: 'set LOC_METRICS_HOST' });
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's kept-alive connection would hold the close until it timed out.
        server.closeAllConnections();
      }),
  };
}
