import ajvCompiler from '@fastify/ajv-compiler';
import serializerCompiler from '@fastify/fast-json-stringify-compiler';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazySerializers, lazyValidators } from './lazy-schemas.ts';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** An app with two routes, its compilers counted: how many schemas each has compiled so far. */
async function countingApp(): Promise<{ app: FastifyInstance; compiled: { validators: number; serializers: number } }> {
  const compiled = { validators: 0, serializers: 0 };
  const validators = ajvCompiler();
  const serializers = serializerCompiler();
  const server = Fastify({
    schemaController: {
      compilersFactory: {
        buildValidator: lazyValidators((external, options) => {
          const compile = validators(external, options);
          return (route) => (compiled.validators++, compile(route));
        }),
        buildSerializer: lazySerializers((external, options) => {
          const compile = serializers(external, options);
          return (route) => (compiled.serializers++, compile(route));
        }),
      },
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false } },
  });
  const body = { type: 'object', properties: { zoom: { type: 'integer', default: 3 }, name: { type: 'string' } }, additionalProperties: false };
  const response = { 200: { type: 'object', properties: { zoom: { type: 'integer' }, name: { type: 'string' } } } };
  server.post('/a', { schema: { body, response } }, async (request) => ({ ...(request.body as object), secret: 'not in the schema' }));
  server.post('/b', { schema: { body } }, async (request) => request.body);
  await server.ready();
  return { app: server, compiled };
}

describe('schemas compiled on first use', () => {
  it('compile nothing when the routes are added, then each route\'s schemas on its first request, once', async () => {
    const counting = await countingApp();
    app = counting.app;
    expect(counting.compiled).toEqual({ validators: 0, serializers: 0 });
    await app.inject({ method: 'POST', url: '/a', payload: { zoom: 5 } });
    expect(counting.compiled).toEqual({ validators: 1, serializers: 1 });
    await app.inject({ method: 'POST', url: '/a', payload: { zoom: 6 } });
    await app.inject({ method: 'POST', url: '/b', payload: {} });
    expect(counting.compiled).toEqual({ validators: 2, serializers: 1 });
  });

  it('validate, fill defaults and serialize as Fastify\'s own compilers do', async () => {
    app = (await countingApp()).app;
    const filled = await app.inject({ method: 'POST', url: '/a', payload: { name: 'x' } });
    expect(filled.json()).toEqual({ zoom: 3, name: 'x' });
    const refused = await app.inject({ method: 'POST', url: '/a', payload: { zoom: 'three' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('body/zoom must be integer');
    const unknown = await app.inject({ method: 'POST', url: '/b', payload: { zoom: 1, other: true } });
    expect(unknown.json().message).toBe('body must NOT have additional properties');
    // The errors are the latest call's, not a stale list from an earlier one.
    expect((await app.inject({ method: 'POST', url: '/b', payload: { zoom: 2 } })).json()).toEqual({ zoom: 2 });
  });
});
