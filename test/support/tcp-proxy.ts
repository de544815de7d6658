/**
 * A loopback TCP proxy a test can cut and restore: the way to show what loc does when a database or
 * Redis it is connected to goes away mid-life — the connections it holds die, new ones are refused —
 * and comes back, without stopping a server other tests share.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  /** Ends every connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((done, fail) => {
      const listening = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.once('close', end);
        upstream.once('close', end);
      });
      listening.once('error', fail);
      listening.listen(port, '127.0.0.1', () => {
        server = listening;
        port = (listening.address() as { port: number }).port;
        done();
      });
    });

  const cut = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((done) => closing.close(() => done()));
  };

  await listen();
  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.href;
    },
    cut,
    restore: listen,
    close: cut,
  };
}
