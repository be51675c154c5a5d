import { fileError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import { NYC_BBOX } from './spec.js';
import { RawRows } from './interactions.js';
import { StringInterner, orderIds } from './interning.js';
import { badRowError, fieldText, parseDecimal, parseDecimalBytes, scanLines } from './lines.js';
import { splitFields } from './movielens.js';
import { parseFoursquareTime } from './times.js';

/**
 * Foursquare readers. Lines are split on tabs at the byte level; ids are decoded as latin1 (one
 * char per byte: never fails on the invalid UTF-8 of the raw files, and identical in both files).
 * Only rows that are kept cost memory, so the 90-million-line WWW'19 check-in file streams.
 */
const TAB = [9];

function latin1(buf: Buffer, s: number, e: number): string {
  return buf.toString('latin1', s, e);
}

function decimalField(path: string, buf: Buffer, s: number, e: number, line: number, column: string): number {
  let v = parseDecimalBytes(buf, s, e);
  if (Number.isNaN(v)) {
    const t = buf.toString('utf8', s, e).trim();
    v = parseDecimal(t);
    if (!Number.isFinite(v)) throw fileError(path, line, `${column} "${fieldText(buf, s, e)}" is not a number (column ${column})`);
  }
  return v;
}

/** A UTC time field ("Tue Apr 03 18:00:09 +0000 2012") as epoch seconds, or an error naming the column. */
function timeField(path: string, buf: Buffer, s: number, e: number, line: number, column: string): number {
  const t = parseFoursquareTime(buf.toString('latin1', s, e));
  if (Number.isNaN(t)) throw fileError(path, line, `${column} "${fieldText(buf, s, e)}" is not a UTC time like "Tue Apr 03 18:00:09 +0000 2012" (column ${column})`);
  return t;
}

export interface Www19Options {
  poiPath: string;
  bbox?: [number, number, number, number];
  maxUsers?: number;
  skipBadRows?: boolean;
  progress?: Progress;
  /** keep each check-in's UTC time (epoch seconds); parsed only then */
  times?: boolean;
}

/** Venue ids of the POI file inside the box (lat_min, lat_max, lon_min, lon_max; inclusive). */
export function readPoisInBox(path: string, bbox: [number, number, number, number], opts: { skipBadRows?: boolean; progress?: Progress } = {}): { inBox: Set<string>; pois: number; skipped: number } {
  const [latMin, latMax, lonMin, lonMax] = bbox;
  const inBox = new Set<string>();
  const bounds = new Int32Array(12);
  let pois = 0;
  let skipped = 0;
  scanLines(
    path,
    (buf, start, end, line) => {
      try {
        const nf = splitFields(buf, start, end, TAB, bounds, 5);
        if (nf < 3) throw fileError(path, line, `expected 5 tab-separated fields (venue_id lat lon category country), found ${nf}`);
        const lat = decimalField(path, buf, bounds[2]!, bounds[3]!, line, 'lat');
        const lon = decimalField(path, buf, bounds[4]!, bounds[5]!, line, 'lon');
        pois++;
        if (lat >= latMin && lat <= latMax && lon >= lonMin && lon <= lonMax) inBox.add(latin1(buf, bounds[0]!, bounds[1]!));
      } catch (e) {
        if (!opts.skipBadRows) throw badRowError(e);
        skipped++;
      }
    },
    opts.progress,
  );
  if (pois === 0 && skipped === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  return { inBox, pois, skipped };
}

/**
 * Foursquare WWW'19 raw files: POIs inside the box, then check-ins at those POIs, then (max_users)
 * the users with the most such check-ins, ties by smaller id. Returns the raw rows and a user mask.
 */
export function readFoursquareWww19(path: string, opts: Www19Options): { rows: RawRows; keepUser?: Uint8Array; poisInBox: number } {
  const { inBox } = readPoisInBox(opts.poiPath, opts.bbox ?? NYC_BBOX, opts);
  const venues = new StringInterner();
  // intern venue ids once so the per-row Set lookup also gives the dense index
  for (const v of inBox) venues.intern(v);
  const rows = new RawRows(new StringInterner(), venues, opts.times);
  const users = rows.users as StringInterner;
  const bounds = new Int32Array(10);
  let lines = 0;
  scanLines(
    path,
    (buf, start, end, line) => {
      lines++;
      try {
        const nf = splitFields(buf, start, end, TAB, bounds, 4);
        if (nf !== 4) throw fileError(path, line, `expected 4 tab-separated fields (user_id venue_id utc_time tz_offset), found ${nf}`);
        if (bounds[1] === bounds[0]) throw fileError(path, line, 'empty user_id');
        const venue = venues.get(latin1(buf, bounds[2]!, bounds[3]!));
        rows.rowsRead++;
        if (venue === undefined) return;
        const time = opts.times ? timeField(path, buf, bounds[4]!, bounds[5]!, line, 'utc_time') : Number.NaN;
        rows.add(users.intern(latin1(buf, bounds[0]!, bounds[1]!)), venue, 1, time);
      } catch (e) {
        if (!opts.skipBadRows) throw badRowError(e);
        rows.skip(line);
      }
    },
    opts.progress,
  );
  if (lines === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  let keepUser: Uint8Array | undefined;
  if (opts.maxUsers !== undefined && opts.maxUsers < users.size) {
    const counts = new Int32Array(users.size);
    const u = rows.user.view();
    for (let r = 0; r < u.length; r++) counts[u[r]!]!++;
    const { rank } = orderIds(users);
    const byActivity = Array.from({ length: users.size }, (_, i) => i);
    byActivity.sort((a, b) => counts[b]! - counts[a]! || rank[a]! - rank[b]!);
    keepUser = new Uint8Array(users.size);
    for (let k = 0; k < opts.maxUsers; k++) keepUser[byActivity[k]!] = 1;
  }
  return { rows, keepUser, poisInBox: inBox.size };
}

/**
 * Foursquare TSMC 2014 original 8-column TSV (no header): visit counts per (userId, venueId);
 * `times`: also each check-in's utcTimestamp (epoch seconds), parsed only then.
 */
export function readFoursquareTsmc(path: string, opts: { skipBadRows?: boolean; progress?: Progress; times?: boolean } = {}): RawRows {
  const rows = new RawRows(new StringInterner(), new StringInterner(), opts.times);
  const users = rows.users as StringInterner;
  const items = rows.items as StringInterner;
  const bounds = new Int32Array(20);
  let first = true;
  scanLines(
    path,
    (buf, start, end, line) => {
      // a first line of 2..7 column names: a headed check-in table (the shared TSMC subset has 3), not this format
      const header = first ? buf.toString('latin1', start, end).split('\t') : [];
      first = false;
      const columns = header.length;
      if (columns >= 2 && columns < 8 && header.every((h) => /^[A-Za-z][A-Za-z_ ]*$/.test(h))) {
        throw fileError(
          path,
          line,
          `expected 8 tab-separated fields (the original TSMC 2014 file), found ${columns}: a ${columns}-column check-in table with a header is read with format interactions (user:, item: columns), as configs/shared-tsmc.yaml does`,
        );
      }
      try {
        const nf = splitFields(buf, start, end, TAB, bounds, 8);
        if (nf !== 8) throw fileError(path, line, `expected 8 tab-separated fields (userId venueId venueCategoryId venueCategory latitude longitude timezoneOffset utcTimestamp), found ${nf}`);
        if (bounds[1] === bounds[0] || bounds[3] === bounds[2]) throw fileError(path, line, 'empty userId or venueId');
        const time = opts.times ? timeField(path, buf, bounds[14]!, bounds[15]!, line, 'utcTimestamp') : Number.NaN;
        rows.add(users.intern(latin1(buf, bounds[0]!, bounds[1]!)), items.intern(latin1(buf, bounds[2]!, bounds[3]!)), 1, time);
        rows.rowsRead++;
      } catch (e) {
        if (!opts.skipBadRows) throw badRowError(e);
        rows.skip(line);
      }
    },
    opts.progress,
  );
  if (rows.rowsRead === 0 && rows.rowsSkipped === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  return rows;
}
