/**
 * The service's configuration: every environment variable, its default and a one-line doc, declared
 * once in OPTIONS, parsed and validated once at start. A bad value stops the start with a message
 * that names the variable, says what it expects and shows what it received.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { MAX_LIMIT } from '../limits/budgets.ts';
import type { Caps } from '../operations/caps.ts';
import { RENDER_BURST_SECONDS } from '../tiles/offline.ts';
import { TILE_SOURCE_VARIABLES, tileSettingsFromEnv, type TileSettings } from '../tiles/styles.ts';
import { ConfigError, countries, fail, httpUrl, integer, oneOf, postgresUrl, proxies, redisUrl } from './config-values.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The PostgreSQL database to use instead of SQLite in `dataDir`; null: SQLite. */
  databaseUrl: string | null;
  /** Connections each process keeps to `databaseUrl` at most. */
  databasePoolSize: number;
  /** A Redis server to keep the request counters in instead of the database; null: the database (or, on SQLite, this process). */
  redisUrl: string | null;
  /** Processes serving on the one port (`LOC_WORKERS`, `auto` resolved); more than 1 only with `databaseUrl`. */
  workers: number;
  /** Base of `share_url` and `embed_url`, without a trailing slash. */
  publicUrl: string;
  /** Countries whose codes are handed out; null: every country the codec covers. */
  supportedCountries: ReadonlySet<string> | null;
  /** Proxies whose `X-Forwarded-For` is believed; empty: none, the socket address is the client. */
  trustProxy: string[];
  defaultHourlyLimit: number;
  defaultEmbedHourlyLimit: number;
  defaultSessionLimit: number;
  /** The caps on what an account gathers (operations/caps.ts): active keys and pending invitations per account, origins and IP ranges per key. */
  maxKeysPerAccount: number;
  maxPendingInvitations: number;
  maxOriginsPerKey: number;
  maxIpRangesPerKey: number;
  /** How often each process adds its usage tallies to the store (limits/usage-meter.ts). */
  usageFlushMs: number;
  /** How often an open panel page fetches its live parts again (panel-app/live.ts). */
  panelRefreshMs: number;
  /** Password sign-ins the whole service takes per 15 minutes, every client together (panel/throttle.ts). */
  panelSignInBudget: number;
  geocoderUrl: string | null;
  geocoderTimeoutMs: number;
  /** Whether the search box's Enter also asks the geocoder's forward search (only with `geocoderUrl`). */
  geocoderSearch: boolean;
  logLevel: string;
  /** While the database or the counters cannot serve, how often the log counts the failures of each cause (logs/outage-log.ts). */
  outageLogMs: number;
  /** Port of the Prometheus metrics listener (metrics/listener.ts); null: no metrics, and none of their cost. */
  metricsPort: number | null;
  metricsHost: string;
  /** On SIGTERM, how long readiness fails while the server still serves, before it closes (process/server.ts). */
  drainMs: number;
  shutdownTimeoutMs: number;
  /** Past this mean event-loop delay, requests are answered 503 at once (plugins/overload.ts); 0: never. */
  maxEventLoopDelayMs: number;
  /** Map tiles of the embed's four styles (the share page's map uses `streets`): public providers, the operator's own, or drawn offline. */
  tiles: TileSettings;
  /** Offline mode: new tiles the service may draw per second (tiles/offline.ts). */
  tileRendersPerSecond: number;
}

export { ConfigError };

interface Option<K extends keyof Config> {
  env: string;
  /** The default as it would be written in the environment; null: no default (see `parse`). */
  default: string | null;
  doc: string;
  /** `name` is what the value is called in errors: the variable, or the flag that overrode it. */
  parse: (text: string | null, parsed: Partial<Config>, env: Record<string, string | undefined>, name: string) => Config[K];
  /** The variables besides `env` that `parse` reads, a family named by a pattern (the tile sources). */
  family?: readonly string[];
}

