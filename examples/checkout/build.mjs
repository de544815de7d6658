// Bundles the React page (src/react-checkout.tsx) and the Vue page (src/vue-checkout.ts) into dist/
// for the browser; the plain page needs no build.
import { build } from 'esbuild';

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome120', 'firefox120', 'safari17'],
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: [new URL('src/react-checkout.tsx', import.meta.url).pathname],
    outfile: new URL('dist/react-checkout.js', import.meta.url).pathname,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
  }),
  build({
    ...common,
    entryPoints: [new URL('src/vue-checkout.ts', import.meta.url).pathname],
    outfile: new URL('dist/vue-checkout.js', import.meta.url).pathname,
    // Vue's production build, and its compile-time flags set as Vue's bundler guide asks.
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  }),
]);
