/**
 * The visitor's choice. A point — clicked, or at the crosshair on Enter or Space — is looked up and
 * previewed; "Use this location", or Enter on the previewed cell, saves it and hands it to the page's
 * `onSelect`. With `confirm: false` the first lookup saves and selects at once. Escape clears it. Only
 * the latest lookup counts: a new one aborts the one under way, whose answer is dropped.
 */
import type { HostCallbacks, LatLng } from '../src/embed/protocol.ts';
import type { LocSelectResult } from '../src/embed/public-types.ts';
import { EmbedFailure } from './api.ts';
import type { Panel } from './panel.ts';
import type { Selection } from './selection.ts';
import { SESSION_ENDED, type Session } from './session.ts';

/** What init handed over that a choice needs. */
export interface Chooser {
  session: Pick<Session, 'resolve'>;
  /** Preview first (`LocMountOptions.confirm`). */
  confirm: boolean;
  host: Pick<HostCallbacks, 'select'>;
}

export interface ChoiceOptions {
  selection: Selection;
  panel: Panel;
  /** Undefined while nothing may be chosen: before init, once the map stopped or its session is over. */
  chooser(): Chooser | undefined;
  /** A lookup failed: the visitor and the page are told (lifecycle.ts). */
  onFailure(failure: EmbedFailure): void;
  /** Drops the keys' announcement not yet made: one made after a choice would cut off the code's. */
  hush(): void;
}

export interface Choice {
  /** Looks the point up: a preview, or with `confirm: false` the choice itself. */
  choose(point: LatLng): Promise<void>;
  /** Enter or Space at the crosshair: on the previewed cell, confirms it; elsewhere, chooses anew. */
  chooseByKey(point: LatLng): void;
  /** "Use this location": saves the preview and hands it to the page. */
  confirm(): void;
  /** Escape: drops the preview or choice and the lookup under way. */
  clear(): void;
  /** Drops the lookup under way: the map stopped. */
  abort(): void;
}

export function createChoice({ selection, panel, chooser, onFailure, hush }: ChoiceOptions): Choice {
  let pending: AbortController | undefined;
  let preview: LocSelectResult | undefined;

  /** Every choice (click, Enter, Space, confirming) starts here: who may choose now, if anyone. */
  const begin = (): Chooser | undefined => {
    hush();
    return chooser();
  };

  /** Looks `point` up; `done` gets the answer unless another lookup began meanwhile. */
  const lookUp = async (session: Chooser['session'], point: LatLng, save: boolean, done: (result: LocSelectResult) => void) => {
    pending?.abort();
    const controller = (pending = new AbortController());
    panel.message(null);
    panel.busy();
    try {
      const result = await session.resolve(point, save, controller.signal);
      if (controller === pending) done(result);
    } catch (error) {
      if (controller !== pending || error === SESSION_ENDED || (error as Error)?.name === 'AbortError') return;
      preview = undefined;
      selection.clear();
      panel.hide();
      onFailure(error instanceof EmbedFailure ? error : new EmbedFailure('internal_error', String(error)));
    }
  };

  const choose = async (point: LatLng) => {
    const by = begin();
    if (!by) return;
    const { confirm, host } = by;
    await lookUp(by.session, point, !confirm, (result) => {
      selection.show(result.cell, [result.latitude, result.longitude], !confirm);
      panel.show(result, confirm ? 'preview' : 'chosen');
      preview = confirm ? result : undefined;
      if (!confirm) void host.select(result);
    });
  };

  const confirm = () => {
    if (!preview) return;
    const by = begin();
    if (!by) return;
    void lookUp(by.session, { lat: preview.latitude, lng: preview.longitude }, true, (result) => {
      preview = undefined;
      selection.show(result.cell, [result.latitude, result.longitude], true);
      panel.show(result, 'chosen');
      void by.host.select(result);
    });
  };

  // Enter on the cell already previewed confirms it: the button is eight Tab stops away, behind the
  // map's controls and attributions.
  const inPreview = (point: LatLng) =>
    preview !== undefined && point.lat >= preview.cell.south && point.lat < preview.cell.north &&
    point.lng >= preview.cell.west && point.lng < preview.cell.east;

  return {
    choose,
    chooseByKey(point) {
      if (inPreview(point) && panel.confirm()) return;
      void choose(point);
    },
    confirm,
    clear() {
      pending?.abort();
      preview = undefined;
      selection.clear();
      // Escape by keyboard: said, since nothing else a screen reader follows changes where focus is;
      // then the keys' pending announcement gives way. With nothing to clear, nothing is said or dropped.
      if (panel.isShown()) {
        hush();
        panel.announce('Choice cleared.');
      }
      panel.hide();
    },
    abort: () => pending?.abort(),
  };
}
