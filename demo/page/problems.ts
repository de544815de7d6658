/**
 * The demo's problems. The playground's beside its form: one message per option that did not pass,
 * and each field at fault marked for everyone — `aria-invalid` and `aria-describedby` (its message)
 * for assistive technology, a red outline (demo.css) for the eye — and unmarked as soon as it reads.
 * The page's own (a session that could not be created, the loader missing) in its banner, each kept
 * by the part of the page it belongs to until that part succeeds.
 */
import type { ControlProblem } from './controls.ts';

/** The id of an option's message, which the fields at fault name in aria-describedby (`appearance.theme`: `problem-appearance-theme`). */
export const problemId = (option: ControlProblem['option']) => `problem-${option.replace(/\./g, '-')}`;

/** `list` is the form's live region (role=alert), kept in the page even when empty so it is announced. */
export function showControlProblems(form: HTMLFormElement, list: HTMLElement, problems: ControlProblem[]): void {
  const shown = [...list.children].map((item) => `${item.id} ${item.textContent}`).join('\n');
  // The form reports on every keystroke: rewriting the same messages would have them read out again.
  if (problems.map((problem) => `${problemId(problem.option)} ${problem.message}`).join('\n') !== shown) {
    list.replaceChildren(
      ...problems.map((problem) => {
        const item = document.createElement('p');
        item.id = problemId(problem.option);
        item.textContent = problem.message;
        return item;
      }),
    );
  }
  for (const field of form.elements) {
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
    const ids = problems.filter((problem) => (problem.fields as string[]).includes(field.name)).map((problem) => problemId(problem.option));
    if (ids.length > 0) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', ids.join(' '));
    } else {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  }
}

/**
 * The page's banner: `report(source, message)` sets or, with null, clears the problem of one part of
 * the page (a map, the loader), and the banner shows those still standing, hidden when none is. A map
 * whose session failed once and then mounted clears its own line, not another map's.
 */
export function pageProblems(banner: HTMLElement): (source: string, message: string | null) => void {
  const standing = new Map<string, string>();
  return (source, message) => {
    if (message === null) standing.delete(source);
    else standing.set(source, message);
    banner.hidden = standing.size === 0;
    banner.textContent = [...standing.values()].join(' ');
  };
}
