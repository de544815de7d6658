/**
 * The rules a new panel password must meet (NIST SP 800-63B-4). Its hash is password-hasher.ts's.
 *
 * Besides its length: a password must show something (one made of spaces or invisible characters
 * only is none, as a text with nothing visible counts as not given, text-rules.ts), may not be the
 * user's e-mail address, and may not be on the list of common passwords of zxcvbn-ts
 * (`@zxcvbn-ts/language-common`, 49 233 passwords from breaches; pinned, read from node_modules,
 * never from the network), compared case-insensitively after NFKC: attackers try those first.
 */
import { LocError } from '../errors.ts';
import { nothingVisible } from '../text-rules.ts';

/** Length bounds in characters (code points after NFKC). NIST SP 800-63B-4: at least 15 for a password that is the only factor. */
export const PASSWORD_MIN = 15;
/** Long enough for any passphrase, short enough that a megabyte of "password" costs nothing to refuse. */
export const PASSWORD_MAX = 128;

/** How a password is compared with the list: NFKC, lower case. */
const comparable = (password: string): string => password.normalize('NFKC').toLowerCase();

/**
 * The common passwords, loaded on the first new password: decompressing the list is a tenth of a
 * second and a few megabytes the start of the service does not need.
 */
let common: Promise<ReadonlySet<string>> | undefined;
const commonPasswords = () => (common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].map(comparable))));

const refused = (message: string): LocError => new LocError('validation_error', message, 'password');

/**
 * The password as it is hashed: NFKC, so that the same passphrase typed on two keyboards is the same
 * one, as NIST asks. Throws `validation_error` naming the rule it breaks and what to do instead.
 */
export async function checkNewPassword(input: string, email: string): Promise<string> {
  const password = input.normalize('NFKC');
  if (nothingVisible(password)) throw refused('The password has nothing visible in it, only spaces or invisible characters: choose one you can see as you type it, such as a few words.');
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw refused(`The password must be at least ${PASSWORD_MIN} characters long; it has ${length}. A few words make a good one.`);
  if (length > PASSWORD_MAX) throw refused(`The password must be at most ${PASSWORD_MAX} characters long; it has ${length}.`);
  if (password.trim().toLowerCase() === email.toLowerCase()) throw refused('The password may not be your e-mail address.');
  if ((await commonPasswords()).has(comparable(password))) {
    throw refused('This password is one of the most common ones, which attackers try first: choose another, such as a few words of your own.');
  }
  return password;
}
