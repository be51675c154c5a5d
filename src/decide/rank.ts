/**
 * The ranking of a cell's entries at matched attack success. Every pair of ranked entries gets a
 * paired two-sided t test of its difference in u* over the shared bootstrap resamples (the matched
 * claims' test, src/claims/matchedCells.ts: the SE the spread of the per-resample differences times
 * √(m/(m − 1)), m − 1 degrees of freedom), Holm over all K(K − 1)/2 pairs of the cell at α. Two-sided
 * over all pairs because the observed best is picked from the same data: a one-sided test against
 * it, even doubled, ranked entries of one law apart in 10% of tables at K 2 and 35% at K 7
 * (tests/decide/choose.long.test.ts measures this rule at K 2, 3 and 7).
 *
 * x is shown better than y when their pair is rejected with u*_x < u*_y and y is not `all` (an
 * `all` entry's u* is an upper bound on its loss at T: it may rank better, never worse). Then
 * - worse: some entry is shown better than it;
 * - best: nothing is shown better than it, and it is shown better than every other ranked entry;
 * - tied: neither (tiedWith: the ranked entries not shown apart from it);
 * - open: an `all` entry that is not best (unranked: the grid ends before T);
 * - unranked: `none` (no ξ of the grid meets T); untested: no resamples (m < 2).
 */
import { holm } from '../stats/holm.js';
import { tCdf } from '../vendor/stdlib.js';
import { sdOf } from './resample.js';
import type { CrossingFlag } from './crossing.js';

export interface Rank {
  kind: 'best' | 'tied' | 'worse' | 'open' | 'unranked' | 'untested';
  /** 1 for the entries nothing is shown better than (best, tied, open), else the position by observed u* (ordering only, untested between them); null when unranked or untested */
  position: number | null;
  /** for tied and open: the other ranked entries not shown apart from it, by index into the cell's entries */
  tiedWith: number[];
  /** the smallest Holm-adjusted p of a pair in which the other entry's observed u* is smaller (worse iff ≤ α); NaN for the observed best, `all`, unranked and untested */
  p: number;
}

/**
 * The paired t test of u*_x − u*_y (observed `diff`) over the resamples' differences `diffs`: the SE
 * their spread times √(m/(m − 1)), m − 1 degrees of freedom; each tail's p (below: x's u* smaller).
 * Without spread (SE within 1e-12 of `scale`) its limit: 0 on the side the difference lies beyond
 * the tolerance, else 1. Null with fewer than 2 resamples in which both cross. The ranking below and
 * the matched claims (src/claims/matchedCells.ts) both take it.
 */
export function resampledPairedT(diffs: readonly number[], diff: number, m: number, scale: number): { pBelow: number; pAbove: number; zeroVariance: boolean } | null {
  const sd = sdOf(diffs);
  if (Number.isNaN(sd)) return null;
  const se = sd * Math.sqrt(m / (m - 1));
  const tolerance = 1e-12 * Math.max(1, scale);
  if (!(se > tolerance)) {
    const d = Math.abs(diff) > tolerance ? diff : 0;
    return { pBelow: d < 0 ? 0 : 1, pAbove: d > 0 ? 0 : 1, zeroVariance: true };
  }
  const t = diff / se;
  return { pBelow: tCdf(t, m - 1), pAbove: tCdf(-t, m - 1), zeroVariance: false };
}

/**
 * The paired two-sided t test's p of u*_x − u*_y over the resamples (those in which both cross);
 * with no spread its limit (0 where the difference is not 0, else 1); 1 with fewer than 2 resamples
 * in which both cross.
 */
export function pairedP(boot: readonly ArrayLike<number>[], x: number, y: number, diff: number, m: number): number {
  const test = resampledPairedT(
    boot.map((row) => row[x] - row[y]),
    diff,
    m,
    Math.abs(diff),
  );
  return test === null ? 1 : Math.min(1, 2 * Math.min(test.pBelow, test.pAbove));
}

/**
 * `observed`: per entry its flag and u* (+Infinity for none); `boot[r][x]`: entry x's u* in
 * resample r (+Infinity where that resample has no crossing); m: the trials.
 */
export function rankEntries(observed: readonly { flag: CrossingFlag; loss: number }[], boot: readonly ArrayLike<number>[], alpha: number, m: number): Rank[] {
  const ranked = observed.map((_, x) => x).filter((x) => observed[x].flag !== 'none');
  const out: Rank[] = observed.map(() => ({ kind: 'unranked', position: null, tiedWith: [], p: Number.NaN }));
  if (ranked.length === 0) return out;
  if (boot.length === 0 || m < 2) {
    for (const x of ranked) out[x] = { kind: 'untested', position: null, tiedWith: [], p: Number.NaN };
    return out;
  }
  const pairs: [number, number][] = [];
  for (let a = 0; a < ranked.length; a++) for (let b = a + 1; b < ranked.length; b++) pairs.push([ranked[a], ranked[b]]);
  const h = holm(
    pairs.map(([x, y]) => pairedP(boot, x, y, observed[x].loss - observed[y].loss, m)),
    alpha,
  );
  const K = observed.length;
  // better[x][y]: x shown better than y
  const better = Array.from({ length: K }, () => new Array<boolean>(K).fill(false));
  const p = new Array<number>(K).fill(Number.NaN);
  pairs.forEach(([x, y], j) => {
    const [lo, hi] = observed[x].loss < observed[y].loss ? [x, y] : observed[y].loss < observed[x].loss ? [y, x] : [-1, -1];
    if (lo < 0) return;
    if (observed[hi].flag !== 'all') {
      p[hi] = Number.isNaN(p[hi]) ? h.adjusted[j] : Math.min(p[hi], h.adjusted[j]);
      if (h.rejected[j]) better[lo][hi] = true;
    }
  });
  const worse = new Set(ranked.filter((x) => ranked.some((y) => better[y][x])));
  const top = ranked.filter((x) => !worse.has(x));
  const byLoss = [...ranked].sort((a, b) => observed[a].loss - observed[b].loss || a - b);
  for (const x of ranked) {
    if (worse.has(x)) {
      out[x] = { kind: 'worse', position: top.length + byLoss.filter((y) => worse.has(y)).indexOf(x) + 1, tiedWith: [], p: p[x] };
      continue;
    }
    const apart = ranked.filter((y) => y !== x && !better[x][y]);
    const kind = apart.length === 0 ? 'best' : observed[x].flag === 'all' ? 'open' : 'tied';
    out[x] = { kind, position: 1, tiedWith: kind === 'best' ? [] : apart, p: p[x] };
  }
  return out;
}
