/**
 * Small statistics helpers for the Monte Carlo tests of tests/lsh, tests/mechanisms and
 * tests/experiment/trial.test.ts. Tolerances are derived from standard errors, never typed in.
 */
import type { CodeSet } from '../../src/lsh/codes.js';
import { getBit } from '../../src/lsh/codes.js';

/** Standard errors a Monte Carlo estimate may stray at a fixed seed (≈ 1e-6 two-sided per check). */
export const Z = 4.9;

/**
 * Upper critical value of chi-square(df) at the same tail as Z (Wilson–Hilferty: (X/df)^(1/3) is
 * close to N(1 − 2/(9df), 2/(9df))); ample for df >= 3.
 */
export function chiSquareCritical(df: number, z = Z): number {
  const v = 2 / (9 * df);
  return df * (1 - v + z * Math.sqrt(v)) ** 3;
}

/** Pearson's statistic of observed counts against expected counts. */
export function pearson(observed: ArrayLike<number>, expected: ArrayLike<number>): number {
  let x = 0;
  for (let i = 0; i < observed.length; i++) {
    if (expected[i] === 0) {
      if (observed[i] !== 0) return Infinity;
      continue;
    }
    x += (observed[i] - expected[i]) ** 2 / expected[i];
  }
  return x;
}

/**
 * Two-sample homogeneity chi-square over the cells both samples fall in (2 x cells table);
 * returns the statistic and its degrees of freedom (non-empty cells − 1).
 */
export function homogeneity(a: ArrayLike<number>, b: ArrayLike<number>): { stat: number; df: number } {
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    na += a[i];
    nb += b[i];
  }
  let stat = 0;
  let cells = 0;
  for (let i = 0; i < a.length; i++) {
    const t = a[i] + b[i];
    if (t === 0) continue;
    cells++;
    const ea = (t * na) / (na + nb);
    const eb = (t * nb) / (na + nb);
    stat += (a[i] - ea) ** 2 / ea + (b[i] - eb) ** 2 / eb;
  }
  return { stat, df: cells - 1 };
}

/** Binomial standard error of a proportion p estimated from m trials. */
export function binomialSe(p: number, m: number): number {
  return Math.sqrt((p * (1 - p)) / m);
}

/** Rates of 0→1 and 1→0 changes from `before` to `after` over the used bits. */
export function transitionRates(before: CodeSet, after: CodeSet): { up: number; down: number; zeros: number; ones: number } {
  const users = before.codes.length / before.words;
  let zeros = 0;
  let ones = 0;
  let up = 0;
  let down = 0;
  for (let i = 0; i < users; i++) {
    for (let j = 0; j < before.bits; j++) {
      const a = getBit(before, i, j);
      const b = getBit(after, i, j);
      if (a === 0) {
        zeros++;
        up += b;
      } else {
        ones++;
        down += 1 - b;
      }
    }
  }
  return { up: up / zeros, down: down / ones, zeros, ones };
}
