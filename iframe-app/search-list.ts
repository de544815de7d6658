/**
 * The list of the search box (search.ts): the listbox the input owns, its options, the one the arrows
 * have made active (`aria-activedescendant`, so that focus stays in the input), and the status line
 * over it. It says how many results came in the frame's polite live region; what choosing one does is
 * the box's.
 */
import type { Panel } from './panel.ts';
import { t } from './i18n.ts';
import type { Found } from './search-results.ts';

export interface SearchListElements {
  doc: Document;
  input: HTMLInputElement;
  list: HTMLUListElement;
  status: HTMLParagraphElement;
}

export interface SearchList {
  /** What is listed, the index of the active option (-1: none), and whether the list shows. */
  readonly found: readonly Found[];
  readonly active: number;
  readonly open: boolean;
  /** Lists `next` with `text` over it, none active, and announces how many there are. */
  show(next: Found[], text: string): void;
  /** Hides the list, keeping what it holds for the arrows to open it again. */
  close(): void;
  /** Opens the list if need be and makes the option `step` away active, round from either end. */
  move(step: 1 | -1): void;
  /** Forgets what is listed and empties the status line. */
  clear(): void;
  setStatus(text: string): void;
}

export function searchList({ doc, input, list, status }: SearchListElements, panel: Pick<Panel, 'announce'>, pick: (item: Found) => void): SearchList {
  let found: Found[] = [];
  let active = -1;

  const setStatus = (text: string) => {
    status.textContent = text;
    status.hidden = text === '';
  };

  const setActive = (index: number) => {
    active = index;
    [...list.children].forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    if (index < 0) input.removeAttribute('aria-activedescendant');
    else {
      input.setAttribute('aria-activedescendant', list.children[index].id);
      list.children[index].scrollIntoView?.({ block: 'nearest' });
    }
  };

  const option = (item: Found, i: number): HTMLLIElement => {
    const element = doc.createElement('li');
    element.id = `loc-search-option-${i}`;
    element.setAttribute('role', 'option');
    element.setAttribute('aria-selected', 'false');
    element.className = 'loc-search-option';
    const label = doc.createElement('span');
    label.className = 'loc-search-label';
    label.textContent = item.label;
    const detail = doc.createElement('span');
    detail.className = 'loc-search-detail';
    detail.textContent = item.detail;
    element.append(label, detail);
    // Pressing would move focus out of the box before the click lands.
    element.addEventListener('mousedown', (event) => event.preventDefault());
    element.addEventListener('click', () => pick(item));
    return element;
  };

  const setOpen = (open: boolean) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
  };

  return {
    get found() {
      return found;
    },
    get active() {
      return active;
    },
    get open() {
      return !list.hidden;
    },
    show(next, text) {
      found = next;
      list.replaceChildren(...next.map(option));
      setStatus(text);
      setOpen(next.length > 0);
      setActive(-1);
      panel.announce([text, next.length > 0 ? t('search.count', { count: next.length }) : ''].filter(Boolean).join(' '));
    },
    close() {
      setOpen(false);
      setActive(-1);
    },
    move(step) {
      if (list.hidden) setOpen(true);
      setActive(active < 0 && step < 0 ? found.length - 1 : (active + step + found.length) % found.length);
    },
    clear() {
      found = [];
      setStatus('');
    },
    setStatus,
  };
}
