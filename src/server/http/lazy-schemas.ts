/**
 * Fastify's own schema compilers (Ajv for what comes in, fast-json-stringify for what goes out), each
 * route's schemas compiled on the route's first request instead of when the route is added. Compiling
 * every route of the API, the panel and the pages is a fifth of `loc serve`'s start; most of those
 * routes are not called in a process's first second, and a compile costs a millisecond or two.
 *
 * The compilers and their options are Fastify's defaults, so a compiled validator or serializer is
 * the one Fastify would have built. Fastify treats a compiler given through `compilersFactory` as a
 * custom one in one respect: it leaves header schemas' property names as written instead of lower-
 * casing them, so header schemas here name headers in lower case (none validates headers today).
 * A schema that cannot compile fails its route's first request instead of the start: every route
 * is requested by the test suite, which is where such a mistake is found.
 */
import { createRequire } from 'node:module';
import type AjvCompiler from '@fastify/ajv-compiler';
import type SerializerCompiler from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = NonNullable<CompilersFactory['buildValidator']>;
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** Fastify's validator builder, compiling each route schema on its first use. */
export function lazyValidators(build: BuildValidator): BuildValidator {
  return (externalSchemas, options) => {
    let compile: ReturnType<BuildValidator> | undefined;
    return (route) => {
      let compiled: Validate | undefined;
      // Ajv's validators take Fastify's second argument (the parent object, so that defaults can
      // replace the root value); `schemaEnv` is how Fastify tells an Ajv validator, so it is set.
      const validate: Validate = (data, context) => {
        compiled ??= (compile ??= build(externalSchemas, options))(route) as Validate;
        const valid = compiled(data, context);
        validate.errors = compiled.errors;
        return valid;
      };
      validate.schemaEnv = true;
      return validate as ReturnType<ReturnType<BuildValidator>>;
    };
  };
}

/** Fastify's serializer builder, compiling each response schema on its first use. */
export function lazySerializers(build: BuildSerializer): BuildSerializer {
  return (externalSchemas, options) => {
    let compile: ReturnType<BuildSerializer> | undefined;
    return (route) => {
      let compiled: ((data: unknown) => string) | undefined;
      return (data: unknown) => (compiled ??= (compile ??= build(externalSchemas, options))(route))(data);
    };
  };
}

const load = createRequire(import.meta.url);

/**
 * The `schemaController` option that makes Fastify compile each schema on first use. The compilers
 * themselves (Ajv, fast-json-stringify) are loaded with the first compile, not with the service.
 */
export function lazySchemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  let validators: BuildValidator | undefined;
  let serializers: BuildSerializer | undefined;
  return {
    compilersFactory: {
      buildValidator: lazyValidators((external, options) => (validators ??= (load('@fastify/ajv-compiler') as typeof AjvCompiler)())(external, options)),
      buildSerializer: lazySerializers((external, options) => (serializers ??= (load('@fastify/fast-json-stringify-compiler') as typeof SerializerCompiler)())(external, options)),
    },
  };
}
