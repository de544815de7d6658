/**
 * The wire shapes of the API — its resources and its error body — as TypeBox schemas: they validate
 * requests, serialise responses and generate /openapi.json, so the contract is written once. Field
 * names follow the API's published contract, snake_case included.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TYPO_KINDS } from '../../code/typos.ts';
import { SUGGESTIONS_MAX } from '../../search/suggest.ts';

/** Length limits of the free texts a client may attach to a location (docs/api.md). */
export const ADDRESS_MAX = 300;
export const LABEL_MAX = 100;

export const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'Degrees, WGS 84, -90 to 90.' });
export const Longitude = Type.Number({ minimum: -180, maximum: 180, description: 'Degrees, WGS 84, -180 to 180.' });
const Code = Type.String({ description: 'Location code `CC-XXXX-XXXX`.', examples: ['US-550M-RQ5L'] });
const Url = (description: string) => Type.String({ format: 'uri', description });

/*
 * A `title` names a model: /openapi.json lists the schema under that name in `components/schemas` and
 * refers to it (openapi-components.ts), so a generated client has a `LookupResult` type, not a
 * `LookupCode200`. Validation and serialisation ignore it. Only results are named: a request body stays
 * in its operation, where generators read a field with a `default` (`ttl`, `save`) as optional — under
 * components/schemas openapi-typescript would make it required.
 *
 * The fields of the success responses carry descriptions too: /docs lists them, so an integrator can
 * read what each endpoint returns, and a 200 is described by its schema's own description.
 */
export const Success = Type.Literal(true, { description: 'Always `true` in a success response.' });
const CountryCode = Type.String({ description: 'ISO 3166-1 alpha-2 code of the country that holds the cell centre.', examples: ['US'] });
const ShareUrl = Url('The public share page of the code.');

export const CellBounds = Type.Object(
  {
    north: Type.Number({ description: 'Northern edge, degrees latitude.' }),
    south: Type.Number({ description: 'Southern edge, degrees latitude.' }),
    east: Type.Number({ description: 'Eastern edge, degrees longitude.' }),
    west: Type.Number({ description: 'Western edge, degrees longitude.' }),
  },
  { title: 'CellBounds', description: 'Edges of the 3 m × 3 m cell, degrees.' },
);

export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false, { description: 'Always `false` in an error.' }),
    code: Type.String({ description: 'Stable error code: read it before `message`.' }),
    message: Type.String({ description: 'What went wrong, for people.' }),
    error: Type.String({ description: 'The message again, for clients that read `error`.' }),
    field: Type.Optional(Type.String({ description: 'The request field at fault, when there is one.' })),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * ISO 3166-1's officially assigned alpha-2 codes: no list of distinct countries is longer. A constant,
 * not the codec's count: reading that loads the coverage tables (about 0.3 s), and every `loc` command
 * imports these schemas.
 */
export const ISO_3166_1_CODES = 249;

/** The countries a session's visitors may choose points in (session-area.ts checks each is supported). */
const AreaCountries = Type.Array(
  Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, upper case.' }),
  {
    minItems: 1, maxItems: ISO_3166_1_CODES, uniqueItems: true, examples: [['FR', 'BE']],
    description: 'Only points whose cell is in one of these countries may be chosen: ISO 3166-1 alpha-2 codes of countries the service hands codes out in, upper case, each once.',
  },
);

/** The box a session's visitors may choose points in; session-area.ts checks what one field cannot. */
const AreaBounds = Type.Object(
  {
    south: { ...Latitude, description: 'Southern edge, degrees latitude, less than `north`.' },
    west: { ...Longitude, description: 'Western edge, degrees longitude; greater than `east` for a box that crosses the antimeridian.' },
    north: { ...Latitude, description: 'Northern edge, degrees latitude.' },
    east: { ...Longitude, description: 'Eastern edge, degrees longitude, other than `west`.' },
  },
  {
    additionalProperties: false,
    examples: [{ south: 42.3, west: -5.2, north: 51.1, east: 8.3 }],
    description: 'Only points whose cell centre is inside this box may be chosen, edges included. `west` greater than `east` is a box that crosses the antimeridian.',
  },
);

export const SessionRequest = Type.Object(
  {
    origin: Type.String({ description: 'Origin of the page that embeds the picker, exactly as `location.origin` writes it.', examples: ['https://shop.example'] }),
    ttl: Type.Optional(Type.Integer({ minimum: 60, maximum: 3600, default: 900, description: 'Lifetime in seconds.' })),
    countries: Type.Optional(AreaCountries),
    bounds: Type.Optional(AreaBounds),
  },
  { additionalProperties: false },
);

