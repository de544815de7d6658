/**
 * Passkeys: the panel as a WebAuthn relying party. The relying party is the service's public URL —
 * its hostname the RP ID, its origin the only origin a ceremony may come from — so a passkey made
 * for the panel works nowhere else and no other site can ask for it.
 *
 * Each ceremony starts with options whose challenge the store keeps (`createChallenge`) for five
 * minutes, and ends with the browser's answer, which takes that challenge back (`takeChallenge`):
 * whatever the answer, a challenge is used once. A challenge remembers its purpose and its user, so
 * one made to register a passkey for one user cannot be answered for another user or to sign in.
 *
 * Passkeys are discoverable (`residentKey: 'required'`): signing in with one needs no e-mail address,
 * the authenticator names the user. User verification is required, not preferred: a passkey replaces
 * the password rather than adding a second factor to it, so the authenticator must itself check who
 * holds it (screen lock, PIN, fingerprint); a security key without a PIN, which anyone holding it
 * could use, is refused.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { LocError, describeValue } from '../errors.ts';
import type { Challenge, Passkey, User } from '../store/panel-store.ts';
import type { Store } from '../store/store.ts';

/** How long the browser has to answer a ceremony's options; the browser is told the same. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const RP_NAME = 'loc partner panel';

/**
 * The WebAuthn library, loaded on the first ceremony: with its certificate parsers it is a tenth of
 * `loc serve`'s start, for a page most starts never serve.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

/** Who the panel is to authenticators: the RP ID (a hostname) and the origin ceremonies must come from. */
export interface RelyingParty {
  id: string;
  origin: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

/** The user handle authenticators keep with a passkey: the user's public id, as bytes. */
const userHandle = (user: User): Uint8Array<ArrayBuffer> => new TextEncoder().encode(user.id);

const refusal = (ceremony: Challenge['purpose'], message: string): LocError =>
  ceremony === 'register' ? new LocError('validation_error', message, 'credential') : new LocError('sign_in_failed', message);

/** The challenge the browser's answer signed, as its clientDataJSON says; '' when that is unreadable. */
function answeredChallenge(response: { response?: { clientDataJSON?: unknown } }): string {
  try {
    const data = JSON.parse(Buffer.from(String(response.response?.clientDataJSON), 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : '';
  } catch {
    return '';
  }
}

/**
 * Takes the challenge an answer signed: it must be open, of `purpose`, and made for `userId` (null:
 * a sign-in, made for no one). Refused otherwise, in words the page can show.
 */
async function takeChallenge(store: Store, response: { response?: { clientDataJSON?: unknown } }, purpose: Challenge['purpose'], userId: string | null, now: number): Promise<string> {
  const answered = answeredChallenge(response);
  const challenge = answered === '' ? null : await store.panel.takeChallenge(answered, now);
  if (challenge === null) throw refusal(purpose, 'This passkey request has expired or was already answered; try again.');
  if (challenge.purpose !== purpose || challenge.userId !== userId) throw refusal(purpose, 'This passkey request was made for something else; try again.');
  return challenge.challenge;
}

/** The library's reason for refusing an answer, kept in the message: it names the value at fault. */
async function verified<T>(purpose: Challenge['purpose'], verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    throw refusal(purpose, `The passkey could not be verified: ${error instanceof Error ? error.message : describeValue(error)}.`);
  }
}

/** Options to create a passkey for `user`; the passkeys they have are excluded, so an authenticator holds one of theirs at most. */
export async function registrationOptions(store: Store, rp: RelyingParty, user: User, now: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await store.panel.listPasskeys(user.id);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.email,
    userID: userHandle(user),
    timeout: CHALLENGE_LIFETIME_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await store.panel.createChallenge({ challenge: options.challenge, purpose: 'register', userId: user.id, expiresAt: now + CHALLENGE_LIFETIME_MS });
  return options;
}

/**
 * The passkey a registration answer creates for `user`, verified, not stored yet: the caller stores
 * it with whatever else the ceremony does (a one-time link is used up first). `userAgent` names it.
 */
export async function verifyRegistration(store: Store, rp: RelyingParty, user: User, response: RegistrationResponseJSON, userAgent: string, now: number): Promise<Passkey> {
  const challenge = await takeChallenge(store, response, 'register', user.id, now);
  const { verifyRegistrationResponse } = await webauthn();
  const result = await verified('register', () => verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }));
  if (!result.verified) throw refusal('register', 'The passkey could not be verified; try again.');
  const { credential } = result.registrationInfo;
  if (await store.panel.findPasskey(credential.id)) throw refusal('register', 'This passkey is already registered with the panel.');
  return {
    id: credential.id,
    userId: user.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: response.response.transports ?? [],
    name: passkeyName(userAgent, now),
    createdAt: now,
    lastUsedAt: null,
  };
}

