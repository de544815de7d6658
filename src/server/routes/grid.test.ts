/**
 * `GET /v1/loc/grid` through the real service and codec: its cells held against encode and the cell of
 * every point of the box, its lines against those cells' edges, its two bounds at and just beyond
 * them, its refusals, credentials and budget.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import serializerCompiler from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { fileService, json } from '../../../test/support/service.ts';
import { bandColumns, cellAt, colOf, encode, rowOf, type CellBounds } from '../../code/index.ts';
import { colWest, rowSouth } from '../../code/grid.ts';
import { LocError } from '../../errors.ts';
import { GridResult } from '../http/grid-schemas.ts';

const service = fileService();

type Position = [number, number];
interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates: Position[][] };
  properties: Record<string, unknown>;
}
interface Grid {
  success: true;
  kind: string;
  type: 'FeatureCollection';
  bbox: number[];
  features: Feature[];
}
interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

const bbox = ({ west, south, east, north }: Box) => `${west},${south},${east},${north}`;
const ask = (query: Record<string, string>, headers: Record<string, string> = { 'x-api-key': service.secret }) =>
  service.request({ url: `/v1/loc/grid?${new URLSearchParams(query)}`, headers });
async function grid(box: Box, kind: 'cells' | 'lines'): Promise<Grid> {
  const response = await ask({ bbox: bbox(box), kind });
  expect(response.statusCode, response.body).toBe(200);
  return json<Grid>(response);
}

/** encode's code of the cell holding a point, or null where it refuses the point. */
function codeAt(lat: number, lng: number): { loc_code: string | null; country_code: string | null } {
  try {
    const { loc_code, country_code } = encode(lat, lng);
    return { loc_code, country_code };
  } catch (error) {
    if (error instanceof LocError && error.code === 'unsupported_location') return { loc_code: null, country_code: null };
    throw error;
  }
}

const ring = ({ west, south, east, north }: CellBounds): Position[] => [[west, south], [east, south], [east, north], [west, north], [west, south]];
const cellKey = ({ south, west }: CellBounds) => `${south},${west}`;

/** The box's longitudes as stretches that do not cross the antimeridian. */
const stretches = ({ west, east }: Box): [number, number][] => (west < east ? [[west, east]] : [[west, 180], [-180, east]]);

/**
 * The cell of every point of a lattice finer than a cell over the box, its west and south edges and
 * points a hair short of its east and north ones included: every cell the box overlaps, and no other.
 */
function sampledCells(box: Box): Map<string, CellBounds> {
  const cells = new Map<string, CellBounds>();
  const step = 0.00001;
  const lats = [...Array.from({ length: Math.floor((box.north - box.south) / step) + 1 }, (_, i) => box.south + i * step), box.north - 1e-12];
  for (const [a, b] of stretches(box)) {
    const lngs = [...Array.from({ length: Math.floor((b - a) / step) + 1 }, (_, i) => a + i * step), b - 1e-12];
    for (const lat of lats) for (const lng of lngs) if (lat < box.north && lng < b) cells.set(cellKey(cellAt(lat, lng)), cellAt(lat, lng));
  }
  return cells;
}

/** Each cell feature is the cell its centre's code names, exactly, and together they are the cells of the box. */
function expectTheCells(answer: Grid, box: Box): void {
  expect(answer).toMatchObject({ success: true, kind: 'cells', type: 'FeatureCollection', bbox: [box.west, box.south, box.east, box.north] });
  const sampled = sampledCells(box);
  expect(answer.features.map(({ geometry }) => cellKey(cellAt((geometry.coordinates[0][0][1] + geometry.coordinates[0][2][1]) / 2, geometry.coordinates[0][0][0]))).sort())
    .toEqual([...sampled.keys()].sort());
  for (const { type, geometry, properties } of answer.features) {
    const [[west, south], , [east, north]] = geometry.coordinates[0];
    const lat = (south + north) / 2;
    const lng = (west + east) / 2;
    expect({ type, geometry, properties }).toEqual({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring(cellAt(lat, lng))] }, properties: codeAt(lat, lng) });
    if (properties.loc_code !== null) expect(encode(lat, lng).cell).toEqual(cellAt(lat, lng));
  }
}

