/** The demo's settings: read from the environment, and a bad one refused in one line that names it. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/server/config.ts';
import { demoOptionsFromEnv } from './settings.ts';

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
    expect(() => demoOptionsFromEnv({ LOC_DEMO_PORT: 'http' })).toThrow(new ConfigError('LOC_DEMO_PORT must be an integer from 1 to 65535, received "http".'));
    expect(() => demoOptionsFromEnv({ LOC_DEMO_PORT: '0' })).toThrow(new ConfigError('LOC_DEMO_PORT must be an integer from 1 to 65535, received "0".'));
  });

  it('run on its own, says a bad setting in one line and exits 2', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'demo/main.ts'], { env: { ...process.env, LOC_DEMO_PORT: 'http' }, encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 2, stderr: 'error: LOC_DEMO_PORT must be an integer from 1 to 65535, received "http".\n' });
  });
});