/**
 * Options to authenticate. For a sign-in (`user` null) the browser offers every passkey it has for
 * the panel; for a re-authentication, the user's own.
 */
export async function authenticationOptions(store: Store, rp: RelyingParty, user: User | null, now: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowed = user === null ? undefined : await store.panel.listPasskeys(user.id);
  if (allowed?.length === 0) throw new LocError('validation_error', 'You have no passkey yet: confirm with your password.', 'credential');
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CHALLENGE_LIFETIME_MS,
    userVerification: 'required',
    allowCredentials: allowed?.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
  });
  await store.panel.createChallenge({ challenge: options.challenge, purpose: 'authenticate', userId: user?.id ?? null, expiresAt: now + CHALLENGE_LIFETIME_MS });
  return options;
}

/**
 * Verifies an authentication answer and records the passkey's use (its counter); returns the user it
 * signs in. With `expected` (a re-authentication) the passkey must be that user's.
 */
export async function verifyAuthentication(store: Store, rp: RelyingParty, response: AuthenticationResponseJSON, expected: User | null, now: number): Promise<User> {
  const challenge = await takeChallenge(store, response, 'authenticate', expected?.id ?? null, now);
  const passkey = typeof response.id === 'string' ? await store.panel.findPasskey(response.id) : null;
  if (passkey === null || (expected !== null && passkey.userId !== expected.id)) {
    throw refusal('authenticate', expected === null
      ? 'This passkey is not registered with the panel (it may have been removed): sign in with your password, or ask for a recovery link.'
      : 'This passkey is not one of yours: use one you added to the panel.');
  }
  const user = await store.panel.getUser(passkey.userId);
  // The user handle, when the authenticator sends one, must name the passkey's owner.
  const handle = response.response.userHandle;
  if (user === null || (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== user.id)) {
    throw refusal('authenticate', 'This passkey belongs to no user of the panel.');
  }
  const { verifyAuthenticationResponse } = await webauthn();
  const result = await verified('authenticate', () => verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: passkey.counter, transports: passkey.transports },
    requireUserVerification: true,
  }));
  if (!result.verified) throw refusal('authenticate', 'The passkey could not be verified; try again.');
  await store.panel.usePasskey(passkey.id, result.authenticationInfo.newCounter, now);
  return user;
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [[/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrom(e|ium)\//, 'Chrome'], [/Safari\//, 'Safari']];
const SYSTEMS: ReadonlyArray<[RegExp, string]> = [[/Android/, 'Android'], [/iPhone|iPad/, 'iOS'], [/Mac OS X/, 'macOS'], [/Windows/, 'Windows'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']];

/** "Passkey added 2026-11-27, Chrome on Linux": the date, and the browser that made it when its user agent says. */
export function passkeyName(userAgent: string, now: number): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const where = browser === undefined ? '' : `, ${browser}${system === undefined ? '' : ` on ${system}`}`;
  return `Passkey added ${new Date(now).toISOString().slice(0, 10)}${where}`;
}
