/** The demo's settings: read from the environment, and a bad one refused in one line that names it. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { demoOptionsFromEnv, SettingError, strayVariables } from './settings.ts';

describe('the demo settings', () => {
  it('reads its settings from the environment', () => {
    expect(demoOptionsFromEnv({})).toEqual({
      port: 5173,
      apiUrl: 'http://localhost:8080',
      publicApiUrl: 'http://localhost:8080',
      origin: 'http://localhost:5173',
      apiKey: undefined,
      keyFile: undefined,
    });
    expect(demoOptionsFromEnv({ LOC_DEMO_PORT: '6000', LOC_API_URL: 'http://api:8080/', LOC_API_PUBLIC_URL: 'https://loc.example', LOC_DEMO_KEY_FILE: '/data/dev-key' })).toMatchObject({
      port: 6000,
      apiUrl: 'http://api:8080',
      publicApiUrl: 'https://loc.example',
      origin: 'http://localhost:6000',
      keyFile: '/data/dev-key',
    });
  });

  it('refuses a LOC_DEMO_PORT that is not a port it can name in its origin', () => {
    expect(() => demoOptionsFromEnv({ LOC_DEMO_PORT: 'http' })).toThrow(new SettingError('LOC_DEMO_PORT must be an integer from 1 to 65535, received "http".'));
    expect(() => demoOptionsFromEnv({ LOC_DEMO_PORT: '0' })).toThrow(new SettingError('LOC_DEMO_PORT must be an integer from 1 to 65535, received "0".'));
  });

  it('refuses a LOC_DEMO_ORIGIN that is not an origin a key may allow, and an API URL that is not one, naming the variable', () => {
    const refusals: [Record<string, string>, string][] = [
      [{ LOC_DEMO_ORIGIN: 'http://shop.example' }, 'LOC_DEMO_ORIGIN must use https (plain http is accepted only for http://localhost:<port>), received "http://shop.example".'],
      [{ LOC_DEMO_ORIGIN: 'https://shop.example/' }, 'LOC_DEMO_ORIGIN must be an origin as a browser writes it, such as "https://shop.example", received "https://shop.example/".'],
      [{ LOC_DEMO_ORIGIN: 'shop.example' }, 'LOC_DEMO_ORIGIN must be an origin as a browser writes it, such as "https://shop.example", received "shop.example".'],
      [{ LOC_API_URL: 'localhost:8080' }, 'LOC_API_URL must be an http or https URL, received "localhost:8080".'],
      [{ LOC_API_PUBLIC_URL: 'ftp://loc.example' }, 'LOC_API_PUBLIC_URL must be an http or https URL, received "ftp://loc.example".'],
    ];
    for (const [env, message] of refusals) expect(() => demoOptionsFromEnv(env), message).toThrow(new SettingError(message));
    expect(demoOptionsFromEnv({ LOC_DEMO_ORIGIN: 'https://shop.example' }).origin).toBe('https://shop.example');
  });

  it('names a variable of its prefix that it does not read, and leaves its own and others alone', () => {
    expect(strayVariables({ LOC_DEMOPORT: '6000', LOC_DEMO_PORT: '6000', LOC_DEMO_KEY_FILE: 'x', LOC_DATA_DIR: 'x', PORT: '1' })).toEqual([
      'warning: LOC_DEMOPORT is not a setting of the demo and is ignored; it reads LOC_DEMO_PORT, LOC_DEMO_ORIGIN, LOC_DEMO_API_KEY, LOC_DEMO_KEY_FILE',
    ]);
  });

  it('run on its own, says a bad setting in one line and exits 2', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'demo/main.ts'], { env: { ...process.env, LOC_DEMO_PORT: 'http' }, encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 2, stderr: 'error: LOC_DEMO_PORT must be an integer from 1 to 65535, received "http".\n' });
  });
});
