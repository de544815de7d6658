/**
 * A Redis for the tests, found once per test file: LOC_TEST_REDIS_URL, else the one every machine of
 * the project runs on 127.0.0.1:6379, else `redis-server` started here on a free port, without
 * persistence, and stopped when the file ends: for the request counters kept in Redis
 * (LOC_REDIS_URL), whose tests never skip for want of one. Tests share it: each writes under a key
 * prefix, or a key id, of its own.
 *
 * PING is spoken over a plain socket (RESP is a line protocol): the finder loads no client library.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './loc-process.ts';

interface RedisServer {
  /** redis:// URL of the server. */
  url: string;
  stop: () => Promise<void>;
}

let server: Promise<RedisServer> | undefined;

/** The Redis for this test file, found or started on first use. */
export function redisServer(): Promise<RedisServer> {
  server ??= findRedis();
  return server;
}

/** Stops a redis-server this file started; call it from afterAll. */
export async function stopRedis(): Promise<void> {
  const found = server;
  server = undefined;
  if (found !== undefined) await (await found.catch(() => undefined))?.stop();
}

/** Sends PING to the Redis at `url`; resolves with its answer line (`+PONG`), rejects when none comes. */
export function ping(url: string, timeoutMs = 2000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    let answer = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.once('error', fail);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const end = answer.indexOf('\r\n');
      if (end < 0) return;
      socket.end();
      done(answer.slice(0, end));
    });
  });
}

async function findRedis(): Promise<RedisServer> {
  const tried: string[] = [];
  const given = process.env.LOC_TEST_REDIS_URL?.trim();
  if (given) {
    // Named by the caller: it must work, falling back would test somewhere else than they asked.
    const why = await pong(given);
    if (why === null) return { url: given, stop: async () => {} };
    throw new Error(`LOC_TEST_REDIS_URL=${given} cannot be used: ${why}`);
  }
  tried.push('LOC_TEST_REDIS_URL (not set)');
  const local = 'redis://127.0.0.1:6379';
  const why = await pong(local);
  if (why === null) return { url: local, stop: async () => {} };
  tried.push(`${local} (${why})`);
  try {
    return await startRedis();
  } catch (error) {
    tried.push(`redis-server on a free port (${(error as Error).message})`);
  }
  throw new Error(`no Redis for the tests; tried ${tried.join('; ')}. Install Redis 7 (apt-get install redis-server) or set LOC_TEST_REDIS_URL.`);
}

/** Null when `url` answers PING with PONG, else why not. */
async function pong(url: string): Promise<string | null> {
  try {
    const answer = await ping(url);
    return answer === '+PONG' ? null : `it answered ${JSON.stringify(answer)}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A redis-server of its own on a free port, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const spawnError = new Promise<never>((_, fail) => child.once('error', fail));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let attempt = 0; attempt < 50; attempt++) {
    const why = await Promise.race([pong(url), spawnError]).catch((error: Error) => `cannot run redis-server: ${error.message}`);
    if (why === null) return { url, stop };
    if (why.startsWith('cannot run') || child.exitCode !== null) {
      await stop();
      throw new Error(why.startsWith('cannot run') ? why : `redis-server exited with code ${child.exitCode}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  await stop();
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s`);
}
