/**
 * A data set as named in a config (`datasets:` entries) or on the command line.
 * Keys are the YAML keys, so the config schema and the loaders share one type.
 */
export const FORMATS = ['movielens-csv', 'movielens-100k', 'movielens-1m', 'movielens-10m', 'foursquare-www19', 'foursquare-tsmc', 'interactions', 'synthetic'] as const;
export type Format = (typeof FORMATS)[number];

export type Center = 'user' | 'global' | 'none';
export type Combine = 'last' | 'sum' | 'count';
/** An `interactions` column: a header name, or a 0-based index (the only way without a header). */
export type Column = string | number;
/** `delimiter: whitespace`: fields split on runs of spaces and tabs, leading and trailing ones ignored. */
export const WHITESPACE = 'whitespace';

export interface DatasetSpec {
  name: string;
  /** a registry data set (`lshdp data list`): format and paths were filled in from it */
  dataset?: string;
  format: Format;
  /** Input file (ratings / check-ins). Relative paths are resolved against the working directory. */
  path?: string;
  /** `center: user` for ratings (MovieLens, synthetic ratings), `none` for visit counts, unless set. */
  center?: Center;
  // foursquare-www19
  /** raw POI file (`venue_id lat lon category country`). */
  poi_path?: string;
  /** [lat_min, lat_max, lon_min, lon_max]; New York by default. */
  bbox?: [number, number, number, number];
  /** keep the users with the most check-ins inside the box (ties by id); the paper keeps 10,000. */
  max_users?: number;
  // interactions
  /** the field delimiter (default ","); `whitespace`: runs of spaces and tabs (LibRec, MyMediaLite) */
  delimiter?: string;
  /** false: the first line is data (no header), and user/item/value are 0-based column indices */
  header?: boolean;
  /** a column: its name in the header, or its 0-based index */
  user?: Column;
  item?: Column;
  value?: Column;
  combine?: Combine;
  // synthetic
  preset?: string;
  users?: number;
  items?: number;
  ratings?: number;
  seed?: number;
  // lenient reading: skip malformed rows, report how many and where
  skip_bad_rows?: boolean;
}

/** New York bounding box of the protocol (lat 40.4774..40.9176, lon -74.2591..-73.7004). */
export const NYC_BBOX: [number, number, number, number] = [40.4774, 40.9176, -74.2591, -73.7004];