type Options = { [K in keyof Config]: Option<K> };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Every option, in the order the README lists them. Later options may depend on earlier ones. */
export const OPTIONS: Options = {
  port: { env: 'PORT', default: '8080', doc: 'TCP port the service listens on; `0`: any free port, named in the banner.', parse: (t, _, __, name) => integer(name, t!, 0, 65535) },
  host: { env: 'HOST', default: 'localhost', doc: 'Interface to listen on; `0.0.0.0` or `::` to accept connections from other machines.', parse: (t) => t! },
  dataDir: {
    env: 'LOC_DATA_DIR', default: './data', doc: 'Directory of the SQLite database (`loc.db`) and the development key file.',
    parse: (t) => resolve(t!),
  },
  databaseUrl: {
    env: 'LOC_DATABASE_URL', default: null,
    doc: 'PostgreSQL database to keep accounts, keys, sessions, saved locations and the request counters in, shared by every loc process that names it, as `postgres://user@host:5432/name` (a password may be in the URL or in `PGPASSFILE`). Default: SQLite in `LOC_DATA_DIR`, for one process.',
    parse: (t, _, __, name) => (t === null ? null : postgresUrl(name, t)),
  },
  databasePoolSize: {
    env: 'LOC_DATABASE_POOL_SIZE', default: '8',
    doc: 'With `LOC_DATABASE_URL`: connections each loc process (each worker) keeps to PostgreSQL at most, besides two for the request counters. Size PostgreSQL’s `max_connections` (or pgbouncer) for processes × (this + 2).',
    parse: (t, _, __, name) => integer(name, t!, 1, 1000),
  },
  redisUrl: {
    env: 'LOC_REDIS_URL', default: null,
    doc: 'Redis server (`redis://[user:password@]host:6379[/db]`, or `rediss://` for TLS) to keep the request counters in, instead of PostgreSQL: for fleets beyond a few thousand counted requests per second. Default: the counters are in `LOC_DATABASE_URL`, or, on SQLite, in the one process.',
    parse: (t, _, __, name) => (t === null ? null : redisUrl(name, t)),
  },
  publicUrl: {
    env: 'LOC_PUBLIC_URL', default: null,
    doc: 'Public base URL of the service, used in `share_url` and `embed_url`. Default `http://localhost:PORT` (with PORT=0, the port the server gets).',
    parse: (t, parsed, _, name) => (t === null ? defaultPublicUrl(parsed.port!) : httpUrl(name, t)),
  },
  supportedCountries: {
    env: 'LOC_SUPPORTED_COUNTRIES', default: null, doc: 'Comma-separated ISO 3166-1 alpha-2 codes where codes are handed out. Default: every covered country.',
    parse: (t, _, __, name) => (t === null ? null : countries(name, t)),
  },
  trustProxy: {
    env: 'LOC_TRUST_PROXY', default: null, doc: 'Comma-separated addresses or CIDR ranges (or `loopback`) of reverse proxies whose `X-Forwarded-For` is trusted. Default: none.',
    parse: (t, _, __, name) => (t === null ? [] : proxies(name, t)),
  },
  defaultHourlyLimit: {
    env: 'LOC_DEFAULT_HOURLY_LIMIT', default: '1000', doc: 'Calls per hour made with a key itself (its server’s), for a key without its own `--hourly-limit`.',
    parse: (t, _, __, name) => integer(name, t!, 1, MAX_LIMIT),
  },
  defaultEmbedHourlyLimit: {
    env: 'LOC_DEFAULT_EMBED_HOURLY_LIMIT', default: '10000',
    doc: 'Calls per hour made with a key’s embed sessions, all visitors together, for a key without its own `--embed-hourly-limit`; counted apart from the key’s own calls.',
    parse: (t, _, __, name) => integer(name, t!, 1, MAX_LIMIT),
  },
  defaultSessionLimit: {
    env: 'LOC_DEFAULT_SESSION_LIMIT', default: '500', doc: 'Calls one embed session may make over its whole life, for a key without its own `--session-limit`.',
    parse: (t, _, __, name) => integer(name, t!, 1, MAX_LIMIT),
  },
  maxKeysPerAccount: {
    env: 'LOC_MAX_KEYS_PER_ACCOUNT', default: '50',
    doc: 'Active keys an account may have (a disabled key does not count); past it the panel refuses a new key or an enabled one, and the operator’s CLI too, unless `--over-cap`. A rotation’s replacement may go one past it.',
    parse: (t, _, __, name) => integer(name, t!, 1, 100_000),
  },
  maxPendingInvitations: {
    env: 'LOC_MAX_PENDING_INVITATIONS', default: '20',
    doc: 'Invited people of an account who have not joined yet; past it the panel refuses an invitation, and `loc accounts invite` too, unless `--over-cap`.',
    parse: (t, _, __, name) => integer(name, t!, 1, 100_000),
  },
  maxOriginsPerKey: {
    env: 'LOC_MAX_ORIGINS_PER_KEY', default: '20', doc: 'Allowed origins one key may have, in the panel and at the CLI (`--over-cap` goes past it).',
    parse: (t, _, __, name) => integer(name, t!, 1, 100_000),
  },
  maxIpRangesPerKey: {
    env: 'LOC_MAX_IP_RANGES_PER_KEY', default: '50', doc: 'Allowed IP ranges one key may have, in the panel and at the CLI (`--over-cap` goes past it).',
    parse: (t, _, __, name) => integer(name, t!, 1, 100_000),
  },
  usageFlushMs: {
    env: 'LOC_USAGE_FLUSH_MS', default: '10000',
    doc: 'How often each process adds its usage tallies to the store, in one write: traffic shows in the panel within this and a page’s refresh, and a process that dies loses at most this long’s tallies.',
    parse: (t, _, __, name) => integer(name, t!, 100, 60_000),
  },
  panelRefreshMs: {
    env: 'LOC_PANEL_REFRESH_MS', default: '3000',
    doc: 'How often an open panel page refreshes its live parts (a key’s usage and last use, a rotation’s first request); each refresh is one request for the page.',
    parse: (t, _, __, name) => integer(name, t!, 250, 60_000),
  },
  panelSignInBudget: {
    env: 'LOC_PANEL_SIGN_IN_BUDGET', default: '1000',
    doc: 'Password sign-ins and confirmations the panel takes per 15 minutes from every client together, besides each address’s and each client’s own budgets: a flood spread over many addresses spends it instead of keeping the password hashes busy. Once spent, password sign-ins are refused (429) until the quarter ends; passkeys still sign in.',
    parse: (t, _, __, name) => integer(name, t!, 1, 1_000_000),
  },
  geocoderUrl: {
    env: 'LOC_GEOCODER_URL', default: null, doc: 'Base URL of a Nominatim-compatible reverse geocoder for street addresses. Default: offline addresses only.',
    parse: (t, _, __, name) => (t === null ? null : httpUrl(name, t)),
  },
  geocoderTimeoutMs: {
    env: 'LOC_GEOCODER_TIMEOUT_MS', default: '1500', doc: 'Time the geocoder gets before the offline address is used instead.',
    parse: (t, _, __, name) => integer(name, t!, 50, 60_000),
  },
  geocoderSearch: {
    env: 'LOC_GEOCODER_SEARCH', default: 'off',
    doc: '`on`: a search submitted with Enter (`forward=1`) also asks the geocoder of `LOC_GEOCODER_URL` for places by name (`/search`); never as the visitor types, which public geocoders forbid. Needs `LOC_GEOCODER_URL`.',
    parse: (t, parsed, _, name) => {
      const on = oneOf(name, t!, ['on', 'off']) === 'on';
      if (on && parsed.geocoderUrl === null) throw new ConfigError(`${name}=on needs LOC_GEOCODER_URL, the geocoder to ask; set it, or leave ${name} off.`);
      return on;
    },
  },
  logLevel: {
    env: 'LOC_LOG_LEVEL', default: 'info', doc: `Log level: ${LOG_LEVELS.join(', ')}.`,
    parse: (t, _, __, name) => oneOf(name, t!, LOG_LEVELS),
  },
  outageLogMs: {
    env: 'LOC_OUTAGE_LOG_MS', default: '10000',
    doc: 'While the database or the request counters cannot serve, each cause is logged once in full, then once per this interval with how many more requests it failed, and once when it recovers. With traces on, OpenTelemetry’s problems (a failed export) are logged at most once per interval too.',
    parse: (t, _, __, name) => integer(name, t!, 100, 600_000),
  },
  metricsPort: {
    env: 'LOC_METRICS_PORT', default: null,
    doc: 'Port of a listener of its own that answers `GET /metrics` in the Prometheus text format, never on the API’s port; `0`: any free port, named in the banner. With `LOC_WORKERS`, the primary answers for every worker. Default: no metrics.',
    parse: (t, _, __, name) => (t === null ? null : integer(name, t, 0, 65535)),
  },
  metricsHost: {
    env: 'LOC_METRICS_HOST', default: '127.0.0.1',
    doc: 'Interface of the metrics listener (with `LOC_METRICS_PORT`). It asks for no key: keep it on loopback, or on a network only the monitoring reaches.',
    parse: (t) => t!,
  },
  tiles: {
    env: 'LOC_TILES', default: 'online',
    doc: '`online`: map tiles from public providers (or the `LOC_TILES_<STYLE>_URL` overrides below); `offline`: the service draws its own, for tests and air-gapped sites.',
    family: TILE_SOURCE_VARIABLES,
    parse: (t, _, env) => {
      try {
        return tileSettingsFromEnv({ ...env, LOC_TILES: t! });
      } catch (error) {
        throw new ConfigError((error as Error).message);
      }
    },
  },
  tileRendersPerSecond: {
    env: 'LOC_TILE_RENDERS_PER_SECOND', default: '20',
    doc: `With \`LOC_TILES=offline\`: new tiles the service draws per second, after a first ${RENDER_BURST_SECONDS} s' worth at once; beyond that, 503 with \`Retry-After\` (tiles drawn recently are always served). Tiles are drawn in worker threads, never in the thread that answers the API.`,
    parse: (t, _, __, name) => integer(name, t!, 1, 10_000),
  },
  workers: {
    env: 'LOC_WORKERS', default: '1',
    doc: 'Processes that serve on the one port, `1` to `64`, or `auto`: one per core. More than one needs `LOC_DATABASE_URL`, as SQLite is one process’s database.',
    parse: (t, parsed, _, name) => {
      const workers = t === 'auto' ? availableParallelism() : integer(name, t!, 1, 64);
      if (workers > 1 && parsed.databaseUrl === null) {
        throw new ConfigError(
          `${name}=${t} starts ${workers} processes, but SQLite is one process's database: set LOC_DATABASE_URL to a PostgreSQL database they share, or set ${name}=1.`,
        );
      }
      return workers;
    },
  },
  drainMs: {
    env: 'LOC_DRAIN_MS', default: '10000',
    doc: 'On SIGTERM (not SIGINT, nor in `loc mock`): how long `/readyz` fails while the server still serves every request, new connections too, before it closes — a load balancer’s readiness probe period × its failure threshold, so that it stops sending first.',
    parse: (t, _, __, name) => integer(name, t!, 0, 600_000),
  },
  shutdownTimeoutMs: {
    env: 'LOC_SHUTDOWN_TIMEOUT_MS', default: '10000', doc: 'On SIGTERM (after the drain) or SIGINT, how long in-flight requests get to finish before the process exits anyway.',
    parse: (t, _, __, name) => integer(name, t!, 0, 600_000),
  },
  maxEventLoopDelayMs: {
    env: 'LOC_MAX_EVENT_LOOP_DELAY_MS', default: '1000',
    doc: 'Overload: while the event loop’s mean delay over the last second passes this, requests get 503 `service_unavailable` with `Retry-After` at once, and `/readyz` fails; `/livez` still answers. `0`: off.',
    parse: (t, _, __, name) => integer(name, t!, 0, 60_000),
  },
};

