/**
 * The import boundaries of the tree, checked by `npm test` (`npm run boundaries`). docs/architecture.md
 * draws the parts; these rules keep them apart:
 *
 * - what ships (src/) never imports the demo, the tests, the benchmarks or the browser suite;
 * - browser code (the loader and the embed's contract in src/embed/, the frame in iframe-app/, the
 *   panel's page script in panel-app/, the demo's page) imports no Node module and nothing of the server's;
 * - the demo is an integrator: of loc it imports the public types alone;
 * - the integrators' package (packages/loc-js/) has no dependency: of the service it imports the code's
 *   written form, the mount options' checks, the script's loader, the form field and the embed's
 *   testing contract, which its build bundles in, and the public types (the element's too) and error
 *   codes, as types only; of npm, React and Vue (the optional peers its build leaves out, each for
 *   its own entry alone), Leaflet (loc-js/leaflet's peer), MapLibre's types (loc-js/maplibre's) and
 *   Playwright's types (an optional peer of loc-js/testing);
 *   the service never imports it;
 * - no import runs back up the layers, from the bottom: shared (the codec, the error catalogue, text
 *   helpers, the reading of pasted coordinates, loc's own spans) → the embed's contract → the parts the service is made
 *   of (store, limits, auth, audit, addresses, tiles, workers, cells, search; the store the lowest of them) →
 *   the operations (what operators and partners change, for both fronts) → the server and its panel →
 *   the CLI;
 * - the panel imports of the server only its HTTP contract (src/server/http/) and configuration;
 * - prom-client is named in src/server/metrics/ alone, as types, and loaded with import() when the
 *   metrics are on;
 * - the ports of the store and of the counters import no engine, and an engine folder
 *   (src/store/memory, sqlite, postgres, redis) imports no other engine;
 * - no cycles.
 *
 * Tests are left out as importers: a test may reach anything it checks.
 */
const TEST = '\\.test\\.ts$';
const SHARED = '^src/(durations|errors|spans|printable|escape-html|text-rules|bounded-cache|search/coordinates)\\.ts$|^src/code/';
const CONTRACT = '^src/embed/';
const PARTS = '^src/(store|limits|auth|audit|address|tiles|workers|cells|search/(?!coordinates\\.ts$))';
/** The engines of the store and of the counters, a folder each (Redis counts, and stores nothing else). */
const ENGINES = 'memory|sqlite|postgres|redis';
/** What operators and partners change — accounts, keys, users — written once for the CLI and the panel. */
const OPERATIONS = '^src/operations/';
/** The server, and the partner panel it mounts (src/panel/: its routes, pages and sign-in). */
const SERVER = '^src/(server|panel)/';
const CLI = '^src/cli/';
const BROWSER = '^(src/embed|iframe-app|panel-app|demo/page|packages/loc-js/src)/';
const LOC_JS = '^packages/loc-js/';
/** What of the service loc-js's build bundles in, and what it reads as types only. */
const LOC_JS_BUNDLES = '^src/code/(format|spelling|find-codes)\\.ts$|^src/embed/(options|style-names|recoverable|testing-contract|load-loc|picker-element|picker-options|field-map|field-internals)\\.ts$'
  // The grid's math and drawing, for loc-js/grid, loc-js/leaflet and loc-js/maplibre.
  + '|^src/code/(grid|grid-lines|block-lines|table-grid|table-bytes)\\.ts$|^src/embed/(grid-data|grid-tile)\\.ts$'
  // The codec on a table given, its checks and a code's neighbours, for loc-js/codec (which so bundles
  // the error catalogue, whose codes its errors carry).
  + '|^src/code/(table-codec|table-file|table-release|coverage|neighbours)\\.ts$';
/** The one package loc-js names, as types only: Playwright's, for loc-js/testing's helpers. */
const PLAYWRIGHT = '(^|/)node_modules/(@playwright/test|playwright)/';
const LOC_JS_TYPES = '^src/(embed/(public-types|picker-types)|errors)\\.ts$';
/** prom-client, which the metrics alone load, and only when they are on. */
const PROM_CLIENT = '(^|/)node_modules/prom-client/';
/** React, the optional peer dependency of loc-js/react. */
const REACT = '^node_modules/react/';
/** Vue, the optional peer dependency of loc-js/vue (and of the element's typings for Vue templates). */
const VUE = '^node_modules/vue/';
/** Leaflet, the optional peer dependency of loc-js/leaflet. */
const LEAFLET = '^node_modules/(leaflet|@types/leaflet)/';
/** MapLibre GL, whose types loc-js/maplibre reads (the map it is handed does the rest). */
const MAPLIBRE = '^node_modules/maplibre-gl/';
/** Svelte, whose element types loc-js/picker/svelte extends with `<loc-picker>`. */
const SVELTE = '^node_modules/svelte/';

