/**
 * The metrics of the service's parts that keep figures of their own: embed sessions created and met
 * expired (plugins/auth.ts), offline tiles rendered, waiting and refused (tiles/offline.ts), the
 * password hashes at the gate (panel/hash-gate.ts) and the usage meter's batches (limits/usage-meter.ts).
 * Each part keeps plain integers whether metrics are on or not — an increment where something
 * happens — and they are read here at each scrape: a part's totals become a counter's increase, its
 * levels a gauge's value. Nothing is added to a request's path.
 *
 * The parts are decorated after the metrics plugin registers, so their metrics are made once the app
 * is ready, and only for the parts the app has: no tile metrics unless tiles are drawn offline, no
 * password hash metrics for `loc mock`, which has no panel.
 */
import type { Counter, Registry } from 'prom-client';
import type { MetricGroup, PromClient } from './metric-group.ts';

/** A counter that follows a total a part keeps (`read`, by label set), brought up to it at each scrape. */
export function followed<L extends string>(prom: PromClient, registry: Registry, name: string, help: string, read: () => ReadonlyArray<[Partial<Record<L, string>>, number]>, labelNames: readonly L[] = []): Counter<L> {
  const counted = new Map<string, number>();
  return new prom.Counter({
    name, help, labelNames, registers: [registry],
    collect() {
      for (const [labels, total] of read()) {
        const key = JSON.stringify(labels);
        this.inc(labels, total - (counted.get(key) ?? 0));
        counted.set(key, total);
      }
    },
  });
}

/** A gauge whose value is read from a part at each scrape. */
function level(prom: PromClient, registry: Registry, name: string, help: string, read: () => number): void {
  new prom.Gauge({
    name, help, registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

export const partMetrics: MetricGroup = (app, registry, prom) => {
  app.addHook('onReady', async () => {
    const sessions = app.sessionCounts;
    followed(prom, registry, 'loc_sessions_created_total', 'Embed sessions created.', () => [[{}, sessions.created]]);
    followed(prom, registry, 'loc_sessions_expired_total', 'Requests that came with an embed session past its expiry.', () => [[{}, sessions.expired]]);

    followed(prom, registry, 'loc_usage_flushes_total', 'Batches of the keys’ usage added to the store (ok), or that the store failed and are kept for the next (failed).', () => {
      const { flushed, failed } = app.usage.stats();
      return [[{ result: 'ok' }, flushed], [{ result: 'failed' }, failed]];
    }, ['result']);

    const tiles = app.offlineTiles;
    if (tiles !== null) {
      followed(prom, registry, 'loc_tiles_rendered_total', 'Offline map tiles drawn by the tile workers.', () => [[{}, tiles.stats().rendered]]);
      followed(prom, registry, 'loc_tiles_refused_total', 'New offline map tiles refused: too many waiting, or over the render rate.', () => [[{}, tiles.stats().refused]]);
      level(prom, registry, 'loc_tiles_queued', 'Offline map tiles handed to the tile workers and not yet drawn.', () => tiles.stats().queued);
    }

    if (app.hasDecorator('passwords')) {
      const { passwords } = app;
      level(prom, registry, 'loc_password_hashes_running', 'Password hashes being computed now.', () => passwords.stats().running);
      level(prom, registry, 'loc_password_hashes_queued', 'Password hashes waiting at the gate for one of those running.', () => passwords.stats().queued);
      followed(prom, registry, 'loc_password_hashes_refused_total', 'Password hashes the gate refused (503), too many waiting already.', () => [[{}, passwords.stats().refused]]);
    }
  });
};
