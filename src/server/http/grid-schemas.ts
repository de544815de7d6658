/**
 * The wire shapes of `GET /v1/loc/grid`: its query and its answer, a GeoJSON FeatureCollection
 * (RFC 7946) of cells or of grid lines. One model for both kinds, as the two differ only in their
 * geometry's type and their properties: a generated client gets one type, and a GeoJSON library reads
 * either.
 */
import { Type } from '@sinclair/typebox';
import { GRID_CELLS_MAX, GRID_DIAGONAL_MAX_M } from '../../cells/grid-geojson.ts';
import { Success } from './schemas.ts';

export const GridQuery = Type.Object(
  {
    bbox: Type.String({
      maxLength: 128,
      description:
        'The box, `west,south,east,north` in decimal degrees (GeoJSON’s and OGC’s order), south below north; west greater than east is a box ' +
        `across the antimeridian. At most ${GRID_CELLS_MAX} cells for \`kind=cells\`, at most ${GRID_DIAGONAL_MAX_M} m corner to corner for \`kind=lines\`.`,
      examples: ['2.29445,48.85836,2.29455,48.85842'],
    }),
    kind: Type.Optional(Type.Union([Type.Literal('lines'), Type.Literal('cells')], {
      default: 'lines',
      description: '`lines` (the default): the row and column edges inside the box. `cells`: every cell the box overlaps, a polygon each, with its code.',
    })),
  },
  { additionalProperties: false },
);

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '`[longitude, latitude]`, degrees.' });

const GridGeometry = Type.Object(
  {
    type: Type.Union([Type.Literal('Polygon'), Type.Literal('MultiLineString')], { description: '`Polygon` for a cell, `MultiLineString` for grid lines.' }),
    coordinates: Type.Array(Type.Array(Position), {
      description:
        'A cell: one ring of five positions, counter-clockwise from its south-west corner and closed, its edges exactly the cell’s `cell` bounds. ' +
        'Lines: each a pair of positions; a row edge across the antimeridian is cut in two there.',
    }),
  },
  { title: 'GridGeometry', description: 'The feature’s GeoJSON geometry, its coordinates unrounded: a cell’s outline, or lines.' },
);

const nullableString = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: 'string', nullable: true, description }));

const GridProperties = Type.Object(
  {
    loc_code: nullableString('Cells: the cell’s code, `CC-XXXX-XXXX`; null where no code is handed out (open sea, or a country this service does not serve).'),
    country_code: nullableString('Cells: ISO 3166-1 alpha-2 code of the country of the cell’s code; null with `loc_code`.'),
    edges: Type.Optional(Type.Union([Type.Literal('rows'), Type.Literal('columns')], {
      description: 'Lines: `rows`, the row edges, each across the box; `columns`, the column edges of one band (columns change width at band edges).',
    })),
    band: Type.Optional(Type.Integer({ minimum: 0, description: 'Column edges: the band (row of blocks, 0 southernmost) they belong to.' })),
    columns: Type.Optional(Type.Integer({ minimum: 1, description: 'Column edges: how many columns that band has, each 360° / `columns` wide.' })),
  },
  { title: 'GridProperties', description: 'What the feature is. Cells: `loc_code` and `country_code`. Lines: `edges`, and for column edges `band` and `columns`.' },
);

const GridFeature = Type.Object(
  {
    type: Type.Literal('Feature', { description: 'Always `Feature`.' }),
    geometry: GridGeometry,
    properties: GridProperties,
  },
  { title: 'GridFeature', description: 'A cell, or a set of grid lines.' },
);

export const GridResult = Type.Object(
  {
    success: Success,
    kind: Type.Union([Type.Literal('lines'), Type.Literal('cells')], { description: 'What the features are: as asked.' }),
    type: Type.Literal('FeatureCollection', { description: 'Always `FeatureCollection`.' }),
    bbox: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'The box as read, `[west, south, east, north]`.' }),
    features: Type.Array(GridFeature, {
      description: 'Cells: south to north, then west to east along the box. Lines: the row edges first, then the column edges of each band the box crosses, south to north.',
    }),
  },
  { title: 'GridResult', description: 'The grid inside the box, a GeoJSON FeatureCollection (RFC 7946); `success` and `kind` are foreign members.' },
);
