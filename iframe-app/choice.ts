/**
 * The choice of a cell. The visitor's: a point — clicked, or at the crosshair on Enter or Space — is
 * looked up and previewed; "Use this location", or Enter on the previewed cell, saves it and hands it
 * to the page's `onSelect`. With `confirm: false` the first lookup saves and selects at once. Escape
 * clears it. The page's (`LocHandle.select`): a code or a point, saved, shown and handed over as a
 * confirmed choice is, the map brought to it, and the outcome answers the page's call. Only the latest
 * lookup counts: a new one, whoever made it, aborts the one under way, whose answer is dropped.
 */
import { readLatLng } from '../src/embed/options.ts';
import type { HostCallbacks, LatLng } from '../src/embed/protocol.ts';
import type { LocAbortError, LocEmbedError, LocResolveResult, LocSelectResult, LocSelectSource } from '../src/embed/public-types.ts';
import { RECOVERABLE } from '../src/embed/recoverable.ts';
import type { PickOutcome } from '../src/embed/testing-contract.ts';
import { EmbedFailure, type Target } from './api.ts';
import { t } from './i18n.ts';
import type { Panel } from './panel.ts';
import type { Selection } from './selection.ts';
import { SESSION_ENDED, type Session } from './session.ts';

/** What init handed over that a choice needs. */
export interface Chooser {
  session: Pick<Session, 'resolve'>;
  /** Preview first (`LocMountOptions.confirm`). */
  confirm: boolean;
  host: Pick<HostCallbacks, 'select' | 'preview' | 'clear'>;
}

export interface ChoiceOptions {
  selection: Selection;
  panel: Panel;
  /** Undefined while nothing may be chosen: before init, once the map stopped or its session is over. */
  chooser(): Chooser | undefined;
  /** Why, while `chooser()` is undefined: what the page's select is refused with. */
  cannotChoose(): LocEmbedError;
  /** Resolves once the page heard `onReady`, or the map stopped: the page's select waits for it. */
  settled: Promise<void>;
  /** A lookup failed: the visitor and the page are told (lifecycle.ts). */
  onFailure(failure: EmbedFailure): void;
  /** Drops the keys' announcement not yet made: one made after a choice would cut off the code's. */
  hush(): void;
}

export interface Choice {
  /**
   * Looks the point (or a code the visitor typed) up: a preview, or with `confirm: false` the choice
   * itself; resolves with what came of it once the visitor was shown it (and `onSelect` ran).
   * `previewFirst`: a preview whatever `confirm` says — a code typed into the search box is shown
   * before anything is selected, since a slip in it nearly always names another cell.
   */
  choose(target: Target, previewFirst?: boolean): Promise<PickOutcome>;
  /** Enter or Space at the crosshair: on the previewed cell, confirms it; elsewhere, chooses anew. */
  chooseByKey(point: LatLng): void;
  /** "Use this location": saves the preview and hands it to the page; resolves as `choose` does. */
  confirm(): Promise<PickOutcome>;
  /** Escape: drops the preview or choice and the lookup under way; the page hears `onClear` when one was shown. */
  clear(): void;
  /**
   * `LocMountOptions.value`: looks the code up, unsaved, and shows its cell as chosen, the map brought
   * to it, without `onSelect`; resolves with it, or undefined when it could not be opened (reported as
   * the visitor's failures are) or a choice came first.
   */
  open(code: string): Promise<LocResolveResult | undefined>;
  /**
   * The page's select (`FrameApi.select`): chooses the cell of a code or a point as a confirmed choice,
   * and resolves with what `onSelect` received, once it has. Rejects with a `LocEmbedError` — which,
   * when it stops the map, is also reported as the visitor's failures are — or with an `AbortError`
   * when a later choice or a clear drops it.
   */
  select(target: unknown): Promise<LocSelectResult>;
  /**
   * The page's clear (`FrameApi.clear`): Escape's, silently — the visitor did nothing to be told
   * about — once the page's select would go ahead, so that the two keep the order the page made them in.
   */
  clearByPage(): Promise<void>;
  /** Drops the lookup under way: the map stopped. */
  abort(): void;
}

