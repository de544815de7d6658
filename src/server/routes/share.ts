/**
 * `GET /{code}`: the public share page of a code, and a friendly 404 page for anything else that
 * is one path segment. A code written loosely (`us550mrq5l`, or with a trailing slash) is redirected
 * to its canonical form so every code has one address.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fresh from 'fresh';
import { createHash } from 'node:crypto';
import { countryName, decode, normalizeCode, type LocatedCell } from '../../code/index.ts';
import { LocError } from '../../errors.ts';
import { shareUrl } from '../../cells/locate.ts';
import { NOT_FOUND_PAGE_CSP, notFoundPage, sharePage, sharePageCsp } from '../pages/share-page.ts';

const shareRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The map uses the tile layers the embed's frame uses for its `streets` style: in offline mode, tiles
  // from this service alone.
  const layers = app.embedStyles.streets;
  const csp = sharePageCsp(layers);

  app.get('/:code', {
    schema: { hide: true, params: Type.Object({ code: Type.String() }) },
  }, async (request, reply) => {
    const input = request.params.code;
    const code = normalizeCode(input);
    let cell: LocatedCell | null = null;
    try {
      if (code !== null) cell = decode(code);
    } catch (error) {
      if (!(error instanceof LocError)) throw error;
    }
    if (cell === null) {
      return reply.code(404).type('text/html; charset=utf-8').header('content-security-policy', NOT_FOUND_PAGE_CSP)
        .send(notFoundPage(input, code !== null));
    }
    if (input !== cell.loc_code) return reply.redirect(`/${cell.loc_code}`, 301);
    const url = shareUrl(app.config, cell.loc_code);
    const html = sharePage(cell, await app.addressBook.addressOf(cell), countryName(cell.country_code), url, layers);
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`;
    reply.header('etag', etag).header('cache-control', 'public, max-age=3600').header('content-security-policy', csp);
    if (fresh(request.headers, { etag })) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(html);
  });

  // A share link with a slash added (by a chat app, a hand) still finds its code.
  app.get('/:code/', { schema: { hide: true, params: Type.Object({ code: Type.String() }) } }, (request, reply) =>
    reply.redirect(`/${encodeURIComponent(request.params.code)}`, 301));
};

export default shareRoutes;
