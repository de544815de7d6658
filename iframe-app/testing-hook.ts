/**
 * The frame's testing hook, `window.locTesting` (src/embed/testing-contract.ts): how loc-js/testing's
 * Playwright helpers choose a cell as the visitor would, without hunting for pixels, and move the
 * session's clock. It is in every session, live ones too, so that a suite runs the same against a
 * staging service: it reaches nothing the visitor cannot — a click, a typed code, "Use this location",
 * a wait — and only code of the frame's own origin, or a browser's automation, can reach the frame's
 * window; the integrator's page, on another origin, cannot.
 */
import { readLatLng } from '../src/embed/options.ts';
import type { FrameTestingHook } from '../src/embed/testing-contract.ts';
import type { Choice } from './choice.ts';
import type { Session } from './session.ts';
import type { Selection } from './selection.ts';

export interface TestingHookOptions {
  choice: Pick<Choice, 'choose' | 'confirm'>;
  selection: Pick<Selection, 'reveal'>;
  /** The session while the visitor may choose: undefined before init and once the map stopped. */
  session(): Pick<Session, 'advance'> | undefined;
}

export function createTestingHook({ choice, selection, session }: TestingHookOptions): FrameTestingHook {
  return {
    async pick(target, confirm) {
      // A test's value, checked as the page's are: a code, or a point.
      const outcome = await choice.choose(typeof target === 'string' ? target : readLatLng(target, 'pick: target'));
      if (outcome.state !== 'preview' && outcome.state !== 'chosen') return outcome;
      // The visitor had the cell in view to click it; a test's point may be anywhere.
      selection.reveal([outcome.result.latitude, outcome.result.longitude]);
      return outcome.state === 'preview' && confirm ? choice.confirm() : outcome;
    },
    async advance(ms) {
      if (ms !== undefined && !(Number.isFinite(ms) && ms >= 0)) throw new TypeError(`advance: ms must be a number of milliseconds, 0 or more; received ${ms}.`);
      const live = session();
      if (!live) throw new Error('advance: the map has no session to advance (not ready yet, or stopped).');
      await live.advance(ms);
    },
  };
}
