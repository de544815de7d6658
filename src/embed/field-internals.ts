/**
 * A custom element's form internals, where the browser has them: ElementInternals' form half came in
 * Chromium 77, Firefox 98 and Safari 16.4, and jsdom (integrators' component tests) has none of it.
 * Elsewhere `<loc-picker>` is still a map with its events and value, not a form field: a stand-in that
 * keeps nothing takes the form calls.
 */

/** The part of ElementInternals the field uses. */
export type FieldInternals = Pick<ElementInternals, 'form' | 'labels' | 'validity' | 'validationMessage' | 'willValidate' | 'checkValidity' | 'reportValidity' | 'setFormValue' | 'setValidity'> & { role: string | null };

const NO_FORM: FieldInternals = {
  form: null,
  labels: [] as unknown as NodeList,
  validity: { valid: true } as ValidityState,
  validationMessage: '',
  willValidate: false,
  checkValidity: () => true,
  reportValidity: () => true,
  setFormValue() {},
  setValidity() {},
  role: null,
};

export function fieldInternals(element: HTMLElement): FieldInternals {
  const internals = element.attachInternals?.();
  return typeof internals?.setFormValue === 'function' ? internals : { ...NO_FORM };
}