export const SessionResult = Type.Object(
  {
    success: Success,
    session_token: Type.String({ description: 'Give it to `LOC.mount` as `sessionToken`; never log it.' }),
    expires_at: Type.String({ format: 'date-time', description: 'When the session stops working: mount a new one, or renew it with `getSessionToken`.' }),
    embed_url: Url('The map frame of this session; `LOC.mount` opens it for you.'),
    countries: Type.Optional({ ...AreaCountries, description: 'The countries the session allows, as sent; absent when none were.' }),
    bounds: Type.Optional({ ...AreaBounds, description: 'The box the session allows, as sent; absent when none was.' }),
  },
  { title: 'EmbedSession', description: 'The session: a token for the page and when it expires.' },
);

/**
 * A point, or a code in its place: the embed's `select` chooses a cell by its code through the same
 * call as a click. Both ways are optional here and the route requires exactly one: as a union, the
 * schema's first refusal would name a field of the other way.
 */
export const ResolveRequest = Type.Object(
  {
    lat: Type.Optional({ ...Latitude, description: 'Degrees, WGS 84, -90 to 90. Required unless `code` is sent.' }),
    lng: Type.Optional({ ...Longitude, description: 'Degrees, WGS 84, -180 to 180. Required unless `code` is sent.' }),
    code: Type.Optional(Type.String({
      description: 'A code in place of `lat` and `lng`: its cell, as its centre would resolve. Case, spaces and hyphens are forgiven.',
      examples: ['US-550M-RQ5L'],
    })),
    save: Type.Optional(Type.Boolean({ default: false, description: 'Store the location for the calling account.' })),
  },
  { additionalProperties: false },
);

export const ResolveResult = Type.Object(
  {
    success: Success,
    loc_code: Code,
    latitude: Type.Number({ description: 'Centre of the cell, not the submitted point.' }),
    longitude: Type.Number({ description: 'Centre of the cell, not the submitted point.' }),
    address: Type.String({ description: 'Your saved address for this cell, else the computed one.' }),
    country_code: CountryCode,
    cell: CellBounds,
    saved: Type.Boolean({ description: 'True when this call stored the location (`save: true`).' }),
    share_url: ShareUrl,
  },
  { title: 'ResolveResult', description: 'The cell that holds the point: its code, centre, bounds and address.' },
);
export type ResolveResult = Static<typeof ResolveResult>;

export const GenerateRequest = Type.Object(
  {
    latitude: Latitude,
    longitude: Longitude,
    address: Type.Optional(Type.String({ maxLength: ADDRESS_MAX, description: `Your address text, up to ${ADDRESS_MAX} characters.` })),
    label: Type.Optional(Type.String({ maxLength: LABEL_MAX, description: `A short name, up to ${LABEL_MAX} characters.` })),
  },
  { additionalProperties: false },
);

export const GenerateResult = Type.Object(
  {
    success: Success,
    loc_code: Code,
    is_existing: Type.Boolean({ description: 'True when this account had already saved the cell; the stored location is returned.' }),
    share_url: ShareUrl,
    latitude: Type.Number({ description: 'Centre of the cell, not the submitted point.' }),
    longitude: Type.Number({ description: 'Centre of the cell, not the submitted point.' }),
    address: Type.String({ description: 'The address saved with the location, or the computed one when none was.' }),
    label: Type.Union([Type.String(), Type.Null()], { description: 'The label saved with the location, else null.' }),
    country_code: CountryCode,
  },
  { title: 'GenerateResult', description: 'The saved location of the cell: the one just created, or with `is_existing` the one stored before.' },
);

export const LookupParams = Type.Object({
  code: Type.String({ description: 'The code, URL-encoded; case, spaces and hyphens are forgiven.', examples: ['US-550M-RQ5L'] }),
});

export const MapLinks = Type.Object(
  {
    google: Url('Google Maps.'),
    apple: Url('Apple Maps.'),
    openstreetmap: Url('OpenStreetMap.'),
    geo: Type.String({ description: 'RFC 5870 `geo:` URI, for the device’s own map app.' }),
  },
  { title: 'MapLinks', description: 'Links that open the cell centre in map apps.' },
);

