/**
 * The testing hook on fakes of the choice, the selection and the session: it chooses through the
 * visitor's own path, brings the cell into view, confirms only when asked, and moves only a live
 * session's clock. The hook in the real frame, driven by Playwright, is e2e/testing.spec.ts's.
 */
import { describe, expect, it, vi } from 'vitest';
import type { LocResolveResult } from '../src/embed/public-types.ts';
import type { PickOutcome } from '../src/embed/testing-contract.ts';
import { createTestingHook } from './testing-hook.ts';

const RESULT = { loc_code: 'FR-0RMB-CLY0', latitude: 48.8584, longitude: 2.2945 } as LocResolveResult;

function hookWith(first: PickOutcome, session: { advance: ReturnType<typeof vi.fn<(ms?: number) => Promise<void>>> } | null = { advance: vi.fn(async (_ms?: number) => {}) }) {
  const choice = { choose: vi.fn(async () => first), confirm: vi.fn(async (): Promise<PickOutcome> => ({ state: 'chosen', result: { ...RESULT, source: 'visitor' } })) };
  const selection = { reveal: vi.fn() };
  return { hook: createTestingHook({ choice, selection, session: () => session ?? undefined }), choice, selection, session };
}

describe('the testing hook', () => {
  it('chooses a point or a code as the visitor does, brings the cell into view, and confirms the preview when asked', async () => {
    const { hook, choice, selection } = hookWith({ state: 'preview', result: RESULT });
    await expect(hook.pick([48.8584, 2.2945] as never, true)).resolves.toEqual({ state: 'chosen', result: { ...RESULT, source: 'visitor' } });
    expect(choice.choose).toHaveBeenCalledWith({ lat: 48.8584, lng: 2.2945 });
    expect(selection.reveal).toHaveBeenCalledWith([48.8584, 2.2945]);
    expect(choice.confirm).toHaveBeenCalledTimes(1);
    await expect(hook.pick('fr0rmbcly0', false)).resolves.toEqual({ state: 'preview', result: RESULT });
    expect(choice.choose).toHaveBeenLastCalledWith('fr0rmbcly0');
    expect(choice.confirm).toHaveBeenCalledTimes(1);
  });

  it('answers a failure as it came, confirming nothing, and refuses a target of neither shape', async () => {
    const failed: PickOutcome = { state: 'failed', error: { code: 'unsupported_location', message: 'No code here.', recoverable: true } };
    const { hook, choice, selection } = hookWith(failed);
    await expect(hook.pick({ lat: 0, lng: -30 }, true)).resolves.toEqual(failed);
    expect(selection.reveal).not.toHaveBeenCalled();
    expect(choice.confirm).not.toHaveBeenCalled();
    await expect(hook.pick({ lat: 91, lng: 0 }, true)).rejects.toThrow(/pick: target/);
  });

  it('moves a live session’s clock, and refuses when there is none or the time is not one', async () => {
    const { hook, session } = hookWith({ state: 'refused', message: '' });
    await hook.advance(30_000);
    await hook.advance();
    expect(session!.advance.mock.calls).toEqual([[30_000], [undefined]]);
    await expect(hook.advance(-1)).rejects.toThrow('advance: ms must be a number of milliseconds, 0 or more; received -1.');
    await expect(hookWith({ state: 'refused', message: '' }, null).hook.advance(1)).rejects.toThrow('no session to advance');
  });
});