/** The options that cap what an account gathers, and the `loc serve` flag of each. */
export const CAP_OPTIONS = {
  maxKeysPerAccount: '--max-keys-per-account', maxPendingInvitations: '--max-pending-invitations',
  maxOriginsPerKey: '--max-origins-per-key', maxIpRangesPerKey: '--max-ip-ranges-per-key',
} as const satisfies Partial<Record<keyof Config, string>>;

/** The caps as the operations take them: each its number and the variable that raises it. */
export function capsOf(config: Pick<Config, keyof typeof CAP_OPTIONS>): Caps {
  const cap = (key: keyof typeof CAP_OPTIONS) => ({ most: config[key], setting: OPTIONS[key].env });
  return { keys: cap('maxKeysPerAccount'), invitations: cap('maxPendingInvitations'), origins: cap('maxOriginsPerKey'), ipRanges: cap('maxIpRangesPerKey') };
}

/**
 * The public URL when LOC_PUBLIC_URL is not set. With port 0 the server makes it again from the port
 * it is going to listen on (server.ts).
 */
export function defaultPublicUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** A value given on the command line (`loc serve --port 9000`) in place of its variable. */
export interface Flag {
  /** The flag as typed, `--port`: errors about the value name it, not the variable it overrode. */
  flag: string;
  value: string;
}