export const LookupResult = Type.Object(
  {
    success: Success,
    loc_code: Code,
    location: Type.Object(
      {
        latitude: Type.Number({ description: 'Centre of the cell.' }),
        longitude: Type.Number({ description: 'Centre of the cell.' }),
        address: Type.String({ description: 'Your saved address for this code, else the computed one.' }),
        label: Type.Union([Type.String(), Type.Null()], { description: 'Your saved label, else null.' }),
        country_code: CountryCode,
        country_flag: Type.String({ description: 'The flag emoji of `country_code`.', examples: ['🇺🇸'] }),
      },
      { title: 'LookupLocation', description: 'The place: the cell centre, and your saved address and label.' },
    ),
    cell: CellBounds,
    maps: MapLinks,
    share_url: ShareUrl,
  },
  { title: 'LookupResult', description: 'The cell of the code, your saved text for it, and links to open it.' },
);

export const Health = Type.Object(
  {
    success: Success,
    status: Type.Literal('ok', { description: 'Always `ok`: a failing service answers 503.' }),
    version: Type.String({ description: 'The version of the running service.' }),
  },
  { title: 'Health', description: 'The service and its database work.' },
);

export const Liveness = Type.Object(
  {
    success: Success,
    status: Type.Literal('ok', { description: 'Always `ok`: a process that cannot answer is not live.' }),
  },
  { title: 'Liveness', description: 'The process answers; nothing it depends on is asked.' },
);

export const Readiness = Type.Object(
  {
    success: Success,
    status: Type.Literal('ready', { description: 'Always `ready`: a service that is not answers 503, its message naming each check that failed.' }),
  },
  { title: 'Readiness', description: 'The service should get traffic: tables and address index loaded, database and counters answering, not shutting down, not overloaded.' },
);

export const SuggestQuery = Type.Object(
  {
    input: Type.String({
      maxLength: 64,
      description: 'The code as the visitor typed or pasted it. Case, hyphens, dashes and spaces anywhere and fullwidth characters are forgiven.',
      examples: ['fr-0rmb-cly0'],
    }),
    focus: Type.Optional(Type.String({
      maxLength: 64,
      description: 'Where the visitor is looking, `lat,lng` in decimal degrees (the map’s centre): variants are ranked by distance from it, and an existing code far from it is doubted.',
      examples: ['48.8584,2.2945'],
    })),
    countries: Type.Optional(Type.String({
      maxLength: 1024,
      description: 'ISO 3166-1 alpha-2 codes separated by commas: only codes of these countries are suggested.',
      examples: ['FR,DE'],
    })),
  },
  { additionalProperties: false },
);

export const suggestedFields = {
  loc_code: Code,
  latitude: Type.Number({ description: 'Centre of the cell.' }),
  longitude: Type.Number({ description: 'Centre of the cell.' }),
  country_code: CountryCode,
  distance_m: Type.Optional(Type.Integer({ minimum: 0, description: 'From `focus` to the cell centre, whole metres; only when `focus` was sent.' })),
};
const SuggestedCellFields = Type.Object(suggestedFields);

/**
 * Null in OpenAPI 3.0 is `nullable` on the schema itself: a union with Type.Null() would be written
 * as `anyOf`, which client generators read as `unknown`.
 */
const SuggestedCell = Type.Unsafe<Static<typeof SuggestedCellFields> | null>({
  ...SuggestedCellFields,
  nullable: true,
  title: 'SuggestedCell',
  description: 'The cell the input names as typed, without its address; null when it names none.',
});

export const Suggestion = Type.Object(
  {
    ...suggestedFields,
    reason: Type.Union(
      TYPO_KINDS.map((kind) => Type.Literal(kind)),
      { description: 'The slip that would turn this code into the input: a look-alike character (0/O, 1/I/L, 5/S …), two neighbours swapped, one character too many, one missing.' },
    ),
  },
  { title: 'Suggestion', description: 'A code the visitor may have meant.' },
);

export const SuggestResult = Type.Object(
  {
    success: Success,
    normalized: Type.String({ description: 'The input as read: `CC-XXXX-XXXX` when it has the ten characters of a code, else its letters and digits.', examples: ['FR-0RMB-CLY0'] }),
    exact: SuggestedCell,
    suggestions: Type.Array(Suggestion, { description: `Codes the visitor may have meant, best first, at most ${SUGGESTIONS_MAX}; empty when the input is taken as typed.` }),
  },
  { title: 'SuggestResult', description: 'The cell a typed code names, when it names one, and the existing codes one slip away from it. Nothing is chosen for the visitor.' },
);

