/**
 * The private MinHash claims (src/claims/utilityMinhash.ts) on constructed per-trial values whose
 * answer is known: which entries they pair (by role, by b read from the entry's options or its
 * unit's default, by accountant), the verdicts each way, what they need, and how often the
 * directional claim reads supported or contradicted on null data (at most α each by Holm).
 */
import { describe, expect, it } from 'vitest';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import type { ClaimResult } from '../../src/claims/types.js';
import { BUCKET_TWO_MARGIN } from '../../src/claims/utilityMinhash.js';
import { inputOf, type EntrySpec, type GridSpec } from '../helpers/claims.js';

const BEATS = 'lshrr-beats-minhash-bucket';
const MATCHES = 'minhash-bucket-2-matches-lshrr';

const GRID: Omit<GridSpec, 'entries'> = { dims: [100, 500], kappa: [10, 20], k: [1, 5], xi: [0, 2, 20], trials: 10 };

const lshrr = (level: EntrySpec['level'], accountant = 'paper'): EntrySpec => ({ label: accountant === 'paper' ? 'lshrr' : `lshrr-${accountant}`, base: 'lshrr', accountant, level });
const bucket = (label: string, level: EntrySpec['level'], accountant = 'paper', noise?: number): EntrySpec => ({ label, base: 'minhash-bucket', accountant, level, noise });

/** The claim `id` of one run of the claims, with the entries' options given by label. */
function claim(id: string, entries: EntrySpec[], options: Record<string, Record<string, unknown>> | undefined, seed?: string): ClaimResult {
  const results = evaluateClaims(inputOf({ ...GRID, entries, ...(seed ? { seed } : {}) }, { config: { metric: { synth: 'jaccard' }, ...(options ? { options } : {}) } }));
  return results.find((r) => r.id === id)!;
}

/** A grid's cells with ξ > 0 (2 n × 2 κ × 2 k × 2 ξ) and with every ξ (× 3). */
const CELLS_POSITIVE = 16;
const CELLS_ALL = 24;

