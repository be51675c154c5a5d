/**
 * `foursquare-www19`: the WWW'19 global check-ins with their POI table; the check-ins at POIs
 * inside a bounding box (New York by default) are counted per (user, venue), optionally keeping
 * the users with the most check-ins (the paper keeps 10,000).
 */
import { UserError } from '../../util/errors.js';
import { NYC_BBOX } from '../spec.js';
import { DEC, finite, posInt, requirePath } from './shared.js';
import type { FormatUnit } from './unit.js';

type Bbox = [number, number, number, number];

declare module '../spec.js' {
  interface DatasetSpec {
    /** raw POI file (`venue_id lat lon category country`). */
    poi_path?: string;
    /** [lat_min, lat_max, lon_min, lon_max]; New York by default. */
    bbox?: Bbox;
    /** keep the users with the most check-ins inside the box (ties by id); the paper keeps 10,000. */
    max_users?: number;
  }
}
declare module './unit.js' {
  interface InputKeys {
    poi_path: true;
  }
}

export const foursquareWww19: FormatUnit = {
  name: 'foursquare-www19',
  description: 'raw_Checkins_anonymized.txt (user_id venue_id utc_time tz_offset) + poi_path raw_POIs.txt (venue_id lat lon category country), tab, no header; visits inside bbox counted; max_users',
  keys: {
    /** the raw POI file (`venue_id lat lon category country`) */
    poi_path: (z) => z.string().min(1).optional(),
    /** [lat_min, lat_max, lon_min, lon_max]; New York by default */
    bbox: (z) => z.tuple([finite(z), finite(z), finite(z), finite(z)]).optional(),
    /** keep the users with the most check-ins inside the box (ties by id) */
    max_users: (z) => posInt(z).optional(),
  },
  timed: () => true,
  inputs: ['path', 'poi_path'],
  flags: [
    { flag: '--poi <file>', key: 'poi_path', help: 'the raw POI file' },
    { flag: '--max-users <n>', key: 'max_users', help: 'keep the users with the most check-ins in the box', parse: 'positive-integer' },
  ],
  // u.data also has four tab-separated fields: only with --poi is it this format
  detect: (line, given) => (line.split('\t').length === 4 && given.poi ? { format: 'foursquare-www19', why: 'four tab-separated fields and --poi (the WWW19 check-in file)' } : null),
  // (a line of four names is a table's header: the interactions unit says which columns it needs)
  undetected: (line, ask) => {
    const tab = line.split('\t');
    if (tab.length !== 4 || tab.every((h) => h.trim() !== '' && !DEC.test(h.trim()))) return null;
    return `four tab-separated fields: if this is a Foursquare WWW19 check-in file, give --format foursquare-www19 --poi POI_FILE; otherwise ${ask}`;
  },
  check: (d, at) => (d.bbox && (d.bbox[0] >= d.bbox[1] || d.bbox[2] >= d.bbox[3]) ? [`${at}.bbox: must be [lat_min, lat_max, lon_min, lon_max] with min < max`] : []),
  fromFlags: (spec, o) => {
    if (o.poi) spec.poi_path = o.poi as string;
    if (o.maxUsers !== undefined) spec.max_users = o.maxUsers as number;
  },
  plan: (spec) => {
    const files = [requirePath(spec, 'path'), requirePath(spec, 'poi_path')];
    const bbox = spec.bbox ?? NYC_BBOX;
    if (!Array.isArray(bbox) || bbox.length !== 4 || bbox.some((x) => typeof x !== 'number' || !Number.isFinite(x)) || bbox[0] > bbox[1] || bbox[2] > bbox[3])
      throw new UserError(`dataset ${spec.name}: bbox must be [lat_min, lat_max, lon_min, lon_max], got ${JSON.stringify(bbox)}`);
    if (spec.max_users !== undefined && (!Number.isInteger(spec.max_users) || spec.max_users < 1))
      throw new UserError(`dataset ${spec.name}: max_users must be a positive integer, got ${spec.max_users}`);
    return { format: 'foursquare-www19', files, center: spec.center ?? 'none', reader: { format: 'foursquare-www19', bbox, max_users: spec.max_users ?? null } };
  },
  read: async (plan, o) => {
    const r = plan.reader as { bbox: Bbox; max_users: number | null };
    // the reader loads with the first file it reads, not with the list of formats (index.ts)
    const [{ readFoursquareWww19 }, { combineRows }] = await Promise.all([import('../foursquare.js'), import('../interactions.js')]);
    const { rows, keepUser } = readFoursquareWww19(plan.files[0]!, { ...o, poiPath: plan.files[1]!, bbox: r.bbox, maxUsers: r.max_users ?? undefined });
    const inter = combineRows(rows, 'count', keepUser);
    if (inter.userIds.length === 0) throw new UserError(`${plan.files[0]}: no check-ins at POIs inside the bounding box ${JSON.stringify(r.bbox)}`);
    return inter;
  },
};
