/**
 * The store plugin: opens the configured store (store/open-store.ts; unless one is injected), puts the
 * request cache in front of it (store/cached.ts), sweeps expired embed and panel sessions every hour, and
 * closes the database when the app closes.
 */
import fp from 'fastify-plugin';
import { DAY_MS, HOUR_MS } from '../../durations.ts';
import { cachedStore } from '../../store/cached.ts';
import { openStore } from '../../store/open-store.ts';
import type { Store } from '../../store/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
  }
}

/**
 * How long a key or session read is reused: a change made with the CLI, or through another server on
 * the same database, reaches this server within this time. A disabled key or a removed origin is
 * refused everywhere within a second; half of it leaves room for the request under way. It is
 * also how long a server that has lost its database goes on answering from memory: no longer.
 */
export const KEY_CACHE_MS = 500;

export interface StorePluginOptions {
  /** A store owned by the caller, who also closes it; default: the configured one. */
  store?: Store;
}

export default fp<StorePluginOptions>(
  async (app, options) => {
    const own = options.store ?? (await openStore(app.config));
    // Watched beneath the cache: what the database itself answered, not what the cache did.
    const store = cachedStore(app.portCalls.watch(own, 'store'), { now: app.now, ttlMs: KEY_CACHE_MS });
    app.decorate('store', store);
    // Keep expired sessions a day, so a late request still hears session_expired, not invalid_session.
    // The panel's sessions, links and challenges go as soon as they expire: nobody is told why.
    const sweep = setInterval(() => {
      store.deleteSessionsExpiredBefore(app.now() - DAY_MS).catch(app.outages.task('session sweep failed'));
      store.panel.sweep(app.now()).catch(app.outages.task('panel sweep failed'));
    }, HOUR_MS).unref();
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      if (options.store === undefined) await own.close();
    });
  },
  { name: 'loc-store', fastify: '5.x', dependencies: ['loc-config', 'loc-port-calls', 'loc-outages'] },
);
