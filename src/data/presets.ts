/** The synthetic presets (`lshdp synth --preset`, `format: synthetic`): a module of their own, so the CLI lists them without loading the generator. */
/** `checkin-table`: (user, venue) pairs of a check-in table written as TSMC 2014 (src/data/checkinTable.ts); `ratings` counts the pairs */
export type SynthKind = 'ratings' | 'checkins' | 'checkin-table';

export interface Preset {
  kind: SynthKind;
  users: number;
  items: number;
  ratings: number;
  /** minimum ratings / check-ins per user */
  minPerUser: number;
  description: string;
}

export const PRESETS: Record<string, Preset> = {
  small: { kind: 'ratings', users: 1000, items: 2000, ratings: 60000, minPerUser: 20, description: 'small MovieLens-like ratings (tests, quickstart)' },
  'movielens-25m': { kind: 'ratings', users: 162541, items: 59047, ratings: 25000095, minPerUser: 20, description: 'shaped like MovieLens 25M' },
  'foursquare-nyc': { kind: 'checkins', users: 10000, items: 100000, ratings: 800000, minPerUser: 1, description: 'shaped like the Foursquare WWW19 New York subset' },
  'checkins-nyc': {
    kind: 'checkin-table',
    users: 3785,
    items: 3650,
    ratings: 48840,
    minPerUser: 1,
    description: 'a New York Foursquare check-in table: few venues a user, heavy-tailed visits, many duplicates after the top-n cut (docs/DATA.md)',
  },
  'foursquare-small': { kind: 'checkins', users: 500, items: 3000, ratings: 20000, minPerUser: 1, description: 'small Foursquare-like check-ins (tests)' },
};

/** The generator's options, resolved (src/data/synth.ts resolveSynthOptions). */
export interface SynthOptions {
  preset: string;
  users: number;
  items: number;
  /** ratings, or check-ins for the check-in presets */
  ratings: number;
  seed: number;
}

/** One generated file. */
export interface SynthFile {
  name: string;
  path: string;
  bytes: number;
  lines: number;
}
