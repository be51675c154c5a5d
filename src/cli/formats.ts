import type { Command } from 'commander';
import { FORMATS, type Format } from '../data/spec.js';
import { PRESETS } from '../data/presets.js';
import { cliIo } from './io.js';

/** What each data format reads (docs/DATA.md, "Formats"): files, layout, how repeats combine. */
export const FORMAT_LINES: Readonly<Record<Format, string>> = {
  'movielens-csv': 'ratings.csv: header userId,movieId,rating,timestamp, comma-separated; repeated (user, movie): last row wins',
  'movielens-100k': 'u.data: user item rating timestamp, tab-separated, no header; last row wins',
  'movielens-1m': "ratings.dat: UserID::MovieID::Rating::Timestamp, '::'-separated, no header; last row wins",
  'movielens-10m': "ratings.dat: as movielens-1m ('::'-separated, no header); last row wins",
  'foursquare-www19':
    'raw_Checkins_anonymized.txt (user_id venue_id utc_time tz_offset) + poi_path raw_POIs.txt (venue_id lat lon category country), tab, no header; visits inside bbox counted; max_users',
  'foursquare-tsmc': 'original TSMC 2014 TSV, 8 columns (userId venueId venueCategoryId venueCategory latitude longitude timezoneOffset utcTimestamp), no header; visits counted',
  interactions:
    'any CSV/TSV, with a header (columns by name) or header: false (columns by 0-based index): user, item, optional value, delimiter (default ","; whitespace for runs of spaces and tabs), combine last|sum|count',
  synthetic: `generated data, no file: preset (${Object.keys(PRESETS).join(', ')}), optional users, items, ratings, seed`,
};

export function registerFormats(program: Command): void {
  program
    .command('formats')
    .description('list the data formats a config or data inspect can read, one line each')
    .option('--json', 'print a JSON array')
    .action((o: { json?: boolean }) => {
      if (o.json) {
        cliIo().out(
          JSON.stringify(
            FORMATS.map((f) => ({ format: f, reads: FORMAT_LINES[f] })),
            null,
            2,
          ) + '\n',
        );
        return;
      }
      const width = Math.max(...FORMATS.map((f) => f.length));
      cliIo().out(FORMATS.map((f) => `${f.padEnd(width)}  ${FORMAT_LINES[f]}\n`).join(''));
    });
}
