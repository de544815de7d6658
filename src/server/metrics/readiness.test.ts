/**
 * `loc_ready` in process: 1 once the tables and the address index are loaded, 0 from the drain on,
 * and read without calling the engines (what the engines answered is /readyz's to ask, routes/health.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { sampled } from '../../../test/support/metric-samples.ts';
import { freshService } from '../../../test/support/service.ts';
import { loadPlaces } from '../../address/offline.ts';
import { coverage } from '../../code/shipped-table.ts';

describe('loc_ready', () => {
  it('is 1 while the service is ready and 0 once it drains, and a scrape never pings the store', async () => {
    const service = await freshService({ LOC_METRICS_PORT: '0' });
    const registry = service.app.metrics!;
    loadPlaces();
    coverage();
    expect(await sampled(registry, 'loc_ready')).toBe(1);
    service.app.drain();
    expect(await sampled(registry, 'loc_ready')).toBe(0);
    expect(await sampled(registry, 'loc_store_operation_duration_seconds_count', { operation: 'ping' })).toBeUndefined();
  });
});
