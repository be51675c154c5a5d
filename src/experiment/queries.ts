import { deriveSeed, makeRng } from '../random/rng.js';
import { sampleWithoutReplacement } from '../random/samplers.js';

/**
 * The query users of one (data set, n), shared by every mechanism, kappa and trial (protocol §3,
 * seed role `queries`): `queries` user indices drawn without replacement, sorted ascending; all
 * users when `queries` is 0 or at least the number of users.
 */
export function sampleQueries(users: number, queries: number, runSeed: number | string, dataset: string, n: number): Int32Array {
  if (!Number.isInteger(users) || users < 0) throw new RangeError(`users must be a non-negative integer, got ${users}`);
  if (!Number.isInteger(queries) || queries < 0) throw new RangeError(`queries must be a non-negative integer, got ${queries}`);
  if (queries === 0 || queries >= users) {
    const all = new Int32Array(users);
    for (let i = 0; i < users; i++) all[i] = i;
    return all;
  }
  const rng = makeRng(deriveSeed(runSeed, 'queries', dataset, n));
  return sampleWithoutReplacement(rng, users, queries);
}
