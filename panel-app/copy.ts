/** Copy buttons: a secret shown once (a new API key) gets a button that puts it on the clipboard. */
export function enableCopyButtons(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      const source = document.getElementById(button.dataset.copy ?? '') as HTMLInputElement | null;
      if (source === null) return;
      void navigator.clipboard.writeText(source.value).then(() => {
        button.textContent = 'Copied';
      });
    });
  }
}
