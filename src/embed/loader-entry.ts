/**
 * The entry of `loc-embed.js`, an IIFE for a plain `<script>` tag: it finds the service from its own
 * `src` and defines the global `LOC` — once. A second copy of the script (a second tag, a re-injected
 * bundle) leaves the first `LOC` and its mounts in place.
 */
import { createLoc } from './loader.ts';

/** The package version, written in by the build. */
declare const __LOC_VERSION__: string;

if (!window.LOC) {
  // currentScript is set only while a classic script first runs, so read it now; the selector covers
  // the rare page that evaluates the file some other way.
  const script = (document.currentScript ?? document.querySelector('script[src*="/loc-embed.js"]')) as HTMLScriptElement | null;
  if (!script?.src) throw new Error('loc-embed.js: load it with <script src="{base_url}/embed/v1/loc-embed.js">.');
  window.LOC = createLoc(script.src, __LOC_VERSION__);
}
