/**
 * A third party's tile server, on this machine: it answers every `/{style}/{z}/{x}/{y}.png` with a
 * plain tile and writes down what each request carried — the URL and the headers — which is all a
 * real tile provider would ever learn about a visitor of the map.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { PNG } from 'pngjs';
import type { Running } from './services.ts';

export interface TileRequest {
  url: string;
  headers: IncomingHttpHeaders;
}

export interface TileServer extends Running {
  /** Every request so far, in order. */
  readonly requests: readonly TileRequest[];
}

function plainTile(): Buffer {
  const png = new PNG({ width: 256, height: 256 });
  png.data.fill(200);
  return PNG.sync.write(png);
}

export function startTileServer(): Promise<TileServer> {
  const requests: TileRequest[] = [];
  const tile = plainTile();
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    const ok = /^\/\w+\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '');
    response.writeHead(ok ? 200 : 404, { 'content-type': ok ? 'image/png' : 'text/plain', 'cache-control': 'no-store' });
    response.end(ok ? tile : 'not found');
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      done({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        requests,
        stop: () => new Promise<void>((closed) => {
          server.closeAllConnections();
          server.close(() => closed());
        }),
      });
    });
  });
}
