/**
 * The rules a new panel password must meet (NIST SP 800-63B-4). Its hash is password-hasher.ts's.
 */
import { LocError } from '../errors.ts';

/** Length bounds in characters (code points after NFKC). NIST SP 800-63B-4: at least 15 for a password that is the only factor. */
export const PASSWORD_MIN = 15;
/** Long enough for any passphrase, short enough that a megabyte of "password" costs nothing to refuse. */
export const PASSWORD_MAX = 128;

/**
 * The password as it is hashed: NFKC, so that the same passphrase typed on two keyboards is the same
 * one, as NIST asks. Throws `validation_error` naming the rule it breaks; `email` may not be the password.
 */
export function checkNewPassword(input: string, email: string): string {
  const password = input.normalize('NFKC');
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw new LocError('validation_error', `The password must be at least ${PASSWORD_MIN} characters long; it has ${length}. A few words make a good one.`, 'password');
  if (length > PASSWORD_MAX) throw new LocError('validation_error', `The password must be at most ${PASSWORD_MAX} characters long; it has ${length}.`, 'password');
  if (password.trim().toLowerCase() === email.toLowerCase()) throw new LocError('validation_error', 'The password may not be your e-mail address.', 'password');
  return password;
}
