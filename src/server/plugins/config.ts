/**
 * The config plugin: hands the parsed configuration and the clock to every other plugin and route.
 * The clock is injected so that tests move time (session expiry, rate-limit windows) without sleeping.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Milliseconds since the epoch; the only clock the service reads. */
    now: () => number;
  }
}

export interface ConfigPluginOptions {
  config: Config;
  now: () => number;
}

export default fp<ConfigPluginOptions>(
  async (app, { config, now }) => {
    app.decorate('config', config);
    app.decorate('now', now);
  },
  { name: 'loc-config', fastify: '5.x' },
);
