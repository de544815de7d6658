/**
 * The request counters in Redis (LOC_REDIS_URL), for fleets whose counted requests outgrow what
 * PostgreSQL's row locks serve: the same all-or-nothing step as postgres-counters.ts, as one Lua
 * script, which Redis runs without interleaving another. A window's hash holds `used`,
 * `first_refused_at`, and the key and kind it counts for; it expires when its window ends. A key's
 * usage is the store's, not Redis's (limits/usage-meter.ts).
 *
 * Redis keeps the counts in memory: a restart of a Redis without persistence starts every window of
 * the hour afresh. While it cannot be reached, requests are refused (503), never let through
 * uncounted: commands are not queued for a reconnection, and each gets COMMAND_TIMEOUT_MS.
 */
import type { Redis } from 'ioredis';
import { redactUrl } from '../database-url.ts';
import { StoreUnavailable, type UnavailableReason } from '../store.ts';
import { sharedCounters, type CountEngine, type SharedCounters } from '../shared-counters.ts';

/** How long a command may take before Redis counts as out of reach. */
const COMMAND_TIMEOUT_MS = 2000;

/** KEYS: the windows; ARGV: limits, expiry times, now, then each window's key id and kind. */
const TAKE = `
local n = #KEYS
local counts = {}
for i = 1, n do counts[i] = tonumber(redis.call('HGET', KEYS[i], 'used') or '0') end
for i = 1, n do
  if counts[i] >= tonumber(ARGV[i]) then
    local first = redis.call('HSETNX', KEYS[i], 'first_refused_at', ARGV[2 * n + 1])
    if first == 1 then redis.call('PEXPIREAT', KEYS[i], ARGV[n + i]) end
    return {i - 1, first, unpack(counts)}
  end
end
for i = 1, n do
  counts[i] = redis.call('HINCRBY', KEYS[i], 'used', 1)
  if counts[i] == 1 then
    redis.call('HSET', KEYS[i], 'key_id', ARGV[2 * n + 2 * i], 'kind', ARGV[2 * n + 2 * i + 1])
    redis.call('PEXPIREAT', KEYS[i], ARGV[n + i])
  end
end
return {-1, 0, unpack(counts)}`;

/** Redis's refusals that mean the server, not the request, is at fault. */
const REPLY_REASONS: ReadonlyArray<[RegExp, UnavailableReason]> = [
  [/^OOM/, 'full'],
  [/^READONLY/, 'read-only'],
  [/^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)/, 'busy'],
];

type Scripts = Redis & {
  locTake(numberOfKeys: number, ...args: (string | number)[]): Promise<number[]>;
};

/** `error` as StoreUnavailable when Redis or the way to it is at fault; a script's own error stays a bug. */
function translateRedisError(error: unknown): unknown {
  // Redis's answer that a command failed (ioredis's ReplyError), told by name: the driver is loaded late.
  if ((error as Error).name === 'ReplyError') {
    const { message } = error as Error;
    const found = REPLY_REASONS.find(([pattern]) => pattern.test(message));
    return found === undefined ? error : new StoreUnavailable(found[1], `Redis: ${message}`, { cause: error });
  }
  return new StoreUnavailable('unreachable', `Redis: ${(error as Error).message}`, { cause: error });
}

export function redisCountEngine(redis: Redis, prefix: string): CountEngine {
  redis.defineCommand('locTake', { lua: TAKE });
  const scripts = redis as Scripts;
  const keyOf = (id: string): string => `${prefix}count:${id}`;
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw translateRedisError(error);
    }
  };
  return {
    take: (budgets, now) =>
      run(async () => {
        const [spent, first, ...counts] = await scripts.locTake(
          budgets.length,
          ...budgets.map((b) => keyOf(b.id)),
          ...budgets.map((b) => b.limit),
          ...budgets.map((b) => b.resetsAt),
          now,
          ...budgets.flatMap((b) => [b.keyId, b.kind]),
        );
        return { spent, counts, firstRefusal: first === 1 };
      }),
    ping: () =>
      run(async () => {
        await redis.ping();
      }),
    // Windows expire by themselves.
    sweep: async () => {},
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * Counters on the Redis at `url`, connected before the first request: a Redis that cannot be reached
 * at start is a StoreUnavailable, said in one line. `prefix` begins every key loc writes.
 */
export async function redisCounters(url: string, options: { now: () => number; prefix?: string }): Promise<SharedCounters> {
  // Loaded here, not with the service: a bundle hoists a static import to its top, and every start
  // would pay for a driver most never use (as postgres-pool.ts does for pg).
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    connectionName: 'loc',
  });
  // Reconnections are the client's own work; their errors are each request's 503, not the process's end.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new StoreUnavailable('unreachable', `cannot reach Redis at ${redactUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
  return sharedCounters(redisCountEngine(redis, options.prefix ?? 'loc:'), options);
}
