/**
 * The panel's stylesheet and page script, built from panel-app/ into dist/panel/ and served at
 * /panel/assets/ — the only place the panel's Content-Security-Policy lets styles and scripts come from.
 * Read once, at the first request; revalidated by ETag, since the panel's pages name them unversioned.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import fresh from 'fresh';
import { LocError } from '../errors.ts';
import { ASSETS_PATH } from './pages/layout.ts';

// Whether this module runs from the source tree or bundled into dist/cli.js.
const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = [join(here, '../../dist/panel/'), join(here, 'panel/')];

const TYPES: Readonly<Record<string, string>> = { 'panel.js': 'text/javascript; charset=utf-8', 'panel.css': 'text/css; charset=utf-8' };

interface Asset {
  body: Buffer;
  etag: string;
}

function readAssets(): Map<string, Asset> {
  const dir = CANDIDATES.find((candidate) => existsSync(join(candidate, 'panel.js')));
  if (dir === undefined) throw new Error(`The panel is not built: expected panel.js in ${CANDIDATES.join(' or ')}; run npm run build.`);
  return new Map(Object.keys(TYPES).map((name) => {
    const body = readFileSync(join(dir, name));
    return [name, { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }];
  }));
}

export default async function panelAssets(app: FastifyInstance): Promise<void> {
  let assets: Map<string, Asset> | undefined;
  app.get<{ Params: { file: string } }>(`${ASSETS_PATH}/:file`, { schema: { hide: true, params: Type.Object({ file: Type.String() }) } }, async (request, reply) => {
    const type = TYPES[request.params.file];
    if (type === undefined) throw new LocError('not_found', 'There is no such file in the panel.');
    const asset = (assets ??= readAssets()).get(request.params.file)!;
    reply.header('etag', asset.etag).header('cache-control', 'no-cache');
    if (fresh(request.headers, { etag: asset.etag })) return reply.code(304).send();
    return reply.type(type).send(asset.body);
  });
}
