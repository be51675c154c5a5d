/**
 * The ranking of a cell's entries at matched attack success: the observed best (smallest u*) and
 * the entries not significantly worse than it. Each other entry gets a paired one-sided test over
 * the shared bootstrap resamples (H0: it is not worse than the best; p = the share of resamples in
 * which its u* is at most the best's, (1 + count)/(B + 1)), doubled because the best is picked from
 * the same data (the test's direction is chosen by the data: two entries of one law would otherwise
 * be ranked apart in 2α of folders), Holm over the other entries of the cell at α. An `all` entry's u* is an upper bound on its loss at T, so it may rank better, never worse:
 * it is never found worse. `none` entries (no ξ of the grid meets T) are not ranked. With no
 * resamples (m < 2) nothing is tested.
 */
import { holm } from '../stats/holm.js';
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
 * `observed`: per entry its flag and u* (+Infinity for none); `boot[r][x]`: entry x's u* in
 * resample r (+Infinity where that resample has no crossing).
 */
export function rankEntries(observed: readonly { flag: CrossingFlag; loss: number }[], boot: readonly ArrayLike<number>[], alpha: number): Rank[] {
  const ranked = observed.map((_, x) => x).filter((x) => observed[x].flag !== 'none');
  const out: Rank[] = observed.map(() => ({ kind: 'unranked', position: null, tiedWith: [], p: Number.NaN }));
  if (ranked.length === 0) return out;
  if (boot.length === 0) {
    for (const x of ranked) out[x] = { kind: 'untested', position: null, tiedWith: [], p: Number.NaN };
    return out;
  }
  const best = ranked.reduce((a, b) => (observed[b].loss < observed[a].loss ? b : a));
  const others = ranked.filter((x) => x !== best);
  const raw = others.map((x) => {
    let notWorse = 0;
    for (const row of boot) if (row[x] <= row[best]) notWorse++;
    return Math.min(1, (2 * (1 + notWorse)) / (boot.length + 1));
  });
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
