/**
 * The ranking of a cell's entries at matched attack success: the observed best (smallest u*) and
 * the entries not significantly worse than it. Each other entry gets a paired one-sided t test
 * against the best (H0: it is not worse), its spread from the shared bootstrap resamples (the same
 * rule as the matched claims', src/claims/matchedCells.ts): Δ = its observed u* minus the best's,
 * SE = the standard deviation of the per-resample Δ times √(m/(m − 1)) (a bootstrap of m trials
 * gives a mean (m − 1)/m of the usual variance), t = Δ/SE on m − 1 degrees of freedom, p = P(T ≥ t)
 * doubled because the best is picked from the same data (two entries of one law would otherwise be
 * ranked apart in 2α of folders); Holm over the other entries of the cell at α. A resample in which
 * either entry meets T at no ξ has no Δ and is left out of the SE. Not the share of resamples on
 * the other side, which this rule once was: its tails are the normal's with the bootstrap's shrunk
 * SE, and two entries of one law were ranked apart in 9% of simulated cells at m = 10 and 17% at
 * m = 5 (α 0.05), where this rule's rate is α (tests/decide/choose.long.test.ts). An `all` entry's u* is an upper bound on its loss at
 * T, so it may rank better, never worse: it is never found worse. `none` entries (no ξ of the grid
 * meets T) are not ranked. With no resamples (m < 2) nothing is tested.
 */
import { holm } from '../stats/holm.js';
import { tCdf } from '../vendor/stdlib.js';
import type { CrossingFlag } from './crossing.js';

export interface Rank {
  /** 'best' (nothing tied), 'tied' (with `tiedWith`), 'worse' (significantly, after Holm), 'unranked' (none), 'untested' (m < 2) */
  kind: 'best' | 'tied' | 'worse' | 'unranked' | 'untested';
  /** 1 for the best and those tied with it, else the position by observed u* (ordering only, untested between them); null when unranked or untested */
  position: number | null;
  /** the labels of the top group (best and tied) other than this entry's, by index into the cell's entries */
  tiedWith: number[];
  /** Holm-adjusted p of "worse than the best" (NaN for the best itself and unranked) */
  p: number;
}

/**
 * The one-sided p of "x is worse than the best", doubled (see above): from the observed Δ and the
 * spread of the per-resample Δ (finite ones only) on m − 1 degrees of freedom.
 */
export function worseP(observedDiff: number, boot: readonly ArrayLike<number>[], x: number, best: number, m: number, scale: number): number {
  let n = 0;
  let sum = 0;
  for (const row of boot) {
    const d = row[x] - row[best];
    if (!Number.isFinite(d)) continue;
    n++;
    sum += d;
  }
  // fewer than 2 resamples with both crossings: nothing to judge the difference by
  if (n < 2) return 1;
  const mean = sum / n;
  let ss = 0;
  for (const row of boot) {
    const d = row[x] - row[best];
    if (Number.isFinite(d)) ss += (d - mean) ** 2;
  }
  const se = Math.sqrt(ss / (n - 1)) * Math.sqrt(m / (m - 1));
  // no spread at all: worse in every resample by the same amount, or not worse
  if (!(se > 1e-12 * Math.max(1, scale))) return observedDiff > 1e-12 * Math.max(1, scale) ? 0 : 1;
  return Math.min(1, 2 * tCdf(-observedDiff / se, m - 1));
}

/**
 * `observed`: per entry its flag and u* (+Infinity for none); `boot[r][x]`: entry x's u* in
 * resample r (+Infinity where that resample has no crossing); `m`: the trials resampled.
 */
export function rankEntries(observed: readonly { flag: CrossingFlag; loss: number }[], boot: readonly ArrayLike<number>[], alpha: number, m: number): Rank[] {
  const ranked = observed.map((_, x) => x).filter((x) => observed[x].flag !== 'none');
  const out: Rank[] = observed.map(() => ({ kind: 'unranked', position: null, tiedWith: [], p: Number.NaN }));
  if (ranked.length === 0) return out;
  if (boot.length === 0) {
    for (const x of ranked) out[x] = { kind: 'untested', position: null, tiedWith: [], p: Number.NaN };
    return out;
  }
  const best = ranked.reduce((a, b) => (observed[b].loss < observed[a].loss ? b : a));
  const others = ranked.filter((x) => x !== best);
  const raw = others.map((x) => worseP(observed[x].loss - observed[best].loss, boot, x, best, m, Math.max(Math.abs(observed[x].loss), Math.abs(observed[best].loss))));
  const h = holm(raw, alpha);
  const worse = new Set(others.filter((x, j) => h.rejected[j] && observed[x].flag !== 'all'));
  const top = ranked.filter((x) => !worse.has(x));
  const byLoss = [...ranked].sort((a, b) => observed[a].loss - observed[b].loss || a - b);
  others.forEach((x, j) => {
    out[x].p = h.adjusted[j];
  });
  for (const x of ranked) {
    const inTop = !worse.has(x);
    out[x] = {
      kind: inTop ? (top.length === 1 ? 'best' : 'tied') : 'worse',
      position: inTop ? 1 : top.length + byLoss.filter((y) => worse.has(y)).indexOf(x) + 1,
      tiedWith: inTop ? top.filter((y) => y !== x) : [],
      p: out[x].p,
    };
  }
  return out;
}
