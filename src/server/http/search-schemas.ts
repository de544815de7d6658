/**
 * The wire shapes of `GET /v1/loc/search` (routes/search.ts), beside the API's others in schemas.ts:
 * its query, and its answer's three kinds of result. Each result is a named model, and the answer's
 * `kind` says which one `results` holds.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { PLACES_MAX } from '../../address/place-names.ts';
import { TYPO_KINDS } from '../../code/typos.ts';
import { Latitude, Longitude, Success, SuggestQuery, suggestedFields } from './schemas.ts';
import { SUGGESTIONS_MAX } from '../../search/suggest.ts';

/**
 * A field without its `examples`: inside the union of `results`, the document generator leaves them
 * as JSON Schema's `examples`, which OpenAPI 3.0 does not have.
 */
function withoutExamples<T extends TSchema>(schema: T): T {
  const { examples: _, ...rest } = schema;
  return rest as T;
}

/** The longest text a search takes: a map link pasted whole is long, a name or a code short. */
export const SEARCH_Q_MAX = 2048;

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: SEARCH_Q_MAX,
      description:
        'What the visitor typed: the start of a place name, coordinates (decimal, degrees-minutes-seconds, a Google Maps or OpenStreetMap link, a `geo:` URI) or a code.',
      examples: ['Lyon'],
    }),
    focus: SuggestQuery.properties.focus,
    countries: Type.Optional(Type.String({
      maxLength: 1024,
      description: 'ISO 3166-1 alpha-2 codes separated by commas: only codes and places of these countries are listed.',
      examples: ['FR,DE'],
    })),
    forward: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('0')], {
      description:
        '`1`: the visitor submitted the search (Enter), and the operator’s geocoder may be asked too (`LOC_GEOCODER_SEARCH=on`); ignored otherwise. Never send it as the visitor types: public geocoders forbid autocomplete traffic.',
    })),
  },
  { additionalProperties: false },
);

const InArea = Type.Optional(Type.Boolean({ description: 'Whether it lies in the session’s area; only in answers to a session that has one.' }));
const Distance = Type.Optional(Type.Integer({ minimum: 0, description: 'From `focus`, whole metres; only when `focus` was sent.' }));

export const SearchCode = Type.Object(
  {
    ...Object.fromEntries(Object.entries(suggestedFields).map(([name, field]) => [name, withoutExamples(field)])) as typeof suggestedFields,
    match: Type.Union(
      ['exact', ...TYPO_KINDS].map((kind) => Type.Literal(kind)),
      { description: '`exact`: the text names this cell as typed. Else the slip that would turn this code into the text (see Suggestion).' },
    ),
    in_area: InArea,
  },
  { title: 'SearchCode', description: 'A cell the text names, or may have meant to, with its centre; no address (resolve the one chosen).' },
);

export const SearchCoordinates = Type.Object(
  {
    latitude: Latitude,
    longitude: Longitude,
    swapped: Type.Boolean({ description: 'True when the pair was read as longitude, latitude: its first number could not be a latitude. Tell the visitor.' }),
    distance_m: Distance,
    in_area: { ...InArea, description: 'Whether the point lies in the session’s box; only in answers to a session with bounds and no countries.' },
  },
  { title: 'SearchCoordinates', description: 'The point the text gives.' },
);

export const SearchPlace = Type.Object(
  {
    name: Type.String({ description: 'The place’s name, as GeoNames or the geocoder spells it.' }),
    country_code: Type.Unsafe<string | null>({ type: 'string', nullable: true, description: 'ISO 3166-1 alpha-2; null when the geocoder named no country.' }),
    country: Type.Unsafe<string | null>({ type: 'string', nullable: true, description: 'The country’s English name; null without `country_code`.' }),
    admin: Type.Unsafe<string | null>({ type: 'string', nullable: true, description: 'The region (state, province, county) the geocoder names; null for the offline places.' }),
    latitude: Latitude,
    longitude: Longitude,
    distance_m: Distance,
    source: Type.Union([Type.Literal('places'), Type.Literal('geocoder')], {
      description: '`places`: the GeoNames populated places the service ships; `geocoder`: the operator’s geocoder, asked on `forward=1`.',
    }),
    in_area: InArea,
  },
  { title: 'SearchPlace', description: 'A place whose name, or a word of it, starts with the text.' },
);

export const SearchResult = Type.Object(
  {
    success: Success,
    kind: Type.Union([Type.Literal('code'), Type.Literal('coordinates'), Type.Literal('places')], {
      description: 'How the text was read, and so what `results` holds: `code` SearchCode, `coordinates` one SearchCoordinates, `places` SearchPlace.',
    }),
    normalized: Type.Unsafe<string | null>({ type: 'string', nullable: true, description: 'For `kind: code`, the text as read, as suggest writes it (`FR-0RMB-CLY0`); null for the other kinds.' }),
    results: Type.Array(Type.Union([SearchCode, SearchCoordinates, SearchPlace]), {
      description: `Best first. Codes: the exact cell first when there is one, then up to ${SUGGESTIONS_MAX} suggestions; places: up to ${PLACES_MAX} offline places, then the geocoder’s.`,
    }),
  },
  { title: 'SearchResult', description: 'What the text was read as, and what it may name. Nothing is chosen for the visitor.' },
);
