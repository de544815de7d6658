/**
 * The service over real sockets: the development seed of `npm start`, an embed session used the way
 * the frame uses it, concurrent generates, a client that half-closes, and a graceful shutdown of the
 * built `loc serve` process that lets an in-flight request finish.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../store/sqlite/sqlite-files.ts';
import { loadConfig } from '../config.ts';
import { DEV_KEY_FILE } from './dev-seed.ts';
import { startServer, type RunningServer } from './server.ts';
import { LOCK_FILE } from './server-lock.ts';
import { readyIn, spawnLoc } from '../../../test/support/loc-process.ts';

/** A raw connection that collects everything the server sends, and says when the server closes it. */
async function rawConnection(
  port: number,
): Promise<{
  write: (text: string) => void;
  end: (text: string) => void;
  response: () => string;
  /** Resolves once what the server sent so far matches `pattern`. */
  received: (pattern: RegExp) => Promise<void>;
  closed: Promise<void>;
}> {
  const socket = connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk) => void (response += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const received = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!pattern.test(response)) return;
        socket.off('data', check);
        resolve();
      };
      socket.on('data', check);
      check();
    });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { write: (text) => void socket.write(text), end: (text) => void socket.end(text), response: () => response, received, closed };
}

describe('a running server', () => {
  let dataDir: string;
  let server: RunningServer;
  let banner: string[];
  let devKey: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'loc-server-'));
    banner = [];
    const config = loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' });
    server = await startServer(config, { seedDevelopment: true, print: (line) => banner.push(line) });
    devKey = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.json === undefined ? init.body : JSON.stringify(init.json),
    });

  it('seeds an empty database with a partner key for development pages, in a file only its owner reads', () => {
    expect(devKey).toMatch(/^loc_[\w-]{43}$/);
    expect(statSync(join(dataDir, DEV_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(banner.join('\n')).toContain(`Development API key: written to ${join(dataDir, DEV_KEY_FILE)} (readable only by you).`);
    expect(banner.join('\n')).not.toContain(devKey);
    expect(banner.some((line) => line.startsWith(`loc is listening on ${server.url}`))).toBe(true);
  });

  it('with PORT=0, names the port it got in the banner and in the public URL', () => {
    const port = new URL(server.url).port;
    expect(port).not.toBe('0');
    expect(server.config.publicUrl).toBe(`http://localhost:${port}`);
    expect(banner).toContain(`loc is listening on ${server.url} (public URL http://localhost:${port})`);
  });

  it('ends its banner with a line for programs, whatever the log level: JSON with the address, the public URL and the key file it seeded', () => {
    const ready = JSON.parse(banner.at(-1)!) as Record<string, unknown>;
    expect(ready).toMatchObject({ msg: 'listening', url: server.url, publicUrl: server.config.publicUrl, pid: process.pid, level: 30, devKeyFile: join(dataDir, DEV_KEY_FILE) });
    expect(readyIn(banner.join('\n'))).toEqual({ url: server.url, publicUrl: server.config.publicUrl, pid: process.pid });
  });

  it('on all interfaces without LOC_PUBLIC_URL, warns that its links name localhost; not with LOC_PUBLIC_URL, nor on loopback', async () => {
    expect(banner.filter((line) => line.startsWith('warning:'))).toEqual([]);
    for (const [env, warned] of [[{}, true], [{ LOC_PUBLIC_URL: 'https://loc.example' }, false]] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'loc-all-interfaces-'));
      const lines: string[] = [];
      const open = await startServer(loadConfig({ LOC_DATA_DIR: dir, PORT: '0', HOST: '0.0.0.0', LOC_LOG_LEVEL: 'silent', ...env }), { print: (line) => lines.push(line) });
      try {
        const port = new URL(open.url).port;
        expect(lines.filter((line) => line.startsWith('warning:'))).toEqual(warned ? [
          `warning: 0.0.0.0:${port} takes connections from other machines, but LOC_PUBLIC_URL is not set: share_url, embed_url ` +
            `and the embed's script name http://localhost:${port}; set LOC_PUBLIC_URL to the URL clients use, unless they too reach the service as localhost (a port published from a container)`,
        ] : []);
      } finally {
        await open.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('with PORT=0 and a public URL of its own, keeps that URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-public-url-'));
    const lines: string[] = [];
    const own = await startServer(loadConfig({ LOC_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent', LOC_PUBLIC_URL: 'https://loc.example' }), {
      print: (line) => lines.push(line),
    });
    try {
      expect(new URL(own.url).port).not.toBe('0');
      expect(lines[0]).toBe(`loc is listening on ${own.url} (public URL https://loc.example)`);
      // Not started with --seed-dev: no key file to name.
      expect(JSON.parse(lines.at(-1)!)).not.toHaveProperty('devKeyFile');
      expect(own.config.publicUrl).toBe('https://loc.example');
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not seed a database that has accounts', async () => {
    const again = await startServer(loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' }), {
      seedDevelopment: true, print: () => {},
    });
    await again.close();
    expect((await server.app.store.listAccounts()).map((a) => a.name)).toEqual(['development']);
  });

  it('on a later start for a page on another origin, warns that the key does not allow that origin, and how to allow it', async () => {
    const lines: string[] = [];
    const again = await startServer(loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' }), {
      seedDevelopment: true, devOrigins: ['http://localhost:18599'], print: (line) => lines.push(line),
    });
    await again.close();
    const [{ id }] = await server.app.store.listKeys((await server.app.store.findAccount('development'))!.id);
    expect(lines.slice(0, 2)).toEqual([
      `Development API key: in ${join(dataDir, DEV_KEY_FILE)}`,
      `warning: that key (${id}) does not allow http://localhost:18599 (--dev-origin), so maps embedded there fail with origin_not_allowed; ` +
        `allow it with: loc keys origins add ${id} http://localhost:18599`,
    ]);
    const same: string[] = [];
    const third = await startServer(loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' }), {
      seedDevelopment: true, print: (line) => same.push(line),
    });
    await third.close();
    expect(same[0]).toBe(`Development API key: in ${join(dataDir, DEV_KEY_FILE)}`);
    expect(same[1]).toMatch(/^loc is listening on /);
  });

  it('seeds no key in a database that had accounts before its first start, and warns that the pages then have none, or a key the database lacks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-seed-'));
    const config = loadConfig({ LOC_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' });
    /** What a start with --seed-dev prints. */
    const seededStart = async (): Promise<string[]> => {
      const printed: string[] = [];
      const server = await startServer(config, { seedDevelopment: true, print: (line) => printed.push(line) });
      await server.close();
      return printed;
    };
    try {
      const first = await startServer(config, { print: () => {} });
      await first.app.store.createAccount({ name: 'acme', partner: true, createdAt: 0 });
      await first.close();
      expect((await seededStart())[0]).toBe(
        'warning: no development key: the database had accounts before its first start with --seed-dev, so none was seeded, and the development pages cannot create sessions; ' +
          `write the secret of a partner key that allows http://localhost:5173 to ${join(dir, DEV_KEY_FILE)}`,
      );
      // A key file whose key the database does not hold (a database restored from another machine).
      writeFileSync(join(dir, DEV_KEY_FILE), `loc_${'x'.repeat(43)}\n`);
      expect((await seededStart())[1]).toBe(
        'warning: that key is not a key of this database (restored from another?), so sessions created with it fail with invalid_api_key; ' +
          `write the secret of a partner key that allows http://localhost:5173 to ${join(dir, DEV_KEY_FILE)}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves the service's own origin out of the development key when no page there could frame the map", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-seed-'));
    try {
      const config = loadConfig({ LOC_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent', LOC_PUBLIC_URL: 'https://[::1]:8443' });
      const seeded = await startServer(config, { seedDevelopment: true, print: () => {} });
      const keys = await seeded.app.store.listKeys((await seeded.app.store.findAccount('development'))!.id);
      await seeded.close();
      expect(keys.map((key) => key.origins)).toEqual([['http://localhost:5173']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets the development key allow the origins it is told (--dev-origin), beside its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loc-seed-'));
    try {
      const config = loadConfig({ LOC_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent', LOC_PUBLIC_URL: 'https://loc.example' });
      const seeded = await startServer(config, { seedDevelopment: true, devOrigins: ['http://localhost:3000', 'https://shop.example'], print: () => {} });
      const keys = await seeded.app.store.listKeys((await seeded.app.store.findAccount('development'))!.id);
      await seeded.close();
      expect(keys.map((key) => key.origins)).toEqual([['http://localhost:3000', 'https://shop.example', 'https://loc.example']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves an embed session to the default development origin, and resolve with its token like the frame does', async () => {
    const created = await call('/v1/embed/sessions', { method: 'POST', headers: { 'x-api-key': devKey }, json: { origin: 'http://localhost:5173', ttl: 120 } });
    expect(created.status).toBe(200);
    const { session_token: token, embed_url: embedUrl } = (await created.json()) as { session_token: string; embed_url: string };
    // PORT=0: the link names the port the server got.
    expect(embedUrl).toMatch(new RegExp(`^http://localhost:${new URL(server.url).port}/embed/frame/[\\w-]{22}$`));
    const resolved = await call('/v1/embed/resolve', { method: 'POST', headers: { authorization: `Bearer ${token}` }, json: { lat: 48.8584, lng: 2.2945, save: true } });
    expect(resolved.status).toBe(200);
    // Of the session's budget (the service's default) and the development key's generous embed budget, the smaller.
    expect(resolved.headers.get('ratelimit-limit')).toBe('500');
    expect(await resolved.json()).toMatchObject({ success: true, country_code: 'FR', saved: true });
  });

  it('creates one location under 50 concurrent generates over the network', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () =>
      call('/v1/loc/generate', { method: 'POST', headers: { 'x-api-key': devKey }, json: { latitude: 40.7484, longitude: -73.9857, label: 'ESB' } })));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { is_existing: boolean; loc_code: string }[];
    expect(bodies.filter((b) => !b.is_existing)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.loc_code)).size).toBe(1);
  });

  it('answers the health check', async () => {
    expect(await (await call('/healthz')).json()).toMatchObject({ status: 'ok' });
  });
});

