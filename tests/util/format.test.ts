import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCount } from '../../src/util/format.js';

// the reference: what Intl writes with en-US grouping and no fraction digits
const INTL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

describe('formatCount', () => {
  it('groups thousands with commas', () => {
    expect([0, 7, 999, 1000, 1260, 4324, 25_000_095, 1e15].map(formatCount)).toEqual(['0', '7', '999', '1,000', '1,260', '4,324', '25,000,095', '1,000,000,000,000,000']);
  });
  it('equals Intl.NumberFormat (en-US, no fraction digits) on integers, fractions, halves and negatives', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.maxSafeInteger(),
          fc.double({ min: -1e12, max: 1e12, noNaN: true }),
          fc.integer().map((i) => i + 0.5),
        ),
        (n) => {
          expect(formatCount(n)).toBe(INTL.format(n));
        },
      ),
      { seed: 20261125, numRuns: 2000 },
    );
  });
  it('writes non-finite values as Intl does', () => {
    for (const n of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});
