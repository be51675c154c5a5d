/**
 * The matched claims' level (full tier): LSHRR and LapLSH of the same law (the same mean reid@1 and
 * loss at every ξ, independent draws per family), so every verdict but inconclusive is false.
 * Each false verdict ("supported": LSHRR lower; "contradicted") is reached in at most α of the
 * simulated families plus 3 binomial standard deviations.
 */
import { describe, expect, it } from 'vitest';
import { inputOf, type Entry } from '../helpers/attackClaims.js';
import { datasetContext } from '../../src/claims/evaluate.js';
import { MATCHED_CLAIMS } from '../../src/claims/matched.js';

const FAMILIES = 200;
const ALPHA = 0.05;

const same = (label: string): Entry => ({
  label,
  base: label,
  xis: [0, 1, 5, 20],
  reid: ({ xi }) => 0.002 + 0.002 * xi!,
  loss: ({ xi }) => 0.3 - 0.01 * xi!,
  noise: 0.001,
});

describe('lshrr-beats-laplsh-at-matched-reid on the same law', () => {
  it(`reads supported, and contradicted, each in at most α + 3 SD of ${FAMILIES} families`, () => {
    const claim = MATCHED_CLAIMS.find((c) => c.id === 'lshrr-beats-laplsh-at-matched-reid')!;
    const counts = { supported: 0, contradicted: 0, mixed: 0, inconclusive: 0, 'not-tested': 0 };
    for (let i = 0; i < FAMILIES; i++) {
      const input = inputOf({ dims: [100, 500], kappa: [20, 50], known: [0.5], trials: 10, shared: 0.001, seed: `matched-null-${i}`, entries: [same('lshrr'), same('laplsh')] });
      input.config.decide = { reid1: [0.01], known: 0.5, auc_adv: [], aux: null, k: 10 };
      counts[claim.evaluate(datasetContext(input, 'synth', ALPHA)).verdict]++;
    }
    const bound = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / FAMILIES);
    expect(counts['not-tested']).toBe(0);
    expect(counts.supported / FAMILIES, JSON.stringify(counts)).toBeLessThanOrEqual(bound);
    expect(counts.contradicted / FAMILIES, JSON.stringify(counts)).toBeLessThanOrEqual(bound);
  });
});