/**
 * Reads the configuration from `env`, with `flags` overriding their variables; throws `ConfigError`
 * naming the first bad variable or flag. An empty variable counts as unset, but an empty flag is an
 * error: `--host ""` is a mistake, not a request for the default.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, flags: Partial<Record<keyof Config, Flag>> = {}): Config {
  return loadSettings(env, Object.keys(OPTIONS) as (keyof Config)[], flags);
}

/**
 * The options `keys` alone, read as loadConfig reads them and in the order OPTIONS declares them, so
 * that one may depend on another: for a command that needs a few settings, and must not refuse to
 * run over a bad value of one it does not use.
 */
export function loadSettings<K extends keyof Config>(env: Record<string, string | undefined>, keys: readonly K[], flags: Partial<Record<keyof Config, Flag>> = {}): Pick<Config, K> {
  const parsed: Partial<Config> = {};
  for (const [key, option] of Object.entries(OPTIONS) as [keyof Config, Option<keyof Config>][]) {
    if (!(keys as readonly (keyof Config)[]).includes(key)) continue;
    const flag = flags[key];
    if (flag !== undefined && flag.value.trim() === '') fail(flag.flag, 'given a value', flag.value);
    const raw = flag?.value ?? env[option.env];
    const text = raw === undefined || raw.trim() === '' ? option.default : raw.trim();
    (parsed as Record<string, unknown>)[key] = option.parse(text, parsed, env, flag?.flag ?? option.env);
  }
  return parsed as Pick<Config, K>;
}
