/**
 * The partner panel's page script: every page works without it; with it, a key shown once gets a
 * copy button. (Passkeys and live updates land here too.)
 */
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', () => {
    const source = document.getElementById(button.dataset.copy ?? '') as HTMLInputElement | null;
    if (source === null) return;
    void navigator.clipboard.writeText(source.value).then(() => {
      button.textContent = 'Copied';
    });
  });
}
