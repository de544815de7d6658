/**
 * The metrics in process: requests counted by route template and status class (never by path),
 * their durations, refusals by reason, nothing of a key or an origin in what a scrape shows, the
 * process's figures; and metrics off costing nothing — no registry, no hook, and prom-client loaded
 * by no static import of the built CLI.
 */
import { describe, expect, it } from 'vitest';
import { builtCli } from '../../../test/support/built-cli.ts';
import { fileService, freshService, json } from '../../../test/support/service.ts';
import { byLabel, sampled, samples, type Labels } from '../../../test/support/metric-samples.ts';
import { UNMATCHED } from './http.ts';

const service = fileService({ LOC_METRICS_PORT: '0' });

const LOOKUP = '/v1/loc/lookup/US-550M-RQ5L';
const LOOKUP_ROUTE = '/v1/loc/lookup/:code';

const registry = () => service.app.metrics!;

/** The sum of the samples of `name` whose labels include `labels`: 0 when there is none. */
const total = async (name: string, labels: Labels = {}): Promise<number> => (await sampled(registry(), name, labels)) ?? 0;

/** What `act` adds to the sample of `name` with `labels`. */
async function added(name: string, labels: Labels, act: () => Promise<unknown>): Promise<number> {
  const before = await total(name, labels);
  await act();
  return (await total(name, labels)) - before;
}

/** The samples named `name`. */
const named = async (name: string) => (await samples(registry())).filter((sample) => sample.name === name);

describe('HTTP metrics', () => {
  it('counts requests by method, route template and status class, and times them', async () => {
    const ok = { method: 'GET', route: LOOKUP_ROUTE, status_class: '2xx' };
    const lookups = () => Promise.all([0, 1, 2].map(() => service.request({ url: LOOKUP, headers: { 'x-api-key': service.secret } })));
    expect(await added('loc_http_requests_total', ok, lookups)).toBe(3);
    expect(await added('loc_http_request_duration_seconds_bucket', { ...ok, le: '+Inf' }, lookups)).toBe(3);
    expect(await total('loc_http_request_duration_seconds_count', ok)).toBe(6);
    const buckets = [...(await byLabel(registry(), 'loc_http_request_duration_seconds_bucket', 'le', ok)).keys()];
    expect(buckets).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf']);
    const refused = { method: 'GET', route: LOOKUP_ROUTE, status_class: '4xx' };
    expect(await added('loc_http_requests_total', refused, () => service.request({ url: LOOKUP }))).toBe(1);
  });

  it('counts paths no route matches, and methods the API does not have, in one series each', async () => {
    const paths = ['/v1/nothing-here', '/v1/loc/lookup', `/v1/${Math.random()}`];
    const unmatched = { method: 'GET', route: UNMATCHED, status_class: '4xx' };
    expect(await added('loc_http_requests_total', unmatched, () => Promise.all(paths.map((url) => service.request({ url }))))).toBe(3);
    expect(await added('loc_http_requests_total', { method: 'other', route: UNMATCHED }, () => service.request({ method: 'PROPFIND', url: LOOKUP }))).toBe(1);
    const text = await registry().metrics();
    for (const path of paths) expect(text).not.toContain(`"${path}"`);
    expect(text).not.toContain('PROPFIND');
  });

  it('counts refusals by reason: no key, a key the origin does not match, a limit spent', async () => {
    const reasons = async () => Object.fromEntries(await byLabel(registry(), 'loc_refusals_total', 'reason'));
    const before = await reasons();
    const { secret: once } = await service.key('refusals', { hourlyLimit: 1 });
    const lookup = (key?: string) => service.request({ url: LOOKUP, headers: key === undefined ? {} : { 'x-api-key': key } });
    expect(json(await lookup()).code).toBe('missing_api_key');
    expect(json(await lookup('loc_not-a-key')).code).toBe('invalid_api_key');
    const session = await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': service.secret }, payload: { origin: 'https://elsewhere.example' } });
    expect(json(session).code).toBe('origin_not_allowed');
    expect((await lookup(once)).statusCode).toBe(200);
    expect(json(await lookup(once)).code).toBe('rate_limited');
    const after = await reasons();
    const delta = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(['missing_api_key', 'invalid_api_key', 'origin_not_allowed', 'rate_limited'].map(delta)).toEqual([1, 1, 1, 1]);
    // A client's mistake is not a refusal.
    expect(await added('loc_refusals_total', {}, () => service.request({ url: '/v1/loc/lookup/not-a-code', headers: { 'x-api-key': service.secret } }))).toBe(0);
  });

  it('shows no key, secret, origin or client address in a scrape', async () => {
    const { key, secret } = await service.key('private', { origins: ['https://private-shop.example'] });
    await service.request({ url: LOOKUP, headers: { 'x-api-key': secret }, remoteAddress: '198.51.100.77' });
    await service.request({ method: 'POST', url: '/v1/embed/sessions', headers: { 'x-api-key': secret }, payload: { origin: 'https://intruder.example' } });
    const text = await registry().metrics();
    for (const secretThing of [key.id, secret, 'private-shop.example', 'intruder.example', '198.51.100.77']) expect(text).not.toContain(secretThing);
  });
});

describe('process metrics', () => {
  it('has the build, the event loop utilisation and prom-client’s default metrics', async () => {
    const [info] = await named('loc_build_info');
    expect(info.value).toBe(1);
    expect(info.labels).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), table_revision: 'v1r3', node_version: process.version });
    const [utilization] = await named('loc_event_loop_utilization');
    expect(utilization.value).toBeGreaterThanOrEqual(0);
    expect(utilization.value).toBeLessThanOrEqual(1);
    const text = await registry().metrics();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
  });
});

describe('metrics off', () => {
  it('makes no registry and adds no hook', async () => {
    const off = await freshService();
    expect(off.app.metrics).toBeUndefined();
    expect(off.app.hasPlugin('loc-metrics')).toBe(false);
  });

  it('leaves prom-client out of the built CLI but for import(): esbuild hoists a static import of a package to the bundle’s top', () => {
    const cli = builtCli();
    expect(cli).toMatch(/await import\("prom-client"\)/);
    expect(cli).not.toMatch(/^import .*"prom-client";$/m);
  });
});
