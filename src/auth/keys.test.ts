/** Issuing keys against a real (in-memory) SQLite store: what a key's label may hold. */
import { afterAll, describe, expect, it } from 'vitest';
import { LocError } from '../errors.ts';
import { openSqliteStore } from '../store/sqlite/sqlite.ts';
import { KEY_LABEL_MAX, issueKey } from './keys.ts';

const store = openSqliteStore(':memory:');
const account = await store.createAccount({ name: 'acme', partner: false, createdAt: 1 });
afterAll(() => store.close());

const issue = (label: string | null) => issueKey(store, { accountId: account.id, label, createdAt: 1 });

describe('key labels', () => {
  it('are refused with a control or bidi character, which would break or repaint loc keys list', async () => {
    const bidi = 'a bidirectional embedding, override or isolate, which reorders the text after it';
    for (const [label, found] of [['a\nb', 'U+000A at position 1, a control character'], ['a\u001b[31mred', 'U+001B at position 1, a control character'], ['\u202Eevil', `U+202E at position 0, ${bidi}`], ['tab\there', 'U+0009 at position 3, a control character']]) {
      const error = await issue(label).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LocError);
      expect(error).toMatchObject({ code: 'validation_error', field: 'label', message: `label must be one line of visible text; found ${found}.` });
    }
    expect(await store.listKeys(account.id)).toEqual([]);
  });

  it('are kept trimmed and in NFC, a blank one as none, and limited in characters', async () => {
    expect((await issue('  Cafe\u0301 prod  ')).key.label).toBe('Café prod');
    expect((await issue('   ')).key.label).toBeNull();
    expect((await issue('é'.repeat(KEY_LABEL_MAX))).key.label).toHaveLength(KEY_LABEL_MAX);
    await expect(issue('x'.repeat(KEY_LABEL_MAX + 1))).rejects.toThrow(`label must be at most ${KEY_LABEL_MAX} characters`);
  });
});
