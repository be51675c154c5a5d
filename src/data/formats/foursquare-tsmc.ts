/** `foursquare-tsmc`: the original TSMC 2014 check-in file; visits counted. */
import { requirePath } from './shared.js';
import type { FormatUnit } from './unit.js';

export const foursquareTsmc: FormatUnit = {
  name: 'foursquare-tsmc',
  description: 'original TSMC 2014 TSV, 8 columns (userId venueId venueCategoryId venueCategory latitude longitude timezoneOffset utcTimestamp), no header; visits counted',
  keys: {},
  timed: () => true,
  inputs: ['path'],
  detect: (line) => (line.split('\t').length === 8 ? { format: 'foursquare-tsmc', why: 'eight tab-separated fields (the TSMC 2014 check-in file)' } : null),
  plan: (spec) => ({ format: 'foursquare-tsmc', files: [requirePath(spec, 'path')], center: spec.center ?? 'none', reader: { format: 'foursquare-tsmc' } }),
  read: async (plan, o) => {
    // the reader loads with the first file it reads, not with the list of formats (index.ts)
    const [{ readFoursquareTsmc }, { combineRows }] = await Promise.all([import('../foursquare.js'), import('../interactions.js')]);
    return combineRows(readFoursquareTsmc(plan.files[0]!, o), 'count');
  },
};