/** A rule that forbids imports from `from` (tests aside) to `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: TEST },
  to: typeof to === 'string' ? { path: to } : to,
});

module.exports = {
  forbidden: [
    forbid('product-imports-no-test-code', 'src/ holds what ships: it never imports the demo, tests, benchmarks or the browser suite.',
      '^src/', '^(demo|test|bench|e2e)/'),
    forbid('browser-imports-no-node', 'Browser code runs in browsers: no Node module.', BROWSER, { dependencyTypes: ['core'] }),
    forbid('browser-imports-no-server', 'Browser code imports the contract, the codec and the catalogue, nothing of the service.',
      BROWSER, `${PARTS}|${OPERATIONS}|${SERVER}|${CLI}`),
    forbid('demo-is-an-integrator', 'Of loc the demo imports only the public types an integrator has (loc-embed.d.ts).',
      '^demo/', { path: '^src/', pathNot: '^src/embed/public-types\\.ts$' }),
    forbid('service-imports-no-loc-js', 'The service is not built on the integrators’ package; the package is built from the service’s sources.',
      '^(src|iframe-app|demo)/', LOC_JS),
    forbid('loc-js-has-no-dependencies', 'loc-js installs nothing: no npm package, no Node module (React, Vue, Svelte’s and Playwright’s types are optional peers, next rules).',
      LOC_JS, { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'], pathNot: `${REACT}|${VUE}|${SVELTE}|${PLAYWRIGHT}|${LEAFLET}|${MAPLIBRE}` }),
    forbid('loc-js-react-alone-imports-react', 'React is an optional peer: only the entries for React pages may import it.',
      '^packages/loc-js/(?!src/(react|picker-react)\\.ts$)', REACT),
    forbid('loc-js-vue-alone-imports-vue', 'Vue is an optional peer: only the entries for Vue pages may import it.',
      '^packages/loc-js/(?!src/(vue|picker-vue)\\.ts$)', VUE),
    forbid('loc-js-leaflet-alone-imports-leaflet', 'Leaflet is an optional peer: only the entry for Leaflet maps may import it.',
      '^packages/loc-js/(?!src/leaflet\\.ts$)', LEAFLET),
    forbid('loc-js-maplibre-alone-reads-maplibre', 'MapLibre is an optional peer: only the entry for MapLibre maps reads it, as types; the map it is handed does the rest.',
      '^packages/loc-js/(?!src/maplibre\\.ts$)', MAPLIBRE),
    forbid('loc-js-maplibre-reads-types-only', 'loc-js/maplibre calls the map it is handed: MapLibre itself is never imported.',
      LOC_JS, { path: MAPLIBRE, dependencyTypesNot: ['type-only'] }),
    forbid('loc-js-element-typings-are-types', 'The element’s typings for Vue and Svelte templates read those frameworks’ types, nothing that runs.',
      '^packages/loc-js/src/picker-(svelte|vue)\\.ts$', { path: `${VUE}|${SVELTE}`, dependencyTypesNot: ['type-only'] }),
    forbid('loc-js-svelte-alone-in-its-typings', 'Svelte’s types are for the element’s typings in Svelte alone.',
      '^packages/loc-js/(?!src/picker-svelte\\.ts$)', SVELTE),
    forbid('loc-js-reads-playwright-types-only', 'loc-js/testing takes Playwright’s Page as a type: the integrator’s own Playwright drives it.',
      LOC_JS, { path: PLAYWRIGHT, dependencyTypesNot: ['type-only'] }),
    forbid('loc-js-bundles-only-the-format', 'Of the service, loc-js bundles the code’s written form and reads the public types and error codes.',
      LOC_JS, { path: '^src/', pathNot: `${LOC_JS_BUNDLES}|${LOC_JS_TYPES}` }),
    forbid('loc-js-reads-types-only', 'The public types and the catalogue reach loc-js as types: the catalogue’s messages stay out of its bundle.',
      LOC_JS, { path: LOC_JS_TYPES, dependencyTypesNot: ['type-only'] }),
    forbid('shared-imports-nothing-above', 'The shared bottom layer imports no part above it.', SHARED, `${CONTRACT}|${PARTS}|${OPERATIONS}|${SERVER}|${CLI}`),
    forbid('contract-imports-no-service', 'The embed contract imports nothing of the service.', CONTRACT, `${PARTS}|${OPERATIONS}|${SERVER}|${CLI}`),
    forbid('parts-import-no-server', 'The parts of the service import neither the operations, the server nor the CLI.', PARTS, `${OPERATIONS}|${SERVER}|${CLI}`),
    forbid('operations-import-no-front', 'The operations sit below both fronts that call them: they import neither the server, its panel nor the CLI.',
      OPERATIONS, `${SERVER}|${CLI}`),
    forbid('store-is-the-lowest-part', 'The store imports no other part: they are built on its port.',
      '^src/store/', PARTS.replace('store|', '')),
    forbid('an-engine-imports-no-other-engine', 'An engine folder of the store holds all of that engine and imports only the ports and their shared helpers.',
      `^src/store/(${ENGINES})/`, { path: `^src/store/(${ENGINES})/`, pathNot: '^src/store/$1/' }),
    forbid('ports-import-no-engine', 'The store’s and the counters’ ports know no engine: the factories (open-store.ts, open-counters.ts) choose one.',
      '^src/store/(?!open-(store|counters)\\.ts$)[^/]+\\.ts$', `^src/store/(${ENGINES})/`),
    forbid('panel-imports-the-http-contract-only', 'The panel is mounted by the server as the API’s plugins are: of the server it imports the HTTP contract and the configuration, no internals.',
      '^src/panel/', { path: '^src/server/', pathNot: '^src/server/(http/|config\\.ts$)' }),
    forbid('metrics-alone-name-prom-client', 'Metrics are made in src/server/metrics/ alone: the rest of the service knows their registry through its types there.',
      '^src/(?!server/metrics/)', PROM_CLIENT),
    forbid('prom-client-loaded-only-when-metrics-are-on', 'dist/cli.js is one bundle, which hoists any static import of a package to its top: prom-client is named as types, and loaded with import().',
      '^src/', { path: PROM_CLIENT, dependencyTypesNot: ['type-only', 'type-import', 'dynamic-import'] }),
    forbid('server-imports-no-cli', 'The server does not import the CLI that starts it.', SERVER, CLI),
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one; say which depends on which.',
      severity: 'error',
      from: { pathNot: TEST },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stays in, unfollowed: what a file imports from a package is what the rules above check.
    exclude: { path: '^dist/' },
    tsConfig: { fileName: 'tsconfig.test.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
