// @vitest-environment node
/** loadLoc where there is no page: server-side rendering, a test in Node. */
import { describe, expect, it } from 'vitest';
import { loadLoc } from './embed.ts';

describe('loadLoc outside a browser', () => {
  it('rejects, saying where to call it', async () => {
    await expect(loadLoc({ baseUrl: 'https://loc.example' })).rejects.toThrow('loadLoc: runs in a browser, where there is a page to load the script into; call it from browser code (not during server-side rendering).');
  });
});
