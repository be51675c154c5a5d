/**
 * One release's attack success: a publisher makes one release, whose success varies more than the
 * mean of m trials. From the m per-trial values at ξ*: the normal 90% upper prediction bound and the
 * distribution-free one (the largest value). docs/ATTACKS.md says which a sentence quotes.
 */
import { tQuantile } from '../vendor/stdlib.js';

/** The normal bound's one-sided level. */
export const RELEASE_LEVEL = 0.9;

export interface ReleaseBounds {
  /** mean + t_{0.9, m−1} · sd · √(1 + 1/m): covers a new release with probability 0.9 if the values are normal */
  normal: number;
  /** the largest of the m values: covers a new exchangeable release with probability m/(m + 1) */
  max: number;
  /** m/(m + 1) */
  maxCoverage: number;
}

/** The bounds of m ≥ 2 values; null for fewer (no spread to bound from). */
export function releaseBounds(values: readonly number[]): ReleaseBounds | null {
  const m = values.length;
  if (m < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / m;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (m - 1));
  return {
    normal: mean + tQuantile(RELEASE_LEVEL, m - 1) * sd * Math.sqrt(1 + 1 / m),
    max: Math.max(...values),
    maxCoverage: m / (m + 1),
  };
}
