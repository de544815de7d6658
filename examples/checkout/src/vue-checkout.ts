// The same checkout in Vue, with LocPicker from loc-js/vue, written with render functions (no template
// compiler): the code through v-model; getSession makes the first session, renews it before it expires
// and replaces an expired one. The delivery step is kept alive while the customer looks at the payment
// step: back on it, the map comes again on the same session, with the point chosen.
import { KeepAlive, createApp, defineComponent, h, ref } from 'vue';
import type { LocSelectResult } from 'loc-js/embed';
import { LocPicker } from 'loc-js/vue';

/** A new session token from the shop's server, which holds the API key. */
async function getSession(): Promise<string> {
  const response = await fetch('/api/loc-session', { method: 'POST' });
  if (!response.ok) throw new Error('The shop could not start the map.');
  return ((await response.json()) as { sessionToken: string }).sessionToken;
}

/** The step the customer may look at meanwhile. */
const Payment = defineComponent(() => () => h('p', { id: 'payment' }, 'Payment: on delivery.'));

const Checkout = defineComponent(
  (props: { locUrl: string }) => {
    const code = ref('');
    const chosen = ref<LocSelectResult | null>(null);
    const problem = ref('');
    const paying = ref(false);
    const picker = () =>
      h(LocPicker, {
        baseUrl: props.locUrl,
        getSession,
        center: { lat: 48.8584, lng: 2.2945 },
        zoom: 17,
        modelValue: code.value,
        'onUpdate:modelValue': (next: string) => (code.value = next),
        onSelect: (result: LocSelectResult) => {
          chosen.value = result;
          problem.value = '';
        },
        onError: (error) => (problem.value = error.recoverable ? `${error.message} Try again.` : 'The map stopped. Reload the page to choose a point.'),
        onLoadError: (error: Error) => (problem.value = error.message),
      });
    return () =>
      h('form', { id: 'checkout', action: '/order', method: 'post' }, [
        h(KeepAlive, null, () => (paying.value ? h(Payment) : picker())),
        h('p', { role: 'status', id: 'chosen' }, code.value && chosen.value ? `Deliver to ${code.value}, ${chosen.value.address}.` : 'No delivery point chosen yet.'),
        h('p', { role: 'alert', id: 'problem', hidden: problem.value === '' }, problem.value),
        h('input', { type: 'hidden', name: 'loc_code', value: code.value }),
        h('p', [h('button', { type: 'button', id: 'switch-step', onClick: () => (paying.value = !paying.value) }, paying.value ? 'Back to the delivery point' : 'Payment details')]),
        h('button', { type: 'submit', id: 'place-order', disabled: code.value === '' }, 'Place order'),
      ]);
  },
  { props: ['locUrl'] },
);

const root = document.getElementById('root')!;
createApp(Checkout, { locUrl: root.dataset.locUrl! }).mount(root);
