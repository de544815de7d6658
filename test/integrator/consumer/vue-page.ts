/**
 * An integrator's Vue page, written against loc-js alone as its README shows: LocPicker in a render
 * function, the code through v-model, the session from `getSession`, the handle through a template
 * ref. The project type-checks it strictly (moduleResolution `bundler`), Vue's declarations and
 * loc-js's whole; the real loader and frame under Vue are the example shop's suite's
 * (examples/checkout/tests/vue.spec.ts).
 */
import { createApp, defineComponent, h, ref } from 'vue';
import type { LocEmbedError, LocSelectResult } from 'loc-js/embed';
import { LocPicker, type LocPickerHandle, type LocPickerProps } from 'loc-js/vue';

/** The page's server makes the session with its API key and gives the token. */
async function getSession(): Promise<string> {
  const response = await fetch('/api/loc-session', { method: 'POST' });
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

const Checkout = defineComponent(() => {
  const code = ref('');
  const problem = ref('');
  const picker = ref<LocPickerHandle | null>(null);
  return () => [
    h(LocPicker, {
      ref: picker,
      baseUrl: 'https://loc.example',
      getSession,
      center: { lat: 48.8584, lng: 2.2945 },
      zoom: 17,
      class: 'map',
      'data-testid': 'loc-map',
      containerStyle: { maxWidth: '800px' },
      modelValue: code.value,
      'onUpdate:modelValue': (next: string) => (code.value = next),
      onSelect: (result: LocSelectResult) => console.log(result.address),
      onError: (error: LocEmbedError) => (problem.value = error.message),
      onLoadError: (error: Error) => (problem.value = error.message),
    }),
    h('input', { name: 'loc_code', value: code.value, readonly: true }),
    h('button', { type: 'button', onClick: () => picker.value?.setView?.({ lat: 48.8584, lng: 2.2945 }, 18) }, 'Back to the tower'),
    h('p', { role: 'alert', hidden: problem.value === '' }, problem.value),
  ];
});

export function mountCheckout(selector: string): void {
  createApp(Checkout).mount(selector);
}

/** The types hold integrators to what the picker accepts. */
export const misused: LocPickerProps[] = [
  // @ts-expect-error: neither a sessionToken nor a getSession.
  { baseUrl: 'https://loc.example' },
  // @ts-expect-error: the service has no such style.
  { baseUrl: 'https://loc.example', sessionToken: 'sid.secret', style: 'night' },
  // @ts-expect-error: the container's CSS is containerStyle; style is the map's.
  { baseUrl: 'https://loc.example', sessionToken: 'sid.secret', style: { width: '600px' } },
  // @ts-expect-error: v-model's value is a code.
  { baseUrl: 'https://loc.example', sessionToken: 'sid.secret', modelValue: 42 },
];
