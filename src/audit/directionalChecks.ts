/**
 * The checks of a directional mechanism (claim.ts `directional`: VMF, Purkayastha, whose angle law
 * is known at a concentration); verdicts.ts has the rules.
 */
import type { Mechanism } from '../mechanisms/types.js';
import { euclideanFromAngular } from '../privacy/distance.js';
import { dkwPValue, hammingLawOfAngle, ksDistance, ksOneSided, ksOneSidedPowerLowerBound, massartPValue } from './laws.js';
import { POWER_TARGET } from './defaults.js';
import type { AuditResult, LawDirection } from './types.js';
import type { BlackBoxFlagged, Context, Findings, Judge, Pilot, Pilots, SampledRow } from './rowTypes.js';
import { lshPairCeiling } from './blackBoxChecks.js';

const num = (x: number): string => Number(x.toPrecision(4)).toString();

/** The distance in the metric a directional mechanism's concentration is private for. */
function metricDistance(metric: 'euclidean' | 'angle', angularDistance: number): number {
  return metric === 'euclidean' ? euclideanFromAngular(angularDistance) : Math.PI * angularDistance;
}

/** The normal quantile of 0.9 (the pilot's mean H taken this many standard errors against the row). */
const Z90 = 1.2815515655446004;

/** VMF, Purkayastha: the accounting, the concentration (one-sided) and the law of the Hamming
 *  distance to the clean code (two-sided, at the declared concentration). */
export function directionalChecks(row: SampledRow, r: AuditResult, ctx: Context, found: Findings, bb: BlackBoxFlagged, pilots: Pilots): Judge {
  const m = row.mechanism;
  const cand = row.candidates[row.chosen];
  const distance = metricDistance(m.concentrationMetric!, cand.pair.distance);
  const n = cand.vectors.n;
  const level = r.level!;
  const N = row.ham.length;
  r.tests = ['concentration', 'angle-law', 'black-box', 'accounting-consistency'];
  const declared = row.eps.epsilon ?? NaN;
  r.loss_sup = declared * distance;
  if (!(Math.abs(r.loss_sup - row.xi) <= 1e-9 * Math.max(1, row.xi))) {
    if (r.loss_sup < row.xi) found.mismatches.push({ direction: 'safer', text: `accounting: c·distance = ${r.loss_sup.toPrecision(6)} < ξ` });
    else found.violations.push(`accounting: c·distance = ${r.loss_sup.toPrecision(6)} > ξ`);
  }
  const laws = new Map<number, Float64Array>();
  const lawAt = (c: number): Float64Array => {
    let law = laws.get(c);
    if (!law) {
      law = hammingLawOfAngle(row.kappa, (t) => m.angleLogDensity!(t, n, c), 2048);
      laws.set(c, law);
    }
    return law;
  };
  const allowed = row.xi / distance;
  const allowedLaw = lawAt(allowed);
  r.parameter = 'concentration';
  r.allowed = allowed;
  // the release: samples of H stochastically smaller than at `allowed` show a higher concentration
  const above = (c: number) => ksOneSided(row.ham, lawAt(c), 0).above;
  r.p_release = massartPValue(above(allowed), N);
  r.realized = concentrationWithMean(row.kappa, m, n, mean(row.ham), allowed);
  r.realized_lb = lowestPassing((c) => massartPValue(above(c), N) > level, allowed);
  if (r.p_release <= level)
    found.violations.push(
      `concentration: the Hamming distances to the clean code sit below their law at the allowed ${num(allowed)} (one-sided KS ${above(allowed).toPrecision(3)}, p ${r.p_release.toPrecision(3)}): concentration >= ${num(r.realized_lb)}`,
    );
  // the law of the declaration, two-sided
  const declaredLaw = Number.isFinite(declared) ? lawAt(declared) : allowedLaw;
  r.law_ks = ksDistance(row.ham, declaredLaw, 0);
  r.p_law = dkwPValue(r.law_ks, N);
  if (r.p_law <= level) {
    const side = ksOneSided(row.ham, declaredLaw, 0);
    const up = massartPValue(side.above, N) <= level;
    const down = massartPValue(side.below, N) <= level;
    const direction: LawDirection = up && down ? 'crossing' : up ? 'riskier' : 'safer';
    found.mismatches.push({
      direction,
      text: `angle law: KS ${r.law_ks.toPrecision(3)}, p ${r.p_law.toPrecision(3)} <= ${level.toPrecision(3)} (realized concentration about ${num(r.realized)}, declared ${num(declared)})`,
    });
  }
  r.epsilon_ceiling = lshPairCeiling(row.kappa, ctx.p(cand.pair.distance), ctx.plan.samples, 0, level);
  // the concentration a pilot realizes, its mean H taken Z90 standard errors against the row
  const realizedIn = (pilot: Pilot) => concentrationWithMean(row.kappa, m, n, pilot.hamMean + (Z90 * pilot.hamSd) / Math.sqrt(pilot.samples), allowed);
  const concFlags = (c: number, samples: number) => ksOneSidedPowerLowerBound(allowedLaw, lawAt(c), samples, level) >= POWER_TARGET;
  return {
    flaggedAt: (pilot, samples, estimate) => (concFlags(realizedIn(pilot), samples) ? { flagged: true, by: 'concentration' } : { flagged: bb(pilot, samples, estimate), by: 'black-box' }),
    // ×f on the concentration the release realizes at ×1
    predict: (factor, samples) => concFlags(factor * realizedIn(pilots.at(1)), samples),
  };
}

function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / Math.max(1, x.length);
}

/** E[H] = κ·E[θ]/π at concentration c (Simpson's rule on the angle's law). */
function meanHamming(kappa: number, m: Mechanism, n: number, c: number, intervals = 2048): number {
  const h = Math.PI / intervals;
  const logs = new Float64Array(intervals + 1);
  let top = -Infinity;
  for (let i = 0; i <= intervals; i++) {
    const v = m.angleLogDensity!(i * h, n, c);
    logs[i] = Number.isNaN(v) ? -Infinity : v;
    if (logs[i] > top) top = logs[i];
  }
  let total = 0;
  let first = 0;
  for (let i = 0; i <= intervals; i++) {
    const w = (i === 0 || i === intervals ? 1 : i % 2 === 1 ? 4 : 2) * Math.exp(logs[i] - top);
    total += w;
    first += w * i * h;
  }
  return (kappa * first) / total / Math.PI;
}

/** The concentration whose E[H] is `target` (E[H] falls as c grows), in [ref/10⁴, ref·10⁴]. */
function concentrationWithMean(kappa: number, m: Mechanism, n: number, target: number, ref: number): number {
  let lo = Math.log(ref) - Math.log(1e4);
  let hi = Math.log(ref) + Math.log(1e4);
  if (meanHamming(kappa, m, n, Math.exp(lo)) <= target) return Math.exp(lo);
  if (meanHamming(kappa, m, n, Math.exp(hi)) >= target) return Math.exp(hi);
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (meanHamming(kappa, m, n, Math.exp(mid)) > target) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/** The smallest c in [ref/10³, ref·10³] with passes(c) (monotone: false below, true above), by
 *  bisection on ln c; 0 when even ref/10³ passes. */
function lowestPassing(passes: (c: number) => boolean, ref: number): number {
  let lo = Math.log(ref) - Math.log(1e3);
  let hi = Math.log(ref) + Math.log(1e3);
  if (passes(Math.exp(lo))) return 0;
  if (!passes(Math.exp(hi))) return Math.exp(hi);
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (passes(Math.exp(mid))) hi = mid;
    else lo = mid;
  }
  return Math.exp(lo);
}
