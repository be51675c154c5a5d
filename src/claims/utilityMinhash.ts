/**
 * lshdp's own utility claims on the Jaccard family (issue 42): LSHRR (1-bit MinHash, then per-bit
 * randomized response) against bucket MinHash (each MinHash's item in one of b public buckets,
 * then b-ary randomized response; Aumüller, Bourgeat, Schmurr, SISAP 2020), at equal ξ and equal
 * accountant. At b = 2 the two releases have the same law (a fair public bit of the argmin item,
 * flipped with the same probability at the same ε'), so there the claim is an equivalence, not a
 * contest. Entries are picked by role, and b is read from each entry's options through its unit.
 */
import { isLshrr, optionOf, playingRole, type Series } from './grid.js';
import type { ClaimDefinition, DatasetContext } from './family.js';
import { comparison, type Pair } from './utilityComparison.js';
import { DEFAULT_ACCOUNTANT } from '../privacy/accountantNames.js';

/** Equivalence margin of `minhash-bucket-2-matches-lshrr`, in utility loss (absolute). */
export const BUCKET_TWO_MARGIN = 0.01;

/** Bucket MinHash entries (role `bucket-minhash`). */
const isBucketMinhash = playingRole('bucket-minhash');

/** The number of buckets b of a bucket MinHash series: its entry's `buckets` option, else its unit's default. */
export function bucketsOf(ctx: Pick<DatasetContext, 'config'>, s: Series): number {
  return Number(optionOf(ctx.config, s, 'buckets'));
}

/** Both sides of one cell: the same n, κ, k, ξ and accountant (an entry without one is its mechanism's default, the paper's). */
const cellAndAccountant = (s: Series) => JSON.stringify([s.n, s.kappa, s.k, s.xi, s.accountant ?? DEFAULT_ACCOUNTANT]);

/** "n=… κ=… k=… ξ=… [lshrr vs minhash-bucket-16]": the entries always, since b differs between them. */
const named = (p: Pair) => `n=${p.a.n} κ=${p.a.kappa} k=${p.a.k} ξ=${p.a.xi} [${p.a.mechanism} vs ${p.b.mechanism}]`;

/**
 * LSHRR below bucket MinHash with b > 2 buckets, cell by cell (n, κ, k, ξ > 0, accountant), a
 * one-sided paired t-test over trials per cell (both release the trial's MinHash: the same ranks),
 * Holm over the cells in each direction.
 */
export const lshrrBeatsMinhashBucket: ClaimDefinition = {
  id: 'lshrr-beats-minhash-bucket',
  statement:
    "lshdp's own, Jaccard: at equal ξ > 0 and the same accountant, LSHRR on 1-bit MinHash has lower utility loss than bucket MinHash (Aumüller, Bourgeat & Schmurr, SISAP 2020) with b > 2 buckets, at every n, κ and k. More buckets make a position more informative but its randomized response noisier at the same ε', and the accountants see a larger disagreement d(1 − 1/b).",
  evaluation: 'utility',
  angular: false,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrr);
    const bucket = ctx.series.filter(isBucketMinhash);
    const many = bucket.filter((s) => bucketsOf(ctx, s) > 2);
    return comparison(ctx, {
      needs: [
        [rr.length > 0, 'an lshrr entry'],
        [many.length > 0, 'a minhash-bucket entry with more than 2 buckets'],
      ],
      a: rr.filter((s) => s.xi !== null && s.xi > 0),
      b: many,
      key: cellAndAccountant,
      paired: true,
      where: named,
      words: { forWord: 'LSHRR lower', againstWord: 'higher', tests: 'one-sided paired t-tests over trials' },
      whenEmpty: 'needs lshrr and minhash-bucket (b > 2) with the same accountant at the same n, κ, k and ξ > 0',
    });
  },
};

/**
 * Bucket MinHash with b = 2 equivalent to LSHRR, cell by cell (n, κ, k, ξ, accountant): each
 * cell's TOST (two one-sided paired t-tests, margin ±BUCKET_TWO_MARGIN), intersection–union over
 * the cells (no correction), against: beyond the margin, Holm.
 */
export const bucketTwoMatchesLshrr: ClaimDefinition = {
  id: 'minhash-bucket-2-matches-lshrr',
  statement: `lshdp's own, Jaccard: bucket MinHash with b = 2 is LSHRR on 1-bit MinHash (a fair public bit of the argmin item, flipped with the same probability at the same ε'): with the same accountant its utility loss is within ±${BUCKET_TWO_MARGIN} of LSHRR's at every n, κ, k and ξ.`,
  evaluation: 'utility',
  angular: false,
  evaluate(ctx) {
    const rr = ctx.series.filter(isLshrr);
    const two = ctx.series.filter((s) => isBucketMinhash(s) && bucketsOf(ctx, s) === 2);
    return comparison(ctx, {
      needs: [
        [rr.length > 0, 'an lshrr entry'],
        [two.length > 0, 'a minhash-bucket entry with 2 buckets'],
      ],
      a: two,
      b: rr,
      key: cellAndAccountant,
      paired: true,
      margin: () => BUCKET_TWO_MARGIN,
      where: named,
      words: { forWord: `within ±${BUCKET_TWO_MARGIN} of LSHRR`, againstWord: 'beyond the margin', tests: `TOST with paired t-tests over trials, margin ±${BUCKET_TWO_MARGIN} loss` },
      whenEmpty: 'needs lshrr and minhash-bucket (b = 2) with the same accountant at the same n, κ, k and ξ',
    });
  },
};
