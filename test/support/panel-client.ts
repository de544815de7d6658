/**
 * A browser's part in the partner panel, over `app.inject`: it keeps the panel's cookies as a browser
 * would (only what Set-Cookie sets, sent to their path, cleared when told), sends the Origin and Sec-Fetch-Site a page of
 * the panel sends, and fills each form's CSRF field from the last page it got. For the panel's server
 * tests; the real browser runs the same flows in e2e/panel*.spec.ts.
 */
import type { LightMyRequestResponse } from 'fastify';
import { createInvitedUser } from '../../src/auth/panel-links.ts';
import type { Account } from '../../src/store/store.ts';
import type { TestService } from './service.ts';

export interface PanelClient {
  /** The cookie's value, or undefined when the browser holds none. */
  cookie: string | undefined;
  /** The last page's body. */
  page: string;
  get(path: string): Promise<LightMyRequestResponse>;
  /** A form POST with the last page's CSRF token (unless `fields.csrf` is given), as a page of the panel sends it. */
  submit(path: string, fields?: Record<string, string>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** The CSRF token of the last page's forms, or '' when it has none. */
export const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

export function panelClient(service: TestService): PanelClient {
  const origin = new URL(service.config.publicUrl).origin;
  /** The cookies besides the session's (the link page's): name, value and path. */
  const others = new Map<string, { value: string; path: string }>();
  const cookies = (path: string): Record<string, string> => {
    const pairs = client.cookie === undefined ? [] : [`loc_panel=${client.cookie}`];
    for (const [name, { value, path: scope }] of others) if (path.split('?')[0] === scope || path.startsWith(`${scope}/`)) pairs.push(`${name}=${value}`);
    return pairs.length === 0 ? {} : { cookie: pairs.join('; ') };
  };
  const client: PanelClient = {
    cookie: undefined,
    page: '',
    async get(path) {
      const response = await service.app.inject({ method: 'GET', url: path, headers: cookies(path) });
      keep(response);
      return response;
    },
    async submit(path, fields = {}, headers = {}) {
      const body = new URLSearchParams({ csrf: csrfOf(client.page), ...fields }).toString();
      const response = await service.app.inject({
        method: 'POST',
        url: path,
        payload: body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin,
          'sec-fetch-site': 'same-origin',
          ...cookies(path),
          ...headers,
        },
      });
      keep(response);
      return response;
    },
  };
  function keep(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as { name: string; value: string; path?: string; maxAge?: number }[]) {
      const cleared = cookie.value === '' || cookie.maxAge === 0;
      if (cookie.name === 'loc_panel') client.cookie = cleared ? undefined : cookie.value;
      else if (cleared) others.delete(cookie.name);
      else others.set(cookie.name, { value: cookie.value, path: cookie.path ?? '/' });
    }
    if (response.headers['content-type']?.toString().startsWith('text/html')) client.page = response.body;
  }
  return client;
}

/** A strong enough password for the panel's rule (15 characters and more). */
export const PASSWORD = 'correct horse battery staple';

/**
 * A user of `accountName` (a partner account, made when missing), signed up through the invitation
 * link as a browser does it; the client is signed in.
 */
export async function signedUpUser(service: TestService, accountName: string, email: string, options: { operator?: boolean } = {}): Promise<PanelClient> {
  const account = await service.account(accountName);
  const { link } = await createInvitedUser(service.app.store, { accountId: account.id, email, operator: options.operator }, service.clock.now(), service.config.publicUrl);
  const client = panelClient(service);
  const opened = await client.get(new URL(link.url).pathname + new URL(link.url).search);
  await client.get(opened.headers.location as string);
  const done = await client.submit('/panel/link', { token: new URL(link.url).searchParams.get('token')!, password: PASSWORD });
  if (done.statusCode !== 303) throw new Error(`sign-up of ${email} answered ${done.statusCode}: ${done.body.slice(0, 300)}`);
  await client.get(done.headers.location as string);
  return client;
}

let people = 0;

/** A new e-mail address and account name (`ada-7@example.com`, `ada-7`): tests sharing a service never meet. */
export function newPerson(label: string): { email: string; account: string } {
  people += 1;
  return { email: `${label}-${people}@example.com`, account: `${label}-${people}` };
}

/** A new person of a new partner account (newPerson's), signed up and signed in (signedUpUser). */
export async function newUser(service: TestService, label: string, options: { operator?: boolean } = {}): Promise<{ client: PanelClient; email: string; account: Account }> {
  const person = newPerson(label);
  const client = await signedUpUser(service, person.account, person.email, options);
  return { client, email: person.email, account: (await service.app.store.findAccount(person.account))! };
}
