/**
 * The share page's markup where the service cannot reach it with a real code: a cell past Web
 * Mercator's edge (no country the codes cover goes that far; the page must still say something true).
 */
import { describe, expect, it } from 'vitest';
import { decode, type LocatedCell } from '../../code/index.ts';
import { DEFAULT_LAYERS } from '../../tiles/styles.ts';
import { sharePage } from './share-page.ts';

describe('share page', () => {
  it('says why there is no map for a cell beyond Web Mercator’s edge, and asks for no tile', () => {
    const polar: LocatedCell = {
      ...decode('FR-0RMB-CLY0'),
      latitude: 86.00001,
      cell: { north: 86.00003, south: 86, west: 2.2944, east: 2.29474 },
    };
    const html = sharePage(polar, 'the Arctic Ocean', 'France', 'https://loc.example/FR-0RMB-CLY0', [DEFAULT_LAYERS.streets]);
    expect(html).toContain('<p class="map-note">No map: this cell lies beyond 85.05° of latitude, where web maps end.');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('class="map-cell"');
    // The rest of the page is there.
    expect(html).toContain('<h1 id="code" class="code">FR-0RMB-CLY0</h1>');
  });
});
