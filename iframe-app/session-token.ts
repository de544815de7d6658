/**
 * The frame's own check of the token the page hands it, against the `tokenCheck` the service wrote
 * into the frame page: SHA-256 of the hex SHA-256 of the token's secret, as the service computes it
 * from the hash it stores (src/server/embed/frame-page.ts). It takes well under a millisecond, so `onReady`
 * waits for it at no cost, and a token cut short or mangled on its way is `invalid_session` before
 * `onReady`. Web Crypto exists only in secure contexts (https, localhost): elsewhere the answer is
 * null, and the frame asks the service instead.
 */
export async function tokenMatches(token: string, check: string): Promise<boolean | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const sha256 = async (text: string): Promise<string> => {
    const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
  };
  return (await sha256(await sha256(token.slice(token.indexOf('.') + 1)))) === check;
}
