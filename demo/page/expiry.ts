/**
 * The demo page's short session: a map whose 60-second session expires and is remounted on
 * `session_expired`, or — with the box ticked — renewed by `getSessionToken` before it expires, with a
 * countdown. The page's session request, log and problem line are main.ts's, handed in.
 */
import type { LocEmbedError, LocMountOptions } from '../../src/embed/public-types.ts';

/** Lifetime of the expiry demo's sessions: the shortest the API allows. */
const SHORT_TTL = 60;

export interface ExpiryDemo {
  createSession(request: { ttl?: number }): Promise<{ session_token: string; expires_at: string }>;
  logged(source: string, extra?: (error: LocEmbedError) => void): Pick<LocMountOptions, 'onSelect' | 'onPreview' | 'onClear' | 'onError' | 'onReady'>;
  log(source: string, name: string, payload?: unknown): void;
  showProblem(source: string, message: string | null): void;
  /** The map's accessible name. */
  title: string;
}

/** The page's `$`, typed. */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function expiry({ createSession, logged, log, showProblem, title }: ExpiryDemo): void {
  const status = $('expiry-status');
  let expiresAt = 0;
  let remounts = 0;

  const mount = async () => {
    const renew = $<HTMLInputElement>('expiry-renew').checked;
    try {
      const session = await createSession({ ttl: SHORT_TTL });
      expiresAt = Date.parse(session.expires_at);
      showProblem('expiry', null);
      LOC.mount('#expiry-map', {
        sessionToken: session.session_token,
        height: '300px',
        title,
        center: { lat: 51.5007, lng: -0.1246 },
        zoom: 17,
        ...(renew
          ? {
              getSessionToken: async () => {
                const next = await createSession({ ttl: SHORT_TTL });
                expiresAt = Date.parse(next.expires_at);
                log('expiry', 'getSessionToken', { expires_at: next.expires_at });
                return next.session_token;
              },
            }
          : {}),
        ...logged('expiry', (error) => {
          if (error.code !== 'session_expired') return;
          remounts++;
          void mount();
        }),
      });
    } catch (error) {
      showProblem('expiry', `Cannot create a session for the expiry map: ${(error as Error).message}`);
    }
  };

  setInterval(() => {
    const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
    status.textContent = expiresAt ? `Session expires in ${left} s · remounted ${remounts} times` : '';
  }, 1000);
  $('expiry-restart').addEventListener('click', () => void mount());
  $('expiry-renew').addEventListener('change', () => void mount());
  void mount();
}
