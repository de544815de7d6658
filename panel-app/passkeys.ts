/**
 * Passkey buttons (`data-passkey`): signing in, adding a passkey, re-authenticating, and joining or
 * recovering through a one-time link. Each runs a ceremony against the panel's JSON endpoints
 * (src/panel/routes/passkeys.ts) — options, the browser's WebAuthn prompt, the answer — and goes where
 * the panel says. The buttons are rendered hidden: only a browser that can use passkeys shows them,
 * and only one that cannot shows the `.passkey-unsupported` notes.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { csrfHeader } from './csrf.ts';

const ENDPOINTS = '/panel/passkeys';

/** A refusal of the panel's: its catalogue code and its message, written for the person at the page. */
class Refused extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

async function post<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${ENDPOINTS}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...csrfHeader() },
    body: JSON.stringify(body),
  });
  // The session ended meanwhile: the panel sent the request on to the sign-in page, where the user goes
  // too; the ceremony waits for ever, as the page is replaced.
  if (response.redirected) {
    location.assign(response.url);
    return new Promise(() => {});
  }
  const answer = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (!response.ok) throw new Refused(answer?.code ?? 'internal_error', answer?.message ?? `The panel answered ${response.status}; try again.`);
  return answer as T;
}

/**
 * Where the panel sends the user once done, as the page was asked: its form's `next` field, or its
 * `?next=` when it has no such form (a user without a password). The panel checks it.
 */
const next = (): { next?: string } => {
  const value = document.querySelector<HTMLInputElement>('input[name="next"]')?.value ?? new URLSearchParams(location.search).get('next');
  return value === null ? {} : { next: value };
};

async function register(optionsPath: string, answerPath: string, body: Record<string, unknown>): Promise<{ redirect: string }> {
  const optionsJSON = await post<PublicKeyCredentialCreationOptionsJSON>(optionsPath, body);
  return post(answerPath, { ...body, credential: await startRegistration({ optionsJSON }) });
}

async function authenticate(optionsPath: string, answerPath: string): Promise<{ redirect: string }> {
  const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>(optionsPath, {});
  return post(answerPath, { ...next(), credential: await startAuthentication({ optionsJSON }) });
}

const CEREMONIES: Readonly<Record<string, () => Promise<{ redirect: string }>>> = {
  'sign-in': () => authenticate('sign-in/options', 'sign-in'),
  reauthenticate: () => authenticate('reauthenticate/options', 'reauthenticate'),
  add: () => register('add/options', 'add', {}),
  link: () => register('link/options', 'link', { token: document.querySelector<HTMLInputElement>('input[name="token"]')?.value ?? '' }),
};

/** What went wrong, for the person at the page. The browser's own messages are written for developers. */
function explain(error: unknown): string {
  if (error instanceof Refused) return error.message;
  const { name, code } = error as { name?: string; code?: string };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds one of your passkeys for the panel: you can sign in with it.';
  if (code === 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT') return 'This device or security key cannot check it is you (a screen lock, a PIN, a fingerprint), which the panel needs. Try another one.';
  if (code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT') return 'This security key cannot keep a passkey. Try another device or key.';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out. Try again when you are ready.';
  if (name === 'SecurityError') return 'Passkeys do not work at this address of the panel. Use your password, or the panel’s usual address.';
  if (error instanceof TypeError) return 'The panel could not be reached. Check your connection and try again.';
  return 'The passkey did not work. Try again, or use your password.';
}

function enable(button: HTMLButtonElement, ceremony: () => Promise<{ redirect: string }>): void {
  const alert = document.createElement('p');
  alert.className = 'error';
  alert.setAttribute('role', 'alert');
  (button.closest('.actions') ?? button).after(alert);
  button.addEventListener('click', async () => {
    button.disabled = true;
    alert.textContent = '';
    try {
      location.assign((await ceremony()).redirect);
    } catch (error) {
      // Adding a passkey needs a recent sign-in: the user confirms, and comes back to the passkeys
      // (without the page's query, which may announce what was done before).
      if (error instanceof Refused && error.code === 'reauthentication_required') {
        location.assign(`/panel/reauthenticate?next=${encodeURIComponent(`${location.pathname}#passkeys`)}`);
        return;
      }
      alert.textContent = explain(error);
      button.disabled = false;
    }
  });
}

export function enablePasskeys(root: ParentNode): void {
  const supported = browserSupportsWebAuthn();
  for (const note of root.querySelectorAll<HTMLElement>('.passkey-unsupported')) note.hidden = supported;
  if (!supported) return;
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-passkey]')) {
    const ceremony = CEREMONIES[button.dataset.passkey ?? ''];
    if (ceremony === undefined) continue;
    enable(button, ceremony);
    const actions = button.closest<HTMLElement>('.actions.passkey');
    if (actions !== null) actions.hidden = false;
  }
}
