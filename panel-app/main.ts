/**
 * The partner panel's page script. Every page works without it; with it, a key shown once gets a
 * copy button (copy.ts), passkeys can be used where the browser supports them (passkeys.ts), and the
 * live parts of a page update by themselves (live.ts).
 */
import { enableCopyButtons } from './copy.ts';
import { startLiveUpdates } from './live.ts';
import { enablePasskeys } from './passkeys.ts';

enableCopyButtons(document);
enablePasskeys(document);
startLiveUpdates(document);
