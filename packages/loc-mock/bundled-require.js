// `node:module` as the service's sources see it in the loc-mock bundle (build.mjs points their imports
// of it here): its `createRequire` answers the few packages the service loads on first use — the
// schema compilers, country-coder — from the bundle, each evaluated on its first require() as it is
// when installed, and resolves the map's land files to the copies in dist/world-atlas/. A name not
// listed here is a package the mock's build left out: the error names it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { register } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));

/** The packages loaded through createRequire(), as literal require() calls: esbuild bundles each one. */
const PACKAGES = {
  '@fastify/ajv-compiler': () => require('@fastify/ajv-compiler'),
  '@fastify/fast-json-stringify-compiler': () => require('@fastify/fast-json-stringify-compiler'),
  '@rapideditor/country-coder': () => require('@rapideditor/country-coder'),
};

/** The files resolved through createRequire().resolve(), copied into dist/ by build.mjs. */
export const FILES = ['world-atlas/land-50m.json', 'world-atlas/land-10m.json'];

const missing = (name) => new Error(`loc-mock does not include ${name}: it is not on the mock's path (packages/loc-mock/bundled-require.js).`);

export function createRequire() {
  const load = (name) => {
    if (!(name in PACKAGES)) throw missing(name);
    return PACKAGES[name]();
  };
  load.resolve = (name) => {
    if (!FILES.includes(name)) throw missing(name);
    return join(here, name);
  };
  return load;
}