/** About 30 m × 20 m by the Eiffel Tower. */
const EIFFEL: Box = { west: 2.2943, south: 48.8583, east: 2.2947, north: 48.8585 };
/** The band edge just north of the Eiffel Tower, where the columns change width. */
const BAND_EDGE = rowSouth(Math.ceil(rowOf(48.8584) / 1296) * 1296);
const ACROSS_BAND_EDGE: Box = { west: 2.2943, south: BAND_EDGE - 0.0001, east: 2.2946, north: BAND_EDGE + 0.0001 };
/** Taveuni, Fiji, which the antimeridian crosses. */
const ACROSS_ANTIMERIDIAN: Box = { west: 179.9998, south: -16.8001, east: -179.9998, north: -16.7999 };
/** The middle of the Atlantic. */
const AT_SEA: Box = { west: -30.0002, south: 0.0001, east: -30, north: 0.0003 };

describe('kind=cells', () => {
  it('is each cell the box overlaps, a closed counter-clockwise ring exactly the codec’s bounds, with the code encode gives', async () => {
    const answer = await grid(EIFFEL, 'cells');
    expect(answer.features.length).toBeGreaterThan(50);
    expect(answer.features.every(({ properties }) => properties.country_code === 'FR')).toBe(true);
    expect(answer.features.map(({ properties }) => properties.loc_code)).toContain('FR-0RMB-CLY0');
    expectTheCells(answer, EIFFEL);
  });

  it('changes width with the band, across a band edge', async () => {
    const answer = await grid(ACROSS_BAND_EDGE, 'cells');
    const widths = new Set(answer.features.map(({ geometry: { coordinates: [[[west], [east]]] } }) => east - west));
    expect(widths.size).toBeGreaterThan(1);
    expectTheCells(answer, ACROSS_BAND_EDGE);
  });

  it('takes a box across the antimeridian: west greater than east', async () => {
    const answer = await grid(ACROSS_ANTIMERIDIAN, 'cells');
    const lngs = answer.features.map(({ geometry }) => geometry.coordinates[0][0][0]);
    expect(lngs.some((lng) => lng > 179)).toBe(true);
    expect(lngs.some((lng) => lng < -179)).toBe(true);
    expect(answer.features.every(({ properties }) => properties.country_code === 'FJ')).toBe(true);
    expectTheCells(answer, ACROSS_ANTIMERIDIAN);
  });

  it('has null codes at sea', async () => {
    const answer = await grid(AT_SEA, 'cells');
    expect(answer.features.length).toBeGreaterThan(20);
    expect(answer.features.every(({ properties }) => properties.loc_code === null && properties.country_code === null)).toBe(true);
    expectTheCells(answer, AT_SEA);
  });
});

describe('kind=lines', () => {
  /** The edges of the box's cells that lie inside it: rows across it, and each band's columns. */
  function expectTheEdges(answer: Grid, box: Box): void {
    const cells = [...sampledCells(box).values()];
    const inside = (value: number, low: number, high: number) => value >= low && value <= high;
    const rows = [...new Set(cells.flatMap(({ south, north }) => [south, north]))].filter((lat) => inside(lat, box.south, box.north)).sort((a, b) => a - b);
    const [rowLines, ...bands] = answer.features;
    expect(rowLines).toEqual({
      type: 'Feature',
      geometry: { type: 'MultiLineString', coordinates: rows.flatMap((lat) => stretches(box).map(([a, b]) => [[a, lat], [b, lat]])) },
      properties: { edges: 'rows' },
    });
    expect(bands.map(({ properties }) => properties.band)).toEqual([...new Set(cells.map(({ south }) => Math.floor(rowOf(south) / 1296)))].sort((a, b) => a - b));
    for (const { geometry, properties } of bands) {
      const band = properties.band as number;
      expect(properties).toEqual({ edges: 'columns', band, columns: bandColumns(band) });
      const south = Math.max(box.south, rowSouth(band * 1296));
      const north = Math.min(box.north, rowSouth((band + 1) * 1296));
      const lngs = [...new Set(cells.filter((cell) => cell.south >= south && cell.north <= north + 1e-9 && cell.south < north).flatMap(({ west, east }) => [west, east]))]
        .filter((lng) => stretches(box).some(([a, b]) => inside(lng, a, b)))
        .map((lng) => (lng === -180 && box.west > box.east ? 180 : lng));
      const sorted = [...new Set(lngs)].sort((a, b) => a - b);
      // Along the box: across the antimeridian, its west side first.
      const alongBox = box.west > box.east ? [...sorted.filter((lng) => lng >= box.west), ...sorted.filter((lng) => lng < box.west)] : sorted;
      expect(geometry).toEqual({ type: 'MultiLineString', coordinates: alongBox.map((lng) => [[lng, south], [lng, north]]) });
    }
  }

  it('is the row edges across the box, then its band’s column edges: exactly the edges of its cells inside it', async () => {
    const answer = await grid(EIFFEL, 'lines');
    expect(answer).toMatchObject({ success: true, kind: 'lines', type: 'FeatureCollection', bbox: [EIFFEL.west, EIFFEL.south, EIFFEL.east, EIFFEL.north] });
    expect(answer.features).toHaveLength(2);
    expectTheEdges(answer, EIFFEL);
  });

  it('is each band’s own columns across a band edge', async () => {
    const answer = await grid(ACROSS_BAND_EDGE, 'lines');
    expect(answer.features).toHaveLength(3);
    expectTheEdges(answer, ACROSS_BAND_EDGE);
  });

  it('cuts the row edges at the antimeridian, and draws the meridian ±180 once, as 180', async () => {
    const answer = await grid(ACROSS_ANTIMERIDIAN, 'lines');
    expectTheEdges(answer, ACROSS_ANTIMERIDIAN);
  });

  it('is the default kind', async () => {
    expect(json(await ask({ bbox: bbox(EIFFEL) }))).toEqual(await grid(EIFFEL, 'lines'));
  });
});

