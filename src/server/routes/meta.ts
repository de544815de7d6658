/**
 * The service's own pages: `/openapi.json` generated from the route schemas, `/docs` rendered from it,
 * the embed guide beside it, and `/` pointing people at the docs. (Health has routes/health.ts.)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ICON_SVG, contentSecurityPolicy } from '../pages/html.ts';
import { docsPage, type OpenApiDocument } from '../pages/docs-page.ts';
import { GUIDES, guidePath, guideText } from '../pages/guides.ts';

const DOCS_CSP = contentSecurityPolicy({});

const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  let docs: { json: string; html: string } | null = null;
  const documents = (): { json: string; html: string } => {
    if (docs === null) {
      // Built once (the models hoisted into components/schemas on the way), then served as text.
      const document = app.swagger();
      docs = { json: JSON.stringify(document), html: docsPage(document as unknown as OpenApiDocument) };
    }
    return docs;
  };

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(documents().json));

  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(documents().html));

  // Markdown as plain text, which every browser shows (some download text/markdown instead).
  for (const guide of GUIDES) {
    let text: Buffer | null = null;
    app.get(guidePath(guide), { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=300')
        .header('content-security-policy', "default-src 'none'").send((text ??= guideText(guide))));
  }

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs', 302));

  // The pages link their icon; browsers that ask /favicon.ico on their own are sent to it. Relative,
  // like the pages' link, so a proxy that serves loc under a path prefix keeps working.
  app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(ICON_SVG));
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect('favicon.svg', 301));
};

export default metaRoutes;