describe(BEATS, () => {
  it('pairs LSHRR with bucket entries of b > 2 only, at ξ > 0, and reads supported / contradicted each way', () => {
    const options = { lshrr: { accountant: 'paper' }, mb16: { buckets: 16, accountant: 'paper' }, mb2: { buckets: 2, accountant: 'paper' } };
    const worse = claim(BEATS, [lshrr(() => 0.1), bucket('mb16', () => 0.12), bucket('mb2', () => 0.1)], options);
    expect(worse.verdict).toBe('supported');
    expect(worse.cells_tested).toBe(CELLS_POSITIVE);
    expect(worse.cells_for).toBe(CELLS_POSITIVE);
    expect(worse.detail).toContain('one-sided paired t-tests');
    const better = claim(BEATS, [lshrr(() => 0.1), bucket('mb16', () => 0.08), bucket('mb2', () => 0.1)], options);
    expect(better.verdict).toBe('contradicted');
    expect(better.cells_against).toBe(CELLS_POSITIVE);
    // better at the large budget only: both ways, the cells named by their entries
    const crossing = claim(BEATS, [lshrr(() => 0.1), bucket('mb16', (c) => (c.xi === 20 ? 0.08 : 0.12))], options);
    expect(crossing.verdict).toBe('mixed');
    expect(crossing.detail).toContain('[lshrr vs mb16]');
  });

  it("reads b from the entry's options, else the unit's default (4 buckets: more than 2)", () => {
    const entries = [lshrr(() => 0.1), bucket('minhash-bucket', () => 0.12)];
    expect(claim(BEATS, entries, { 'minhash-bucket': { accountant: 'paper' } }).cells_tested).toBe(CELLS_POSITIVE);
    expect(claim(BEATS, entries, undefined).cells_tested).toBe(CELLS_POSITIVE);
    // the same entry declared with 2 buckets is no longer a contestant
    expect(claim(BEATS, entries, { 'minhash-bucket': { buckets: 2 } }).detail).toBe('needs a minhash-bucket entry with more than 2 buckets');
  });

  it('pairs equal accountants only, and says what it needs', () => {
    const options = { mb16: { buckets: 16, accountant: 'ldp' } };
    // bucket MinHash's ldp accountant has no LSHRR counterpart
    const ldp = claim(BEATS, [lshrr(() => 0.1), bucket('mb16', () => 0.12, 'ldp')], options);
    expect(ldp.verdict).toBe('not-tested');
    expect(ldp.detail).toBe('needs lshrr and minhash-bucket (b > 2) with the same accountant at the same n, κ, k and ξ > 0');
    // two LSHRR accountants, two bucket ones: each pairs with its own
    const both = claim(BEATS, [lshrr(() => 0.1), lshrr(() => 0.09, 'exact'), bucket('mb16', () => 0.12), bucket('mb16-exact', () => 0.11, 'exact')], {
      mb16: { buckets: 16 },
      'mb16-exact': { buckets: 16 },
    });
    expect(both.cells_tested).toBe(2 * CELLS_POSITIVE);
    expect(both.verdict).toBe('supported');
    expect(claim(BEATS, [bucket('mb16', () => 0.12)], options).detail).toBe('needs an lshrr entry');
    expect(claim(BEATS, [lshrr(() => 0.1)], options).detail).toBe('needs a minhash-bucket entry with more than 2 buckets');
  });

  it('reads supported or contradicted on null data no more often than α allows (Holm in each direction)', () => {
    const runs = 40;
    let decided = 0;
    for (let s = 0; s < runs; s++) {
      const r = claim(BEATS, [lshrr(() => 0.1), bucket('mb16', () => 0.1)], { mb16: { buckets: 16 } }, `null-${s}`);
      if (r.verdict !== 'inconclusive') decided++;
    }
    // each side at most α = 0.05 per run: at most 2·0.05·40 = 4 expected; 9 or more has probability
    // below 0.01 under Binomial(40, 0.1)
    expect(decided).toBeLessThanOrEqual(8);
  });
});

describe(MATCHES, () => {
  const options = { mb2: { buckets: 2, accountant: 'paper' }, mb16: { buckets: 16 } };

  it('is an equivalence over every ξ: supported when b = 2 tracks LSHRR, not when it is beyond the margin', () => {
    const same = claim(MATCHES, [lshrr(() => 0.1), bucket('mb2', () => 0.1), bucket('mb16', () => 0.2)], options);
    expect(same.verdict).toBe('supported');
    expect(same.cells_tested).toBe(CELLS_ALL);
    expect(same.cells_for).toBe(CELLS_ALL);
    expect(same.detail).toContain(`margin ±${BUCKET_TWO_MARGIN}`);
    const off = claim(MATCHES, [lshrr(() => 0.1), bucket('mb2', () => 0.1 + 3 * BUCKET_TWO_MARGIN)], options);
    expect(off.verdict).toBe('contradicted');
    expect(off.cells_against).toBe(CELLS_ALL);
    // one cell in three beyond the margin: the intersection–union test cannot read supported
    const partly = claim(MATCHES, [lshrr(() => 0.1), bucket('mb2', (c) => (c.xi === 20 ? 0.1 + 3 * BUCKET_TWO_MARGIN : 0.1))], options);
    expect(partly.verdict).toBe('mixed');
  });

  it('needs an entry with 2 buckets and an LSHRR entry of its accountant', () => {
    expect(claim(MATCHES, [lshrr(() => 0.1), bucket('mb16', () => 0.1)], options).detail).toBe('needs a minhash-bucket entry with 2 buckets');
    expect(claim(MATCHES, [bucket('mb2', () => 0.1)], options).detail).toBe('needs an lshrr entry');
    const exact = claim(MATCHES, [lshrr(() => 0.1), bucket('mb2', () => 0.1, 'exact')], options);
    expect(exact.detail).toBe('needs lshrr and minhash-bucket (b = 2) with the same accountant at the same n, κ, k and ξ');
  });
});
