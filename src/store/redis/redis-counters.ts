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
 * KEYS: the windows of every budget set, set after set. ARGV: now, the number of sets, each set's
 * size and how many requests it brings, then each window's limit, expiry time, key id and kind. The
 * sets are taken in turn, each as many of its requests as all its windows have room for, each
 * request all or nothing, a later set seeing what an earlier one took from a window they share; the
 * first window with the least room is the one spent. Answers, per set: granted, spent, whether the
 * refusal is the window's first, and each window's count.
 */
const TAKE = `
local sets = tonumber(ARGV[2])
local base = 2 + 2 * sets
local used = {}
local function current(key)
  if used[key] == nil then used[key] = tonumber(redis.call('HGET', key, 'used') or '0') end
  return used[key]
end
local function arg(i, field) return ARGV[base + 4 * (i - 1) + field] end
local out = {}
local i = 1
for s = 1, sets do
  local size = tonumber(ARGV[1 + 2 * s])
  local granted = tonumber(ARGV[2 + 2 * s])
  local spent = -1
  for k = 0, size - 1 do
    local room = tonumber(arg(i + k, 1)) - current(KEYS[i + k])
    if room < granted then
      granted = math.max(room, 0)
      spent = k
    end
  end
  if granted > 0 then
    for k = 0, size - 1 do
      local key = KEYS[i + k]
      used[key] = redis.call('HINCRBY', key, 'used', granted)
      if used[key] == granted then
        redis.call('HSET', key, 'key_id', arg(i + k, 3), 'kind', arg(i + k, 4))
        redis.call('PEXPIREAT', key, arg(i + k, 2))
      end
    end
  end
  local first = 0
  if spent >= 0 then
    first = redis.call('HSETNX', KEYS[i + spent], 'first_refused_at', ARGV[1])
    if first == 1 then redis.call('PEXPIREAT', KEYS[i + spent], arg(i + spent, 2)) end
  end
  out[#out + 1] = granted
  out[#out + 1] = spent
  out[#out + 1] = first
  for k = 0, size - 1 do out[#out + 1] = current(KEYS[i + k]) end
  i = i + size
end
return out`;

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
    engine: 'redis',
    take: (sets, now) =>
      run(async () => {
        const budgets = sets.flatMap((set) => set.budgets);
        const answer = await scripts.locTake(
          budgets.length,
          ...budgets.map((b) => keyOf(b.id)),
          now,
          sets.length,
          ...sets.flatMap((set) => [set.budgets.length, set.wanted]),
          ...budgets.flatMap((b) => [b.limit, b.resetsAt, b.keyId, b.kind]),
        );
        let at = 0;
        return sets.map((set) => {
          const [granted, spent, first] = answer.slice(at, at + 3);
          const counts = answer.slice(at + 3, (at += 3 + set.budgets.length));
          return { granted, spent, counts, firstRefusal: first === 1 };
        });
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