/** Haversine on the sphere of radius R, metres: the bound's own measure, written out apart from the service's. */
function distanceM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}

/** A square-ish box from the Eiffel Tower north-east whose diagonal is `metres`, to a hundredth of a metre. */
function boxOfDiagonal(metres: number): Box {
  let low = 0;
  let high = 0.1;
  const of = (d: number): Box => ({ west: 2.29, south: 48.85, east: 2.29 + d * 1.5, north: 48.85 + d });
  while (high - low > 1e-12) {
    const mid = (low + high) / 2;
    if (distanceM(48.85, 2.29, of(mid).north, of(mid).east) > metres) high = mid;
    else low = mid;
  }
  return of(low);
}

describe('the bounds of a box', () => {
  /** A box whose edges are those of `rows` × `cols` cells by the Eiffel Tower. */
  function cellsBox(rows: number, cols: number): Box {
    const row = rowOf(48.8584);
    const columns = bandColumns(Math.floor(row / 1296));
    const col = colOf(2.2945, columns);
    return { west: colWest(col, columns), south: rowSouth(row), east: colWest(col + cols, columns), north: rowSouth(row + rows) };
  }

  it('kind=cells: 10 000 cells are answered; 10 100 are 422 validation_error, naming bbox, the bound and the box’s count', async () => {
    expect((await grid(cellsBox(100, 100), 'cells')).features).toHaveLength(10_000);
    const response = await ask({ bbox: bbox(cellsBox(100, 101)), kind: 'cells' });
    expect(response.statusCode).toBe(422);
    expect(json(response)).toMatchObject({
      code: 'validation_error',
      field: 'bbox',
      message: 'bbox holds 10100 cells; kind=cells answers at most 10000: ask for a smaller box, or for kind=lines.',
    });
    // The same box's lines are well within theirs.
    expect((await ask({ bbox: bbox(cellsBox(100, 101)) })).statusCode).toBe(200);
  });

  it('goes out in Brotli or gzip to a client that accepts them, a tenth of its size or less, and as it is to one that does not', async () => {
    const query = { bbox: bbox(cellsBox(100, 100)), kind: 'cells' };
    const plain = await ask(query);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accepted, encoding, inflate] of [['gzip, deflate, br', 'br', brotliDecompressSync], ['gzip', 'gzip', gunzipSync]] as const) {
      const packed = await ask(query, { 'x-api-key': service.secret, 'accept-encoding': accepted });
      expect(packed.statusCode).toBe(200);
      expect([packed.headers['content-encoding'], packed.headers.vary]).toEqual([encoding, 'accept-encoding']);
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10);
      expect(JSON.parse(inflate(packed.rawPayload).toString('utf8'))).toEqual(JSON.parse(plain.body));
    }
  });

  it('is written as its response schema would write it: no property the schema lacks, every value of the schema’s type', async () => {
    const serialize = serializerCompiler()()({ schema: GridResult, method: 'GET', url: '/v1/loc/grid', httpStatus: '200' });
    const queries: Record<string, string>[] = [{ bbox: bbox(EIFFEL), kind: 'cells' }, { bbox: bbox(AT_SEA), kind: 'cells' }, { bbox: bbox(ACROSS_BAND_EDGE) }, { bbox: bbox(ACROSS_ANTIMERIDIAN) }];
    for (const query of queries) {
      const response = await ask(query);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body, query.bbox).toBe(serialize(JSON.parse(response.body)));
    }
  });

  it('kind=lines: a diagonal of 4000 m is answered; 4000.5 m is 422 validation_error, naming bbox, the bound and the box’s diagonal', async () => {
    const at = boxOfDiagonal(3999.99);
    expect(distanceM(at.south, at.west, at.north, at.east)).toBeLessThanOrEqual(4000);
    const answer = await grid(at, 'lines');
    expect(answer.features[0].geometry.coordinates.length).toBeGreaterThan(600);
    const response = await ask({ bbox: bbox(boxOfDiagonal(4000.5)) });
    expect(response.statusCode).toBe(422);
    expect(json(response)).toMatchObject({
      code: 'validation_error',
      field: 'bbox',
      message: 'bbox has a diagonal of 4001 m; kind=lines answers boxes of at most 4000 m corner to corner: ask for a smaller box.',
    });
  });
});

