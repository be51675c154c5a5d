/**
 * The files that come beside a data set's interactions and are not interactions themselves (a
 * MovieLens movies.csv, a Foursquare table of places), told by their first line, and a headed table
 * whose first column never repeats (one row per item or user: metadata). `data inspect` says what
 * such a file is and where the interactions are, instead of offering to read it as interactions.
 */
import { closeSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openInput } from './lines.js';

/** The fields of a first line by the delimiter that gives the most (tab, comma, semicolon, bar). */
export function splitHeader(line: string): { delimiter: string; fields: string[] } {
  const candidates = ['\t', ',', ';', '|'].map((delimiter) => ({ delimiter, fields: line.split(delimiter).map((f) => f.trim().replace(/^"(.*)"$/, '$1')) }));
  return candidates.reduce((best, c) => (c.fields.length > best.fields.length ? c : best));
}

const LATITUDE = /^(lat|latitude)$/i;
const LONGITUDE = /^(lon|lng|long|longitude)$/i;
const inRange = (s: string | undefined, bound: number) => s !== undefined && /^-?\d+(\.\d+)?$/.test(s) && Math.abs(Number(s)) <= bound;

/** What a known companion file is, from its first line; null for any other line. */
export function companionOf(line: string): { what: string; interactions: string } | null {
  const { fields } = splitHeader(line);
  const names = fields.map((f) => f.toLowerCase());
  const is = (want: string[]) => names.length === want.length && want.every((w, i) => names[i] === w.toLowerCase());
  if (is(['movieId', 'title', 'genres'])) return { what: 'a table of titles and genres (MovieLens movies.csv)', interactions: 'ratings' };
  if (is(['movieId', 'imdbId', 'tmdbId'])) return { what: 'a table of links to IMDb and TMDB (MovieLens links.csv)', interactions: 'ratings' };
  if (names.some((n) => LATITUDE.test(n)) && names.some((n) => LONGITUDE.test(n)) && !names.some((n) => /^(user|user_?id|userid|uid)$/.test(n)))
    return { what: `a table of places and their coordinates (columns ${fields.join(', ')})`, interactions: 'check-ins' };
  // the WWW19 POI file, headerless: venue, latitude, longitude, category, country
  const tabs = line.split('\t');
  if (tabs.length === 5 && inRange(tabs[1], 90) && inRange(tabs[2], 180) && !/^-?\d+(\.\d+)?$/.test(tabs[0]!))
    return { what: 'a table of places (the Foursquare WWW19 POI file: venue, latitude, longitude, category, country; give it to --format foursquare-www19 as --poi)', interactions: 'check-ins' };
  return null;
}

/** The first lines of a file (at most `bytes` read), BOM and CR removed, blank lines dropped. */
export function headLines(path: string, bytes: number): string[] {
  const { fd } = openInput(path);
  try {
    const buf = Buffer.alloc(bytes);
    const got = readSync(fd, buf, 0, buf.length, 0);
    let text = buf.toString('utf8', 0, got);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    // the last line may be cut by the read
    if (got === bytes) lines.pop();
    return lines.filter((l) => l.trim() !== '');
  } finally {
    closeSync(fd);
  }
}

/** How many rows a table needs before "its first column never repeats" says anything. */
const MIN_ROWS = 10;

/**
 * A headed table whose first column never repeats in the first MiB (at least MIN_ROWS rows): one
 * row per value of that column, so read as interactions each user would have one item. The
 * sentence saying so, or null.
 */
export function uniqueFirstColumn(path: string): string | null {
  const [header, ...rows] = headLines(path, 1 << 20);
  if (header === undefined || rows.length < MIN_ROWS) return null;
  const { delimiter, fields } = splitHeader(header);
  const seen = new Set<string>();
  for (const row of rows) {
    const first = row.split(delimiter)[0]!.trim();
    if (seen.has(first)) return null;
    seen.add(first);
  }
  return `a table with one row per ${fields[0]} (its first column never repeats in ${rows.length} rows): metadata, not interactions`;
}

/**
 * The files beside `path` that detection reads as interactions, those of a named format first:
 * "ratings.csv" or "checkins.tsv", for "the ratings are in …". `detect` answers for a first line.
 */
export function interactionFilesBeside(path: string, detect: (line: string) => string | null): string[] {
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const found: { name: string; format: string }[] = [];
  for (const name of names.slice(0, 50)) {
    if (name === basename(path)) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      const line = headLines(file, 1 << 12)[0];
      const format = line === undefined || companionOf(line) ? null : detect(line);
      if (format) found.push({ name, format });
    } catch {
      // unreadable: not a candidate
    }
  }
  const named = found.filter((f) => f.format !== 'interactions');
  return (named.length ? named : found).map((f) => f.name);
}
