/**
 * The panel's error page: what went wrong in the catalogue's words, and the way on — back to the
 * keys for a signed-in user, to the sign-in page for anyone else.
 */
import type { LocError } from '../../errors.ts';
import { PANEL_PATH, type SignedIn } from '../panel-sessions.ts';
import { escapeHtml, notice, panelPage } from './layout.ts';

const TITLES: Partial<Record<number, string>> = {
  401: 'Sign-in needed',
  403: 'Not allowed',
  404: 'Not found',
  410: 'Link no longer valid',
  429: 'Too many attempts',
  503: 'Unavailable',
};

export function errorPage(error: LocError, signedIn: SignedIn | null): string {
  const title = TITLES[error.status] ?? (error.status >= 500 ? 'Something went wrong' : 'Cannot do that');
  const way = signedIn === null ? `<a href="${PANEL_PATH}/sign-in">Go to sign-in</a>` : `<a href="${PANEL_PATH}">Back to the panel</a>`;
  return panelPage({ title, signedIn, body: `${notice('error', escapeHtml(error.message))}<p>${way}</p>` });
}
