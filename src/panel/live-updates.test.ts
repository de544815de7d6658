// @vitest-environment jsdom
/**
 * The panel's page script refreshing a page's live parts (panel-app/live.ts) in jsdom, with the fetch
 * and the timers faked: as often as the page says (`data-refresh-ms`, the service's setting), 3 s when
 * it does not say. Here, beside the server that sets the attribute: vitest collects no test in panel-app/.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startLiveUpdates } from '../../panel-app/live.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

it.each([
  ['1500', 1500],
  [undefined, 3000],
  ['soon', 3000],
  ['0', 3000],
])('fetches the page again every data-refresh-ms (%s): every %i ms', async (attribute, every) => {
  document.body.innerHTML = '<p id="figure" data-live>0</p>';
  if (attribute === undefined) delete document.body.dataset.refreshMs;
  else document.body.dataset.refreshMs = attribute;
  const fetch = vi.fn(async () => new Response('<p id="figure" data-live>1</p>', { headers: { 'content-type': 'text/html' } }));
  vi.stubGlobal('fetch', fetch);

  startLiveUpdates(document);
  await vi.advanceTimersByTimeAsync(every - 1);
  expect(fetch).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(document.getElementById('figure')!.textContent).toBe('1');
  await vi.advanceTimersByTimeAsync(every);
  expect(fetch).toHaveBeenCalledTimes(2);
});
