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

/**
 * KEYS: the windows; ARGV: limits, expiry times, now, how many requests are wanted, then each
 * window's key id and kind. Counts as many as every window has room for, all or nothing each; the
 * first window with the least room is the one spent.
 */
const TAKE = `
local n = #KEYS
local granted = tonumber(ARGV[2 * n + 2])
local spent = -1
local counts = {}
for i = 1, n do
  counts[i] = tonumber(redis.call('HGET', KEYS[i], 'used') or '0')
  local room = tonumber(ARGV[i]) - counts[i]
  if room < granted then
    granted = math.max(room, 0)
    spent = i - 1
  end
end
if granted > 0 then
  for i = 1, n do
    counts[i] = redis.call('HINCRBY', KEYS[i], 'used', granted)
    if counts[i] == granted then
      redis.call('HSET', KEYS[i], 'key_id', ARGV[2 * n + 2 * i + 1], 'kind', ARGV[2 * n + 2 * i + 2])
      redis.call('PEXPIREAT', KEYS[i], ARGV[n + i])
    end
  end
end
local first = 0
if spent >= 0 then
  first = redis.call('HSETNX', KEYS[spent + 1], 'first_refused_at', ARGV[2 * n + 1])
  if first == 1 then redis.call('PEXPIREAT', KEYS[spent + 1], ARGV[n + spent + 1]) end
end
return {granted, spent, first, unpack(counts)}`;

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
    take: (budgets, now, wanted) =>
      run(async () => {
        const [granted, spent, first, ...counts] = await scripts.locTake(
          budgets.length,
          ...budgets.map((b) => keyOf(b.id)),
          ...budgets.map((b) => b.limit),
          ...budgets.map((b) => b.resetsAt),
          now,
          wanted,
          ...budgets.flatMap((b) => [b.keyId, b.kind]),
        );
        return { granted, spent, counts, firstRefusal: first === 1 };
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
