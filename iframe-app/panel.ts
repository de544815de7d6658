/**
 * The panel over the map: the chosen code, its address, Copy / Open / “Use this location”, a message
 * line for problems, and a polite live region that announces each code to screen readers (and, for
 * crosshair.ts, what the keys did). The markup is in frame.html; this module only fills it. That live
 * region is the only one besides the message line's alert: the code itself is plain text (an
 * `<output>` would be a second, status, live region that spoke "Finding the code…" and then the code
 * again, over the announcement).
 */
import type { LocErrorCode, LocResolveResult } from '../src/embed/public-types.ts';
import { t, type MessageKey } from './i18n.ts';

/**
 * What the visitor reads for each error (its catalogue key); the integrator's `onError` gets the
 * developer's message. null: the visitor is told nothing — the error is the integrator's to fix, and
 * the map works on.
 */
export const VISITOR_MESSAGES: Record<LocErrorCode, MessageKey | null> = {
  session_expired: 'error.session_expired',
  invalid_session: 'error.invalid_session',
  key_inactive: 'error.key_inactive',
  partner_required: 'error.partner_required',
  origin_mismatch: 'error.origin_mismatch',
  load_timeout: 'error.load_timeout',
  rate_limited: 'error.rate_limited',
  session_limit_reached: 'error.session_limit_reached',
  network: 'error.network',
  unsupported_location: 'error.unsupported_location',
  outside_session_area: 'error.outside_session_area',
  // Only the page's select sends a code, and its failures are the page's to tell.
  invalid_code: 'error.invalid_code',
  code_not_found: 'error.code_not_found',
  service_unavailable: 'error.service_unavailable',
  internal_error: 'error.internal_error',
  // The integrator's mistake, which the map works around: nothing for the visitor to do.
  invalid_option: null,
};

/** How far a result has come: previewed (confirm pending), or chosen (saved and handed to the page). */
export type ResultState = 'preview' | 'chosen';

export interface Panel {
  busy(): void;
  show(result: LocResolveResult, state: ResultState): void;
  hide(): void;
  /** Shows a message (an error, or null to clear it). */
  message(text: string | null): void;
  announce(text: string): void;
  /** Whether a result (previewed or chosen) is shown. */
  isShown(): boolean;
  onConfirm(handler: () => void): void;
  /** Confirms the preview as the button would (the map's Enter on the previewed cell); false when there is none. */
  confirm(): boolean;
}

export function createPanel(doc: Document): Panel {
  const $ = <T extends HTMLElement>(id: string) => doc.getElementById(id) as T;
  const panel = $<HTMLElement>('loc-panel');
  const code = $<HTMLParagraphElement>('loc-code');
  const address = $<HTMLParagraphElement>('loc-address');
  const copy = $<HTMLButtonElement>('loc-copy');
  const share = $<HTMLAnchorElement>('loc-share');
  const confirm = $<HTMLButtonElement>('loc-confirm');
  const messageLine = $<HTMLParagraphElement>('loc-message');
  const live = $<HTMLDivElement>('loc-live');
  const map = $<HTMLElement>('loc-map');
  let confirmed = () => {};

  /** The button's action: busy until the result comes, then hidden. */
  const confirmNow = (): boolean => {
    if (panel.hidden || confirm.hidden || confirm.disabled) return false;
    confirm.disabled = true;
    confirmed();
    return true;
  };
  confirm.addEventListener('click', () => {
    // The button hides now (busy) and stays hidden once the location is chosen, and focus would
    // fall to the body: a keyboard user goes back to the map, where they can choose again. Moved
    // now, before the result is announced, so that the map's own announcement does not cut it off.
    if (doc.activeElement === confirm) map.focus({ preventScroll: true });
    confirmNow();
  });

  const announce = liveAnnouncer(live);
  enableCopy(doc, copy, code, announce);

  return {
    busy() {
      panel.hidden = false;
      panel.setAttribute('aria-busy', 'true');
      // Not the state and name of the result before: that point is no longer what the panel shows.
      panel.dataset.state = 'busy';
      panel.setAttribute('aria-label', t('panel.finding'));
      code.textContent = t('panel.findingShown');
      address.textContent = '';
      copy.hidden = share.hidden = confirm.hidden = true;
    },
    show(result, state) {
      panel.hidden = false;
      panel.removeAttribute('aria-busy');
      panel.dataset.state = state;
      // What a screen reader names the region: a preview is not a choice yet.
      panel.setAttribute('aria-label', t(state === 'preview' ? 'panel.previewed' : 'panel.chosen'));
      code.textContent = result.loc_code;
      address.textContent = result.address;
      share.href = result.share_url;
      share.setAttribute('aria-label', t('panel.openLabel', { code: result.loc_code }));
      copy.hidden = share.hidden = false;
      confirm.hidden = state !== 'preview';
      confirm.disabled = false;
      announce(t(state === 'preview' ? 'announce.preview' : 'announce.chosen', { code: result.loc_code, address: result.address }));
    },
    hide() {
      panel.hidden = true;
    },
    isShown: () => !panel.hidden,
    message(text) {
      messageLine.hidden = text === null;
      messageLine.textContent = text ?? '';
    },
    announce,
    onConfirm(handler) {
      confirmed = handler;
    },
    confirm: confirmNow,
  };
}

/** Says `text` in the polite live region `live`. */
function liveAnnouncer(live: HTMLElement): (text: string) => void {
  return (text) => {
    // Clearing first makes a screen reader announce the same text twice in a row, too.
    live.textContent = '';
    setTimeout(() => (live.textContent = text), 50);
  };
}

/** The Copy button: the code to the clipboard, said; where the clipboard is refused, the code selected to copy by hand. */
function enableCopy(doc: Document, copy: HTMLButtonElement, code: HTMLElement, announce: (text: string) => void): void {
  copy.addEventListener('click', async () => {
    const text = code.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API refused (an older browser, or no clipboard-write permission): select the code
      // so the visitor can copy it by hand.
      const range = doc.createRange();
      range.selectNodeContents(code);
      doc.getSelection()?.removeAllRanges();
      doc.getSelection()?.addRange(range);
      return announce(t('announce.copyByHand', { code: text }));
    }
    copy.textContent = t('panel.copied');
    setTimeout(() => (copy.textContent = t('panel.copy')), 1500);
    announce(t('announce.copied', { code: text }));
  });
}
