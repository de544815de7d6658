/**
 * The models of /openapi.json under `components/schemas`, by name.
 *
 * The route schemas stay inline: they are what validates requests and serialises responses, and a
 * `$ref` there would change nothing a client sees but how the serializer is compiled. A schema given a
 * `title` (schemas.ts) is instead moved into `components/schemas` under that title once the document
 * is built, and each place it was is left a `$ref` to it — so a client generator names the model
 * `LookupResult` or `CellBounds` rather than `LookupCode200` or `ResolvePoint200Cell`, and makes one
 * `CellBounds` for resolve and lookup.
 *
 * Runs once, when the document is first asked for: nothing of it is on the request path.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where `$ref`s point. */
export const SCHEMAS_PATH = '#/components/schemas/';

/**
 * A copy of `document` whose titled schemas are in `components/schemas`, each named by its title
 * (titles nested in a titled schema are moved too, and referenced from it). Two different schemas
 * under one title are a mistake of ours: it throws, so the document is never built with one of them
 * silently standing for the other.
 */
export function hoistNamedSchemas<T extends object>(document: T): T {
  const named = new Map<string, string>();
  const schemas: JsonObject = {};

  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const copy: JsonObject = {};
    // `example`, `enum` and `default` hold data, not schemas: a value there is copied as it is.
    for (const [key, value] of Object.entries(node)) copy[key] = key === 'example' || key === 'enum' || key === 'default' ? value : visit(value);
    const name = copy.title;
    if (typeof name !== 'string' || copy.$ref !== undefined) return copy;
    const text = JSON.stringify(copy);
    const earlier = named.get(name);
    if (earlier !== undefined && earlier !== text) throw new Error(`Two different schemas are titled ${name}: give one of them another title.`);
    named.set(name, text);
    schemas[name] = copy;
    return { $ref: `${SCHEMAS_PATH}${name}` };
  };

  // Only the operations hold schemas (`info` has a `title` of its own).
  const source = document as unknown as JsonObject;
  const paths = visit(source.paths ?? {});
  const existing = isObject(source.components) ? source.components : {};
  const own = isObject(existing.schemas) ? existing.schemas : {};
  const clash = Object.keys(schemas).filter((name) => name in own);
  if (clash.length > 0) throw new Error(`components/schemas already has ${clash.join(', ')}.`);
  const sorted = Object.fromEntries(Object.entries({ ...own, ...schemas }).sort(([a], [b]) => a.localeCompare(b)));
  return { ...source, components: { ...existing, schemas: sorted }, paths } as unknown as T;
}

/**
 * The document with every `$ref` into `components/schemas` replaced by the schema it names, for
 * readers that walk the schemas themselves (the /docs page).
 */
export function inlineSchemaRefs<T extends object>(document: T): T {
  const schemas = ((document as unknown as JsonObject).components as JsonObject | undefined)?.schemas as JsonObject | undefined;
  const visit = (node: Json, seen: readonly string[]): Json => {
    if (Array.isArray(node)) return node.map((item) => visit(item, seen));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMAS_PATH)) {
      const name = ref.slice(SCHEMAS_PATH.length);
      const target = schemas?.[name];
      if (target === undefined || seen.includes(name)) throw new Error(`Cannot inline ${ref}.`);
      return visit(target, [...seen, name]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value, seen)]));
  };
  return visit(document as unknown as Json, []) as unknown as T;
}
