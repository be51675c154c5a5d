/** Generators shared by the fuzz tests. */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A ratings file of 6 users × 3 movies with varied ratings (every user keeps a non-zero centred vector at n = 1..3); returns its path. */
export function tinyRatings(dir: string): string {
  const path = join(dir, 'ratings.csv');
  const rows = [1, 2, 3, 4, 5, 6].flatMap((u) => [1, 2, 3].map((m) => `${u},${m},${((u * m) % 5) + 0.5 * Number(m === u % 3)},${u * 10 + m}`));
  writeFileSync(path, 'userId,movieId,rating,timestamp\n' + rows.join('\n') + '\n');
  return path;
}

const MECHANISM_ENTRIES: unknown[] = [
  'lsh',
  'lshrr',
  'laplsh',
  'rappor',
  'rappor-vector',
  { name: 'laplsh', sampler: 'direct', label: 'laplsh-direct' },
  { name: 'lshrr', accountant: 'exact', label: 'lshrr-exact' },
  { name: 'rappor', hashes: 2, label: 'rappor-h2' },
];

/** Valid configs over the ratings file `path` (see tinyRatings). */
export function validConfigOver(path: string) {
  return fc.record(
    {
      name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,12}$/),
      seed: fc.nat(1000),
      datasets: fc.constant([{ name: 'tiny', format: 'movielens-csv', path }]),
      dims: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
      queries: fc.integer({ min: 0, max: 6 }),
      k: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 2 }),
      kappa: fc.uniqueArray(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 3 }),
      trials: fc.integer({ min: 1, max: 3 }),
      privacy: fc.record(
        {
          d: fc.double({ min: 0.01, max: 0.9, noNaN: true }),
          delta: fc.double({ min: 0.001, max: 0.5, noNaN: true }),
          xi: fc.uniqueArray(fc.oneof(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 30, noNaN: true })), { minLength: 1, maxLength: 4 }),
        },
        { requiredKeys: ['xi'] },
      ),
      mechanisms: fc.subarray(MECHANISM_ENTRIES, { minLength: 1 }).chain((ms) => fc.boolean().map((withExact) => (withExact ? ['exact', ...ms] : ms))),
    },
    { requiredKeys: ['name', 'datasets', 'dims', 'k', 'kappa', 'privacy', 'mechanisms'] },
  );
}
