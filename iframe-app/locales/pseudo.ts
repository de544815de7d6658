/**
 * en-XA, the pseudo-locale: English with its letters accented and each message in brackets, its
 * `{placeholders}` untouched. Nobody reads it: a test mounts the frame in it, and any text that shows
 * unaccented or unbracketed has bypassed the catalogues. Made from English, so it never falls behind.
 */
import type { Catalogue, PluralMessage } from './en.ts';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'aàbƀcçdđeéfƒgĝhĥiíjĵkķlĺmɱnñoópþqǫrŕsštŧuúvṽwŵxẋyýzž'.matchAll(/(.)(.)/gu)].flatMap(([, plain, accented]) => [
    [plain, accented],
    [plain.toUpperCase(), accented.toUpperCase()],
  ]),
);

/** One message, pseudo-localised. */
export function pseudoLocalise(text: string): string {
  const body = text
    .split(/(\{\w+\})/)
    .map((part, index) => (index % 2 ? part : part.replace(/[a-z]/gi, (letter) => ACCENTED[letter] ?? letter)))
    .join('');
  return `[${body}]`;
}

/** The whole catalogue, pseudo-localised. */
export function pseudoCatalogue(english: Catalogue): Catalogue {
  const pseudo = (message: string | PluralMessage) =>
    typeof message === 'string' ? pseudoLocalise(message) : Object.fromEntries(Object.entries(message).map(([form, text]) => [form, pseudoLocalise(text)]));
  return Object.fromEntries(Object.entries(english).map(([key, message]) => [key, pseudo(message)])) as Catalogue;
}
