/** The rules of a new panel password, on the real list of common passwords. */
import { describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { checkNewPassword } from './passwords.ts';

const EMAIL = 'ada@example.com';

/** The message `password` is refused with; '' when it is accepted. */
async function refusal(password: string): Promise<string> {
  try {
    await checkNewPassword(password, EMAIL);
    return '';
  } catch (error) {
    if (!(error instanceof LocError)) throw error;
    expect(error.code).toBe('validation_error');
    expect(error.field).toBe('password');
    return error.message;
  }
}

describe('checkNewPassword', () => {
  it('refuses a password with nothing visible in it: white space, invisible characters, controls', async () => {
    for (const blank of [' '.repeat(20), '\u3000'.repeat(16), '\u200b'.repeat(20), '\u2800\u00a0\u2003\u200b\u3164\u115f\u180e\u2060\ufeff'.repeat(2), '\t\n\r '.repeat(5), '\u0000'.repeat(16)]) {
      expect(await refusal(blank), JSON.stringify(blank)).toMatch(/^The password has nothing visible in it/);
    }
    // One visible character is something: the other rules decide.
    expect(await refusal(`${' '.repeat(20)}x`)).toBe('');
  });

  it('refuses a common password from the list, whatever its case or its compatibility form, saying why', async () => {
    for (const common of ['passwordpassword', 'PasswordPassword', '1qaz2wsx3edc4rfv', 'ｑｗｅｒｔｙ１２３４５６７８９']) {
      expect(await refusal(common), common).toBe('This password is one of the most common ones, which attackers try first: choose another, such as a few words of your own.');
    }
  });

  it('accepts a passphrase of one’s own, as NFKC, and still refuses a short one or the e-mail address', async () => {
    expect(await checkNewPassword('correct horse battery staple', EMAIL)).toBe('correct horse battery staple');
    expect(await checkNewPassword('ｃｏｒｒｅｃｔ horse battery staple', EMAIL)).toBe('correct horse battery staple');
    expect(await refusal('too short')).toMatch(/at least 15 characters/);
    expect(await refusal(' ADA@example.com ')).toMatch(/e-mail address/);
  });
});
