/**
 * The session's CSRF token, which the page script's requests carry in a header: the panel refuses a
 * change without it, and shows a page fetched by script signed in only with it. Every signed-in page
 * has it in its forms (the sign-out button's at least); a signed-out page has none, and needs none.
 */
export function csrfHeader(): Record<string, string> {
  const token = document.querySelector<HTMLInputElement>('input[name="csrf"]')?.value;
  return token === undefined ? {} : { 'x-csrf-token': token };
}
