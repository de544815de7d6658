// Bundles the React pages (src/react-checkout.tsx, src/element-checkout.tsx) into dist/ for the
// browser; the plain pages need no build.
import { build } from 'esbuild';

await Promise.all(
  ['react-checkout', 'element-checkout'].map((name) =>
    build({
      entryPoints: [new URL(`src/${name}.tsx`, import.meta.url).pathname],
      outfile: new URL(`dist/${name}.js`, import.meta.url).pathname,
      bundle: true,
      minify: true,
      format: 'iife',
      jsx: 'automatic',
      target: ['chrome120', 'firefox120', 'safari17'],
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    }),
  ),
);
