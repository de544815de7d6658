/**
 * The entry of `loc-picker.js`, an IIFE for a plain `<script>` tag: it finds the service from its own
 * `src` and defines `<loc-picker>` — once, however many copies run. The loader's script,
 * `loc-embed.js`, comes from the same service when the first picker mounts (a tag already in the page
 * is reused), so a page of form fields needs this one tag.
 */
import { loadLoc } from './load-loc.ts';
import { defineLocPicker } from './picker-element.ts';

// currentScript is set only while a classic script first runs, so read it now.
const script = (document.currentScript ?? document.querySelector('script[src*="/loc-picker.js"]')) as HTMLScriptElement | null;
if (!script?.src) throw new Error('loc-picker.js: load it with <script src="{base_url}/embed/v1/loc-picker.js">.');
const baseUrl = script.src.replace(/\/embed\/(v1\/)?loc-picker\.js([?#].*)?$/, '');
defineLocPicker(() => loadLoc({ baseUrl }));
