/**
 * The four MovieLens layouts share one reader (src/data/movielens.ts): a rating per line, the last
 * row of a repeated (user, movie) wins, and ratings are centred per user unless the entry says
 * otherwise. Each layout is its own unit (movielens-csv.ts, movielens-100k.ts, …).
 */
import type { MovieLensFormat } from '../movielens.js';
import { requirePath } from './shared.js';
import type { FormatUnit } from './unit.js';

/** A MovieLens unit: its name, its line for `lshdp formats` and how its first line looks. */
export function movieLensUnit(name: MovieLensFormat, description: string, detect?: FormatUnit['detect']): FormatUnit {
  return {
    name,
    description,
    keys: {},
    inputs: ['path'],
    ...(detect ? { detect } : {}),
    timed: () => true,
    plan: (spec) => ({ format: name, files: [requirePath(spec, 'path')], center: spec.center ?? 'user', reader: { format: name } }),
    read: async (plan, o) => {
      // the reader loads with the first file it reads, not with the list of formats (index.ts)
      const [{ readMovieLens }, { combineRows }] = await Promise.all([import('../movielens.js'), import('../interactions.js')]);
      return combineRows(readMovieLens(plan.files[0]!, name, o), 'last');
    },
  };
}
