// Bundles the React pages (src/react-checkout.tsx, src/element-checkout.tsx) and the Vue page
// (src/vue-checkout.ts) into dist/ for the browser; the plain pages need no build.
import { build } from 'esbuild';

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome120', 'firefox120', 'safari17'],
  logLevel: 'warning',
};

const page = (name) => ({ entryPoints: [new URL(`src/${name}`, import.meta.url).pathname], outfile: new URL(`dist/${name.replace(/\.tsx?$/, '.js')}`, import.meta.url).pathname });

await Promise.all([
  ...['react-checkout.tsx', 'element-checkout.tsx'].map((name) => build({ ...common, ...page(name), jsx: 'automatic', define: { 'process.env.NODE_ENV': '"production"' } })),
  build({
    ...common,
    ...page('vue-checkout.ts'),
    // Vue's production build, and its compile-time flags set as Vue's bundler guide asks.
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  }),
]);
