// Bundles the React page (src/react-checkout.tsx) into dist/react-checkout.js for the browser; the
// plain page needs no build.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('src/react-checkout.tsx', import.meta.url).pathname],
  outfile: new URL('dist/react-checkout.js', import.meta.url).pathname,
  bundle: true,
  minify: true,
  format: 'iife',
  jsx: 'automatic',
  target: ['chrome120', 'firefox120', 'safari17'],
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
