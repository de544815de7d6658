/** `loc_ready` in process: 1 once the tables and the address index are loaded, 0 from the drain on. */
import { describe, expect, it } from 'vitest';
import { sampled } from '../../../test/support/metric-samples.ts';
import { freshService } from '../../../test/support/service.ts';
import { loadPlaces } from '../../address/offline.ts';
import { coverage } from '../../code/coverage.ts';

describe('loc_ready', () => {
  it('is 1 while the service is ready and 0 once it drains', async () => {
    const service = await freshService({ LOC_METRICS_PORT: '0' });
    loadPlaces();
    coverage();
    expect(await sampled(service.app.metrics!, 'loc_ready')).toBe(1);
    service.app.drain();
    expect(await sampled(service.app.metrics!, 'loc_ready')).toBe(0);
  });
});
