/**
 * loc-js/codec in Chromium: the built package (packages/loc-js/dist/codec.js) on an integrator's page
 * of another origin loads the table from the real service once, across origins, and then encodes
 * and decodes offline exactly as the service's codec does: every golden row, and random points and
 * codes checked here against the service's own codec.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { decode, encode, neighbours } from '../src/code/index.ts';
import { goldenRows, writtenAnswer as written } from '../test/support/golden.ts';
import { TABLE_PATH } from '../src/code/table-release.ts';
import { expect, test } from './fixtures.ts';
import { ROOT, freePort } from './services.ts';

const HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loc e2e: the offline codec</title></head><body></body></html>';

const golden = goldenRows();

/** Seeded points: a quarter anywhere, the rest in Europe, where coasts, borders and microstates are. */
function randomPoints(count: number): [number, number][] {
  let seed = 3_838;
  const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, (_, i) => (i % 4 === 0 ? [next() * 180 - 90, next() * 360 - 180] : [35 + next() * 25, -10 + next() * 40]));
}

let server: Server;
let page0: string;

test.beforeAll(async () => {
  const script = readFileSync(join(ROOT, 'packages/loc-js/dist/codec.js'), 'utf8');
  const port = await freePort();
  page0 = `http://localhost:${port}/`;
  server = createServer((request, response) => {
    if (request.url === '/codec.js') response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML);
    else response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(port, 'localhost', done));
});

test.afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

test('loadCodec on a page of another origin fetches the table once and answers every golden row, its neighbours, and 10 000 random points and codes as the service does', async ({ page, stack }) => {
  const tableRequests: string[] = [];
  page.on('request', (request) => void (request.url().endsWith(TABLE_PATH) && tableRequests.push(request.url())));
  await page.goto(page0);
  const goldenPoints = golden.map((row) => [Number(row.lat), Number(row.lng)] as [number, number]);
  const points = [...goldenPoints, ...randomPoints(10_000)];
  const codes = golden.filter((row) => row.loc_code !== '').map((row) => row.loc_code);
  const answers = await page.evaluate(
    async ({ baseUrl, points, codes }) => {
      // The page's own module, as a page would import it: a URL, not a path the test's compiler resolves.
      const entry = '/codec.js';
      const { loadCodec } = (await import(entry)) as typeof import('../packages/loc-js/src/codec.ts');
      const [codec, again] = await Promise.all([loadCodec({ baseUrl }), loadCodec({ baseUrl })]);
      const write = (call: () => ReturnType<typeof codec.encode>): string => {
        try {
          const { loc_code, country_code, latitude, longitude, cell } = call();
          return `${loc_code} ${country_code} ${latitude} ${longitude} ${cell.north} ${cell.south} ${cell.east} ${cell.west}`;
        } catch (error) {
          return (error as { code: string }).code;
        }
      };
      const encoded = points.map(([lat, lng]) => write(() => codec.encode(lat, lng)));
      // Every code found, and a near miss of each (two digits swapped): found or not, as the service says.
      const found = encoded.filter((answer) => answer.includes(' ')).map((answer) => answer.slice(0, 12));
      const tried = [...codes, ...found, ...found.map((code) => `${code.slice(0, 8)}${code[9]}${code[8]}${code.slice(10)}`)];
      const around = codes.map((code) => codec.neighbours(code));
      return { shared: codec === again, tried, decoded: tried.map((code) => write(() => codec.decode(code))), encoded, around, revision: codec.revision };
    },
    { baseUrl: stack.service, points, codes },
  );
  expect(answers.shared).toBe(true);
  expect(answers.revision).toBe(3);
  expect(tableRequests).toEqual([`${stack.service}${TABLE_PATH}`]);

  const mismatches = (ours: string[], theirs: string[]) => ours.flatMap((answer, i) => (answer === theirs[i] ? [] : [i]));
  const expected = points.map(([lat, lng]) => written(() => encode(lat, lng)));
  expect(mismatches(answers.encoded, expected)).toEqual([]);
  // The golden file's own codes, beside the service's codec: the browser agrees with both.
  golden.forEach((row, i) => expect(answers.encoded[i].split(' ')[0], row.name).toBe(row.error || row.loc_code));
  expect(answers.tried.length).toBeGreaterThan(5_000);
  expect(mismatches(answers.decoded, answers.tried.map((code) => written(() => decode(code))))).toEqual([]);
  expect(answers.around).toEqual(codes.map((code) => neighbours(code)));
});