/** What came of a choice that chose nothing. */
type Unchosen = Extract<PickOutcome, { state: 'failed' | 'refused' }>;

/**
 * Why a lookup's answer is not used: a later lookup, a clear or the map's stop aborted it. A plain
 * object, not a DOMException: comlink sends an Error as its message, name and stack only when it
 * knows it for one, and the page gets `LocAbortError` either way.
 */
const dropped = (): LocAbortError => ({ name: 'AbortError', message: 'A later choice, clear() or the end of the map dropped this choice.' });

/** What the steps of a choice share: the options, the lookup under way and the cell previewed. */
interface ChoiceState extends ChoiceOptions {
  pending?: AbortController;
  preview?: LocResolveResult;
}

export function createChoice(options: ChoiceOptions): Choice {
  const state: ChoiceState = { ...options };
  const { panel, chooser, hush } = options;
  return {
    choose: (target, previewFirst) => choose(state, target, previewFirst),
    chooseByKey(point) {
      if (inPreview(state, point) && panel.confirm()) return;
      void choose(state, point);
    },
    confirm: () => confirm(state),
    clear() {
      // Escape by keyboard: said, since nothing else a screen reader follows changes where focus is;
      // then the keys' pending announcement gives way. With nothing to clear, nothing is said or dropped.
      const shown = panel.isShown();
      reset(state);
      if (shown) {
        hush();
        panel.announce(t('announce.cleared'));
        void chooser()?.host.clear();
      }
    },
    open: (code) => open(state, code),
    select: (target) => select(state, target),
    async clearByPage() {
      await options.settled;
      reset(state);
    },
    abort: () => state.pending?.abort(),
  };
}

/** Every choice (click, Enter, Space, confirming, the page's) starts here: who may choose now, if anyone. */
function begin(state: ChoiceState): Chooser | undefined {
  state.hush();
  return state.chooser();
}

/**
 * Looks `target` up, aborting the lookup under way. Rejects with an `EmbedFailure`, having cleared
 * what was shown; with `SESSION_ENDED` (reported already); or with `dropped()` once aborted.
 */
async function lookUp(state: ChoiceState, session: Chooser['session'], target: Target, save: boolean): Promise<LocResolveResult> {
  state.pending?.abort();
  const controller = (state.pending = new AbortController());
  state.panel.message(null);
  state.panel.busy();
  // Dropped at once when aborted, whatever the lookup does meanwhile (a renewal under way, say): the
  // page's select is answered then.
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(dropped())));
  try {
    const result = await Promise.race([session.resolve(target, save, controller.signal), aborted]);
    if (controller.signal.aborted) throw dropped();
    return result;
  } catch (error) {
    if (controller.signal.aborted || (error as Error)?.name === 'AbortError') throw dropped();
    if (error === SESSION_ENDED) throw error;
    state.preview = undefined;
    state.selection.clear();
    state.panel.hide();
    throw error instanceof EmbedFailure ? error : new EmbedFailure('internal_error', String(error));
  }
}

/** Nothing was chosen, and why: the map cannot choose now, or `error` dropped the lookup. */
function refused(state: ChoiceState, error?: unknown): Unchosen {
  return {
    state: 'refused',
    message: error === undefined || error === SESSION_ENDED ? state.cannotChoose().message : (error as LocAbortError).message,
  };
}

/** The visitor's lookup: a failure is told (onFailure); a dropped lookup, or a session that ended, is not. */
function visitorLookUp(state: ChoiceState, session: Chooser['session'], target: Target, save: boolean): Promise<LocResolveResult | Unchosen> {
  return lookUp(state, session, target, save).catch((error: unknown) => {
    if (!(error instanceof EmbedFailure)) return refused(state, error);
    state.onFailure(error);
    return { state: 'failed', error: error.toJSON() };
  });
}

