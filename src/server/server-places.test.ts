/**
 * The start and the address index file the build makes: without it the server does not start, and
 * says in one line what to do, before it opens the database; once the file is there, the next start
 * reads it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { loadedPlaces } from '../address/offline.ts';
import { loadConfig } from './config.ts';
import { startServer } from './process/server.ts';
import { StartFailure } from './process/start-failure.ts';

/** The file the server's start reads: the built one, unless a test names another. */
const file = vi.hoisted(() => ({ path: undefined as string | undefined }));
vi.mock('../address/places-file.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../address/places-file.ts')>();
  return { ...actual, loadPlacesFile: () => actual.loadPlacesFile(file.path) };
});

let dataDir: string;
beforeEach(() => void (dataDir = mkdtempSync(join(tmpdir(), 'loc-places-'))));
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const config = () => loadConfig({ LOC_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOC_LOG_LEVEL: 'silent' });

it('does not start without the address index file, says to build, and leaves the data directory alone', async () => {
  const missing = join(dataDir, 'dist', 'places.bin');
  file.path = missing;
  await expect(startServer(config(), { print: () => {} })).rejects.toThrow(
    new StartFailure(`The address index is not built: expected ${missing}; run npm run build.`),
  );
  expect(readdirSync(dataDir)).toEqual([]);
});

it('reads the file on the next start once it is there', async () => {
  file.path = join(dataDir, 'missing.bin');
  await expect(startServer(config(), { print: () => {} })).rejects.toThrow(StartFailure);
  expect(loadedPlaces()).toBeUndefined();
  file.path = undefined;
  const server = await startServer(config(), { print: () => {} });
  try {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(loadedPlaces()?.trees.get('FR')).toBeDefined();
  } finally {
    await server.close();
  }
});
