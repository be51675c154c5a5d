/**
 * A data set as named in a config (`datasets:` entries) or on the command line.
 * Keys are the YAML keys, so the config schema and the loaders share one type.
 */

/** A data format's name: one of the units of src/data/formats (formats/index.ts lists them). */
export type Format = string;

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
  // each format's own keys are declared on its unit (src/data/formats: the schema, and their
  // types added to this interface), e.g. foursquare-www19's poi_path, bbox, max_users
  // lenient reading: skip malformed rows, report how many and where
  skip_bad_rows?: boolean;
}

/** New York bounding box of the protocol (lat 40.4774..40.9176, lon -74.2591..-73.7004). */
export const NYC_BBOX: [number, number, number, number] = [40.4774, 40.9176, -74.2591, -73.7004];