/** Shows a saved cell as chosen and hands it to the page; resolves once `onSelect` ran. */
async function chosen(state: ChoiceState, host: Chooser['host'], result: LocResolveResult, source: LocSelectSource): Promise<LocSelectResult> {
  state.preview = undefined;
  state.selection.show(result.cell, [result.latitude, result.longitude], true);
  state.panel.show(result, 'chosen');
  const selected: LocSelectResult = { ...result, source };
  await host.select(selected);
  return selected;
}

async function choose(state: ChoiceState, target: Target, previewFirst = false): Promise<PickOutcome> {
  const by = begin(state);
  if (!by) return refused(state);
  const result = await visitorLookUp(state, by.session, target, !by.confirm && !previewFirst);
  if ('state' in result) return result;
  if (!by.confirm && !previewFirst) return { state: 'chosen', result: await chosen(state, by.host, result, 'visitor') };
  state.selection.show(result.cell, [result.latitude, result.longitude], false);
  state.panel.show(result, 'preview');
  state.preview = result;
  void by.host.preview(result);
  return { state: 'preview', result };
}

async function confirm(state: ChoiceState): Promise<PickOutcome> {
  const { preview } = state;
  if (!preview) return { state: 'refused', message: 'There is no previewed cell to confirm.' };
  const by = begin(state);
  if (!by) return refused(state);
  const result = await visitorLookUp(state, by.session, { lat: preview.latitude, lng: preview.longitude }, true);
  return 'state' in result ? result : { state: 'chosen', result: await chosen(state, by.host, result, 'visitor') };
}

function reset(state: ChoiceState): void {
  state.pending?.abort();
  state.preview = undefined;
  state.selection.clear();
  state.panel.hide();
}

/**
 * Whether the point is in the cell previewed: Enter there confirms it, as the button is eight Tab
 * stops away, behind the map's controls and attributions.
 */
function inPreview({ preview }: ChoiceState, { lat, lng }: LatLng): boolean {
  return preview !== undefined && lat >= preview.cell.south && lat < preview.cell.north && lng >= preview.cell.west && lng < preview.cell.east;
}

/** The value the page opens the map on: shown as chosen, without onSelect; undefined when it cannot be. */
async function open(state: ChoiceState, code: string): Promise<LocResolveResult | undefined> {
  const by = begin(state);
  if (!by) return undefined;
  const result = await visitorLookUp(state, by.session, code, false);
  if ('state' in result) return undefined;
  state.selection.reveal([result.latitude, result.longitude]);
  state.selection.show(result.cell, [result.latitude, result.longitude], true);
  state.panel.show(result, 'chosen');
  return result;
}

/** The page's select: the cell chosen and brought into view, or the call rejected with why. */
async function select(state: ChoiceState, target: unknown): Promise<LocSelectResult> {
  // Checked again here, as every value that comes over the channel is: a code, or a point.
  const checked: Target = typeof target === 'string' ? target : readLatLng(target, 'select: target');
  // A loader queues what the page asks before the frame connected behind init: it waits here.
  await state.settled;
  const by = begin(state);
  if (!by) throw state.cannotChoose();
  let result: LocResolveResult;
  try {
    result = await lookUp(state, by.session, checked, true);
  } catch (error) {
    // The map stopped meanwhile (its session ended …): that is the answer, whatever the lookup did.
    if (!state.chooser()) throw state.cannotChoose();
    if (!(error instanceof EmbedFailure)) throw error;
    // A failure that stops the map is the page's onError's too; the others answer this call alone.
    if (!RECOVERABLE[error.code]) state.onFailure(error);
    throw error.toJSON();
  }
  state.selection.reveal([result.latitude, result.longitude]);
  return chosen(state, by.host, result, 'page');
}