describe('closing', () => {
  it('answers requests that still arrive on an open connection with our 503, then closes it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loc-closing-'));
    const config = loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' });
    const server = await startServer(config, { seedDevelopment: true, print: () => {} });
    const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
    const port = Number(new URL(server.url).port);
    const body = JSON.stringify({ latitude: 1.2834, longitude: 103.8607 });
    const connection = await rawConnection(port);
    // The first request is in flight (its body incomplete) when closing begins; the second, pipelined
    // behind it, arrives during the shutdown.
    // Node emits 'request' once the headers are parsed: the body is then still on its way.
    const received = new Promise((resolve) => server.app.server.once('request', resolve));
    connection.write(`POST /v1/loc/generate HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await received;
    const closing = server.close();
    connection.write(`${body.slice(5)}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    await Promise.all([closing, connection.closed]);
    const [first, second] = connection.response().split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(second).toMatch(/^HTTP\/1\.1 503 Service Unavailable/);
    expect(second).toMatch(/connection: close/i);
    expect(second).toMatch(/retry-after: 1\r\n/i);
    expect(second).toContain('"code":"service_unavailable"');
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('a client that half-closes after its request', () => {
  it('still gets the answer of a handler that waits on the reverse geocoder', async () => {
    const geocoder = createServer((_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ display_name: '1 Bridgeway, Sausalito' })), 50);
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    const dataDir = mkdtempSync(join(tmpdir(), 'loc-half-close-'));
    const config = loadConfig({
      LOC_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOC_LOG_LEVEL: 'silent',
      LOC_GEOCODER_URL: `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`,
    });
    const server = await startServer(config, { seedDevelopment: true, print: () => {} });
    try {
      const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
      const body = JSON.stringify({ lat: 37.8591, lng: -122.4853 });
      const connection = await rawConnection(Number(new URL(server.url).port));
      // The request, then at once the client's FIN, while the handler still waits for the geocoder.
      connection.end(`POST /v1/embed/resolve HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      await connection.closed;
      expect(connection.response()).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(connection.response()).toContain('"address":"1 Bridgeway, Sausalito"');
    } finally {
      await server.close();
      await new Promise<void>((resolve) => geocoder.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('graceful shutdown of loc serve', () => {
  it('on SIGTERM finishes the in-flight request, closes the database and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loc-shutdown-'));
    const server = spawnLoc(['serve', '--port', '0', '--host', '127.0.0.1', '--seed-dev'], { env: { LOC_DATA_DIR: dataDir, LOC_LOG_LEVEL: 'info' } });
    const port = Number(new URL((await server.ready()).url).port);
    const key = readFileSync(join(dataDir, DEV_KEY_FILE), 'utf8').trim();
    // One full request first: the server answers before the signal comes.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // A request whose body is still on its way when the signal arrives. Node answers
    // Expect: 100-continue once it has taken the request in: from then on it is in flight.
    const body = JSON.stringify({ latitude: 1.2834, longitude: 103.8607 });
    const connection = await rawConnection(port);
    connection.write(`POST /v1/loc/generate HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n${body.slice(0, 10)}`);
    await connection.received(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    server.child.kill('SIGTERM');
    await server.waitFor(/shutting down/);
    connection.write(body.slice(10));
    await connection.closed;

    expect(connection.response()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(connection.response()).toContain('"is_existing":false');
    expect((await server.exited).code).toBe(0);
    expect(server.output()).toContain('"msg":"closed"');
    expect(existsSync(join(dataDir, `${DATABASE_FILE}-wal`))).toBe(false);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
