/**
 * Live parts of a page (`data-live`, such as the rotation page's traffic of the new key): every few
 * seconds the page is fetched again and each live element takes the content of its namesake in the
 * fresh copy, until it holds a success notice — then there is nothing left to wait for. The element
 * is an `aria-live` region, so the change is read out as it appears.
 *
 * How often is the service's setting (LOC_PANEL_REFRESH_MS), which the page carries in its body's
 * `data-refresh-ms`: the panel's CSP allows no inline script to hand it over otherwise.
 */
import { csrfHeader } from './csrf.ts';

/** The interval when the page does not say: the setting's default. */
const DEFAULT_INTERVAL_MS = 3_000;

function intervalOf(root: ParentNode): number {
  const interval = Number(root.querySelector('[data-refresh-ms]')?.getAttribute('data-refresh-ms'));
  return Number.isFinite(interval) && interval > 0 ? interval : DEFAULT_INTERVAL_MS;
}

const settled = (element: Element): boolean => element.querySelector('.notice.success') !== null;

/** The fresh page, or null when it cannot serve: offline for a moment (the next turn tries again), or signed out. */
async function freshPage(): Promise<Document | 'signed-out' | null> {
  try {
    const response = await fetch(location.href, { headers: { accept: 'text/html', ...csrfHeader() } });
    if (response.redirected) return 'signed-out';
    return response.ok ? new DOMParser().parseFromString(await response.text(), 'text/html') : null;
  } catch {
    return null;
  }
}

function poll(elements: HTMLElement[], intervalMs: number): void {
  const waiting = elements.filter((element) => !settled(element));
  if (waiting.length === 0) return;
  setTimeout(async () => {
    const page = await freshPage();
    // Signed out meanwhile: the sign-in page has none of the elements, and a reload shows why.
    if (page === 'signed-out') return;
    if (page !== null) {
      for (const element of waiting) {
        const fresh = page.getElementById(element.id);
        // Only a change is written: the region is read out at each write, and a form in it keeps what the user entered.
        if (fresh !== null && fresh.innerHTML !== element.innerHTML) element.innerHTML = fresh.innerHTML;
      }
    }
    poll(waiting, intervalMs);
  }, intervalMs);
}

export function startLiveUpdates(root: ParentNode): void {
  poll([...root.querySelectorAll<HTMLElement>('[data-live][id]')], intervalOf(root));
}
