/**
 * The two-sided law tests of a release-law row (lawRows.ts): a release that is what it declares
 * fails them with probability at most the row's level (`law-mismatch`).
 */
import { binomialLowerP, binomialUpperP } from '../stats/binomial.js';
import { dkwPValue } from './laws.js';
import { chi2TwoSidedP, ksContinuous, pearson, standardLaplaceCdf, standardNormalCdf } from './lawStats.js';
import type { AuditResult, LawDirection } from './types.js';
import type { LawSamples } from './lawSampling.js';
import { epsilonOfKeepRate, keepEpsilonInterval, type Summary } from './lawClaim.js';

/** What a row's tests found (verdicts.ts reads them into the verdict). */
export interface LawFindings {
  violations: string[];
  mismatches: { direction: LawDirection; text: string }[];
}

const num = (x: number): string => (x === Infinity ? '∞' : Number(x.toPrecision(4)).toString());

/** Gaussian and Laplace law tests: the scale two-sided at ratio 1 over every entry, and the shape
 *  (KS of the residuals over their estimated scale, DKW–Massart p-value: conservative with the scale
 *  estimated); each at half the level. */
export function lawTestsContinuous(s: LawSamples, sum: Summary, gaussian: boolean, level: number, found: LawFindings, r: AuditResult): void {
  const df = gaussian ? sum.nAll : 2 * sum.nAll;
  const pScale = chi2TwoSidedP(sum.statAll, df);
  const hat = gaussian ? Math.sqrt(sum.statAll / sum.nAll) : sum.statAll / (2 * sum.nAll);
  const std = new Float64Array(s.count);
  for (let i = 0; i < s.count; i++) std[i] = s.residuals[i] / hat;
  r.law_ks = ksContinuous(std, gaussian ? standardNormalCdf : standardLaplaceCdf);
  const pShape = dkwPValue(r.law_ks, s.count);
  r.p_law = Math.min(1, 2 * Math.min(pScale, pShape));
  let direction: LawDirection | null = null;
  const what = gaussian ? 'σ' : 'scale';
  if (pScale <= level / 2) {
    direction = hat < 1 ? 'riskier' : 'safer';
    found.mismatches.push({ direction, text: `${gaussian ? 'gaussian' : 'laplace'}-law: the residuals' ${what} is ${num(hat)} × the declared (p ${pScale.toPrecision(3)})` });
  }
  if (pShape <= level / 2)
    found.mismatches.push({
      direction: direction ?? 'crossing',
      text: `${gaussian ? 'gaussian' : 'laplace'}-law: the standardized residuals are not ${gaussian ? 'normal' : 'Laplace'} (KS ${r.law_ks.toPrecision(3)}, p ${pShape.toPrecision(3)})`,
    });
}

/** b-ary randomized response law tests: the keep rate over every position against the declared one
 *  (two-sided Clopper–Pearson, half the level), and the replaced symbols uniform over the other
 *  b − 1 by offset and by value (Pearson's χ², a quarter of the level each; b >= 3). */
export function lawTestsSymbols(s: LawSamples, noise: { alphabet: number; keep: number }, level: number, found: LawFindings, r: AuditResult): void {
  const b = noise.alphabet;
  let kept = 0;
  const offsets = new Float64Array(b);
  const values = new Float64Array(b);
  // replaced entries by their clean symbol: each other value expects 1/(b − 1) of them
  const byClean = new Float64Array(b);
  for (let i = 0; i < s.count; i++) {
    const c = s.clean[i];
    const o = s.out[i];
    if (c === o) {
      kept++;
      continue;
    }
    offsets[(o - c + b) % b]++;
    values[o]++;
    byClean[c]++;
  }
  const n = s.count;
  const pKeep = Math.min(1, 2 * Math.min(binomialUpperP(kept, n, noise.keep), binomialLowerP(kept, n, noise.keep)));
  const replaced = n - kept;
  const expectedValues = Float64Array.from(byClean, (c) => (replaced - c) / (b - 1));
  const expectedOffsets = new Float64Array(b);
  for (let k = 1; k < b; k++) expectedOffsets[k] = replaced / (b - 1);
  const off = b >= 3 && replaced > 0 ? pearson(offsets, expectedOffsets) : { stat: 0, df: 0, p: 1 };
  const val = b >= 3 && replaced > 0 ? pearson(values, expectedValues) : { stat: 0, df: 0, p: 1 };
  r.p_law = Math.min(1, 2 * pKeep, 4 * off.p, 4 * val.p);
  let direction: LawDirection | null = null;
  if (pKeep <= level / 2) {
    const [lo, hi] = keepEpsilonInterval(kept, n, b, level);
    const declared = epsilonOfKeepRate(noise.keep, b);
    direction = lo > declared ? 'riskier' : hi < declared ? 'safer' : 'crossing';
    found.mismatches.push({ direction, text: `rr-law: keep rate ${num(kept / n)} on ${n} positions, declared ${num(noise.keep)} (p ${pKeep.toPrecision(3)})` });
  }
  for (const [name, t] of [
    ['offset', off],
    ['value', val],
  ] as const)
    if (t.p <= level / 4)
      found.mismatches.push({
        direction: direction ?? 'crossing',
        text: `rr-law: the replaced symbols are not uniform over the other ${b - 1} by ${name} (χ² ${num(t.stat)}, df ${t.df}, p ${t.p.toPrecision(3)})`,
      });
}
