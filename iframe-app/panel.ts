/**
 * The panel over the map: the chosen code, its address, Copy / Open / “Use this location”, a message
 * line for problems, and a polite live region that announces each code to screen readers (and, for
 * crosshair.ts, what the keys did). The markup is in frame.html; this module only fills it. That live
 * region is the only one besides the message line's alert: the code itself is plain text (an
 * `<output>` would be a second, status, live region that spoke "Finding the code…" and then the code
 * again, over the announcement).
 */
import type { LocErrorCode, LocResolveResult } from '../src/embed/public-types.ts';

/** What the visitor reads for each error; the integrator's `onError` gets the developer's message. */
export const VISITOR_MESSAGES: Record<LocErrorCode, string> = {
  session_expired: 'This map has expired. Reload the page to choose a location.',
  invalid_session: 'This map cannot be used right now. Reload the page and try again.',
  key_inactive: 'This map cannot be used right now.',
  partner_required: 'This map cannot be used right now.',
  origin_mismatch: 'This map cannot be used on this page.',
  load_timeout: 'The map did not load in time. Reload the page and try again.',
  rate_limited: 'Too many locations were looked up just now. Try again a little later.',
  session_limit_reached: 'This map has looked up as many locations as it may. Reload the page to choose a location.',
  network: 'The location service cannot be reached. Check the connection and try again.',
  unsupported_location: 'There are no codes here. Choose a point on land or near the coast.',
  outside_session_area: 'This location is outside the area this site accepts. Choose a point inside it.',
  // Only the page's select sends a code, and its failures are the page's to tell.
  invalid_code: 'This is not a location code.',
  code_not_found: 'No location has this code.',
  service_unavailable: 'The location service is busy. Try again in a moment.',
  internal_error: 'Something went wrong. Try again.',
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

  const announce = (text: string) => {
    // Clearing first makes a screen reader announce the same text twice in a row, too.
    live.textContent = '';
    setTimeout(() => (live.textContent = text), 50);
  };

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
      return announce(`${text} is selected; press Control C or Command C to copy it.`);
    }
    copy.textContent = 'Copied';
    setTimeout(() => (copy.textContent = 'Copy code'), 1500);
    announce(`Copied ${text}.`);
  });

  return {
    busy() {
      panel.hidden = false;
      panel.setAttribute('aria-busy', 'true');
      // Not the state and name of the result before: that point is no longer what the panel shows.
      panel.dataset.state = 'busy';
      panel.setAttribute('aria-label', 'Finding the code');
      code.textContent = 'Finding the code…';
      address.textContent = '';
      copy.hidden = share.hidden = confirm.hidden = true;
    },
    show(result, state) {
      panel.hidden = false;
      panel.removeAttribute('aria-busy');
      panel.dataset.state = state;
      // What a screen reader names the region: a preview is not a choice yet.
      panel.setAttribute('aria-label', state === 'preview' ? 'Previewed location' : 'Chosen location');
      code.textContent = result.loc_code;
      address.textContent = result.address;
      share.href = result.share_url;
      share.setAttribute('aria-label', `Open ${result.loc_code} in a new tab`);
      copy.hidden = share.hidden = false;
      confirm.hidden = state !== 'preview';
      confirm.disabled = false;
      announce(
        state === 'preview'
          ? `${result.loc_code}, ${result.address}. Press Enter again, or choose “Use this location”, to confirm.`
          : `Chosen: ${result.loc_code}, ${result.address}.`,
      );
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
