/**
 * The OpenAPI document of the API as @fastify/swagger makes it from the routes' schemas: its title,
 * version and description, its server, the embed guide, the tags a client generator groups operations
 * by, and the two credentials. The titled schemas become named models under components/schemas
 * (openapi-components.ts), every 401 declares its WWW-Authenticate (www-authenticate.ts), and every
 * response Request-Id (request-id-header.ts).
 */
import type { SwaggerOptions } from '@fastify/swagger';
import { EMBED_GUIDE_PATH, EMBED_TYPES_PATH, INTEGRATOR_PACKAGE } from '../pages/guides.ts';
import { VERSION } from '../version.ts';
import { hoistNamedSchemas } from './openapi-components.ts';
import { declareRequestId } from './request-id-header.ts';
import { declareChallenges } from './www-authenticate.ts';

export function openApiOptions(publicUrl: string): SwaggerOptions {
  return {
    transformObject: (document) =>
      ('openapiObject' in document ? declareRequestId(declareChallenges(hoistNamedSchemas(document.openapiObject))) : document.swaggerObject),
    openapi: {
      info: {
        title: 'loc API',
        version: VERSION,
        description:
          'Location codes for 3 m × 3 m cells. Send your API key in `x-api-key`; POST bodies are JSON. ' +
          'Every response to a request whose key or session was accepted carries `RateLimit-Limit`, `RateLimit-Remaining` ' +
          'and `RateLimit-Reset`; a refused key or session has no limit to report. Each error response is one status, and its ' +
          '`code` is an enum of the codes the operation answers with that status; each response lists the headers it carries.',
      },
      servers: [{ url: publicUrl }],
      // The map picker is files and a script, not operations: the guide and the types say how to use it.
      externalDocs: {
        description: `The embed guide: the map picker in a page with LOC.mount or loadLoc (npm package ${INTEGRATOR_PACKAGE}). Its TypeScript declarations: ${publicUrl}${EMBED_TYPES_PATH}`,
        url: `${publicUrl}${EMBED_GUIDE_PATH}`,
      },
      // Client generators group operations by tag (an SDK's classes): each tag says what it holds.
      tags: [
        { name: 'codes', description: 'Save a point as a code, look a code up, suggest the codes a typed one may have meant, search for places, coordinates and codes, and draw the grid of a box.' },
        {
          name: 'embed',
          description: 'The map picker: embed sessions, resolving a map click, and the public facts of a session.',
          externalDocs: { description: 'The embed guide', url: `${publicUrl}${EMBED_GUIDE_PATH}` },
        },
        { name: 'health', description: 'Whether the service and its database work.' },
      ],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          sessionToken: { type: 'http', scheme: 'bearer', description: 'An embed session token, for the embed frame.' },
        },
      },
    },
  };
}
