// Bundles the React pages (src/react-checkout.tsx, src/element-checkout.tsx), the Vue page
// (src/vue-checkout.ts) and the page with the shop's own Leaflet map (src/leaflet-checkout.ts, with
// Leaflet's stylesheet beside it) into dist/ for the browser; the plain pages need no build.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome120', 'firefox120', 'safari17'],
  logLevel: 'warning',
};

const page = (name) => ({ entryPoints: [new URL(`src/${name}`, import.meta.url).pathname], outfile: new URL(`dist/${name.replace(/\.tsx?$/, '.js')}`, import.meta.url).pathname });

mkdirSync(new URL('dist/', import.meta.url), { recursive: true });
copyFileSync(createRequire(import.meta.url).resolve('leaflet/dist/leaflet.css'), new URL('dist/leaflet.css', import.meta.url));

await Promise.all([
  build({ ...common, ...page('leaflet-checkout.ts') }),
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
