/** Configuration: defaults, validation that names the variable, and the README documenting every variable. */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, OPTIONS, loadConfig } from './config.ts';
import { misspelledSettings } from './config-spelling.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: 'localhost',
      dataDir: resolve('./data'),
      databaseUrl: null,
      databasePoolSize: 8,
      redisUrl: null,
      workers: 1,
      publicUrl: 'http://localhost:8080',
      supportedCountries: null,
      trustProxy: [],
      defaultHourlyLimit: 1000,
      defaultEmbedHourlyLimit: 10000,
      defaultSessionLimit: 500,
      maxKeysPerAccount: 50,
      maxPendingInvitations: 20,
      maxOriginsPerKey: 20,
      maxIpRangesPerKey: 50,
      usageFlushMs: 10000,
      panelRefreshMs: 3000,
      panelSignInBudget: 1000,
      geocoderUrl: null,
      geocoderTimeoutMs: 1500,
      geocoderSearch: false,
      logLevel: 'info',
      outageLogMs: 10000,
      metricsPort: null,
      metricsHost: '127.0.0.1',
      shutdownTimeoutMs: 10000,
      tiles: { mode: 'online', base: {} },
      tileRendersPerSecond: 20,
    });
  });

  it('reads the tile settings of the embed', () => {
    expect(loadConfig({ LOC_TILES: 'offline' }).tiles.mode).toBe('offline');
    const custom = loadConfig({ LOC_TILES_SATELLITE_URL: 'https://tiles.example/sat/{z}/{x}/{y}.jpg', LOC_TRAFFIC_OVERLAY_URL: 'https://t.example/{z}/{x}/{y}.png' }).tiles;
    expect(custom.base?.satellite?.url).toBe('https://tiles.example/sat/{z}/{x}/{y}.jpg');
    expect(custom.trafficOverlay?.url).toBe('https://t.example/{z}/{x}/{y}.png');
  });

  it('derives the public URL from the port, and keeps one given without its trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ LOC_PUBLIC_URL: 'https://loc.example/' }).publicUrl).toBe('https://loc.example');
    expect(loadConfig({ LOC_PUBLIC_URL: 'https://example.org/loc/' }).publicUrl).toBe('https://example.org/loc');
  });

  it('reads the metrics listener, off unless its port is set, and refuses a port out of range', () => {
    expect(loadConfig({ LOC_METRICS_PORT: '0' })).toMatchObject({ metricsPort: 0, metricsHost: '127.0.0.1' });
    expect(loadConfig({ LOC_METRICS_PORT: '9464', LOC_METRICS_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0' });
    expect(() => loadConfig({ LOC_METRICS_PORT: '70000' })).toThrow(/LOC_METRICS_PORT/);
  });

  it('reads country lists and proxy lists', () => {
    expect([...loadConfig({ LOC_SUPPORTED_COUNTRIES: ' fr,DE ,' }).supportedCountries!]).toEqual(['FR', 'DE']);
    expect(loadConfig({ LOC_TRUST_PROXY: 'loopback, 10.0.0.0/8, 2001:db8::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '2001:db8::1/128']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, received "eighty".'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, received "70000".'],
    [{ LOC_PUBLIC_URL: 'loc.example' }, 'LOC_PUBLIC_URL must be an http or https URL, received "loc.example".'],
    [{ LOC_PUBLIC_URL: 'ftp://loc.example' }, 'LOC_PUBLIC_URL must be an http or https URL, received "ftp://loc.example".'],
    [{ LOC_SUPPORTED_COUNTRIES: 'FR,XX' }, 'LOC_SUPPORTED_COUNTRIES must be a list of covered ISO 3166-1 alpha-2 codes ("XX" is not one), received "FR,XX".'],
    [{ LOC_SUPPORTED_COUNTRIES: ',' }, 'LOC_SUPPORTED_COUNTRIES must be a comma-separated list of country codes such as "FR,DE", received ",".'],
    [{ LOC_TRUST_PROXY: 'true' }, 'LOC_TRUST_PROXY must be a list of IP addresses, CIDR ranges or loopback/linklocal/uniquelocal, received "true".'],
    // A hop count as Express takes it, which ipaddr.js would have read as the address 0.0.0.1.
    [{ LOC_TRUST_PROXY: '1' }, 'LOC_TRUST_PROXY must be a list of IP addresses, CIDR ranges or loopback/linklocal/uniquelocal, received "1".'],
    [{ LOC_TRUST_PROXY: '10.0.0.010' }, 'LOC_TRUST_PROXY must be a list of IP addresses, CIDR ranges or loopback/linklocal/uniquelocal, received "10.0.0.010".'],
    [{ LOC_DEFAULT_HOURLY_LIMIT: '0' }, 'LOC_DEFAULT_HOURLY_LIMIT must be an integer from 1 to 1000000000, received "0".'],
    [{ LOC_GEOCODER_URL: 'http://geo.example/?key=1' }, 'LOC_GEOCODER_URL must be a URL without query, fragment or credentials, received "http://geo.example/?key=1".'],
    [{ LOC_GEOCODER_SEARCH: 'yes' }, 'LOC_GEOCODER_SEARCH must be one of on, off, received "yes".'],
    [{ LOC_GEOCODER_SEARCH: 'on' }, 'LOC_GEOCODER_SEARCH=on needs LOC_GEOCODER_URL, the geocoder to ask; set it, or leave LOC_GEOCODER_SEARCH off.'],
    [{ LOC_TILES: 'cached' }, 'LOC_TILES must be "online" or "offline"; received "cached".'],
    [{ LOC_TILES_STREETS_URL: 'https://tiles.example/streets.png' }, 'LOC_TILES_STREETS_URL must be an http(s) URL template with {z}, {x} and {y}; received "https://tiles.example/streets.png".'],
    [{ LOC_GEOCODER_TIMEOUT_MS: '1.5' }, 'LOC_GEOCODER_TIMEOUT_MS must be an integer from 50 to 60000, received "1.5".'],
    [{ LOC_LOG_LEVEL: 'verbose' }, 'LOC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, received "verbose".'],
    [{ LOC_WORKERS: '2' }, 'LOC_WORKERS=2 starts 2 processes, but SQLite is one process\'s database: set LOC_DATABASE_URL to a PostgreSQL database they share, or set LOC_WORKERS=1.'],
    [{ LOC_WORKERS: 'all' }, 'LOC_WORKERS must be an integer from 1 to 64, received "all".'],
    [{ LOC_WORKERS: '0' }, 'LOC_WORKERS must be an integer from 1 to 64, received "0".'],
    [{ LOC_DATABASE_POOL_SIZE: '0' }, 'LOC_DATABASE_POOL_SIZE must be an integer from 1 to 1000, received "0".'],
    [{ LOC_REDIS_URL: 'http://cache:6379' }, 'LOC_REDIS_URL must be a redis:// or rediss:// URL with a host, received "http://cache:6379/".'],
    [{ LOC_REDIS_URL: 'redis://:s3cret@cache:6379/x' }, 'LOC_REDIS_URL must be a redis:// URL whose path, if any, is a database number (/0), received "redis://:***@cache:6379/x".'],
    [{ LOC_SHUTDOWN_TIMEOUT_MS: '-1' }, 'LOC_SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 600000, received "-1".'],
    [{ LOC_USAGE_FLUSH_MS: '10s' }, 'LOC_USAGE_FLUSH_MS must be an integer from 100 to 60000, received "10s".'],
    [{ LOC_USAGE_FLUSH_MS: '50' }, 'LOC_USAGE_FLUSH_MS must be an integer from 100 to 60000, received "50".'],
    [{ LOC_USAGE_FLUSH_MS: '3600000' }, 'LOC_USAGE_FLUSH_MS must be an integer from 100 to 60000, received "3600000".'],
    [{ LOC_PANEL_REFRESH_MS: '100' }, 'LOC_PANEL_REFRESH_MS must be an integer from 250 to 60000, received "100".'],
    [{ LOC_PANEL_REFRESH_MS: '60001' }, 'LOC_PANEL_REFRESH_MS must be an integer from 250 to 60000, received "60001".'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it('reads the settings of several processes: workers (auto is one per core), the pool, Redis', () => {
    const shared = { LOC_DATABASE_URL: 'postgres://loc@db.internal/loc' };
    expect(loadConfig({ ...shared, LOC_WORKERS: '3', LOC_DATABASE_POOL_SIZE: '4', LOC_REDIS_URL: 'redis://cache:6379/2' })).toMatchObject({
      workers: 3, databasePoolSize: 4, redisUrl: 'redis://cache:6379/2',
    });
    expect(loadConfig({ ...shared, LOC_WORKERS: 'auto' }).workers).toBe(availableParallelism());
    // One process on SQLite is what auto means on a single core; the refusal is for more than one.
    expect(loadConfig({ LOC_WORKERS: '1' }).workers).toBe(1);
  });

  it('reads the intervals of the usage figures: how often they are added up and an open panel page refreshes', () => {
    expect(loadConfig({ LOC_USAGE_FLUSH_MS: '500', LOC_PANEL_REFRESH_MS: '500' })).toMatchObject({ usageFlushMs: 500, panelRefreshMs: 500 });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
  });

  it('lets command-line flags override their variables, and names the flag when its value is bad', () => {
    expect(loadConfig({ PORT: '9000', HOST: 'localhost' }, { port: { flag: '--port', value: '9001' }, host: { flag: '--host', value: '0.0.0.0' } })).toMatchObject({ port: 9001, host: '0.0.0.0' });
    expect(() => loadConfig({}, { port: { flag: '--port', value: 'abc' } })).toThrow(new ConfigError('--port must be an integer from 0 to 65535, received "abc".'));
    // The flag is at fault even when the variable is bad too: it is the value that would have been used.
    expect(() => loadConfig({ PORT: 'eighty' }, { port: { flag: '--port', value: '70000' } })).toThrow(new ConfigError('--port must be an integer from 0 to 65535, received "70000".'));
    expect(() => loadConfig({}, { host: { flag: '--host', value: ' ' } })).toThrow(new ConfigError('--host must be given a value, received " ".'));
  });
});

describe('misspelledSettings', () => {
  it('warns of a LOC_ variable one or two letters from a setting, and names the setting', () => {
    expect(misspelledSettings({ LOC_PUBLICURL: 'https://loc.example', LOC_TILE: 'offline', LOC_TILES_STREETS_UR: 'x', LOC_DATADIR: './data' })).toEqual([
      'warning: LOC_PUBLICURL is not a loc setting and is ignored; did you mean LOC_PUBLIC_URL?',
      'warning: LOC_TILE is not a loc setting and is ignored; did you mean LOC_TILES?',
      'warning: LOC_TILES_STREETS_UR is not a loc setting and is ignored; did you mean LOC_TILES_STREETS_URL?',
      'warning: LOC_DATADIR is not a loc setting and is ignored; did you mean LOC_DATA_DIR?',
    ]);
  });

  it('leaves alone the settings themselves, variables near none of them (the demo\'s, which npm start sets beside them), and other prefixes', () => {
    const demo = { LOC_DEMO_PORT: '5174', LOC_DEMO_ORIGIN: 'x', LOC_API_URL: 'x', LOC_API_PUBLIC_URL: 'x', LOC_DEMO_API_KEY: 'x', LOC_DEMO_KEY_FILE: 'x' };
    const env = { LOC_DATA_DIR: '/srv/loc', LOC_TRAFFIC_OVERLAY_ATTRIBUTION: 'x', LOC_STRESS: 'full', LOC_SOMETHING_ELSE: '1', PORTS: '1', HOST: 'x', ...demo };
    expect(misspelledSettings(env)).toEqual([]);
  });
});

describe('documentation', () => {
  const readme = readFileSync('README.md', 'utf8');
  const operations = readFileSync('docs/operations.md', 'utf8');

  it.each(Object.values(OPTIONS).map((option) => option.env))('README and docs/operations.md document %s', (variable) => {
    expect(readme).toContain(`\`${variable}\``);
    expect(operations).toContain(`\`${variable}\``);
  });
});