describe('refusals', () => {
  const refused = async (query: Record<string, string>, field: string, message?: string) => {
    const response = await ask(query);
    expect(response.statusCode, JSON.stringify(query)).toBe(422);
    expect(json(response), JSON.stringify(query)).toMatchObject({ code: 'validation_error', field, ...(message === undefined ? {} : { message }) });
  };

  it('422 validation_error naming bbox when it is not four decimal degrees in range, south not below north, or of no width', async () => {
    const shape = (text: string) =>
      `bbox must be "west,south,east,north" in decimal degrees, longitudes -180 to 180 and latitudes -90 to 90; received ${JSON.stringify(text)}.`;
    for (const text of ['abc', '2.29,48.85,2.3', '2.29,48.85,2.3,48.86,1', '2.29;48.85;2.3;48.86', '181,0,182,1', '0,-91,1,0', '1e-3,0,1,1', 'NaN,0,1,1', '']) {
      await refused({ bbox: text }, 'bbox', shape(text));
    }
    await refused({ bbox: '2.29,48.86,2.3,48.85' }, 'bbox', 'bbox must have its south below its north, received south 48.86 and north 48.85.');
    await refused({ bbox: '2.29,48.85,2.3,48.85' }, 'bbox');
    for (const text of ['2.29,48.85,2.29,48.86', '180,48.85,-180,48.86']) await refused({ bbox: text }, 'bbox');
    expect(json(await ask({ bbox: '180,48.85,-180,48.86' })).message).toMatch(/^bbox must have a width: west 180 and east -180 are the same meridian/);
  });

  it('422 validation_error naming a missing bbox, an unknown kind or an unknown parameter', async () => {
    await refused({}, 'bbox');
    await refused({ bbox: bbox(EIFFEL), kind: 'polygons' }, 'kind');
    await refused({ bbox: bbox(EIFFEL), zoom: '19' }, 'zoom');
  });

  it('401 without a key or a session token', async () => {
    const response = await ask({ bbox: bbox(EIFFEL) }, {});
    expect(response.statusCode).toBe(401);
    expect(json(response)).toMatchObject({ code: 'missing_api_key' });
  });
});

describe('credentials and budgets', () => {
  it('counts each answer as a call of the key’s hour, and lets this client alone keep it for a day', async () => {
    const { secret } = await service.key('grid-budget');
    const first = await ask({ bbox: bbox(EIFFEL) }, { 'x-api-key': secret });
    const second = await ask({ bbox: bbox(EIFFEL), kind: 'cells' }, { 'x-api-key': secret });
    expect(Number(first.headers['ratelimit-limit'])).toBe(service.config.defaultHourlyLimit);
    expect(Number(second.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
    expect(first.headers['cache-control']).toBe('private, max-age=86400');
  });

  it('takes a session token, drawing from the session’s budget', async () => {
    const session = json<{ session_token: string }>(
      await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://shop.example' } }),
    ).session_token;
    const bearer = { authorization: `Bearer ${session}` };
    const first = await ask({ bbox: bbox(EIFFEL), kind: 'cells' }, bearer);
    const second = await ask({ bbox: bbox(EIFFEL), kind: 'cells' }, bearer);
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual(await grid(EIFFEL, 'cells'));
    expect(Number(first.headers['ratelimit-limit'])).toBe(service.config.defaultSessionLimit);
    expect(Number(second.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
  });
});
