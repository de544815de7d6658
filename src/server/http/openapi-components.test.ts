/** Titled schemas moved into components/schemas by name, and put back for the /docs page. */
import { describe, expect, it } from 'vitest';
import { hoistNamedSchemas, inlineSchemaRefs } from './openapi-components.ts';

const cell = { title: 'Cell', type: 'object', properties: { north: { type: 'number' } } };
const document = () => ({
  openapi: '3.0.3',
  info: { title: 'loc API', version: '1' },
  components: { securitySchemes: { apiKey: { type: 'apiKey' } } },
  paths: {
    '/a': { get: { responses: { 200: { content: { 'application/json': { schema: { title: 'A', type: 'object', properties: { cell, n: { type: 'string', enum: ['x'], example: { title: 'data' } } } } } } } } } },
    '/b': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { cell } } } } } } } },
  },
});

describe('hoistNamedSchemas', () => {
  it('moves each titled schema to components/schemas once, nested ones too, and leaves a $ref where it was', () => {
    const hoisted = hoistNamedSchemas(document());
    expect(hoisted.components).toEqual({
      securitySchemes: { apiKey: { type: 'apiKey' } },
      schemas: {
        A: { title: 'A', type: 'object', properties: { cell: { $ref: '#/components/schemas/Cell' }, n: { type: 'string', enum: ['x'], example: { title: 'data' } } } },
        Cell: cell,
      },
    });
    expect(hoisted.paths['/a'].get.responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/A' });
    expect(hoisted.paths['/b'].get.responses[200].content['application/json'].schema.properties.cell).toEqual({ $ref: '#/components/schemas/Cell' });
    expect(hoisted.info).toEqual({ title: 'loc API', version: '1' });
  });

  it('refuses two different schemas under one title', () => {
    const doc = document();
    (doc.paths['/b'].get.responses[200].content['application/json'].schema.properties as Record<string, unknown>).cell = { ...cell, description: 'other' };
    expect(() => hoistNamedSchemas(doc)).toThrow('Two different schemas are titled Cell');
  });

  it('leaves the input as it was', () => {
    const doc = document();
    hoistNamedSchemas(doc);
    expect(doc).toEqual(document());
  });
});

describe('inlineSchemaRefs', () => {
  it('puts every model back where it is used', () => {
    const inlined = inlineSchemaRefs(hoistNamedSchemas(document()));
    expect(inlined.paths).toEqual(document().paths);
  });
});
