/**
 * loc-js/codec in Chromium, in one run: its encode and decode throughput against the same built
 * entry (packages/loc-js/dist/codec.js) in this Node process, on the same points and the same loop;
 * and loading it — fetching the table from the service and `loadCodec` on the bytes, hash check and
 * parse included — against a plain `fetch` and `arrayBuffer` of the same URL, alternated, medians.
 * Neither fetch may use the HTTP cache, so both download what a first visit does.
 *
 * The service is the browser suite's `loc serve` (e2e/services.ts), the browser Debian's Chromium
 * (e2e/chromium.ts). Run alone with `node --import tsx bench/codec-browser.ts`; `npm run bench` includes it.
 */
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { ROOT, freePort, newDataDir, removeDataDir, startService } from '../e2e/services.ts';
import { TABLE_PATH } from '../src/code/table-release.ts';
import { markdownTable, type BenchRow } from './report.ts';

const CODEC_JS = join(ROOT, 'packages/loc-js/dist/codec.js');
/** Encode throughput in Chromium at least this share of Node's, decode too. */
export const BROWSER_CODEC_BUDGET = 0.8;
/** Fetching and loading the codec at most this many times a plain fetch of the same bytes. */
export const TABLE_LOAD_BUDGET = 2;
const LOAD_ROUNDS = 15;

/**
 * The measuring loop, as page script and as a Node function alike (a string, so that no transpiler
 * rewrites it differently for either): seeded points over Europe's coasts and borders and the whole
 * world, their codes, then the best of five timed passes of each call. Answers calls per second.
 */
const MEASURE = `
  let seed = 2024;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const points = [];
  for (let i = 0; i < 4096; i++) points.push(i % 4 === 0 ? [next() * 120 - 55, next() * 360 - 180] : [35 + next() * 25, -10 + next() * 40]);
  const coded = points.filter(([lat, lng]) => { try { codec.encode(lat, lng); return true; } catch { return false; } });
  const codes = coded.map(([lat, lng]) => codec.encode(lat, lng).loc_code);
  const best = (call, count) => {
    let top = 0;
    for (let pass = 0; pass < 5; pass++) {
      const start = performance.now();
      for (let i = 0; i < 200000; i++) call(i % count);
      top = Math.max(top, 200000 / ((performance.now() - start) / 1000));
    }
    return top;
  };
  let sink = 0;
  const encode = best((i) => { sink += codec.encode(coded[i][0], coded[i][1]).latitude; }, coded.length);
  const decode = best((i) => { sink += codec.decode(codes[i]).longitude; }, codes.length);
  return { encode, decode, sink };
`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module">
import { loadCodec } from '/codec.js';
window.throughput = async (baseUrl) => { const codec = await loadCodec({ baseUrl }); ${MEASURE} };
window.plainFetch = async (url) => {
  const start = performance.now();
  const bytes = await (await fetch(url, { cache: 'no-store' })).arrayBuffer();
  return [performance.now() - start, bytes.byteLength];
};
window.codecLoad = async (url) => {
  const start = performance.now();
  const codec = await loadCodec({ table: await (await fetch(url, { cache: 'no-store' })).arrayBuffer() });
  codec.encode(48.8584, 2.2945);
  return [performance.now() - start, codec.revision];
};
window.ready = true;
</script></body></html>`;

interface Throughput {
  encode: number;
  decode: number;
}

const THROUGHPUT_ROUNDS = 3;

/** Keeps in `top` the better of its figures and `next`'s. */
const best = (top: Throughput, next: Throughput): void => {
  top.encode = Math.max(top.encode, next.encode);
  top.decode = Math.max(top.decode, next.decode);
};

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchBrowserCodec(): Promise<BenchRow[]> {
  const { loadCodec } = (await import(pathToFileURL(CODEC_JS).href)) as typeof import('../packages/loc-js/src/codec.ts');
  const codec = await loadCodec({ table: readFileSync(join(ROOT, 'src/code/tables/v1r3.bin')) });
  const measureInNode = new Function('codec', MEASURE) as (codec: unknown) => Throughput;

  const dataDir = newDataDir();
  const service = await startService(dataDir);
  const port = await freePort();
  const script = readFileSync(CODEC_JS, 'utf8');
  const pages: Server = createServer((request, response) => {
    if (request.url === '/codec.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((done) => pages.listen(port, 'localhost', done));
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${port}/`);
    await page.waitForFunction('window.ready === true');
    const url = `${service.url}${TABLE_PATH}`;
    // The first request starts the service's Brotli of the table; wait until both fetches get it.
    await page.evaluate(`plainFetch(${JSON.stringify(url)})`);
    await new Promise((done) => setTimeout(done, 15_000));
    // Node and Chromium in turn, three times, the best of each: the machine's speed drifts between runs.
    const inNode: Throughput = { encode: 0, decode: 0 };
    const inChromium: Throughput = { encode: 0, decode: 0 };
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
      best(inNode, measureInNode(codec));
      best(inChromium, (await page.evaluate(`throughput(${JSON.stringify(service.url)})`)) as Throughput);
    }
    const plain: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      const order = round % 2 === 0 ? ['plainFetch', 'codecLoad'] : ['codecLoad', 'plainFetch'];
      for (const call of order) {
        const [ms] = (await page.evaluate(`${call}(${JSON.stringify(url)})`)) as [number, number];
        (call === 'plainFetch' ? plain : ours).push(ms);
      }
    }
    const row = (name: string, ourValue: number, peerName: string, peer: number, unit: string, higherIsBetter: boolean, budget: number): BenchRow => ({
      group: 'codec in the browser', name, ours: ourValue, peerName, peer, unit, higherIsBetter, budget,
    });
    return [
      row('loc-js/codec encode in Chromium', inChromium.encode, 'the same in Node', inNode.encode, 'ops/s', true, BROWSER_CODEC_BUDGET),
      row('loc-js/codec decode in Chromium', inChromium.decode, 'the same in Node', inNode.decode, 'ops/s', true, BROWSER_CODEC_BUDGET),
      row('fetch the table + loadCodec (median)', median(ours), 'fetch + arrayBuffer of the same URL', median(plain), 'ms', false, TABLE_LOAD_BUDGET),
    ];
  } finally {
    await browser.close();
    await new Promise<void>((done) => pages.close(() => done()));
    await service.stop();
    removeDataDir(dataDir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(markdownTable(await benchBrowserCodec()));
