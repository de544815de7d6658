/**
 * The global `LOC` of a page that loads loc-embed.js with a plain `<script>` tag, as the embed guide
 * shows it (docs/embed.md §2): the tag, without `async` or `defer`, has run before the page's script
 * that uses `LOC`, so `LOC` is there. The build appends this declaration to the served
 * loc-embed.d.ts; the loader, the demo and the browser suite, which are such pages, see it too.
 *
 * loc-js ships the public types without it: a bundled app that imports `loc-js/embed` has no `LOC`
 * until `loadLoc` resolved, and sees `window.LOC` as possibly undefined (packages/loc-js/src/embed.ts).
 */
import type { LocGlobal } from './public-types.ts';

declare global {
  /** Defined by `loc-embed.js` when its tag runs. */
  // `var` is how TypeScript declares a property of the global object.
  var LOC: LocGlobal;
}
